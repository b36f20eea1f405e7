"""The geometry of the whfb7 batch mask (constraints.whfb7.masks): a wheel's area as cells
of the first leg's length sorted into clear, blocked and undecided; distances from segments of
centres to convex polygons (an obstacle piece's Minkowski difference with the unit's
rectangle); the overhang of rectangles and bounds past the table edge."""

from __future__ import annotations

import math
from functools import cached_property
from typing import Any

import numpy as np
import shapely
from shapely.geometry import Polygon

from constraints.geometry.plane import Point, rotate_about
from constraints.geometry.wheel import ARC_STEP_DEG
from constraints.rank_and_file.sweeps import arc_points, monotone_pieces
from constraints.rank_and_file.unit import Unit
from constraints.rank_and_file.ways import Ways

# How far a vectorised measure may differ from the checker's on the same move (float noise
# in the shapes each builds): a measure this close to its limit is left to the checker.
DISAGREE_IN = 1e-8
FIRST_HALF_IN = 0.25   # half-width of the wheel's first cells of a
LAST_HALF_IN = 5e-7    # cells no wider than twice this that stay undecided go to the checker
CLEAR, BLOCKED, UNDECIDED = 1, 0, -1
# A piece of an edge a few ulps long (the foot of the perpendicular on a corner) sweeps a
# sliver along its corner's arc, which the corner's other piece covers: left out (the
# checker's own sliver is a self-intersecting ring it makes valid).
SLIVER_IN = 1e-9


class WheelSweep:
    """A wheel's area at a = 0 (the checker's own shape, `wheel_area`, world), moved by a f
    with a in [0, a_most]: built only where a cheap superset of it (the hull of the corners'
    arcs drawn outside their circles, grown by the checker's own arcs' overshoot) comes near
    the table's edge or an obstacle piece, as it takes a few hundredths of a second."""

    COARSE_STEP_DEG = 5.0

    def __init__(self, start: Unit, wheel_deg: float, a_most: float,
                 pieces: list[np.ndarray], limit: float) -> None:
        self.corners = start.corners()
        self.pivot = self.corners[0] if wheel_deg > 0 else self.corners[1]
        self.wheel_deg, self.a_most, self.pieces, self.limit = wheel_deg, a_most, pieces, limit
        heading = math.radians(start.pose.facing_deg)
        self.f = np.array([math.cos(heading), math.sin(heading)])
        radius = max(math.dist(c, self.pivot) for c in self.corners)
        # The checker's arcs (ARC_STEP_DEG) reach this far outside their circles at most.
        self.allow = radius * (1.0 / math.cos(math.radians(ARC_STEP_DEG) / 2.0) - 1.0) + 1e-9
        self.hull = _arc_hull(self.corners, self.pivot, wheel_deg, self.COARSE_STEP_DEG)
        self._cells: dict[int, tuple[np.ndarray, np.ndarray]] = {}

    @cached_property
    def exact(self) -> list[shapely.Geometry]:
        """The parts whose union is the checker's `wheel_area` (the rectangle before and
        after, and what each edge sweeps), each built as the checker builds it but made
        valid only where it is not (the union and make_valid are most of the checker's
        time; the distance to a union is the least distance to its parts)."""
        corners, pivot, angle = self.corners, self.pivot, self.wheel_deg
        parts = [Polygon(corners), Polygon([rotate_about(c, pivot, angle) for c in corners])]
        steps = max(1, math.ceil(abs(angle) / ARC_STEP_DEG))
        for a, b in zip(corners, corners[1:] + corners[:1], strict=True):
            for near, far in monotone_pieces(a, b, pivot, SLIVER_IN):
                inner = arc_points(near, pivot, angle, steps, False)[::-1] \
                    if math.dist(near, pivot) > 0.0 else np.zeros((0, 2))
                ring = np.vstack([[near, far], arc_points(far, pivot, angle, steps, True), inner])
                part = shapely.polygons(ring)
                parts.append(part if shapely.is_valid(part) else shapely.make_valid(part))
        return parts

    @cached_property
    def exact_bounds(self) -> np.ndarray:
        bounds = shapely.bounds(np.array(self.exact, dtype=object))
        return np.concatenate([bounds[:, :2].min(axis=0), bounds[:, 2:].max(axis=0)])

    def overhang(self, a: np.ndarray, table: Any) -> np.ndarray:
        """How far the area moved by each a f reaches past the table (negative inside): the
        superset's, where it is well inside, else the exact shape's."""
        shift = np.tile(a[:, None] * self.f, 2)
        over = _bounds_overhang(np.asarray(self.hull.bounds)[None, :] + shift, table) + \
            self.allow
        close = over > -DISAGREE_IN
        if close.any():
            over[close] = _bounds_overhang(self.exact_bounds[None, :]
                                           + shift[close], table)
        return over

    def cells(self, j: int) -> tuple[np.ndarray, np.ndarray]:
        """wheel_cells against piece j: all CLEAR where the superset, swept over every a,
        stays clear of it."""
        if j not in self._cells:
            piece = self.pieces[j]
            outline = np.asarray(self.hull.exterior.coords)
            swept = shapely.MultiPoint(np.vstack([outline, outline + self.a_most * self.f]))
            if shapely.distance(swept.convex_hull, Polygon(piece)) > \
                    self.limit + DISAGREE_IN + self.allow:
                self._cells[j] = (np.array([0.0]), np.array([CLEAR], dtype=np.int8))
            else:
                self._cells[j] = wheel_cells(self.exact, self.f, piece, self.a_most,
                                             self.limit)
        return self._cells[j]


