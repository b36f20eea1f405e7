"""Advance and March moves given by their end pose: a legal way there, a proof that there is
none, or neither (docs/rules.md §4.8).

1. What the end pose alone decides: each clause is run on a context that knows the end pose
   but not the way (`EndOnlyContext`); a clause that needs the way cannot read it and is
   left for step 3.  The violations found (Valid Final Position, Unit Spacing and the table
   edge at the end, the Reorder) hold for every way: they are proofs.
2. What holds for every way, with any number of wheels: a March's end facing outside the
   heading window, and an end centre farther than the Snaking budget can take it
   (`snaking_bound.least_distance`).  Each names the clause whose limit it uses.
3. Otherwise the ways with at most two wheels (`ways.find_ways`, exact) are judged by the
   exact checker, cheapest first: the first legal one makes the verdict, with its steps.
   When none is legal nothing is proved (another way, with more wheels or another shape,
   may be legal): the verdict is "not proved", with the reason, and no violation.
"""

from __future__ import annotations

import math
from dataclasses import replace
from functools import cached_property
from typing import Any, cast

from constraints.core.limits import within
from constraints.core.scenario import Pose, Scenario
from constraints.core.verdict import Verdict, Violation
from constraints.geometry.plane import angle_between_deg, normalise_deg
from constraints.rank_and_file.family_limits import FamilyLimits, family_limits
from constraints.rank_and_file.kinematics import Trajectory, snake
from constraints.rank_and_file.unit import Unit
from constraints.t9a.context import MoveContext
from constraints.t9a.judge import judge
from constraints.t9a.moves import Move, forward, wheel
from constraints.t9a.snaking_bound import least_distance, turn_lipschitz
from constraints.t9a.way_problem import ROUNDED_LEG_NOISE, Way, WayProblem
from constraints.t9a.ways import find_ways

CANDIDATES_JUDGED = 40
# An executed way reaches the asked pose when its end centre is within REACH_NOISE (float
# noise) and its facing within REACH_DEG; a way whose legs were clamped from a rounding
# below zero (way_problem.ROUNDED_LEG_NOISE), within REACH_IN: an end pose written to 9
# decimals, its rounding amplified by a way whose legs all vanish (docs/rules.md §4.8).
REACH_NOISE = 1e-9
REACH_IN = 1e-7
REACH_DEG = 1e-9
SEARCHED = "forward steps with at most two wheels"


class _NeedsTheWay(Exception):
    """A clause asked for the way to an end pose, which the end pose alone does not give."""


class _WayHidden:
    """An end-pose move whose way is unknown: reading its Pivot or steps raises."""

    def __init__(self, move: Move) -> None:
        self._move = move

    def __getattr__(self, name: str) -> Any:
        if name in ("pivot_deg", "steps"):
            raise _NeedsTheWay
        return getattr(self._move, name)


class EndOnlyContext(MoveContext):
    """A move known by its end pose only.  Its Pivot, steps and trajectory cannot be read,
    so a clause either judges the end pose alone or raises `_NeedsTheWay`."""

    def __init__(self, scenario: Scenario, move: Move) -> None:
        super().__init__(scenario, move)
        self.move = cast(Move, _WayHidden(move))

    @cached_property
    def end_pose(self) -> Pose:
        assert self.move.centre is not None and self.move.facing_deg is not None
        return Pose(self.move.centre, self.move.facing_deg)

    @cached_property
    def trajectory(self) -> Trajectory:
        raise _NeedsTheWay

    @cached_property
    def pivoted_unit(self) -> Unit:
        raise _NeedsTheWay


