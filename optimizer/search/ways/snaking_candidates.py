"""Candidate ways of two wheels for the search of several wheels (optimizer.search.more_wheels),
found per heading sequence by exact geometry and judged by the checker.

With every heading fixed (a Pivot, then the wheels t1 and t2, on a coarse grid), a way's
wheels move the front by known amounts and cost known amounts (T9A's W |sin t|), and its three
legs a, b, c >= 0, whatever they add up to within what is left of the budget, move the centre
along the three headings' directions: its end centres are the hull of the no-leg end and that
end moved by the whole spare along each direction (as a template's, snaking_ways.template_ends).
The end-position rules cut that polygon as for one wheel (`CentreRegions(outer=False)`:
every point left passes them); the cut polygon's best point for the objective, in continuous
coordinates, is the sequence's candidate, and its legs are recovered from the centre.

Best first and lazily: every sequence's uncut polygon bounds its cut one (numpy and one
vectorised shapely call for all), so a sequence is cut only when its bound is the best left,
and a candidate is judged (`check`) only when its value is the best left; the first legal
one is the best legal candidate of the grid.  Sequences whose bound cannot beat the answer
so far are never cut.  The checker alone judges the front's sweep and the Pivot; the answer
is a legal move whatever the geometry says, and it speaks for itself only (FEASIBLE): the
bound over every way (optimizer.search.certify) is what proves anything.
"""

from __future__ import annotations

import heapq
import itertools
import math
import time
from typing import Any

import numpy as np
import shapely
from shapely.geometry import LineString, Point

from constraints.core.system import find_system
from constraints.core.verdict import Verdict
from constraints.geometry.plane import angle_between_deg
from constraints.sat.option import Option
from constraints.t9a.moves import Manoeuvre, Move, StepKind, forward, wheel
from constraints.t9a.ways_model import direction
from optimizer.batch import BatchJudge
from optimizer.search.distance_goals import Distance, TargetPose
from optimizer.search.heading_goals import FacePoint, Forward, lateral_gaps
from optimizer.search.objectives import Goal

GRID_DEG = 5.0      # the wheels' grid (the per-heading geometry peer's over two wheels)
PIVOT_DEG = 45.0    # an Advance's Pivots
MAX_CHECKS = 300    # candidates judged by the checker, at most
LEG_EPS = 1e-9
FAR_IN = 1000.0


def two_wheel_way(request: Any, value: float | None,
                  deadline: float) -> tuple[Move, Verdict, dict[str, Any]] | None:
    """The best legal candidate way of two wheels (Pivot first for an Advance) that beats
    `value` (None: any), with the checker's verdict and counts: on the coarse grid, then on
    the lattice's degree within a grid step of the best found; None when none beats `value`
    (or the goal is not one this knows, or `deadline`, a perf_counter time, passes)."""
    goal, limits = request.goal, request.limits
    if not isinstance(goal, Distance | Forward | FacePoint) or limits.budget_in is None or \
            limits.window_deg is None:
        return None
    window = min(90.0, limits.window_deg)
    found = _best_way(request, _sequences(request.family.pivots, window), value, deadline)
    if found is None:
        return None
    step = request.lattice.degree
    near = np.arange(-math.ceil(GRID_DEG / step) + 1, math.ceil(GRID_DEG / step)) * step
    pivot, t1, t2 = _stages(found[0])
    finer = np.array([(pivot, t1 + d1, t2 + d2) for d1 in near for d2 in near
                      if 0.0 < abs(t1 + d1) <= window + 1e-9 and 0.0 < abs(t2 + d2) <= 90.0
                      and abs(t1 + d1 + t2 + d2) <= window + 1e-9]).reshape(-1, 3)
    # (ranked: a face_point way facing away from the point comes last, as in the model)
    better = _best_way(request, finer, goal.ranked(found[1]), deadline)
    if better is not None and goal.better(goal.ranked(better[1]), goal.ranked(found[1])):
        better[2]["coarse"] = found[2]
        return better
    return found


def _stages(move: Move) -> tuple[float, float, float]:
    """A candidate's Pivot and wheels."""
    t1, t2 = (s.value for s in move.steps if s.kind == StepKind.WHEEL)
    return move.pivot_deg, t1, t2