def _arc_hull(corners: tuple[Point, ...], pivot: Point, wheel_deg: float,
              step_deg: float) -> Polygon:
    """The convex hull of the rectangle's corners turned by every angle from 0 to
    `wheel_deg` about `pivot`: each corner's arc drawn outside its circle (tangent edges)."""
    steps = max(1, math.ceil(abs(wheel_deg) / step_deg))
    step = math.radians(wheel_deg) / steps
    points = []
    for c in corners:
        radius = math.dist(c, pivot)
        start = math.atan2(c[1] - pivot[1], c[0] - pivot[0])
        grown = radius / math.cos(abs(step) / 2.0)
        mids = start + step * (np.arange(steps) + 0.5)
        ends = start + step * np.array([0.0, steps])
        points += [np.stack([pivot[0] + grown * np.cos(mids),
                             pivot[1] + grown * np.sin(mids)], axis=1),
                   np.stack([pivot[0] + radius * np.cos(ends),
                             pivot[1] + radius * np.sin(ends)], axis=1)]
    hull = shapely.MultiPoint(np.vstack(points)).convex_hull
    assert hull.geom_type == "Polygon"
    return hull


# -- geometry ---------------------------------------------------------------------------------

def minkowski_hull(piece: np.ndarray, offsets: np.ndarray) -> np.ndarray:
    """Counter-clockwise vertices of P (+) (-R): the centres c at which the rectangle with
    corner offsets `offsets` (from its centre) meets the convex piece P."""
    points = (piece[:, None, :] - offsets[None, :, :]).reshape(-1, 2)
    hull = shapely.orient_polygons(shapely.MultiPoint(points).convex_hull)
    return np.asarray(shapely.get_coordinates(hull))[:-1] if hull.geom_type == "Polygon" \
        else np.asarray(shapely.get_coordinates(hull))


def segment_distance(p: np.ndarray, q: np.ndarray, polygon: np.ndarray) -> np.ndarray:
    """Distance from each segment [p, q] ((n, 2) or (1, 2) each) to a convex polygon given
    by its counter-clockwise vertices (0 where they meet)."""
    p, q = np.broadcast_arrays(p, q)
    v = polygon
    w = np.roll(v, -1, axis=0)
    edge = w - v
    normal = np.stack([edge[:, 1], -edge[:, 0]], axis=1)   # outward (counter-clockwise)
    offset = np.einsum("ij,ij->i", normal, v)
    num = offset[None, :] - p @ normal.T                  # n . p <= h at t = 0 means num >= 0
    den = (q - p) @ normal.T
    with np.errstate(divide="ignore", invalid="ignore"):
        ratio = num / den
    lo = np.where(den < 0, ratio, -np.inf).max(axis=1, initial=0.0)
    hi = np.where(den > 0, ratio, np.inf).min(axis=1, initial=1.0)
    parallel_out = ((den == 0) & (num < 0)).any(axis=1)
    meets = (lo <= hi) & ~parallel_out if len(v) >= 3 else np.zeros(len(p), dtype=bool)
    best = np.minimum(_to_edges(p, v, w), _to_edges(q, v, w))
    seg = q - p
    length2 = np.maximum(np.einsum("ij,ij->i", seg, seg), 1e-300)
    t = np.clip(((v[None, :, :] - p[:, None, :]) * seg[:, None, :]).sum(axis=2)
                / length2[:, None], 0.0, 1.0)
    foot = p[:, None, :] + t[:, :, None] * seg[:, None, :]
    best = np.minimum(best, np.hypot(*(v[None, :, :] - foot).transpose(2, 0, 1)).min(axis=1))
    return np.where(meets, 0.0, best)


