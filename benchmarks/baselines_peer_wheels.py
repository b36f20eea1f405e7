"""The per-heading geometry peer over ways of two wheels (forward, wheel, forward, wheel,
forward), for the cases where more wheels win (benchmarks/bench_solve.py).

Per heading sequence (an Advance's Pivot every `pivot_deg`, wheels every `grid_deg`, non-zero,
the heading within the window after each), the end centres of every way are a polygon: the
three legs a, b, c >= 0 with a + b + c within what the wheels leave of the budget move the
centre along the three headings' directions, so the centres are the convex hull of the
no-leg end and that end moved by the whole spare along each direction.  The end-position
rules cut that polygon as for one wheel (`optimizer.search.regions`, sound: discs inscribed,
spacing zones enlarged); its best point for the objective, in continuous coordinates, is the
sequence's candidate; the candidates in objective order are judged by `check_move` (which
alone judges the front's sweep and the Pivot) until one is legal.  The legs of a candidate are
recovered from its centre (`hull_legs`, shared with the solver's candidate ways).
"""

from __future__ import annotations

import itertools
import math
import time
from typing import Any

import numpy as np
import shapely
from shapely.geometry import LineString, MultiPoint, Point

from constraints.core.scenario import Scenario
from constraints.geometry.frame import Frame
from constraints.rank_and_file.family_limits import family_limits
from constraints.rank_and_file.regions import RegionQuery
from constraints.sat.option import Option, front_offset
from constraints.t9a.checker import check_move
from constraints.t9a.moves import Move, Step
from optimizer.search.objectives import BEHIND_PENALTY, Objective
from optimizer.search.regions import CentreRegions
from optimizer.search.solve import objective_value
from optimizer.search.ways.snaking_candidates import hull_legs

try:  # run as a script from benchmarks/ (bench_solve.py), or imported as a package (tests)
    from baselines_wheels import _direction, _swept
except ImportError:
    from benchmarks.baselines_wheels import _direction, _swept

Result = tuple[Move | None, float | None, dict[str, Any]]
MAX_CHECKS = 300
LEG_EPS = 1e-9


def geometry_two_wheels(scenario: Scenario, unit_id: str, manoeuvre: str, objective: Objective,
                        grid_deg: float = 5.0, pivot_deg: float = 45.0) -> Result:
    """The best legal way of two wheels found per heading sequence (None if none of the
    MAX_CHECKS best candidates is legal)."""
    started = time.perf_counter()
    unit = scenario.unit(unit_id)
    limits = family_limits(scenario.profile.clauses(manoeuvre), unit)
    budget, window = limits.budget_or(2.0 * unit.mobility_in), limits.window_or(90.0)
    frame = Frame(unit.pose.centre, unit.pose.facing_deg)
    regions = CentreRegions(scenario, unit, manoeuvre, outer=False)
    target = np.array(frame.point(objective.point)) if objective.point is not None else None
    found: list[tuple[float, tuple[float, float, float], np.ndarray, np.ndarray, float]] = []
    pivots = [0.0] if manoeuvre != "advance" else \
        [float(p) for p in np.arange(-180.0 + pivot_deg, 180.0 + 1e-9, pivot_deg)]
    for pivot, (t1, t2) in itertools.product(pivots, _wheel_pairs(grid_deg, window)):
        spare = budget - unit.width_in * (abs(math.sin(math.radians(t1))) +
                                          abs(math.sin(math.radians(t2))))
        if spare < 0.0:
            continue
        way = _Way(unit.width_in, unit.depth_in, pivot, t1, t2)
        option = Option(0, frame.heading_deg + way.facing_deg, 90.0 + way.facing_deg,
                        unit.files, unit.width_in, unit.depth_in)
        region = _region(regions, option, way.polygon(spare))
        if region.is_empty:
            continue
        point = _best_point(objective, target, option, region)
        cost = _cost(objective, target, frame, option, point)
        found.append((cost, (pivot, t1, t2), point, way.start, spare))
    found.sort(key=lambda item: (item[0], item[1]))
    stats: dict[str, Any] = {"sequences": len(found), "checked": 0,
                             "regions_s": time.perf_counter() - started}
    for _, (pivot, t1, t2), point, start, spare in found:
        if stats["checked"] >= MAX_CHECKS:
            break
        legs = hull_legs(point - start, _Way(unit.width_in, unit.depth_in, pivot, t1, t2).dirs,
                     spare)
        if legs is None:
            continue
        stats["checked"] += 1
        move = _move(unit_id, manoeuvre, pivot, t1, t2, legs)
        verdict = check_move(scenario, move)
        if verdict.legal:
            stats["elapsed_s"] = time.perf_counter() - started
            return move, objective_value(objective, scenario, verdict), stats
    stats["elapsed_s"] = time.perf_counter() - started
    return None, None, stats


