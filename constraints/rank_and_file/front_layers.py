"""The pieces of the front's reach by heading (constraints.rank_and_file.front_reach): the
heading bands, the barred cells of each band and the step's stencils (docs/techniques.md §9,
"The front's reach by heading").

All in the unit's start frame (origin at the start centre, x right, y forwards): a heading
alpha (radians) points along u(alpha) = (cos alpha, sin alpha), the start facing is pi/2.  A
raster of square cells of side g covers [-H, H]^2; cell (ix, iy) is the closed square
[-H + ix g, -H + (ix + 1) g] x [-H + iy g, ...], and arrays are indexed [iy, ix].
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
import shapely
import shapely.affinity

from constraints.rank_and_file.snaking_reach import MarchReach, SnakingShape

ARC_SEGMENTS = 6     # chords of a piece's arc (circumscribed)
BUFFER_SEGS = 8      # quarter-circle segments of an obstacle's grown outline
ROOM_IN = 1e-6       # float room: barred only this far inside the proof's limit
FFT_SMOOTH = (2, 3, 5)  # the prime factors of fast transforms' sizes


@dataclass(frozen=True)
class Bands:
    """Closed heading bands [lo_k, hi_k] of equal width covering the headings a way may take:
    the window about pi/2 (a March) or the whole circle (cyclic: an Advance, whose free
    Pivot may face anywhere)."""

    lo: float      # the first band's low end
    width: float   # each band's width (radians)
    count: int
    cyclic: bool

    @classmethod
    def of(cls, window: float | None, most: float) -> Bands:
        """Bands at most `most` wide over the window either side of pi/2 (None or at least
        pi: the whole circle)."""
        if window is None or window >= math.pi:
            count = max(1, math.ceil(2.0 * math.pi / most - 1e-9))
            return cls(0.0, 2.0 * math.pi / count, count, True)
        count = max(1, math.ceil(2.0 * window / most - 1e-9))
        return cls(math.pi / 2.0 - window, 2.0 * window / count, count, False)

    def mid(self, k: int) -> float:
        return self.lo + (k + 0.5) * self.width

    def touching(self, low: float, high: float) -> list[int]:
        """Every band whose closed interval meets [low, high] (low <= high, radians)."""
        if self.width <= 0.0:  # a March with no window: its one heading, one band
            return [0]
        if self.cyclic:
            if high - low >= 2.0 * math.pi - self.width:
                return list(range(self.count))
            first = math.floor((low - self.lo) / self.width - 1e-9)
            last = math.floor((high - self.lo) / self.width + 1e-9)
            return sorted({k % self.count for k in range(first, last + 1)})
        first = max(math.floor((low - self.lo) / self.width - 1e-9), 0)
        last = min(math.floor((high - self.lo) / self.width + 1e-9), self.count - 1)
        return list(range(first, last + 1))

    def moves(self, turn: float) -> list[tuple[int, int, int]]:
        """(k, j, m): a step that starts at a heading of band k and turns by at most `turn`
        in all may end in band j = k + m (mod the count, cyclic): the bands' gap, (|m| - 1)
        widths, is at most `turn`."""
        out = []
        if self.width <= 0.0:  # one band of one heading: no step leaves it
            return [(k, k, 0) for k in range(self.count)]
        reach = math.ceil(turn / self.width) + 1
        for k in range(self.count):
            for m in range(-reach, reach + 1):
                j = k + m
                if self.cyclic:
                    if abs(m) * 2 > self.count:  # the other way round is the shorter
                        continue
                elif not 0 <= j < self.count:
                    continue
                if max(abs(m) - 1, 0) * self.width <= turn:
                    out.append((k, j % self.count, m))
        return out


def snaking_region(width: float, depth: float, budget: float, window: float, low: float,
                   high: float, box: float, slope: float = 0.0) -> shapely.Geometry:
    """Where F can be (start centre at the origin facing pi/2, F starting at (0, D/2)) after
    a stretch of cost at most `budget` whose headings stay within `window` of the start's
    and which ends at pi/2 + t, t in [low, high]: the Snaking relaxation
    (constraints.rank_and_file.snaking_reach) with the linear psi(x) = slope x, the union of
    its pieces over boxes of (h, p, q) at most `box` wide covering every such way.  With
    slope = psi(R) / R it charges a wheel W c(R) / R per radian, which every stretch of a
    wheel of at most R costs (its cost spread evenly over its angle x is W c(x) / x, and
    c(x) / x falls with x: c concave, c(0) = 0): so a stretch that starts or ends inside a
    wheel is a way of that relaxation too (slope 0, rho per radian, is looser)."""
    shape = SnakingShape((0.0, 0.0), 90.0, width, depth, budget, math.degrees(window),
                         _LinearPsi(slope))
    axes = [_cells(low, high, box), _cells(-window, min(0.0, high), box),
            _cells(max(0.0, low), window, box)]
    grid = np.meshgrid(*(a[0] for a in axes), indexing="ij")
    halves = np.meshgrid(*(a[1] for a in axes), indexing="ij")
    mids = np.stack([g.ravel() for g in grid], axis=1)
    half = np.stack([g.ravel() for g in halves], axis=1)
    pieces = MarchReach(shape).pieces(mids, half)
    keep = ~pieces.empty
    if not keep.any():
        return shapely.Polygon()
    polygons = _sector_polygons(pieces.apex[keep], pieces.radius[keep], pieces.arc_lo[keep],
                                pieces.arc_hi[keep])
    grown = shapely.buffer(polygons, pieces.grow[keep] / math.cos(math.pi / (4 * BUFFER_SEGS))
                           + ROOM_IN, quad_segs=BUFFER_SEGS)
    return shapely.union_all(grown)


def stretch_slope(psi: Callable[[np.ndarray], np.ndarray], most: float = math.pi / 2.0) -> float:
    """kappa = psi(R) / R: every stretch of a wheel of at most R costs rho + W kappa per
    radian or more (`snaking_region`)."""
    return max(0.0, float(psi(np.array(most))) / most)


@dataclass(frozen=True)
class _LinearPsi:
    """psi(x) = slope x: a wheel's part charged per radian alike (linear, so additive)."""

    slope: float

    def __call__(self, x: np.ndarray) -> np.ndarray:
        return self.slope * np.asarray(x, dtype=float)


