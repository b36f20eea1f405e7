"""A brute-force baseline over ways of two wheels (forward, wheel, forward, wheel, forward),
for the cases where more wheels win (benchmarks/bench_solve.py).

Every way on a grid: wheels every `grid_deg` (non-zero, the heading within the window after
each), legs every budget / 32 within the budget left after the wheels (frontage x sin |t|), an
Advance's Pivot every `pivot_deg`.  The end poses come from the front centre's exact
kinematics (a wheel of the front about a corner moves its centre by rho times the integral of
the forward direction over the headings swept); their objectives in numpy; the ways in
objective order are judged by `check_move` until one is legal.  No mask: the batch mask
judges one-wheel ways only.  Ways of one wheel are the other baselines' (benchmarks/
baselines.py).
"""

from __future__ import annotations

import math
import time
from typing import Any

import numpy as np

from constraints.core.scenario import Scenario
from constraints.geometry.frame import Frame
from constraints.rank_and_file.family_limits import family_limits
from constraints.t9a.checker import check_move
from constraints.t9a.moves import Move, Step
from optimizer.search.objectives import BEHIND_PENALTY, Objective
from optimizer.search.solve import objective_value

Result = tuple[Move | None, float | None, dict[str, Any]]
MAX_CHECKS = 300
CHUNK = 2_000_000  # ways whose end poses are computed at once


def brute_two_wheels(scenario: Scenario, unit_id: str, manoeuvre: str, objective: Objective,
                     grid_deg: float = 5.0, legs: int = 32,
                     pivot_deg: float = 45.0) -> Result:
    """The best legal way of two wheels on the grid, legs every budget / `legs` (None if
    none is legal among the MAX_CHECKS best)."""
    started = time.perf_counter()
    unit = scenario.unit(unit_id)
    limits = family_limits(scenario.profile.clauses(manoeuvre), unit)
    budget, window = limits.budget_or(2.0 * unit.mobility_in), limits.window_or(90.0)
    frame = Frame(unit.pose.centre, unit.pose.facing_deg)
    ways = _ways(unit.width_in, budget, window, grid_deg, budget / legs,
                 pivot_deg if manoeuvre == "advance" else None)
    cost = np.concatenate([_costs(objective, frame, unit.width_in, unit.depth_in, w)
                           for w in np.array_split(ways, max(1, len(ways) // CHUNK))])
    order = np.argsort(cost, kind="stable")
    stats: dict[str, Any] = {"ways": len(ways), "checked": 0, "grid_in": budget / legs}
    for n in order[:MAX_CHECKS]:
        if not np.isfinite(cost[n]):
            break
        stats["checked"] += 1
        move = _move(unit_id, manoeuvre, ways[n])
        verdict = check_move(scenario, move)
        if verdict.legal:
            stats["elapsed_s"] = time.perf_counter() - started
            return move, objective_value(objective, scenario, verdict), stats
    stats["elapsed_s"] = time.perf_counter() - started
    return None, None, stats


def _ways(width: float, budget: float, window: float, grid_deg: float, grid_in: float,
          pivot_step: float | None) -> np.ndarray:
    """(N, 6): pivot, t1, t2 (degrees), a0, a1, a2 (inches)."""
    steps = np.arange(-math.floor(90.0 / grid_deg), math.floor(90.0 / grid_deg) + 1) * grid_deg
    steps = steps[steps != 0.0]
    t1, t2 = (a.ravel() for a in np.meshgrid(steps, steps, indexing="ij"))
    keep = (np.abs(t1) <= window + 1e-9) & (np.abs(t1 + t2) <= window + 1e-9)
    t1, t2 = t1[keep], t2[keep]
    spare = budget - width * (np.abs(np.sin(np.radians(t1))) + np.abs(np.sin(np.radians(t2))))
    n = int(math.floor(budget / grid_in + 1e-9))
    ticks = np.arange(n + 1) * grid_in
    legs = np.stack(np.meshgrid(ticks, ticks, ticks, indexing="ij"), -1).reshape(-1, 3)
    legs = legs[legs.sum(axis=1) <= budget + 1e-9]
    pivots = [0.0] if pivot_step is None else \
        list(np.arange(-180.0 + pivot_step, 180.0 + 1e-9, pivot_step))
    out = []
    for pivot in pivots:
        for i in np.flatnonzero(spare >= 0.0):
            fit = legs[legs.sum(axis=1) <= spare[i] + 1e-9]
            row = np.column_stack([np.full(len(fit), pivot), np.full(len(fit), t1[i]),
                                   np.full(len(fit), t2[i]), fit])
            out.append(row)
    return np.concatenate(out) if out else np.zeros((0, 6))


def _direction(x: np.ndarray) -> np.ndarray:
    return np.stack([-np.sin(x), np.cos(x)], axis=-1)


def _swept(rho: float, before: np.ndarray, after: np.ndarray) -> np.ndarray:
    """How a wheel from heading `before` to `after` (radians) moves the front centre."""
    lo, hi = np.minimum(before, after), np.maximum(before, after)
    return rho * np.stack([np.cos(hi) - np.cos(lo), np.sin(hi) - np.sin(lo)], axis=-1)


def _costs(objective: Objective, frame: Frame, width: float, depth: float,
           ways: np.ndarray) -> np.ndarray:
    """What is minimised, per way (frame inches)."""
    pivot, t1, t2 = (np.radians(ways[:, j]) for j in range(3))
    h1, h2 = pivot + t1, pivot + t1 + t2
    front = depth / 2.0 * _direction(pivot) + ways[:, 3:4] * _direction(pivot)
    front += _swept(width / 2.0, pivot, h1) + ways[:, 4:5] * _direction(h1)
    front += _swept(width / 2.0, h1, h2) + ways[:, 5:6] * _direction(h2)
    centre = front - depth / 2.0 * _direction(h2)
    facing = frame.heading_deg + np.degrees(h2)
    name = objective.name
    if name == "forward":
        return -centre[:, 1]
    target = np.asarray(frame.point(objective.point)) if objective.point is not None else None
    assert target is not None
    if name == "face_point":
        right = -_direction(h2 + math.pi / 2.0)  # to the unit's right
        bearing = math.degrees(math.atan2(target[1], target[0]))
        gap = (np.degrees(h2) + 90.0 - bearing + 180.0) % 360.0 - 180.0
        behind = (np.abs(gap) > 90.0).astype(float)
        return np.abs(np.sum((target - centre) * right, axis=1)) + BEHIND_PENALTY * behind
    point = front if name == "front_target_distance" else centre
    distance = np.hypot(*(point - target).T)
    if name == "target_pose":
        assert objective.facing_deg is not None
        turn = np.abs((facing - objective.facing_deg + 180.0) % 360.0 - 180.0)
        return np.hypot(distance, 0.1 * turn)
    return distance


def _move(unit_id: str, manoeuvre: str, way: np.ndarray) -> Move:
    pivot, t1, t2, a0, a1, a2 = (float(v) for v in way)
    steps = [Step("forward", a0), Step("wheel", t1), Step("forward", a1), Step("wheel", t2),
             Step("forward", a2)]
    return Move(unit_id, manoeuvre, steps=tuple(s for s in steps if s.value != 0.0),
                pivot_deg=pivot)
