"""The end-position cut of a certificate's pieces (docs/techniques.md §9, "The end-position
cut").

A certificate (optimizer.search.certify) bounds the objective over pieces that hold every end
pose of every way in a box, and the pieces ignore the end-position rules: a box whose piece
reaches the target through a rock or past the table's edge stays open.  Every legal move ends
with its end rectangle R(h) passing the clauses that say they are monotone in the shape
(`Clause.monotone_in_shape`: Unit Spacing with each piece's own limit, A20; the table edge).
For a cell of end facings [c - d, c + d] the rectangle E, R(c) shrunk by r d (r the
half-diagonal; optimizer.search.option_groups.shared_shape), lies in R(h) for every h of the
cell, so every legal end centre of a facing in the cell passes those clauses for E: it lies in
the relaxed region (`CentreRegions(outer=True)`, those clauses only) of E.

The cut asks one question per box: can any legal end beat the answer by more than the
tolerance?  Per cell, G is that region within the clip of end centres where the objective
could beat the target (a disc round the target point, grown for the front's offset turning in
the cell; a half-plane for `forward`; for `face_point`, within the target of the centre lines
through the point at the cell's facings, a double wedge: its ranking is at least the offset;
circumscribed: it holds every such centre).  A box whose
facings lie in cells whose G all stay more than the piece's margin from its end-centre
sector (a circumscribed polygon) has no legal end that beats the target: its bound is the
target itself, and it is settled.  Given the request's relaxation, G is also cut to the end
centres the front's reach by heading allows (optimizer.search.front_cut), and a box not
settled is bounded by the goal's least over its sector within G (`_least`).  Where the
certificate made tighter pieces (a hull set, constraints.rank_and_file.snaking_hull), the
sector is also met with the hull set grown by its margins (every end lies in both): a box
held by the budget and the table edge at once is settled where either alone leaves it open.

Cells are fixed (CELL_DEG x 2^level, world facings), so a box uses the smallest level whose
cells are at least its facing range wide (at most two cells), and each cell's G is made once.
Regions cost milliseconds, so at most MAX_CELLS are made and MAX_TESTS boxes tested per
certificate, in the order boxes ask (after PROBE_TESTS, only while one box in PROBE_SHARE is
settled), only boxes whose facings span at most MAX_SPREAD_DEG are cut, and none where the
clauses cut nothing of the clip (`cuts_anything`): the work is counted, the same on any
machine until the deadline, past which nothing more is cut.
"""

from __future__ import annotations

import math
import time
from dataclasses import replace
from functools import cached_property

import numpy as np
import shapely

from constraints.core.scenario import Scenario
from constraints.geometry.frame import Frame
from constraints.geometry.pieces import ReachPieces
from constraints.rank_and_file.front_reach import FrontReach
from constraints.rank_and_file.unit import Unit
from constraints.sat.option import Option, front_offset
from optimizer.search.end_clip import end_clip, frame_option
from optimizer.search.front_cut import front_reach
from optimizer.search.objectives import Goal
from optimizer.search.option_groups import shared_shape
from optimizer.search.regions import CentreRegions
from optimizer.search.sector_polygons import (
    ROOM_IN,
    centre_line_wedge,
    grown_hulls,
    near_sets,
    sector_bounds,
    sector_polygons,
    taken,
)

