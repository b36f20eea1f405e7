"""CP-SAT encoding of "more than `gap` from a convex obstacle" by separating axes.

A convex moving shape is more than `gap` from a convex obstacle O exactly when it misses O
grown by a disc of radius `gap`.  That grown shape is replaced by a circumscribed polygon: the
edges of O pushed out by `gap`, plus, at each corner of O, a fan of edges every 7.5 deg
(ConvexPiece.corner_fans), so the test is sound and gives up at most gap (1/cos 3.75 deg - 1),
about 0.002" at 1".  Between two convex polygons the separating axes are the edge normals of
both: the obstacle's (edges and fans) are shared by every option; the moving shape's own depend
on its facing, so they are per option.  Each (axis, side) gets a Boolean enforcing linear
rows; an option's Boolean implies their OR.  Strictness ("more than") is kept by a margin above
the checker's float allowance (constraints.limits).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import shapely

from constraints.core.limits import FLOAT_NOISE
from constraints.geometry.convex import ConvexPiece
from constraints.geometry.plane import unit_vector
from constraints.sat.context import EncodeContext

STRICT_IN = 2 * FLOAT_NOISE  # rows keep this much beyond the limit so "more than" holds
# An option's centre stays within this many ticks of its region of centres (a straight
# option's band strays about 0.7 tick off its line).
REGION_ROOM_TICKS = 2.0

Affine = tuple[np.ndarray, np.ndarray]  # vertex = M @ d + t, frame inches


def unique_axes(piece: ConvexPiece) -> list[tuple[float, float]]:
    axes: list[tuple[float, float]] = []
    for n, _ in piece.edge_normals():
        if not any(abs(n[0] * a[1] - n[1] * a[0]) < 1e-12 for a in axes):
            axes.append(n)
    return axes


def near_options(ectx: EncodeContext, regions: Sequence[shapely.Geometry],
                 reach_in: float) -> list[list[int]]:
    """For each obstacle piece, the options whose `regions` (grown by `reach_in`) come near."""
    shapes = np.array([p.shape for p in ectx.obstacles], dtype=object)
    if not len(shapes):
        return []
    every = np.asarray(regions, dtype=object)
    dist = np.empty((len(every), len(shapes)))
    for lo in range(0, len(every), NEAR_CHUNK):  # thousands of options: look at the limits
        ectx.check_time()
        dist[lo:lo + NEAR_CHUNK] = shapely.distance(every[lo:lo + NEAR_CHUNK, None],
                                                    shapes[None, :])
    return [list(np.nonzero(dist[:, p] <= reach_in)[0]) for p in range(len(shapes))]


NEAR_CHUNK = 512  # options measured at once in `near_options`


def obstacle_axes(piece: ConvexPiece) -> list[tuple[tuple[float, float], tuple[float, ...]]]:
    """(axis, sides to test) of the obstacle: its edge normals both ways, its corner fans
    outwards only."""
    return [(n, (1.0, -1.0)) for n in unique_axes(piece)] + \
        [(n, (1.0,)) for n in piece.corner_fans()]


def shared_corner_axes(ectx: EncodeContext, piece: ConvexPiece, gap: float) -> list[Any]:
    """Booleans for 'all end corners beyond the obstacle along one of its axes'."""
    enc, found = ectx.enc, []
    for n, signs in obstacle_axes(piece):
        lo, hi = piece.support(n)
        for sign in signs:
            beyond = hi if sign > 0 else -lo
            side = enc.sat_model.new_bool_var(f"clear_{piece.label}_axis")
            for c in range(4):
                enc.corner_row(c, (-sign * n[0], -sign * n[1]), -(beyond + gap + STRICT_IN),
                               [side])
            found.append(side)
    return found


def own_rectangle_axes(ectx: EncodeContext, option: int, piece: ConvexPiece,
                       gap: float) -> list[Any]:
    """Booleans for 'obstacle beyond the end rectangle along the rectangle's own axes'."""
    enc, opt = ectx.enc, ectx.options[option]
    # Each row is also enforced by the option's own literal (the OR of these Booleans only
    # binds when the option is chosen): the encoding then knows whether the option is a band
    # and posts the row once, not once for band options and once for the rest.
    mine = enc.option_vars[option]
    f = unit_vector(opt.frame_facing_deg)
    r = (f[1], -f[0])
    found = []
    for axis, half in ((f, opt.depth_in / 2), (r, opt.width_in / 2)):
        lo, hi = piece.support(axis)
        ahead = enc.sat_model.new_bool_var(f"clear_{piece.label}_o{option}")
        enc.centre_row(axis, lo - half - gap - STRICT_IN, [ahead, mine])
        behind = enc.sat_model.new_bool_var(f"clear_{piece.label}_o{option}")
        enc.centre_row((-axis[0], -axis[1]), -(hi + half + gap + STRICT_IN), [behind, mine])
        found += [ahead, behind]
    return found


def affine_polygon_axes(ectx: EncodeContext, option: int, vertices: Sequence[Affine],
                        own_axes: Sequence[tuple[float, float]], piece: ConvexPiece,
                        gap: float) -> list[Any] | None:
    """Booleans for separating a polygon whose vertices are affine in the centre, on its
    own axes and the obstacle's (edges and corner fans); None when one axis separates at
    every centre the option allows (nothing to post).

    Only axes that can separate somewhere in the option's region of centres get a Boolean:
    a row linear in the centre is least at a vertex of that (convex) region, so an axis with
    a row above its bound at every vertex is false wherever the option's own rows hold, and
    leaving it out changes nothing (most corner fans face away from the option)."""
    enc = ectx.enc
    axes = [(a, (1.0, -1.0)) for a in own_axes] + obstacle_axes(piece)
    # One row per (axis, side) and polygon vertex: coef . d <= rhs, all at once in numpy.
    normals = np.array([n for n, signs in axes for _ in signs])              # (S, 2)
    signs = np.array([sign for _, ss in axes for sign in ss])                  # (S,)
    proj = piece.vertices @ normals.T                                          # (V, S)
    beyond = np.where(signs > 0, proj.max(axis=0), -proj.min(axis=0))
    m = np.array([mt[0] for mt in vertices])                                   # (P, 2, 2)
    t = np.array([mt[1] for mt in vertices])                                   # (P, 2)
    coef = -signs[:, None, None] * np.einsum("sk,pkl->spl", normals, m)        # (S, P, 2)
    rhs = (-(beyond + gap + STRICT_IN))[:, None] + signs[:, None] * (normals @ t.T)  # (S, P)
    corners = np.asarray(shapely.get_coordinates(ectx.centre_regions[option]))
    values = np.einsum("spl,cl->spc", coef, corners)                           # (S, P, C)
    room = REGION_ROOM_TICKS * enc.tick * np.abs(coef).sum(axis=2)             # (S, P)
    never = (values.min(axis=2) - room > rhs).any(axis=1)   # some row fails everywhere
    always = (values.max(axis=2) + room <= rhs).all(axis=1)  # every row holds everywhere
    if always.any():
        return None  # separated whatever the centre
    found, mine = [], enc.option_vars[option]  # rows enforced by it too: see own_rectangle_axes
    for k in np.flatnonzero(~never):
        side = enc.sat_model.new_bool_var(f"sweep_{piece.label}_o{option}")
        for c, r in zip(coef[k], rhs[k], strict=True):
            enc.centre_row((float(c[0]), float(c[1])), float(r), [side, mine])
        found.append(side)
    return found
