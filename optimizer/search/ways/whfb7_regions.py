"""Per whfb7 option (a prefix, forward a, one wheel t, forward b), the region of end centres its
way leaves legal, by exact geometry on the whfb7 batch mask's measures (constraints.whfb7.
masks): two regions per option, in the unit's start frame.

- `outer=True`, a relaxation: it holds every end centre of the option that the checker
  passes, so its best point bounds the option's objective (the search drops the options
  whose bound cannot beat a legal answer, docs/techniques.md §8);
- `outer=False`, sound up to float noise: its points are candidates, each judged by the
  checker before it is an answer (a refused point costs a check, never a wrong answer).

What they are made of, the end centre d = base + a f + b e (a, b >= 0, a + b within what the
budget leaves after the prefix and the wheel; f the heading after the prefix, e after the
wheel):

- leg 1 and the wheel's area on the table: each a half-line of a (the rectangles and the
  wheel's bounds slide along f), the table's four edges;
- leg 1 more than 1" from each obstacle piece: the segment distance of the leg's centres to
  the piece's Minkowski difference with the rectangle falls as a grows, so the legal a are
  an interval from 0, its end found by bisection (the relaxation takes the far end, a
  hair lenient; the sound region the near end, a hair strict);
- the wheel's area more than 1" from each piece: cells of a, clear, blocked or undecided
  (`WheelSweep.cells`, 1-Lipschitz in a); the relaxation removes the blocked cells only,
  the sound region every cell that is not clear;
- leg 2 and the end more than 1" from each piece: the end centres whose leg 2 passes
  through the piece's zone (its Minkowski difference with the end rectangle, grown by the
  gap) are that zone's part in the cone a, b >= 0 swept along +e: its convex hull with the
  same moved far along e (exact for a convex zone); the relaxation's zone is inscribed in
  the true one (shapely's buffer puts its vertices on the circle, grown a hair less than
  the gap), the sound region's circumscribed (grown more);
- the end rectangle on the table: a box of centres.

A relaxation's overlays are checked as optimizer.search.regions checks them (`kept_outside`):
a cut GEOS loses a piece of is left out, so the region still holds every legal centre.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import shapely
from shapely.geometry import Polygon

from constraints.core.cache import remembered
from constraints.core.scenario import Scenario
from constraints.geometry.frame import Frame
from constraints.geometry.intervals import union_of
from constraints.geometry.plane import rotate_about
from constraints.sat.option import Option
from constraints.whfb7.mask_geometry import (
    BLOCKED,
    CLEAR,
    WheelSweep,
    minkowski_hull,
    segment_distance,
)
from constraints.whfb7.masks import WarhammerJudge
from constraints.whfb7.ways import option_pre_wheel, option_turn
from optimizer.search.regions import kept_outside

BIG = 1e3          # inches: far beyond any table (strips and sweeps as polygons)
BUFFER_SEGS = 16   # segments per quarter circle of the grown zones
# Float room, inches: the relaxation is this much lenient at every limit, the sound region
# this much strict (the checker compares its own float shapes; a point exactly at a limit may
# go either way).
LENIENT_IN = 1e-6
STRICT_IN = 1e-7
BISECTIONS = 40  # the budget / 2^40: a ten-billionth of an inch
EMPTY = Polygon()


class WayRegions:
    """The regions of one unit's whfb7 move or march options (start frame)."""

    def __init__(self, scenario: Scenario, unit_id: str, manoeuvre: str, frame: Frame) -> None:
        self.judge = WarhammerJudge(scenario, unit_id, manoeuvre)
        self.frame = frame
        self._cache: dict[tuple[Any, ...], shapely.Geometry] = {}
        self._legs: dict[tuple[float, float, bool], float] = {}

    def of(self, option: Option, outer: bool, cells: bool = True) -> shapely.Geometry:
        """The option's region (frame inches; possibly empty).  A relaxation without `cells`
        leaves the wheel's area against the obstacles out (a looser relaxation, cheaper:
        the cells take most of the time)."""
        cells = cells or not outer
        key = (option.pivot_deg, option.frame_facing_deg, option.wheel_deg, option.files,
               option.spare_in, outer, cells)
        if key not in self._cache:
            self._cache[key] = self._region(option, outer, cells)
        return self._cache[key]

    def _region(self, option: Option, outer: bool, cells: bool) -> shapely.Geometry:
        judge = self.judge
        prefix = (option_pre_wheel(option), option_turn(option))
        if judge.blocked or not judge.way_passes(option.facing_deg, prefix[1], option.files):
            return EMPTY  # the clause refuses every such move (exact: both regions empty)
        start, state, pieces, leg_one = judge.start_of(prefix)
        if state == BLOCKED or (not outer and state != CLEAR):
            return EMPTY
        spare = option.spare_in
        if spare < -1e-9:
            return EMPTY
        spare = max(spare, 0.0)
        room = LENIENT_IN if outer else -STRICT_IN
        heading = math.radians(start.pose.facing_deg)
        f = np.array([math.cos(heading), math.sin(heading)])
        t = float(option.wheel_deg)
        e = np.array([math.cos(heading + math.radians(t)), math.sin(heading + math.radians(t))])
        base = np.asarray(self.frame.world(option.wheel_shift))
        table = judge.table
        a_lo, a_hi = _table_interval(np.asarray(start.corners()), f, table, room, 0.0, spare)
        a_hi = min(a_hi, self._leg_one(prefix, outer))
        forbidden: list[tuple[float, float]] = []
        if t:
            # (the sweep's cells and hull cost most of the time: a loose relaxation goes
            # without them)
            sweep = judge.wheel_sweep(start, prefix, t, pieces) if cells else None
            a_lo, a_hi = _table_interval(_wheel_points(start, t, None if outer else sweep),
                                         f, table, room, a_lo, a_hi)
            if sweep is not None:
                for j in range(len(pieces)):
                    forbidden += _forbidden_cells(sweep.cells(j), outer)
        if a_lo > a_hi + 1e-12:
            return EMPTY
        if t:
            reach = Polygon([base, base + spare * f, base + spare * e])
            region = _cut(reach, _strip(base, f, e, a_lo, a_hi), outer, keep=True)
            for lo, hi in union_of(forbidden):
                if region.is_empty:
                    break
                region = _cut(region, _strip(base, f, e, lo, hi), outer)
        else:
            region = shapely.LineString([base + a_lo * f, base + a_hi * f])
        end = _end_offsets(start.pose.facing_deg + t, start.width_in, start.depth_in)
        inner = shapely.box(-end[:, 0].min() - room, -end[:, 1].min() - room,
                            table.width_in - end[:, 0].max() + room,
                            table.depth_in - end[:, 1].max() + room)
        region = _cut(region, inner, outer, keep=True)
        grow = judge.gap - LENIENT_IN if outer else \
            (judge.gap + STRICT_IN) / math.cos(math.pi / (4 * BUFFER_SEGS))
        for piece in pieces:
            if region.is_empty:
                break
            zone = Polygon(minkowski_hull(piece.vertices, end)).buffer(grow, quad_segs=BUFFER_SEGS)
            region = _cut(region, _swept(zone, base, f, e) if t else zone, outer)
        if region.is_empty:
            return EMPTY
        return shapely.transform(region, self.frame.point_array)

    def _leg_one(self, prefix: tuple[float, float], outer: bool) -> float:
        """The longest leg 1 after the prefix that keeps more than the gap from every piece
        (the whole budget when none comes near; -1 when the start is too near already):
        the same for every wheel after it."""
        key = (*prefix, outer)
        if key not in self._legs:
            judge = self.judge
            start, _, _, leg_one = judge.start_of(prefix)
            budget = judge.limits.budget_or(2.0 * judge.unit.mobility_in)
            heading = math.radians(start.pose.facing_deg)
            f = np.array([math.cos(heading), math.sin(heading)])
            origin = np.asarray(start.pose.centre)
            self._legs[key] = min([_leg_one_limit(origin, f, hull, judge.gap, budget, outer)
                                   for hull in leg_one], default=budget)
        return self._legs[key]