def _best_way(request: Any, sequences: np.ndarray, value: float | None,
              deadline: float) -> tuple[Move, Verdict, dict[str, Any]] | None:
    """The best legal candidate of the heading sequences (N, 3: Pivot, t1, t2) that beats
    `value`."""
    if not len(sequences):
        return None
    started = time.perf_counter()
    goal, unit = request.goal, request.unit
    budget = request.limits.budget_in
    heads = np.cumsum(sequences, axis=1)  # (N, 3): the stages' headings (degrees)
    spare = budget - unit.width_in * np.abs(np.sin(np.radians(sequences[:, 1:]))).sum(axis=1)
    ok = spare >= 0.0
    sequences, heads, spare = sequences[ok], heads[ok], spare[ok]
    dirs = direction(heads)  # (N, 3, 2)
    rho, half = unit.width_in / 2.0, unit.depth_in / 2.0
    front = half * dirs[:, 0] + _swept(rho, heads[:, 0], heads[:, 1]) + \
        _swept(rho, heads[:, 1], heads[:, 2])
    start = front - half * dirs[:, 2]
    corners = np.concatenate([start[:, None], start[:, None] + spare[:, None, None] * dirs],
                             axis=1)  # (N, 4, 2)
    ends = np.round(heads[:, 2], 9)
    options = {g: Option(0, unit.pose.facing_deg + g, 90.0 + g, unit.files, unit.width_in,
                         unit.depth_in) for g in np.unique(ends)}
    option_of = [options[g] for g in ends]
    cost = _Cost(goal)
    hulls = shapely.convex_hull(shapely.multipoints(corners))
    bounds = cost.bounds(option_of, hulls, corners)
    stats: dict[str, Any] = {"sequences": len(sequences), "cut": 0, "checked": 0}
    worst = math.inf if value is None else cost.of(value)
    heap: list[tuple[float, int, int, Any]] = [(b, 0, n, None) for n, b in enumerate(bounds)
                                               if b < worst]
    heapq.heapify(heap)
    judge = find_system(request.scenario.rules).check
    way_passes = _WayPasses(request)
    found = None
    while heap and stats["checked"] < MAX_CHECKS and time.perf_counter() < deadline:
        bound, cut, n, point = heapq.heappop(heap)
        if bound >= worst:
            break
        if not cut and not way_passes(option_of[n], sequences[n, 0]):
            stats["way_refused"] = stats.get("way_refused", 0) + 1
            continue
        if not cut:  # its polygon cut by the end-position rules: its best point
            region = request.sound_regions.within(option_of[n], hulls[n])
            stats["cut"] += 1
            if region.is_empty:
                continue
            point = cost.best_point(option_of[n], region)
            heapq.heappush(heap, (cost.at(option_of[n], point), 1, n, point))
            continue
        legs = hull_legs(point - start[n], dirs[n], spare[n])
        if legs is None:
            continue
        stats["checked"] += 1
        move = _move(request, sequences[n], legs)
        verdict = judge(request.scenario, move)
        if verdict.legal:
            found = move, verdict
            break
    stats["elapsed_s"] = time.perf_counter() - started
    return None if found is None else (*found, stats)


class _WayPasses:
    """Whether the clauses that judge a way alone (its Pivot, end facing and formation:
    BatchJudge.way_passes) pass a sequence's Pivot and end facing, judged once per pair: a
    Pivot that brings the unit too close to a wall refuses every sequence that starts with
    it, and the checker need not refuse them one by one (Advances that start close to a
    wall judged hundreds)."""

    def __init__(self, request: Any) -> None:
        self.request = request
        self.judge: BatchJudge | None = None
        self.known: dict[tuple[float, float], bool] = {}

    def __call__(self, option: Option, pivot: float) -> bool:
        key = (float(option.facing_deg), float(pivot))
        if key not in self.known:
            if self.judge is None:
                request = self.request
                self.judge = BatchJudge(request.scenario, request.unit_id, request.manoeuvre)
            self.known[key] = self.judge.way_passes(option.facing_deg, pivot,
                                                    self.request.unit.files)
        return self.known[key]


def _sequences(pivots: bool, window: float) -> np.ndarray:
    """(N, 3): Pivot, t1, t2 (degrees), the wheels non-zero on the grid, the heading within
    the window after each."""
    steps = [k * GRID_DEG for k in range(-math.floor(90.0 / GRID_DEG),
                                         math.floor(90.0 / GRID_DEG) + 1) if k != 0]
    pairs = [(t1, t2) for t1, t2 in itertools.product(steps, steps)
             if abs(t1) <= window + 1e-9 and abs(t1 + t2) <= window + 1e-9]
    turns = [0.0] if not pivots else \
        [float(p) for p in np.arange(-180.0 + PIVOT_DEG, 180.0 + 1e-9, PIVOT_DEG)]
    return np.array([(p, t1, t2) for p in turns for t1, t2 in pairs]).reshape(-1, 3)


def _swept(rho: float, before: np.ndarray, after: np.ndarray) -> np.ndarray:
    """How a wheel from heading `before` to `after` (degrees) moves the front centre: rho times
    the integral of dir over the headings swept, whichever way it turns."""
    lo, hi = np.radians(np.minimum(before, after)), np.radians(np.maximum(before, after))
    return rho * np.stack([np.cos(hi) - np.cos(lo), np.sin(hi) - np.sin(lo)], axis=-1)


