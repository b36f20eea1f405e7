"""Sets of end poses as pieces: a sector of front centres (grown by a margin) and an interval
of end facings, and the measures an objective's bound needs of them.

A relaxation of where a move can end (e.g. constraints.rank_and_file.snaking_reach) covers
a box of its parameters with one piece; an objective's bound over every way is its best value
over the pieces (optimizer.search.certify).  Piece k holds:

- front centres: apex[k] + radius[k] x {r u(t) : 0 <= r <= 1, t in [arc_lo, arc_hi]} grown
  by `grow[k]` (a full disc when the arc spans 2 pi; an arc wider than pi is only used as a
  full disc, so every sector is convex);
- end facings within `spread[k]` degrees of `facing[k]`;
- end centres: the front centres plus `back[k]` (the offset at `facing[k]`), grown by
  `back_grow[k]` (how far the offset turns within the spread);
- optionally, a second convex set holding the same front centres (a relaxation may know more
  than a sector): apex[k] + conv(0 and the curves c_i from hull_points[k, i] to [k, i + 1])
  grown by grow[k] + hull_grow[k], where each curve strays from its chord, in any direction
  x, by at most hull_bend[k, i] s (1 - s) at the fraction s along it (an infinite
  hull_grow: no such set).  The measures below use both sets.

Empty pieces (no way in the box) have a negative radius.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

import numpy as np

FULL = 2.0 * np.pi


@dataclass(frozen=True)
class ReachPieces:
    facing: np.ndarray     # (n,) end facing at the box's middle, world degrees
    spread: np.ndarray     # (n,) degrees either side of it
    apex: np.ndarray       # (n, 2) front centres' sector apex, world inches
    radius: np.ndarray     # (n,) sector radius; negative: the piece is empty
    arc_lo: np.ndarray     # (n,) world radians
    arc_hi: np.ndarray     # (n,) world radians, arc_lo <= arc_hi <= arc_lo + 2 pi
    grow: np.ndarray       # (n,) margin around the sector
    back: np.ndarray       # (n, 2) end centre less front centre at `facing`
    back_grow: np.ndarray  # (n,) how far that offset moves within the spread
    hull_points: np.ndarray | None = None  # (n, K, 2) relative to the apex
    hull_bend: np.ndarray | None = None    # (n, K - 1) how far each curve strays
    hull_grow: np.ndarray | None = None    # (n,) the whole set's margin

    def __len__(self) -> int:
        return len(self.radius)

    @property
    def empty(self) -> np.ndarray:
        return self.radius < 0

    def centres(self) -> ReachPieces:
        """The same pieces for end centres: shifted by `back`, grown by `back_grow`."""
        return ReachPieces(self.facing, self.spread, self.apex + self.back, self.radius,
                           self.arc_lo, self.arc_hi, self.grow + self.back_grow,
                           np.zeros_like(self.back), np.zeros_like(self.back_grow),
                           self.hull_points, self.hull_bend, self.hull_grow)


class Relaxation(Protocol):
    """Where a move can end, box by box of its parameters (radians)."""

    weights: np.ndarray  # per parameter, inches per radian: which parameter to split first

    @property
    def max_boxes(self) -> int | None:
        """The boxes a certificate may judge (None: the search's default)."""
        ...

    def initial(self) -> tuple[np.ndarray, np.ndarray]:
        """Boxes (mid points, half widths) covering every way."""
        ...

    def pieces(self, mids: np.ndarray, halves: np.ndarray) -> ReachPieces:
        """Per box, a piece holding the end poses of every way in it."""
        ...

    def tighter_pieces(self, mids: np.ndarray, halves: np.ndarray) -> ReachPieces | None:
        """Per box, a piece inside `pieces`' one, dearer to compute (a certificate asks it
        for the boxes the plain pieces leave open); None where the relaxation has none."""
        ...


def _inside_arc(angle: np.ndarray, pieces: ReachPieces) -> np.ndarray:
    width = pieces.arc_hi - pieces.arc_lo
    return (width >= FULL - 1e-12) | (np.mod(angle - pieces.arc_lo, FULL) <= width)


def _to_segment(q: np.ndarray, angle: np.ndarray, length: np.ndarray) -> np.ndarray:
    """Distance from q (n, 2) to the segments from 0 to length x u(angle)."""
    u = np.stack([np.cos(angle), np.sin(angle)], axis=1)
    t = np.clip((q * u).sum(axis=1), 0.0, np.maximum(length, 0.0))
    return np.hypot(q[:, 0] - t * u[:, 0], q[:, 1] - t * u[:, 1])


def sector_distance(points: np.ndarray, pieces: ReachPieces) -> np.ndarray:
    """Distance from points[k] ((n, 2) or (2,)) to piece k's grown sector (0 inside; inf
    for an empty piece)."""
    q = np.asarray(points, dtype=float) - pieces.apex
    r = pieces.radius
    angle = np.arctan2(q[:, 1], q[:, 0])
    radial = np.maximum(np.hypot(q[:, 0], q[:, 1]) - r, 0.0)
    edges = np.minimum(_to_segment(q, pieces.arc_lo, r), _to_segment(q, pieces.arc_hi, r))
    gap = np.where(_inside_arc(angle, pieces), radial, edges)
    gap = np.maximum(gap - pieces.grow, 0.0)
    if pieces.hull_points is not None:
        gap = np.maximum(gap, _hull_gap(q, angle, pieces))
    return np.where(pieces.empty, np.inf, gap)


def sector_support(directions: np.ndarray, pieces: ReachPieces) -> np.ndarray:
    """The largest x . e over piece k's grown sector for unit e = directions[k] ((n, 2) or
    (2,)); -inf for an empty piece."""
    e = np.broadcast_to(np.asarray(directions, dtype=float), pieces.apex.shape)
    angle = np.arctan2(e[:, 1], e[:, 0])
    along = np.maximum(np.cos(angle - pieces.arc_lo), np.cos(angle - pieces.arc_hi))
    reach = np.where(_inside_arc(angle, pieces), 1.0, np.maximum(along, 0.0))
    value = pieces.radius * reach
    if pieces.hull_points is not None:
        value = np.minimum(value, _hull_support(e, pieces))
    value = value + (pieces.apex * e).sum(axis=1) + pieces.grow
    return np.where(pieces.empty, -np.inf, value)


def _hull_support(e: np.ndarray, pieces: ReachPieces) -> np.ndarray:
    """The hull set's support in unit directions e (n, 2), less the apex's and `grow`: per
    curve the largest A + D s + b s (1 - s) over s in [0, 1] (A, A + D its ends' and b its
    bend), which is an end's unless |D| < b, then A + (D + b)^2 / 4b."""
    assert pieces.hull_points is not None and pieces.hull_bend is not None
    assert pieces.hull_grow is not None
    along = np.einsum("nki,ni->nk", pieces.hull_points, e)
    first, second, bend = along[:, :-1], along[:, 1:], pieces.hull_bend
    rise = second - first
    inner = first + (rise + bend) ** 2 / (4.0 * np.maximum(bend, 1e-300))
    best = np.where(np.abs(rise) >= bend, np.maximum(first, second), inner)
    return np.maximum(best.max(axis=1), 0.0) + pieces.hull_grow


def hull_reach(pieces: ReachPieces) -> np.ndarray:
    """How far the hull set strays from the apex, at most (inf: no hull set)."""
    assert pieces.hull_points is not None and pieces.hull_bend is not None
    assert pieces.hull_grow is not None
    return np.hypot(*np.moveaxis(pieces.hull_points, -1, 0)).max(axis=1) + \
        pieces.hull_bend.max(axis=1) / 4.0 + pieces.hull_grow


HULL_SEARCH = 16  # golden-section steps for the direction that separates a point from the set


def _hull_gap(q: np.ndarray, angle: np.ndarray, pieces: ReachPieces) -> np.ndarray:
    """A lower bound on the distance from apex + q to the hull set: q . x - support(x)
    for unit x, any x giving one (so the search need not find the best to be sound).  The
    best x is within 90 deg of q's direction (the set holds the apex), and q . x -
    support(x) has connected upper level sets there, so a golden-section search on x's
    angle finds it."""
    def gap_at(phi: np.ndarray) -> np.ndarray:
        x = np.stack([np.cos(phi), np.sin(phi)], axis=1)
        return (q * x).sum(axis=1) - _hull_support(x, pieces) - pieces.grow

    golden = (np.sqrt(5.0) - 1.0) / 2.0
    # x's best angle is that of q - x* for x* the set's nearest point, |x*| at most the
    # set's reach: within asin(reach / |q|) of q's angle when q is beyond reach.
    reach = hull_reach(pieces) + pieces.grow
    ratio = reach / np.maximum(np.hypot(q[:, 0], q[:, 1]), 1e-12)
    half = np.where(ratio < 1.0, np.arcsin(np.minimum(ratio, 1.0)), np.pi / 2)
    lo, hi = angle - half, angle + half
    a, b = hi - golden * (hi - lo), lo + golden * (hi - lo)
    ga, gb = gap_at(a), gap_at(b)
    best = np.maximum(np.maximum(ga, gb), gap_at(angle))
    for _ in range(HULL_SEARCH):
        keep_low = ga >= gb  # the best lies in [lo, b]: b becomes a, a new point below it
        hi = np.where(keep_low, b, hi)
        lo = np.where(keep_low, lo, a)
        new = np.where(keep_low, hi - golden * (hi - lo), lo + golden * (hi - lo))
        g_new = gap_at(new)
        a, b = np.where(keep_low, new, b), np.where(keep_low, a, new)
        ga, gb = np.where(keep_low, g_new, gb), np.where(keep_low, ga, g_new)
        best = np.maximum(best, g_new)
    return np.where(np.isfinite(best), np.maximum(best, 0.0), 0.0)


def facing_gap_deg(pieces: ReachPieces, facing_deg: float) -> np.ndarray:
    """The least difference (degrees, 0 to 180) between `facing_deg` and any end facing of
    each piece."""
    off = np.abs(np.mod(pieces.facing - facing_deg + 180.0, 360.0) - 180.0)
    return np.maximum(off - pieces.spread, 0.0)