def _to_edges(p: np.ndarray, v: np.ndarray, w: np.ndarray) -> np.ndarray:
    """Distance from points p (n, 2) to the polygon's edges v -> w (the boundary)."""
    edge = w - v
    length2 = np.maximum(np.einsum("ij,ij->i", edge, edge), 1e-300)
    t = np.clip(((p[:, None, :] - v[None, :, :]) * edge[None, :, :]).sum(axis=2) / length2,
                0.0, 1.0)
    foot = v[None, :, :] + t[:, :, None] * edge[None, :, :]
    return np.hypot(*(p[:, None, :] - foot).transpose(2, 0, 1)).min(axis=1)


def wheel_cells(parts: list[shapely.Geometry], f: np.ndarray, piece: np.ndarray,
                a_most: float, limit: float) -> tuple[np.ndarray, np.ndarray]:
    """Cells of a in [0, a_most] (their lower ends, sorted, and states): the wheel's area
    moved by a f is CLEAR (more than `limit` from the piece throughout the cell), BLOCKED
    (within it throughout) or UNDECIDED (a cell at most 2 LAST_HALF_IN wide).  The distance
    is 1-Lipschitz in a: a cell whose centre's distance is beyond the limit by more than its
    half width is decided."""
    count = max(1, math.ceil(a_most / (2 * FIRST_HALF_IN)))
    half = a_most / count / 2.0
    mids = half * (2 * np.arange(count) + 1)
    los: list[np.ndarray] = []
    states: list[np.ndarray] = []
    while len(mids):
        moved = shapely.polygons(piece[None, :, :] - mids[:, None, None] * f)
        gaps = np.min([shapely.distance(part, moved) for part in parts], axis=0)
        clear = gaps - half > limit + DISAGREE_IN
        blocked = gaps + half <= limit - DISAGREE_IN
        for mask, kind in ((clear, CLEAR), (blocked, BLOCKED)):
            los.append(mids[mask] - half)
            states.append(np.full(int(mask.sum()), kind, dtype=np.int8))
        rest = mids[~clear & ~blocked]
        if half <= LAST_HALF_IN:
            los.append(rest - half)
            states.append(np.full(len(rest), UNDECIDED, dtype=np.int8))
            break
        half /= 2.0
        mids = np.concatenate([rest - half, rest + half])
    lo, state = np.concatenate(los), np.concatenate(states)
    order = np.argsort(lo, kind="stable")
    return lo[order], state[order]


def cell_states(cells: tuple[np.ndarray, np.ndarray], a: np.ndarray) -> np.ndarray:
    """The state of the cell each a lies in (a past the last cell: the last cell's)."""
    lo, state = cells
    k = np.clip(np.searchsorted(lo, a, side="right") - 1, 0, len(lo) - 1)
    return state[k]


def way_offsets(ways: Ways) -> np.ndarray:
    """(K, 4, 2) corner offsets of each way's end rectangle from its centre (front-left,
    front-right, rear-right, rear-left)."""
    r, fwd = ways.half_right.T, ways.half_ahead.T
    return np.stack([-r + fwd, r + fwd, r - fwd, -r - fwd], axis=1)


def rect_overhang(corners_or_offsets: np.ndarray, base: np.ndarray, centres: np.ndarray,
                   table: Any) -> np.ndarray:
    """Overhang of the rectangles `corners_or_offsets` (+ centres - base) past the table."""
    pts = corners_or_offsets[None, :, :] - base[None, None, :] + centres[:, None, :]
    bounds = np.concatenate([pts.min(axis=1), pts.max(axis=1)], axis=1)
    return _bounds_overhang(bounds, table)


def _bounds_overhang(bounds: np.ndarray, table: Any) -> np.ndarray:
    """How far shapes with these (n, 4) bounds (minx, miny, maxx, maxy) reach past the
    table's edges, negative when inside (the checker's overhang is this clamped at 0: a
    shape well inside is decided without the checker)."""
    return np.maximum.reduce([-bounds[:, 0], -bounds[:, 1],
                              bounds[:, 2] - table.width_in, bounds[:, 3] - table.depth_in])


def overhang(bounds: tuple[float, float, float, float], table: Any) -> float:
    return float(_bounds_overhang(np.asarray([bounds]), table)[0])