class _Cost:
    """The goal's exact value at an end centre of an end facing (as an option), as a cost
    (lower is better), its bound over a region, and a region's best point."""

    def __init__(self, goal: Goal) -> None:
        self.goal = goal
        self.sign = -1.0 if goal.maximise else 1.0
        self._targets: dict[tuple[float, float, float], np.ndarray] = {}

    def of(self, value: float) -> float:
        return self.sign * value

    def _target(self, option: Option) -> np.ndarray:
        """The point the option's centre aims at (the shift depends on the end facing and
        the formation only: computed once for the sequences that share them)."""
        key = (option.frame_facing_deg, option.width_in, option.depth_in)
        if key not in self._targets:
            goal = self.goal
            assert goal.point is not None
            shift = goal.shift(option) if isinstance(goal, Distance) else (0.0, 0.0)
            self._targets[key] = np.array([goal.point[0] - shift[0], goal.point[1] - shift[1]])
        return self._targets[key]

    def _turn(self, option: Option) -> float:
        goal = self.goal
        if not isinstance(goal, TargetPose):
            return 0.0
        assert goal.facing is not None
        return 0.1 * angle_between_deg(option.frame_facing_deg, goal.facing)

    def _behind(self, option: Option) -> float:
        """A face_point pose turned more than 90 deg from the point: last (as the model)."""
        goal = self.goal
        assert goal.point is not None
        bearing = math.degrees(math.atan2(goal.point[1], goal.point[0]))
        return FAR_IN if angle_between_deg(option.frame_facing_deg, bearing) > 90.0 else 0.0

    def bounds(self, options: list[Option], hulls: np.ndarray,
               corners: np.ndarray) -> np.ndarray:
        goal = self.goal
        if isinstance(goal, Forward):
            return -corners[:, :, 1].max(axis=1)
        if isinstance(goal, FacePoint):
            assert goal.point is not None
            gaps = lateral_gaps(options, list(hulls), goal.point)
            return np.nan_to_num(gaps, nan=math.inf) + \
                np.array([self._behind(o) for o in options])
        targets = shapely.points(np.array([self._target(o) for o in options]).reshape(-1, 2))
        gap = shapely.distance(hulls, targets)
        turn = np.array([self._turn(o) for o in options])
        return np.hypot(gap, turn)

    def best_point(self, option: Option, region: shapely.Geometry) -> np.ndarray:
        goal = self.goal
        coords = shapely.get_coordinates(region)
        if isinstance(goal, Forward):
            return np.asarray(coords[np.argmax(coords[:, 1])])
        if isinstance(goal, FacePoint):
            assert goal.point is not None
            f = direction(np.asarray(option.frame_facing_deg - 90.0))
            p = np.asarray(goal.point, dtype=float)
            hit = shapely.get_coordinates(region.intersection(
                LineString([p - FAR_IN * f, p + FAR_IN * f])))
            if len(hit):
                return np.asarray(hit[0])
            right = np.array([f[1], -f[0]])
            return np.asarray(coords[np.argmin(np.abs((p - coords) @ right))])
        target = self._target(option)
        return np.asarray(shapely.get_coordinates(
            shapely.shortest_line(region, Point(*target)))[0])

    def at(self, option: Option, centre: np.ndarray) -> float:
        goal = self.goal
        if isinstance(goal, Forward):
            return -float(centre[1])
        if isinstance(goal, FacePoint):
            assert goal.point is not None
            f = direction(np.asarray(option.frame_facing_deg - 90.0))
            lateral = abs(float((np.asarray(goal.point) - centre) @ np.array([f[1], -f[0]])))
            return lateral + self._behind(option)
        gap = float(np.hypot(*(self._target(option) - centre)))
        return math.hypot(gap, self._turn(option))


def hull_legs(shift: np.ndarray, dirs: np.ndarray, spare: float) -> np.ndarray | None:
    """Legs (a, b, c) >= 0 within `spare` moving the centre by `shift`: two of them, or all
    three spending the whole spare (a point of the hull lies in one of its triangles)."""
    for i, j in ((0, 1), (0, 2), (1, 2)):
        m = np.column_stack([dirs[i], dirs[j]])
        if abs(np.linalg.det(m)) < 1e-12:
            continue
        x = np.linalg.solve(m, shift)
        if x.min() >= -LEG_EPS and x.sum() <= spare + LEG_EPS:
            legs = np.zeros(3)
            legs[[i, j]] = np.clip(x, 0.0, None)
            return legs
    m = np.vstack([dirs.T, np.ones(3)])
    if abs(np.linalg.det(m)) < 1e-12:
        return None
    x = np.linalg.solve(m, np.append(shift, spare))
    return np.clip(x, 0.0, None) if x.min() >= -LEG_EPS else None


def _move(request: Any, sequence: np.ndarray, legs: np.ndarray) -> Move:
    pivot, t1, t2 = (float(v) for v in sequence)
    a0, a1, a2 = (float(v) if v > LEG_EPS else 0.0 for v in legs)
    steps = [forward(a0), wheel(t1), forward(a1), wheel(t2), forward(a2)]
    return Move(request.unit_id, Manoeuvre(request.manoeuvre),
                steps=tuple(s for s in steps if s.value != 0.0),
                pivot_deg=pivot if request.family.pivots else 0.0)