# The finest cell of end facings: E shrinks by r x half a cell, 0.0007" for r = 5" (at 1/16
# deg it was 0.0027", and a middle of bench_random 142 stayed 0.0000015" short of its target).
CELL_DEG = 1.0 / 64.0
MAX_LEVEL = 9          # cells up to CELL_DEG x 2^MAX_LEVEL = 8 deg wide
MAX_SPREAD_DEG = CELL_DEG * 2 ** MAX_LEVEL  # boxes with wider facing ranges are not cut
MAX_CELLS = 400        # regions made per certificate, at most
FINER_LEVELS = 2       # levels of finer cells a box left open is asked on again
MAX_TESTS = 100_000    # boxes tested per certificate, at most (benchmarks/README.md)
PROBE_TESTS = 4_000    # ... and after this many, only while they settle
PROBE_SHARE = 50       # at least one box in 50
CELL_KEY = 1 << 32      # a cell's key: level x CELL_KEY + its number + CELL_KEY / 2
MAX_RAISED = 25_000    # boxes whose meet with G is valued per certificate, at most
RAISE_SEGS = 4         # quarter-circle segments of its margin there (circumscribed)
# The front's reach and raised bounds in the search's certificates, once a middle stays open
# (with MAX_TESTS at 100,000 they prove more than they cost: benchmarks/README.md).
FRONT_CUT = True
FINE_LEVEL = 2         # the escalation whose reach is the fine one (a March's) ...
FINE_REACH = True      # ... made where the coarse reach leaves a middle open
CHUNK = 4_096          # boxes tested between looks at the deadline
# The budget sets once the hull sets and the reach leave a middle open: off, as they cost
# 12-30 ms a box and proved nothing more (benchmarks/README.md, issue 31 thirteenth session).
BUDGET_SETS = False


