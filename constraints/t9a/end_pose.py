"""Advance and March Moves given by their end pose: find a legal way there, and say which.

The checker searches this family of ways (docs/formats.md "Move", docs/rules.md §4.8): an
Advance's Pivot by phi, then forward a, wheel t1, forward b, wheel t2, forward c, with
t1 + t2 fixed by the end facing.  For a fixed (phi, t1) the end centre is linear in
(a, b, c):

    end = start + a f(h) + w(h, t1) + b f(h + t1) + w(h + t1, t2) + c f(h + t1 + t2)

where h = start facing + phi, f is the forward vector and w(h, t) the centre's displacement
in a wheel (it depends on the heading and angle only).  Two equations in three non-negative
unknowns: the cheapest solution has one of them zero, so each (phi, t1) is three 2x2 solves,
vectorised over a grid of phi (0.5 deg, plus the exact pivots 0 and end - start) and t1
(0.5 deg, plus the exact single wheel).  Candidates are judged by the exact checker, cheapest
first.  Ways needing three or more wheels are not searched: the verdict says so.
"""

from __future__ import annotations

import math
from dataclasses import replace

import numpy as np

from constraints.core.scenario import Scenario
from constraints.core.verdict import Verdict, Violation
from constraints.geometry.plane import forward_vectors, normalise_deg, signed_deg, solve_2x2
from constraints.geometry.wheel import wheel_shifts
from constraints.rank_and_file.family_limits import family_limits
from constraints.rank_and_file.unit import Unit
from constraints.t9a.checker import judge
from constraints.t9a.context import MoveContext
from constraints.t9a.kinematics import snake
from constraints.t9a.moves import Manoeuvre, Move, forward, wheel

GRID_DEG = 0.5
CANDIDATES_JUDGED = 40
_EPS_IN = 1e-9  # float noise in solved step lengths, not a rules tolerance










def candidate_ways(unit: Unit, move: Move, window_deg: float) -> list[tuple[float, Move]]:
    """(snaking distance, move with steps) for every way in the family, cheapest first."""
    assert move.centre is not None and move.facing_deg is not None
    h0, target = unit.pose.facing_deg, np.asarray(move.centre) - np.asarray(unit.pose.centre)
    turn = float(signed_deg(np.array(move.facing_deg - h0)))
    phis = np.array([0.0])
    if move.manoeuvre.pivots:
        phis = np.unique(np.concatenate([np.arange(-180.0, 180.0, GRID_DEG), [0.0, turn]]))
    found: list[tuple[float, Move]] = []
    for phi in phis:
        delta = float(signed_deg(np.array(turn - phi)))
        if abs(delta) > window_deg:
            continue
        lo, hi = max(-window_deg, delta - window_deg), min(window_deg, delta + window_deg)
        t1 = np.unique(np.concatenate([np.arange(lo, hi + 1e-9, GRID_DEG), [delta, 0.0]]))
        t1 = t1[(t1 >= lo) & (t1 <= hi)]
        found += _ways_for_pivot(unit, move, float(phi), t1, delta, target)
    found.sort(key=lambda item: (round(item[0], 9), _step_count(item[1])))
    return found


def _ways_for_pivot(unit: Unit, move: Move, phi: float, t1: np.ndarray, delta: float,
                    target: np.ndarray) -> list[tuple[float, Move]]:
    h = unit.pose.facing_deg + phi
    t2 = delta - t1
    dirs = [forward_vectors(np.full_like(t1, h)), forward_vectors(h + t1),
            forward_vectors(h + delta + 0 * t1)]
    size = (unit.width_in, unit.depth_in)
    rest = target - wheel_shifts(*size, np.full_like(t1, h), t1) - wheel_shifts(*size, h + t1, t2)
    out = _straight_ahead(move, phi, h, target) if delta == 0.0 else []
    width = unit.width_in
    wheel_cost = width * (np.abs(np.sin(np.radians(t1))) + np.abs(np.sin(np.radians(t2))))
    for drop in range(3):
        keep = [k for k in range(3) if k != drop]
        xy = solve_2x2(dirs[keep[0]], dirs[keep[1]], rest)
        ok = np.all(xy >= -_EPS_IN, axis=-1)
        for i in np.nonzero(ok)[0]:
            lengths = [0.0, 0.0, 0.0]
            lengths[keep[0]], lengths[keep[1]] = (max(0.0, float(v)) for v in xy[i])
            cost = sum(lengths) + float(wheel_cost[i])
            out.append((cost, _as_move(move, phi, lengths, float(t1[i]), float(t2[i]))))
    return out