def way_regions(scenario: Scenario, unit_id: str, manoeuvre: str, frame: Frame) -> WayRegions:
    """The unit's regions, shared by every search of the scenario (constraints.core.cache:
    the family's search, its prefix templates, their screen): a region depends on its
    option's way alone."""
    return remembered(scenario, ("whfb7_regions", unit_id, manoeuvre, frame),
                      lambda: WayRegions(scenario, unit_id, manoeuvre, frame))


def _cut(region: shapely.Geometry, shape: shapely.Geometry, outer: bool,
         keep: bool = False) -> shapely.Geometry:
    """`region` within the convex `shape` (`keep`) or less it; for a relaxation, a difference
    that lost a piece (`kept_outside`) is not applied (the region stays a superset)."""
    if not keep:
        left = region.difference(shape)
        return left if not outer or kept_outside(region, shape, left) else region
    return region.intersection(shape)


def _table_interval(points: np.ndarray, f: np.ndarray, table: Any, room: float, lo: float,
                    hi: float) -> tuple[float, float]:
    """The legs a (within [lo, hi]) that keep `points` + a f on the table (`room` past it)."""
    planes = ((np.array([-1.0, 0.0]), 0.0), (np.array([0.0, -1.0]), 0.0),
              (np.array([1.0, 0.0]), table.width_in), (np.array([0.0, 1.0]), table.depth_in))
    for n, h in planes:
        top, along = float((points @ n).max()), float(n @ f)
        if along > 1e-12:
            hi = min(hi, (h + room - top) / along)
        elif along < -1e-12:
            lo = max(lo, (h + room - top) / along)
        elif top > h + room:
            return 1.0, 0.0  # off the table whatever a is
    return lo, hi