def _cells(lo: float, hi: float, box: float) -> tuple[np.ndarray, np.ndarray]:
    """Mid points and half widths of equal cells of at most `box` covering [lo, hi]."""
    count = max(1, math.ceil((hi - lo) / box - 1e-9))
    half = (hi - lo) / count / 2.0
    return lo + half * (2 * np.arange(count) + 1), np.full(count, half)


def _sector_polygons(apex: np.ndarray, radius: np.ndarray, lo: np.ndarray,
                     hi: np.ndarray) -> np.ndarray:
    """Convex polygons holding each sector (apex, radius, arc [lo, hi]; a full disc's
    polygon past pi): the apex and the arc's circumscribed chords."""
    full = (hi - lo) > math.pi
    lo = np.where(full, 0.0, lo)
    hi = np.where(full, 2.0 * math.pi, hi)
    step = (hi - lo) / ARC_SEGMENTS
    far = np.maximum(radius, 0.0) / np.cos(step / 2.0)
    angles = lo[:, None] + step[:, None] * np.arange(ARC_SEGMENTS + 1)[None]
    arc = apex[:, None, :] + far[:, None, None] * np.stack([np.cos(angles),
                                                            np.sin(angles)], axis=-1)
    first = np.where(full[:, None], arc[:, 0, :], apex)
    return shapely.polygons(np.concatenate([first[:, None, :], arc], axis=1))


def barred(obstacles: list[np.ndarray], heading: float, rho: float,
           limits: float | list[float], xs: np.ndarray, ys: np.ndarray) -> np.ndarray:
    """Per cell centre (xs, ys), whether the front segment of half-width rho centred there at
    `heading` comes within its limit of an obstacle: it lies in one of `barred_hulls`."""
    out = np.zeros(xs.shape, dtype=bool)
    for hull in barred_hulls(obstacles, heading, rho, limits):
        x0, y0, x1, y1 = hull.bounds
        near = (xs >= x0) & (xs <= x1) & (ys >= y0) & (ys <= y1)
        if near.any():
            shapely.prepare(hull)
            out[near] |= shapely.contains_xy(hull, xs[near], ys[near])
    return out