def check_end_pose(scenario: Scenario, move: Move) -> Verdict:
    """The verdict of an Advance or March given by its end pose (module docstring).

    Parameters
    ----------
    scenario : Scenario
        The battlefield and its units.
    move : Move
        An Advance or March with `centre` and `facing` instead of steps.

    Returns
    -------
    Verdict
        Legal with the steps of the cheapest legal way found; illegal with only the
        violations that hold for every way; or not proved (`not_proved` says why).
    """
    unit = scenario.unit(move.unit)
    limits = family_limits(scenario.profile.clauses(move.manoeuvre), unit)
    problem = _problem(unit, move, limits)
    probe = EndOnlyContext(scenario, move)
    proofs, measurements = _end_proofs(probe)
    window = _window_proof(problem, limits)
    bound = least_distance(problem, _reach_slack(problem))
    # Beyond the window no way ends at this facing at all; the distance adds nothing then.
    proofs += window or _distance_proof(bound, limits)
    if math.isfinite(bound):
        measurements["least_distance"] = bound
    if proofs:
        return _verdict(probe, tuple(proofs), measurements)
    found, tried, ways = _first_legal_way(scenario, move, problem, limits)
    if found is not None:
        return found
    reason = _not_proved_reason(move, tried, ways, bound, limits)
    return replace(_verdict(probe, (), measurements), not_proved=reason)


def _first_legal_way(scenario: Scenario, move: Move, problem: WayProblem, limits: FamilyLimits
                     ) -> tuple[Verdict | None, list[tuple[Way, Verdict]], list[Way]]:
    """The verdict of the cheapest legal way found (None when none is), the ways judged and
    their verdicts, and every way found.  The ways solved to float noise first; when none
    is legal, those whose legs come out a rounding below zero, clamped (a pose written to 9
    decimals at the end of a way whose legs all vanish, way_problem.ROUNDED_LEG_NOISE)."""
    found, tried, ways = _judge_ways(scenario, move, find_ways(problem), limits, REACH_NOISE)
    if found is not None:
        return found, tried, ways
    rounded = find_ways(problem, ROUNDED_LEG_NOISE)
    found, more, _ = _judge_ways(scenario, move, rounded, limits, REACH_IN)
    return found, tried + more, ways or rounded


def _judge_ways(scenario: Scenario, move: Move, ways: list[Way], limits: FamilyLimits,
                reach_in: float) -> tuple[Verdict | None, list[tuple[Way, Verdict]], list[Way]]:
    unit = scenario.unit(move.unit)
    budget = limits.budget_in
    # A way over the budget breaks the distance clause: judging it would only say so.
    affordable = [w for w in ways if budget is None or within(w.cost, budget)]
    tried: list[tuple[Way, Verdict]] = []
    for way in affordable[:CANDIDATES_JUDGED]:
        candidate = _as_move(move, way)
        if not _reaches(unit, candidate, move, reach_in):
            continue
        verdict = judge(MoveContext(scenario, candidate))
        if verdict.legal:
            return replace(verdict, steps=_steps_json(candidate)), tried, ways
        tried.append((way, verdict))
    return None, tried, ways


def _problem(unit: Unit, move: Move, limits: FamilyLimits) -> WayProblem:
    assert move.centre is not None and move.facing_deg is not None
    # No heading-window clause: no limit on the heading, so the bound must allow any.
    return WayProblem(unit.pose.centre, unit.pose.facing_deg, move.centre, move.facing_deg,
                      unit.width_in, unit.depth_in, move.manoeuvre.pivots,
                      limits.window_or(180.0))


def _reach_slack(problem: WayProblem) -> float:
    """How far the end front centre of a way that reaches the pose (`_reaches`) may lie from
    the pose's, counted for the bound: the centre's tolerance, the facing's moving the front
    centre, and the facing's moving the bound itself (its Lipschitz constant per radian)."""
    facing = math.radians(REACH_DEG)
    return REACH_IN + facing * (problem.depth_in / 2.0 + turn_lipschitz(problem))


def _end_proofs(probe: EndOnlyContext) -> tuple[list[Violation], dict[str, float]]:
    """Violations and measurements of the clauses the end pose alone decides."""
    violations: list[Violation] = []
    measurements: dict[str, float] = {}
    for spec in probe.profile.clauses_for(probe.move.manoeuvre):
        try:
            found = spec.bound_to(probe.profile).check(probe)
        except _NeedsTheWay:
            continue
        violations.extend(found.violations)
        measurements.update(found.measurements)
    return violations, measurements