def _wheel_points(start: Any, wheel_deg: float, sweep: WheelSweep | None) -> np.ndarray:
    """Points whose bounds are within the wheel's area's (a relaxation, `sweep` None: the
    rectangle before and after the wheel, parts of the area) or hold them (sound: the arcs'
    hull, grown by the checker's arcs' overshoot)."""
    if sweep is None:
        corners = start.corners()
        pivot = corners[0] if wheel_deg > 0 else corners[1]
        return np.array([*corners, *(rotate_about(c, pivot, wheel_deg) for c in corners)])
    minx, miny, maxx, maxy = sweep.hull.bounds
    grow = sweep.allow
    return np.array([[minx - grow, miny - grow], [maxx + grow, maxy + grow]])


def _leg_one_limit(origin: np.ndarray, f: np.ndarray, hull: np.ndarray, gap: float,
                   spare: float, outer: bool) -> float:
    """The legs a whose leg 1 keeps more than the gap from the piece end at this a (its
    distance falls as a grows): the relaxation's end is a hair past the last legal a, the
    sound one a hair before it."""
    limit = gap - LENIENT_IN if outer else gap + STRICT_IN

    def clear(a: float) -> bool:
        return bool(segment_distance(origin[None], (origin + a * f)[None], hull)[0] > limit)

    if clear(spare):
        return spare
    if not clear(0.0):
        return -1.0
    lo, hi = 0.0, spare
    for _ in range(BISECTIONS):
        mid = (lo + hi) / 2
        lo, hi = (mid, hi) if clear(mid) else (lo, mid)
    return hi if outer else lo


def _forbidden_cells(cells: tuple[np.ndarray, np.ndarray],
                     outer: bool) -> list[tuple[float, float]]:
    """The wheel's cells of a to remove: blocked ones (a relaxation), or every one not clear
    (sound), as closed intervals (the relaxation's a hair narrower)."""
    starts, states = cells
    ends = np.append(starts[1:], BIG)
    if outer:
        return [(float(x) + LENIENT_IN, float(y) - LENIENT_IN)
                for x, y, s in zip(starts, ends, states, strict=True)
                if s == BLOCKED and y - x > 2 * LENIENT_IN]
    return [(float(x) - STRICT_IN, float(y) + STRICT_IN)
            for x, y, s in zip(starts, ends, states, strict=True) if s != CLEAR]


def _strip(base: np.ndarray, f: np.ndarray, e: np.ndarray, lo: float, hi: float) -> Polygon:
    """End centres base + a f + b e with lo <= a <= hi and -1 <= b <= BIG."""
    return Polygon([base + lo * f - e, base + hi * f - e, base + hi * f + BIG * e,
                    base + lo * f + BIG * e])


def _swept(zone: Polygon, base: np.ndarray, f: np.ndarray, e: np.ndarray) -> shapely.Geometry:
    """The end centres whose leg 2 (from base + a f along e, a and b >= 0) meets `zone`: its
    part in the cone swept along +e (convex zone: exact)."""
    cone = Polygon([base, base + BIG * f, base + BIG * (f + e), base + BIG * e])
    part = zone.intersection(cone)
    if part.is_empty:
        return zone
    coords = shapely.get_coordinates(part)
    swept = shapely.MultiPoint(np.vstack([coords, coords + BIG * e])).convex_hull
    return shapely.union(zone, swept)


def _end_offsets(facing_deg: float, width: float, depth: float) -> np.ndarray:
    """The end rectangle's corners about its centre (world)."""
    h = math.radians(facing_deg)
    fwd = np.array([math.cos(h), math.sin(h)]) * depth / 2
    right = np.array([math.sin(h), -math.cos(h)]) * width / 2
    return np.array([-right + fwd, right + fwd, right - fwd, -right - fwd])