class EndCut:
    """The end-position cut of one certificate: a goal, an answer's signed target and the
    unit's end-position rules (the module docstring)."""

    def __init__(self, scenario: Scenario, unit: Unit, manoeuvre: str, goal: Goal,
                 target: float, deadline: float | None = None,
                 relaxation: object | None = None) -> None:
        self.goal, self.target = goal, target  # target: signed ("lower is better") terms
        self.relaxation = relaxation  # for the front's reach (optimizer.search.front_cut)
        # Escalated once a box of no width (a middle) stays open after the plain cut (no
        # closing without more): the front's reach cuts G, and an open box's bound is raised
        # to the goal's least over its meet with G; once more to the fine reach (level 2).
        self.level = 0
        # Whether a middle stayed open after the plain cut (the reach was, or would be,
        # asked for): a cut that never asks gives the same bounds with the reach or without.
        self.asked_reach = False
        self.raised = 0  # boxes whose bound was sought over their meet with G
        # Met with the hull sets of tighter pieces too, once a middle of one stays open
        # without them (their polygons cost: most certificates close before).
        self.hulls = False
        # ... and with their budget sets, the last resort, once the reach leaves one open.
        self.budgets = False
        # Past the deadline (time.perf_counter) nothing more is cut: the certificate, late
        # too, says so (timed_out); before it the work is counted, the same on any machine.
        self.deadline = deadline
        self.scenario, self.unit, self.manoeuvre = scenario, unit, manoeuvre
        self.frame = Frame(unit.pose.centre, unit.pose.facing_deg)
        self._regions: CentreRegions | None = None  # made when a box first asks
        self.cells: dict[tuple[int, int], shapely.Geometry | None] = {}
        self.fronts: dict[int, FrontReach | None] = {}
        self.made, self.made_finer = 0, 0  # regions made, and by the finer passes (at most
        # MAX_CELLS each)
        self.tested, self.settles = 0, 0  # boxes tested (at most MAX_TESTS), and settled
        self.bounds: dict[tuple[int, int], tuple[np.ndarray, np.ndarray]] = {}

    def settled(self, pieces: ReachPieces) -> np.ndarray:
        """Per piece, whether no legal end pose in it can beat the target."""
        return self.bounds_of(pieces) >= self.target

    def bounds_of(self, pieces: ReachPieces) -> np.ndarray:
        """Per piece, a bound (signed) on every legal end pose in it, capped at the target:
        the target where none can beat it, -inf where nothing is known."""
        out = np.full(len(pieces), -np.inf)
        if not len(pieces) or not self.cuts_anything:
            return out
        centres = pieces.centres()
        width = 2.0 * pieces.spread
        eligible = (width <= MAX_SPREAD_DEG) & ~pieces.empty
        level = np.clip(np.ceil(np.log2(np.maximum(width, 1e-12) / CELL_DEG)), 0, MAX_LEVEL)
        size = CELL_DEG * 2.0 ** level
        first = np.floor((pieces.facing - pieces.spread) / size).astype(np.int64)
        last = np.floor((pieces.facing + pieces.spread) / size).astype(np.int64)
        candidates = np.flatnonzero(eligible)
        for finer in range(FINER_LEVELS + 1):
            if finer:  # the rows left open, again on cells 2^finer times narrower
                candidates = candidates[(out[candidates] < self.target) & (level[candidates] > 0)]
                level = np.maximum(level - 1, 0)
                size = CELL_DEG * 2.0 ** level
                first = np.floor((pieces.facing - pieces.spread) / size).astype(np.int64)
                last = np.floor((pieces.facing + pieces.spread) / size).astype(np.int64)
            for chunk in np.array_split(candidates, max(1, -(-len(candidates) // CHUNK))):
                if self._late():
                    break
                rows = chunk if finer else chunk[:self._tests_left()]
                if len(rows):  # (a finer pass only settles: it keeps a bound raised before)
                    out[rows] = np.maximum(out[rows], self._clear(centres, rows, level, first,
                                                                  last, not finer))
        middles = eligible & (pieces.spread == 0) & (out < self.target)
        if not middles.any() or self._late():
            return out
        if not self.hulls and pieces.hull_points is not None:  # first, the hull sets too
            self.hulls = True
            return self.bounds_of(pieces)
        if self.level == (FINE_LEVEL if FINE_REACH else 1):
            return self._last(pieces, out)
        self.asked_reach = True
        if self.relaxation is None:  # no reach to ask: the same cut
            return self._last(pieces, out)
        if self.level and self._front(FINE_LEVEL) is None:  # no finer reach: the same cut
            return self._last(pieces, out)
        self.level, self.made, self.made_finer = self.level + 1, 0, 0  # made again, with
        self.cells.clear()                                               # the (finer) reach
        return self.bounds_of(pieces)

    def _last(self, pieces: ReachPieces, out: np.ndarray) -> np.ndarray:
        """Once nothing else is left to ask: the budget sets too (optimizer.search.
        budget_sets), where the pieces have hull sets; else `out` as it is."""
        if self.budgets or pieces.hull_points is None or not BUDGET_SETS:
            return out
        self.budgets = True
        return self.bounds_of(pieces)

    escalated = property(lambda self: self.level > 0)

    def _clear(self, centres: ReachPieces, rows: np.ndarray, level: np.ndarray,
               first: np.ndarray, last: np.ndarray, natural: bool = True) -> np.ndarray:
        """Per row, the target where its sector stays farther than its margin from G of
        every cell its facings touch; else the least bound of the goal over the sector
        grown by its margin within those G (`_least`), capped at the target; a pass that is
        not `natural` (on finer cells) is not counted in the tests and raises no bound."""
        if natural:
            self.tested += len(rows)
        sectors = sector_polygons(centres, rows, self.frame)
        grow = centres.grow[rows] + ROOM_IN
        lo, hi = sector_bounds(sectors, grow)
        bound = np.full(len(rows), self.target)
        span = last[rows] - first[rows]
        for step in range(int(span.max()) + 1):
            cell_end = np.minimum(first[rows] + step, last[rows])
            keys = level[rows].astype(np.int64) * CELL_KEY + (cell_end + CELL_KEY // 2)
            order = np.argsort(keys, kind="stable")
            cells, starts = np.unique(keys[order], return_index=True)
            for key, group in zip(cells, np.split(order, starts[1:]), strict=True):
                members = group[(bound[group] > -np.inf) & (span[group] >= step)]
                if not len(members):
                    continue
                cell = (int(key // CELL_KEY), int(key % CELL_KEY) - CELL_KEY // 2)
                g = self._cell(cell, natural)
                if g is None:  # not made (the cap): nothing is cut
                    bound[members] = -np.inf
                elif not g.is_empty:
                    g_lo, g_hi = self.bounds[cell]
                    boxes = np.all((lo[members] <= g_hi) & (hi[members] >= g_lo), axis=1)
                    members = members[boxes]
                    near = members[shapely.dwithin(g, sectors[members], grow[members])]
                    # The hull and budget sets too, once asked for: the ends lie in all.
                    near, sets = near_sets(g, centres, rows, near, self.frame,
                                           (self.hulls, self.budgets))
                    if len(near):
                        least = self._least(g, sectors[near], grow[near], cell, sets) \
                            if natural else np.full(len(near), -np.inf)
                        bound[near] = np.minimum(bound[near], least)
        self.settles += int((bound >= self.target).sum())  # (a finer pass's too: a box)
        return bound

    def _least(self, g: shapely.Geometry, sectors: np.ndarray, grow: np.ndarray,
               cell: tuple[int, int], sets: list[tuple] | None = None) -> np.ndarray:
        """A bound (signed) of the goal over each sector grown by its margin (circumscribed)
        within G: where it meets G, the least over the meet (below); elsewhere its ends
        cannot beat the target (face_point: the offset, the distance to the centre line, is
        at least the distance to the double wedge of the cell's lines)."""
        name = self.goal.name
        if not self.escalated or self.raised >= MAX_RAISED:
            return np.full(len(sectors), -np.inf)
        self.raised += len(sectors)
        grown = shapely.buffer(sectors, grow / math.cos(math.pi / (4 * RAISE_SEGS)) + ROOM_IN,
                               quad_segs=RAISE_SEGS)
        meet = shapely.intersection(grown, g)
        for polygons, margin in sets or ():  # within the hull and budget sets, where made
            both = shapely.intersection(meet, grown_hulls(polygons, margin, RAISE_SEGS))
            # An overlay may drop a sliver: a meet left empty is kept only where the exact
            # distance says so (else the looser meet, sound).
            lost = shapely.is_empty(both) & ~shapely.is_empty(meet) & \
                shapely.dwithin(meet, polygons, margin)
            meet = np.where(shapely.is_missing(polygons) | lost, meet, both)
        blank = shapely.is_empty(meet)
        out = np.full(len(sectors), np.inf)
        if name == "forward":  # signed: minus the end centre's y
            out[~blank] = -shapely.bounds(meet[~blank])[:, 3]
            return out
        level, k = cell
        size = CELL_DEG * 2.0 ** level
        low, high = k * size, (k + 1) * size
        point = np.asarray(self.goal.point, dtype=float)
        if name == "face_point":  # the offset: a centre's distance to its line, in the wedge
            wedge = centre_line_wedge(point, low, high, self.frame)
            out[~blank] = shapely.distance(wedge, meet[~blank])
            return out
        if name == "front_target_distance":  # front = end + offset(h), within the cell
            point = point - np.asarray(front_offset(self._option((low + high) / 2.0)))
        near = shapely.distance(shapely.Point(*point), meet[~blank])
        if name == "front_target_distance":
            near = np.maximum(near - self.unit.depth_in / 2.0 * math.radians(size) / 2.0, 0.0)
        elif name == "target_pose":
            facing = self.goal.objective.facing_deg
            assert facing is not None
            off = abs(((low + high) / 2.0 - facing + 180.0) % 360.0 - 180.0)
            turn = max(off - size / 2.0, 0.0)
            near = np.sqrt(near ** 2 + (0.1 * turn) ** 2)
        out[~blank] = near
        return out

    def _late(self) -> bool:
        return self.deadline is not None and time.perf_counter() > self.deadline
    def _tests_left(self) -> int:
        """Boxes the cut may still test: none past MAX_TESTS, nor once PROBE_TESTS have
        settled less than one in PROBE_SHARE (it is not what holds this certificate)."""
        if self.tested >= PROBE_TESTS and self.settles * PROBE_SHARE < self.tested:
            return 0
        return max(MAX_TESTS - self.tested, 0)

    @cached_property
    def cuts_anything(self) -> bool:
        """Whether the clauses cut anything from where the goal could beat the target, for
        the square of side 2 r that holds every end rectangle (the half-diagonal r): every
        cell's rectangle E lies in it, so a cell's G holds what is left of that square's
        region; when nothing is cut from it, every G is the whole clip, which the pieces'
        own bounds already judge, and no box is tested (an open field: no cost)."""
        clip = self._clip(0.0, 360.0)
        if clip.is_empty:
            return True  # nothing beats the target: every box is settled
        side = math.hypot(self.unit.width_in, self.unit.depth_in)
        square = replace(self._option(self.unit.pose.facing_deg), width_in=side, depth_in=side)
        left = self.regions.within(square, clip)
        if clip.area - left.area > 1e-9 * max(clip.area, 1.0):
            return True
        # What the front must clear may cut it (the reach, once escalated).
        return self.relaxation is not None and bool(self.scenario.obstacles_for(self.unit.id))

    def _front(self, level: int) -> FrontReach | None:
        """The front's centre by heading at an escalation level (None: unknown)."""
        if level not in self.fronts:
            self.fronts[level] = None if self.relaxation is None else front_reach(
                self.scenario, self.unit, self.manoeuvre, self.relaxation, self.deadline,
                fine=level == FINE_LEVEL)
        return self.fronts[level]

    @property
    def regions(self) -> CentreRegions:
        """The relaxed regions of the clauses monotone in the shape (the module docstring)."""
        if self._regions is None:
            self._regions = CentreRegions(self.scenario, self.unit, self.manoeuvre, outer=True)
            self._regions.clauses = [c for c in self._regions.clauses if c.monotone_in_shape]
        return self._regions

    def _cell(self, key: tuple[int, int], natural: bool = True) -> shapely.Geometry | None:
        """G of a cell of end facings (frame centres), made once; None past the cap."""
        if key not in self.cells:
            if (self.made if natural else self.made_finer) >= MAX_CELLS or self._late():
                return None
            if natural:
                self.made += 1
            else:
                self.made_finer += 1
            level, k = key
            size = CELL_DEG * 2.0 ** level
            g = self._better(k * size, (k + 1) * size)
            shapely.prepare(g)
            bounds = np.asarray(g.bounds) if not g.is_empty else np.zeros(4)
            self.bounds[key] = (bounds[:2], bounds[2:])
            self.cells[key] = g
        return self.cells[key]

    def _better(self, low_deg: float, high_deg: float) -> shapely.Geometry:
        """Frame end centres, of a facing in [low, high] (world degrees), that pass the
        monotone clauses for the shrunk rectangle and where the goal could beat the
        target."""
        clip = self._clip(low_deg, high_deg)
        if clip.is_empty:
            return clip
        options = [self._option(low_deg), self._option(high_deg)]
        shape = shared_shape(options, (0, 1))
        region = self.regions.within(shape, clip)
        front = self._front(self.level) if self.escalated else None
        if front is None or region.is_empty:
            return region
        # Frame headings (the start facing is pi/2), the middle's turn from the start
        # wrapped into [-180, 180) deg.
        turn = (low_deg + high_deg) / 2.0 - self.unit.pose.facing_deg
        mid = math.pi / 2.0 + math.radians((turn + 180.0) % 360.0 - 180.0)
        half = math.radians(high_deg - low_deg) / 2.0
        return region.intersection(front.end_centres(mid - half, mid + half, region.bounds))


    def _option(self, facing_deg: float) -> Option:
        return frame_option(self.unit, self.frame, facing_deg)

    def _clip(self, low_deg: float, high_deg: float) -> shapely.Geometry:
        return end_clip(self.goal, self.target, self.unit, self.frame, low_deg, high_deg)


CUT_GOALS = ("target_distance", "front_target_distance", "target_pose", "forward",
             "face_point")


def end_cut(scenario: Scenario, unit: Unit, manoeuvre: str, goal: Goal, value: float,
            tolerance: float, deadline: float | None = None,
            relaxation: object | None = None) -> EndCut | None:
    """The cut of a certificate against the answer `value` (None: the goal is not cut);
    with the request's `relaxation`, also by the front's reach (optimizer.search.front_cut)."""
    if goal.name not in CUT_GOALS or not any(
            c.monotone_in_shape for c in scenario.profile.clauses(manoeuvre)):
        return None
    sign = -1.0 if goal.maximise else 1.0
    return EndCut(scenario, unit, manoeuvre, goal, sign * value - tolerance, deadline,
                  relaxation)


def cut_values(cut: EndCut | None, pieces: ReachPieces, values: np.ndarray) -> np.ndarray:
    """`values` (signed) with the boxes the cut settles raised to its target."""
    if cut is None:
        return values
    open_ = values < cut.target
    if not open_.any():
        return values
    rows = np.flatnonzero(open_)
    out = values.copy()
    out[rows] = np.maximum(values[rows], cut.bounds_of(taken(pieces, rows)))
    return out