def barred_hulls(obstacles: list[np.ndarray], heading: float, rho: float,
                 limits: float | list[float]) -> list[shapely.Polygon]:
    """Convex polygons of the centres where the front segment of half-width rho at `heading`
    comes within its limit of an obstacle, given as convex pieces (vertex arrays) with a limit
    each (or one for all): a piece grown by its limit (inscribed: convex still; a negative
    limit shrinks it exactly, its edges moved in: the segment then reaches that deep inside)
    plus the segment, which for a convex set is the hull of it moved to both ends."""
    side = rho * np.array([math.sin(heading), -math.cos(heading)])
    each = [limits] * len(obstacles) if isinstance(limits, int | float) else limits
    hulls = []
    for vertices, limit in zip(obstacles, each, strict=True):
        piece = shapely.Polygon(vertices)
        grown = piece.buffer(limit * math.cos(math.pi / (4 * BUFFER_SEGS)),
                             quad_segs=BUFFER_SEGS) if limit > 0 else \
            piece.buffer(limit, join_style="mitre") if limit < 0 else piece
        if grown.is_empty or grown.geom_type != "Polygon":
            continue
        ring = np.asarray(grown.exterior.coords)
        hulls.append(shapely.MultiPoint(np.vstack([ring + side, ring - side])).convex_hull)
    return hulls


def rings(geometry: shapely.Geometry) -> list[shapely.LineString]:
    """Every ring, outer and inner, of a geometry's polygons."""
    out = []
    for part in shapely.get_parts(geometry):
        if part.geom_type == "Polygon" and not part.is_empty:
            out.append(part.exterior)
            out.extend(part.interiors)
    return out


def runs_to_boxes(mask: np.ndarray, x0: float, y0: float, cell: float,
                  grow: float) -> shapely.Geometry:
    """The union of the closed cells of `mask` (indexed [iy, ix] from the corner (x0, y0)),
    each row's runs as boxes grown by `grow` on every side."""
    padded = np.pad(mask, ((0, 0), (1, 1))).astype(np.int8)
    edges = np.diff(padded, axis=1)
    rows_on, start = np.nonzero(edges == 1)
    _, stop = np.nonzero(edges == -1)
    if not len(start):
        return shapely.Polygon()
    boxes = shapely.box(x0 + start * cell - grow, y0 + rows_on * cell - grow,
                        x0 + stop * cell + grow, y0 + (rows_on + 1) * cell + grow)
    return shapely.union_all(boxes)


@dataclass(frozen=True)
class Resolution:
    """How finely a reach follows the heading: bands at most `band_deg` wide, and steps that
    turn by `turn_deg` at most (a step's cost follows; the raster's cells are the same)."""

    band_deg: float
    turn_deg: float
    max_size: int | None = None  # the widest window of a step's transforms (None: any)


# Bands of 5 deg and steps of up to 20 deg: a step may turn past a corner that the front's
# end sweeps (bench_random 113: 15 deg between two clear states, the arc 0.045" from a
# corner).  The fine reach, bands of 1 deg and steps of 5 (0.33" for a 6" front), keeps
# 113's front behind that corner; its 3x more steps each add a cell of rounding, so it is
# kept within the coarse one, and made only for a unit boxed in: its live cells within a
# window of 96 cells (benchmarks/README.md, issue 31 sixth session).
COARSE = Resolution(5.0, 20.0)
FINE = Resolution(1.0, 5.0, 96)  # (its 1,900 transforms on 96 x 96: 140 MB; wider, not made)


def smooth(n: int) -> int:
    """The least 2-3-5-smooth size at least n (fast transforms)."""
    while True:
        m = n
        for p in FFT_SMOOTH:
            while m % p == 0:
                m //= p
        if m == 1:
            return n
        n += 1