def _window_proof(problem: WayProblem, limits: FamilyLimits) -> list[Violation]:
    """A March ends at the heading its wheels leave it at, which the window keeps within
    `window` of its start: an end facing farther off is out of reach of every way."""
    clause = limits.clause_for("window_deg")
    if problem.pivots or clause is None:
        return []
    turn = angle_between_deg(problem.end_facing_deg, problem.facing_deg)
    if within(turn, problem.window_deg):
        return []
    message = (f"the end facing is {turn:.3f} deg from the facing before the move; every way "
               f"keeps the heading within {problem.window_deg:.3f} deg of it")
    return [Violation(clause, turn, problem.window_deg, "deg", message)]


def _distance_proof(bound: float, limits: FamilyLimits) -> list[Violation]:
    """The bound is at least the Snaking distance of every way: above the budget, none fits."""
    clause = limits.clause_for("budget_in")
    if clause is None or limits.budget_in is None or within(bound, limits.budget_in):
        return []
    if math.isfinite(bound):
        message = (f"every way to this end pose, with any number of wheels, needs at least "
                   f"{bound:.3f}\" of Snaking Forward Moves, limit {limits.budget_in:.3f}\"")
    else:
        message = ("no way that keeps the heading window reaches this end pose at any "
                   "distance: its front would have to move backwards")
    return [Violation(clause, bound, limits.budget_in, "in", message)]


def _verdict(probe: EndOnlyContext, violations: tuple[Violation, ...],
             measurements: dict[str, float]) -> Verdict:
    end = probe.end_unit
    return Verdict(probe.unit.id, probe.move.manoeuvre, end.pose.centre, end.pose.facing_deg,
                   end.files, end.corners(), violations, measurements,
                   models_of=end.model_places)


def _not_proved_reason(move: Move, tried: list[tuple[Way, Verdict]], ways: list[Way],
                       bound: float, limits: FamilyLimits) -> str:
    """Which ways were searched, what became of them, and why that proves nothing."""
    searched = f"any Pivot, then {SEARCHED}" if move.manoeuvre.pivots else SEARCHED
    budget = limits.budget_in
    limit = "" if budget is None else f", limit {budget:.3f}\""
    if tried:
        way, verdict = tried[0]
        found = (f"{len(tried)} ways within the distance reach this pose and none is legal; "
                 f"the cheapest ({way.cost:.3f}\") breaks {', '.join(verdict.clauses())}")
    elif ways:
        found = f"the cheapest way that reaches this pose needs {ways[0].cost:.3f}\"{limit}"
    else:
        found = "no way reaches this pose within the heading window"
    return (f"searched {searched}: {found}. Ways with three or more wheels were not "
            f"searched, and the bound over any number of wheels ({bound:.3f}\"{limit}) does "
            "not rule them out")


def _as_move(move: Move, way: Way) -> Move:
    a, b, c = way.legs
    t1, t2 = way.wheels_deg
    steps = tuple(s for s in (forward(a), wheel(t1), forward(b), wheel(t2), forward(c))
                  if s.value != 0.0)
    pivot = normalise_deg(way.pivot_deg + 180.0) - 180.0 if move.manoeuvre.pivots else 0.0
    return replace(move, steps=steps, pivot_deg=pivot, centre=None, facing_deg=None)


def _reaches(unit: Unit, way: Move, move: Move, reach_in: float) -> bool:
    """Whether the executed way ends on the asked pose: its centre within `reach_in`, its
    facing within REACH_DEG."""
    assert move.centre is not None and move.facing_deg is not None
    end = snake(unit, way.pivot_deg, way.steps).end
    return (math.dist(end.centre, move.centre) <= reach_in
            and angle_between_deg(end.facing_deg, move.facing_deg) <= REACH_DEG)


def _steps_json(move: Move) -> tuple[dict[str, float], ...]:
    pivot = ({"pivot": move.pivot_deg},) if move.pivot_deg else ()
    return pivot + tuple(s.to_json() for s in move.steps)