def _straight_ahead(move: Move, phi: float, h: float,
                    target: np.ndarray) -> list[tuple[float, Move]]:
    """The way with no wheel at all, when the end lies straight ahead after the Pivot."""
    f = forward_vectors(np.array(h))
    along = float(target @ f)
    across = float(target[0] * f[1] - target[1] * f[0])
    if along < -_EPS_IN or abs(across) > _EPS_IN:
        return []
    return [(max(0.0, along), _as_move(move, phi, [max(0.0, along), 0.0, 0.0], 0.0, 0.0))]


def _as_move(move: Move, phi: float, lengths: list[float], t1: float, t2: float) -> Move:
    steps = [forward(lengths[0]), wheel(t1), forward(lengths[1]), wheel(t2),
             forward(lengths[2])]
    steps = [s for s in steps if s.value != 0.0]
    return replace(move, steps=tuple(steps), pivot_deg=normalise_deg(phi + 180.0) - 180.0,
                   centre=None, facing_deg=None)


def _step_count(move: Move) -> int:
    return len(move.steps) + (move.pivot_deg != 0)


def check_end_pose(scenario: Scenario, move: Move) -> Verdict:
    """The verdict of the cheapest legal way to the end pose, or of the cheapest way tried."""
    unit = scenario.unit(move.unit)
    clauses = scenario.profile.clauses(move.manoeuvre)
    window = family_limits(clauses, unit).window_or(90.0)
    ways = _reaching(unit, move, candidate_ways(unit, move, window))
    first: Verdict | None = None
    for _cost, way in ways[:CANDIDATES_JUDGED]:
        verdict = judge(MoveContext(scenario, way))
        verdict = replace(verdict, steps=_steps_json(way))
        if verdict.legal:
            return verdict
        first = first or verdict
    return first if first is not None else _unreachable(scenario, move)


def _reaching(unit: Unit, move: Move,
              ways: list[tuple[float, Move]]) -> list[tuple[float, Move]]:
    """Drop ways whose executed end misses the asked pose by more than float noise."""
    assert move.centre is not None
    kept = []
    for cost, way in ways:
        end = snake(unit, way.pivot_deg, way.steps).end
        if math.dist(end.centre, move.centre) <= 1e-6:
            kept.append((cost, way))
    return kept


def _steps_json(move: Move) -> tuple[dict[str, float], ...]:
    pivot = ({"pivot": move.pivot_deg},) if move.pivot_deg else ()
    return pivot + tuple(s.to_json() for s in move.steps)


def _unreachable(scenario: Scenario, move: Move) -> Verdict:
    unit = scenario.unit(move.unit)
    assert move.centre is not None and move.facing_deg is not None
    probe = replace(move, manoeuvre=Manoeuvre.REFORM, files=None)
    end = MoveContext(scenario, probe).end_unit
    reason = ("no Pivot and Snaking Forward Moves with at most two wheels, heading kept "
              "within the window, reach this pose")
    violation = Violation(f"t9a.{move.manoeuvre}.reachable", math.inf, 0.0, "in", reason)
    return Verdict(unit.id, move.manoeuvre, end.pose.centre, end.pose.facing_deg, end.files,
                   end.corners(), (violation,), {})