def _wheel_pairs(grid_deg: float, window: float) -> list[tuple[float, float]]:
    steps = [k * grid_deg for k in range(-math.floor(90.0 / grid_deg),
                                         math.floor(90.0 / grid_deg) + 1) if k != 0]
    return [(t1, t2) for t1 in steps for t2 in steps
            if abs(t1) <= window + 1e-9 and abs(t1 + t2) <= window + 1e-9]


class _Way:
    """One heading sequence: where its centre ends with no forward legs, and the legs'
    directions (frame coordinates, y ahead)."""

    def __init__(self, width: float, depth: float, pivot: float, t1: float, t2: float) -> None:
        h = np.radians([pivot, pivot + t1, pivot + t1 + t2])
        self.dirs = _direction(h)  # (3, 2)
        front = depth / 2.0 * self.dirs[0] + _swept(width / 2.0, h[:1], h[1:2])[0] + \
            _swept(width / 2.0, h[1:2], h[2:])[0]
        self.start = front - depth / 2.0 * self.dirs[2]
        self.facing_deg = pivot + t1 + t2

    def polygon(self, spare: float) -> shapely.Geometry:
        points = [self.start] + [self.start + spare * d for d in self.dirs]
        return MultiPoint([tuple(p) for p in points]).convex_hull


def _region(regions: CentreRegions, option: Option, base: shapely.Geometry) -> shapely.Geometry:
    """The base cut by the end-position rules' sound regions (as CentreRegions.of)."""
    query = RegionQuery.of(regions.setting, option, base)
    parts = [clause.region(query) for clause in regions.clauses]
    keep = [base] + [g for part in parts if part is not None and part.keep for g in part.keep]
    region = shapely.intersection_all(keep)
    for part in parts:
        if part is not None and part.cut is not None and not region.is_empty:
            region = region.difference(part.cut())
    return region


def _best_point(objective: Objective, target: np.ndarray | None, option: Option,
                region: shapely.Geometry) -> np.ndarray:
    """The region's best end centre for the objective, the end facing fixed."""
    coords = shapely.get_coordinates(region)
    if objective.name == "forward" or target is None:
        return coords[np.argmax(coords[:, 1])]
    if objective.name == "face_point":
        f = np.array(_direction(np.radians(option.frame_facing_deg - 90.0)))
        hit = shapely.get_coordinates(region.intersection(
            LineString([target - 1000.0 * f, target + 1000.0 * f])))
        if len(hit):
            return hit[0]
        right = np.array([f[1], -f[0]])
        return coords[np.argmin(np.abs((target - coords) @ right))]
    goal = target - np.array(front_offset(option)) \
        if objective.name == "front_target_distance" else target
    return shapely.get_coordinates(shapely.shortest_line(region, Point(goal)))[0]


def _cost(objective: Objective, target: np.ndarray | None, frame: Frame, option: Option,
          centre: np.ndarray) -> float:
    """What is minimised at a frame end centre with the option's facing."""
    if objective.name == "forward" or target is None:
        return -float(centre[1])
    if objective.name == "face_point":
        f = _direction(np.radians(option.frame_facing_deg - 90.0))
        bearing = math.degrees(math.atan2(target[1], target[0]))
        gap = (option.frame_facing_deg - bearing + 180.0) % 360.0 - 180.0
        return abs(float((target - centre) @ np.array([f[1], -f[0]]))) + \
            BEHIND_PENALTY * float(abs(gap) > 90.0)
    point = centre + np.array(front_offset(option)) \
        if objective.name == "front_target_distance" else centre
    distance = float(np.hypot(*(point - target)))
    if objective.name == "target_pose":
        assert objective.facing_deg is not None
        turn = abs((option.facing_deg - objective.facing_deg + 180.0) % 360.0 - 180.0)
        return math.hypot(distance, 0.1 * turn)
    return distance


def _move(unit_id: str, manoeuvre: str, pivot: float, t1: float, t2: float,
          legs: np.ndarray) -> Move:
    a0, a1, a2 = (float(v) if v > LEG_EPS else 0.0 for v in legs)
    steps = [Step("forward", a0), Step("wheel", t1), Step("forward", a1), Step("wheel", t2),
             Step("forward", a2)]
    return Move(unit_id, manoeuvre, steps=tuple(s for s in steps if s.value != 0.0),
                pivot_deg=pivot)
