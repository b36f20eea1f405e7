"""How far the first forward leg of a Snaking option may go before its wheel (encodings),
and the last leg's parallelogram.

For an option "forward a, wheel t, forward b", the Front Facing sweeps a parallelogram while
going forward and a sector while wheeling.  The region covered by the sector slid along the
whole first leg, hull(sector, sector + a f), contains both and grows with a, so the largest a
for which it stays clear (or on the table) is a sound bound: a <= that.  It is conservative:
it also asks the sector to be clear at every shorter first leg.  Arcs are circumscribed.
"""

from __future__ import annotations

import math
from collections.abc import Callable

import numpy as np
from shapely.geometry import Point

from constraints.core.limits import FLOAT_NOISE
from constraints.core.scenario import Battlefield
from constraints.geometry.convex import ConvexPiece
from constraints.geometry.plane import rectangle_corners, unit_vector
from constraints.rank_and_file.unit import Unit
from constraints.sat.context import EncodeContext
from constraints.sat.option import Option

ARC_POINTS = 46
STRICT = 1e-7  # inches kept short of a computed contact distance


def _sector_points(unit: Unit, pivot_deg: float, wheel_deg: float) -> np.ndarray:
    """World points whose hull contains the wheel's sector at the start of the first leg."""
    heading = unit.pose.facing_deg + pivot_deg
    left, right = rectangle_corners(unit.pose.centre, heading, unit.width_in, unit.depth_in)[:2]
    if wheel_deg == 0:
        return np.array([left, right] * (ARC_POINTS // 2 + 1))[:ARC_POINTS + 1]
    pivot, outer = (left, right) if wheel_deg > 0 else (right, left)
    radius = unit.width_in
    start = math.atan2(outer[1] - pivot[1], outer[0] - pivot[0])
    step = math.radians(wheel_deg) / (ARC_POINTS - 2)
    grown = radius / math.cos(abs(step) / 2)
    mids = start + step * (np.arange(ARC_POINTS - 2) + 0.5)
    arc = np.stack([pivot[0] + grown * np.cos(mids), pivot[1] + grown * np.sin(mids)], 1)
    end = start + step * (ARC_POINTS - 2)
    tail = [(pivot[0] + radius * math.cos(end), pivot[1] + radius * math.sin(end))]
    return np.vstack([[pivot, outer], arc, tail])


def _sector_hulls(unit: Unit, ways: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Per (pivot, wheel) row of `ways`: the sector's hull points (N, K, 2), its edge normals,
    and the first leg's direction (N, 2), all in world inches."""
    pts = np.array([_sector_points(unit, p, w) for p, w in ways])
    edges = np.roll(pts, -1, axis=1) - pts
    normals = np.stack([edges[..., 1], -edges[..., 0]], axis=-1)
    length = np.hypot(normals[..., 0], normals[..., 1])[..., None]
    normals = np.divide(normals, length, out=np.zeros_like(normals), where=length > 1e-12)
    fwd = np.array([unit_vector(unit.pose.facing_deg + p) for p, _ in ways])
    return pts, normals, fwd


def _projections(points: np.ndarray, axes: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """min and max over points (N, K, 2) along each axis (N, M, 2): two (N, M) arrays."""
    proj = np.einsum("nkd,nmd->nmk", points, axes)
    return proj.min(axis=2), proj.max(axis=2)


def option_ways(ectx: EncodeContext) -> np.ndarray:
    """(pivot, wheel) of every option, (N, 2)."""
    return np.array([(o.pivot_deg, o.wheel_deg) for o in ectx.options]).reshape(-1, 2)


def first_leg_clear(unit: Unit, ways: np.ndarray, pieces: list[ConvexPiece],
                    gap: float, max_leg_in: float = math.inf,
                    check: Callable[[], None] | None = None) -> np.ndarray:
    """Per (pivot, wheel) way, the longest first leg a whose slid sector stays more than `gap`
    from every convex piece (world coordinates): inf when nothing is in the way, -1 when even
    a = 0 fails.

    The slid region S(a) = hull(P, P + a f) only grows with a, and its projection on an axis
    n is [min P.n + a min(0, f.n), max P.n + a max(0, f.n)].  By the separating axis theorem
    S(a) is clear of a convex piece O when some edge normal of P, of O, or the normal of f
    separates them; on each axis that holds for a below a threshold, so the answer is the
    largest threshold over axes, and the smallest over pieces.

    Callers whose first leg never exceeds `max_leg_in` may pass it: a piece further from the
    unit's centre than every sector point can come with that leg (plus the gap) has a
    threshold beyond it, and is skipped (the bound is then inf for it, not that threshold).
    `check` is called before each piece and chunk of ways (a search's limits: it may
    raise).
    """
    pts, normals, fwd = _sector_hulls(unit, ways)
    side = np.stack([fwd[:, 1], -fwd[:, 0]], axis=-1)[:, None, :]
    best = np.full(len(pts), np.inf)
    centre = np.asarray(unit.pose.centre)
    # (A tenth of an inch of room: a band option's centre strays a fraction of a tick.)
    sweep = float(np.hypot(*(pts - centre).reshape(-1, 2).T).max(initial=0.0)) + \
        max_leg_in + 0.1
    for piece in pieces:
        if piece.shape.distance(Point(centre)) > sweep + gap:
            continue  # out of reach of every first leg up to max_leg_in
        fixed = np.asarray([n for n, _ in piece.edge_normals()] + piece.corner_fans())
        for lo in range(0, len(pts), CHUNK):  # thousands of ways: `check` between chunks
            if check is not None:
                check()
            part = slice(lo, lo + CHUNK)
            best[part] = np.minimum(best[part], _piece_limits(
                pts[part], normals[part], fwd[part], side[part], fixed, piece, gap))
    return best


CHUNK = 256  # ways judged at once against a piece


def _piece_limits(pts: np.ndarray, normals: np.ndarray, fwd: np.ndarray, side: np.ndarray,
                  fixed: np.ndarray, piece: ConvexPiece, gap: float) -> np.ndarray:
    """`first_leg_clear` for one piece and some ways: per way, the largest threshold over
    the separating axes."""
    own = np.broadcast_to(fixed, (len(pts),) + fixed.shape)
    axes = np.concatenate([normals, own, side], axis=1)
    p_lo, p_hi = _projections(pts, axes)
    o_lo, o_hi = _projections(np.broadcast_to(piece.vertices, (len(pts),) +
                                              piece.vertices.shape), axes)
    slope = np.einsum("nd,nmd->nm", fwd, axes)
    below = _threshold(o_lo - gap - p_hi, np.maximum(slope, 0.0))
    above = _threshold(p_lo - gap - o_hi, np.maximum(-slope, 0.0))
    return np.asarray(np.maximum(below, above).max(axis=1))


def _threshold(room: np.ndarray, rate: np.ndarray) -> np.ndarray:
    """Largest a with room - a * rate > 0: inf when rate is 0 and room > 0, -1 when none."""
    with np.errstate(divide="ignore", invalid="ignore"):
        limit = np.where(rate > 0, room / rate, np.where(room > 0, np.inf, -1.0))
    return np.where(room > 0, limit, -1.0)


def first_leg_on_table(unit: Unit, ways: np.ndarray, field: Battlefield) -> np.ndarray:
    """Per (pivot, wheel) way, the longest first leg whose slid sector stays on the table."""
    pts, _, fwd = _sector_hulls(unit, ways)
    best = np.full(len(pts), np.inf)
    for n, e in (((-1.0, 0.0), 0.0), ((0.0, -1.0), 0.0), ((1.0, 0.0), field.width_in),
                 ((0.0, 1.0), field.depth_in)):
        reach = pts @ np.asarray(n)
        room = e + FLOAT_NOISE - reach.max(axis=1)
        rate = np.maximum(fwd @ np.asarray(n), 0.0)
        with np.errstate(divide="ignore", invalid="ignore"):
            limit = np.where(rate > 0, room / rate, np.inf)
        best = np.minimum(best, np.where(room >= 0, limit, -1.0))
    return best


def bound_first_leg(ectx: EncodeContext, limits: np.ndarray, clause_id: str) -> None:
    """Post a <= limit per option (rule the option out where even a = 0 fails).  The limit
    is where clearance is lost, so the row keeps a hair (STRICT) short of it."""
    enc = ectx.enc
    for option, limit, lit in zip(ectx.options, limits, enc.option_vars, strict=True):
        spare = option.spare_in
        if limit < 0:
            enc.forbid(option.index, clause_id)
        elif limit < spare:
            enc.affine_row(option.a_map, float(limit) - STRICT, [lit])


def last_leg_vertices(option: Option) -> list[tuple[np.ndarray, np.ndarray]]:
    """The last leg's parallelogram: front before and after it, vertices affine in the centre.

    End front corners are d + fe D/2 -+ re W/2; the post-wheel front is that minus b fe, with
    b affine in d.
    """
    fe = np.asarray(option.end_dir)
    re = np.array([fe[1], -fe[0]])
    bm = np.asarray(option.b_map)
    shift = np.eye(2) - np.outer(fe, bm[:2])
    out = []
    for side in (-1.0, 1.0):
        t_end = fe * option.depth_in / 2 + side * re * option.width_in / 2
        out.append((np.eye(2), t_end))
        out.append((shift, t_end - bm[2] * fe))
    return out


def last_leg_axes(option: Option) -> tuple[tuple[float, float], tuple[float, float]]:
    fe = option.end_dir
    return (float(fe[0]), float(fe[1])), (float(fe[1]), float(-fe[0]))
