"""The budget set of a tighter piece, by levels of what the way's legs pay for (docs/
techniques.md §9, "The budget set by levels"): a star-shaped set within the hull set
(constraints.rank_and_file.snaking_hull), its polygon circumscribed, for the end-position
cut (optimizer.search.end_cut).

The hull set is conv(0, r(t) u(t)), r(t) = left - W Psi(t): a leg at heading t costs the way
W Psi(t) in wheels.  Its hull mixes a long leg at one heading with a leg at another whose
event costs more, each paid only in part.  The snaking_hull argument gives more: a way whose
wheels cost psi-sum P has every leg at a heading t with Psi(t) <= P, and its legs add D in
(left - W P) x conv(0, u(t) : r(t) >= left - W P).  So with radius levels s_0 > s_1 > ... >
s_m = 0, a way with left - W P in (s_(j+1), s_j] adds D in s_j x K_j, K_j = conv(0, u(t) :
r(t) > s_(j+1)); one with left - W P <= 0 or > s_0 has no leg (D = 0).  Between the pieces'
points r is convex (Psi concave there: snaking_hull), so r <= its chord, and {r > s} lies in
the sub-arcs where the chord exceeds s.  Each K_j is made of those sub-arcs, circumscribed.
The union over j is the budget set, grown by the piece's margins like the hull set.
"""

from __future__ import annotations

import numpy as np
import shapely

from constraints.geometry.frame import Frame
from constraints.geometry.pieces import ReachPieces

LEVELS = 96        # radius levels, evenly between the points' least and largest (and theirs)
ARC_SEGS = 2       # chords of each sub-arc (circumscribed: sub-arcs are under 12 deg)
ROOM_IN = 1e-9     # float room beyond the margins


def budget_polygons(pieces: ReachPieces, rows: np.ndarray,
                    frame: Frame) -> tuple[np.ndarray, np.ndarray] | None:
    """Per row, a polygon (frame terms) and its margin: the polygon grown by the margin holds
    the piece's budget set (the module docstring).  None without hull sets; a missing
    polygon (None) where a row has none."""
    if pieces.hull_points is None or pieces.hull_grow is None:
        return None
    out = np.full(len(rows), None, dtype=object)
    margin = pieces.grow[rows] + pieces.hull_grow[rows]
    for n, k in enumerate(rows):
        if not np.isfinite(margin[n]):
            continue
        points = pieces.hull_points[k]
        polygon = budget_polygon(np.hypot(points[:, 0], points[:, 1]),
                                 np.unwrap(np.arctan2(points[:, 1], points[:, 0])))
        out[n] = shapely.transform(polygon, lambda xy, a=pieces.apex[k]: frame.point_array(xy + a))
    return out, np.where(np.isfinite(margin), margin, 0.0) + ROOM_IN


def budget_polygon(radius: np.ndarray, angle: np.ndarray,
                   levels: int = LEVELS) -> shapely.Geometry:
    """The budget set about the origin of the curve through the points r_i u(t_i) (t rising,
    each step under pi / 4): the union over the levels of s_j x K_j (the module
    docstring)."""
    top = float(radius.max(initial=0.0))
    if top <= 0.0:
        return shapely.Point(0.0, 0.0).buffer(ROOM_IN)
    # Below the least point's radius every sub-arc is whole: levels only above it (and 0).
    held = radius[radius > 0]
    cuts = np.unique(np.concatenate([held, np.linspace(held.min(), top, levels), [0.0]]))[::-1]
    scale, below = cuts[:-1, None], cuts[1:, None]  # (levels, 1) against the steps
    arcs, keep = _sub_arcs(radius, angle, below)
    points = _fan(arcs, scale)  # (levels, steps, k, 2)
    level = np.broadcast_to(np.arange(len(scale))[:, None, None], points.shape[:3])
    coords = np.concatenate([np.zeros((len(scale), 2)), points[keep].reshape(-1, 2)])
    index = np.concatenate([np.arange(len(scale)), level[keep].reshape(-1)])
    order = np.argsort(index, kind="stable")  # (the parts' points in order of their part)
    fans = shapely.multipoints(coords[order], indices=index[order])
    return shapely.union_all(shapely.convex_hull(fans))


def _sub_arcs(radius: np.ndarray, angle: np.ndarray,
              level: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Per level (rows of `level`, shaped (n, 1)) and step: (lo, hi, chord at lo, chord at
    hi) of the sub-arc of the step where the chord of r exceeds the level (or meets it: a
    superset), and whether the step has one."""
    a, b = radius[None, :-1], radius[None, 1:]
    ta, span = angle[None, :-1], np.diff(angle)[None, :]
    keep = np.maximum(a, b) > level
    # The chord falls from a to b: above `level` up to the fraction (a - level) / (a - b).
    falls = np.where(a > b, np.clip((a - level) / np.where(a > b, a - b, 1.0), 0.0, 1.0), 1.0)
    rises = np.where(b > a, np.clip((b - level) / np.where(b > a, b - a, 1.0), 0.0, 1.0), 1.0)
    whole = (a > level) & (b > level)
    start = np.where(whole | (b <= a), 0.0, 1.0 - rises)   # fractions of the step
    end = np.where(whole | (a <= b), 1.0, falls)
    arcs = np.stack(np.broadcast_arrays(ta + start * span, ta + end * span,
                                        a + start * (b - a), a + end * (b - a)), axis=-1)
    return arcs, keep


def _fan(arcs: np.ndarray, scale: np.ndarray) -> np.ndarray:
    """Points whose hull with 0 holds conv(0, min(scale, chord(t)) u(t) over each sub-arc),
    circumscribed: each sub-arc cut in ARC_SEGS pieces, each pushed out to the larger radius
    of its ends (the chord is linear in t, and so its least with `scale` is largest at an
    end) over the cosine of half its angle.  Shaped (..., 2 ARC_SEGS, 2)."""
    cuts = np.linspace(0.0, 1.0, ARC_SEGS + 1)
    angles = arcs[..., :1] + (arcs[..., 1:2] - arcs[..., :1]) * cuts
    radii = np.minimum(arcs[..., 2:3] + (arcs[..., 3:4] - arcs[..., 2:3]) * cuts,
                       scale[..., None])
    far = np.maximum(radii[..., :-1], radii[..., 1:]) / np.cos(np.diff(angles, axis=-1) / 2.0)
    ends = np.stack([angles[..., :-1], angles[..., 1:]], axis=-1)  # (..., segs, 2)
    xy = far[..., None, None] * np.stack([np.cos(ends), np.sin(ends)], axis=-1)
    return xy.reshape(xy.shape[:-3] + (2 * ARC_SEGS, 2))
