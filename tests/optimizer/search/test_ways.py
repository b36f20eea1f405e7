"""Ways of several Snaking Forward Moves (optimizer.search.ways.snaking_ways over
constraints.t9a.ways_model): the model's kinematics against the checker's `snake`, its rows
sound against the checker, answers better than one wheel where a sidestep wins, and statuses
that speak of every way the rules allow (docs/rules.md §8.10)."""

from __future__ import annotations

import json

import numpy as np
import pytest
import shapely
from ortools.sat.python import cp_model

from constraints.core.scenario_io import load_scenario
from constraints.core.status import Status
from constraints.geometry.frame import Frame
from constraints.rank_and_file.kinematics import snake
from constraints.t9a.checker import check_move
from constraints.t9a.moves import Move, StepKind, forward, wheel
from constraints.t9a.ways_model import LEG_IN, POS_IN, WayModel, WayShape, direction
from optimizer import Objective, best_move
from optimizer.search.request import SearchRequest
from optimizer.search.ways import ways_of
from tests.depth import rows
from tests.solver_support import random_scenario
from tests.support import ROOT, scenario, unit, wall

SPEARS = ROOT / "examples" / "spears.json"
# A block of 4 x 2 (Mob 8, a 16" March) below two walls whose gap (5.4") is wider than its
# 4" frontage but 2.7" to the right of it: one wheel cannot line it up with the gap and face
# the target heading after, an S (wheel, forward, wheel back) can.
GAP = scenario(unit(models=8, files=4, mobility=8.0, centre=(36.0, 10.0)),
               terrain=(wall("west", 0.0, 20.0, 37.3, 21.0), wall("east", 42.7, 20.0, 72.0, 21.0)))
THROUGH_GAP = Objective("target_pose", point=(40.0, 24.0), facing_deg=90.0)


def _solve(s, manoeuvre, objective, max_wheels, unit_id="u", **kw):
    result = best_move(s, unit_id, manoeuvre, objective, time_limit_s=120.0,
                       max_wheels=max_wheels, **kw)
    if result.found:
        assert check_move(s, result.move).legal
    return result


def _wheels(move: Move) -> int:
    return sum(step.kind == StepKind.WHEEL for step in move.steps)


def _consistent(result) -> None:
    """OPTIMAL only within the tolerance of the bound over every way; FEASIBLE carries it."""
    assert result.bound_covers == "any_wheels"
    if result.status == Status.OPTIMAL:
        assert result.value - result.bound <= result.tolerance + 1e-9
    if result.found:
        assert result.value >= result.bound - 1e-9


# --- The cases -------------------------------------------------------------------

def test_the_spears_march_sidesteps_to_within_1_6_inches():
    # One wheel ends 4.0" away (forward 6"); wheel, forward, wheel back ends 1.54" away.
    result = _solve(load_scenario(SPEARS), "march",
                    Objective("target_pose", point=(40.0, 16.0), facing_deg=90.0), 3,
                    unit_id="spears")
    assert result.value <= 1.6 and _wheels(result.move) >= 2
    assert result.family == {"max_wheels": 3}
    _consistent(result)


def test_an_s_through_a_gap_no_single_wheel_fits():
    one = _solve(GAP, "march", THROUGH_GAP, 1)
    three = _solve(GAP, "march", THROUGH_GAP, 3)
    assert one.value > 5.0          # one wheel stays below the walls
    assert three.value < 1.0 and _wheels(three.move) >= 2
    assert three.verdict.end_centre[1] > 21.0   # through the gap, not round the walls
    _consistent(one)
    _consistent(three)


def test_an_advance_pivots_and_wheels_twice():
    # Facing the target heading after a Pivot needs a second wheel to come back onto it:
    # the whole model (every Pivot) held to Pivot +30, then +60, then back to +45 deg.
    s = scenario(unit(models=6, files=3, mobility=5.0))
    request = SearchRequest(s, "u", "advance", Objective("forward"), max_wheels=2)
    ways = ways_of(request.family).way_search(request, 2, deadline=float("inf"))
    assert ways.whole
    for stage, heading in zip(ways.way.stages, (30, 60, 45), strict=True):
        ways.enc.sat_model.add(stage.onehot[heading] == 1)
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = 1
    status, move = ways.solve(solver)
    assert status in (cp_model.OPTIMAL, cp_model.FEASIBLE)
    assert move.pivot_deg == 30.0 and [s.value for s in move.steps
                                       if s.kind == StepKind.WHEEL] == [30.0, -15.0]
    assert check_move(s, move).legal


def test_one_wheel_is_never_worse_than_the_one_wheel_options():
    # The way model only ever replaces the options' answer by a better one.
    s = load_scenario(SPEARS)
    objective = Objective("target_distance", point=(30.0, 20.0))
    one = _solve(s, "march", objective, 1, unit_id="spears")
    assert one.value <= one.stats["options_value"] + 1e-12
    three = _solve(s, "march", objective, 3, unit_id="spears")
    assert three.value <= one.value + 1e-12


# --- The model against the checker --------------------------------------------------------

def _fixed_way(shape: WayShape, headings: list[int],
               legs: list[int]) -> tuple[WayModel, cp_model.CpSolver]:
    model = cp_model.CpModel()
    way = WayModel(model, shape)
    for stage, h in zip(way.stages, headings, strict=True):
        model.add(stage.onehot[h] == 1)
    for k, leg in enumerate(legs):
        model.add(way.leg_totals[k] == leg)
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = 1
    assert solver.solve(model) == cp_model.OPTIMAL
    return way, solver


@pytest.mark.parametrize("seed", range(12))
def test_the_models_front_follows_snake(seed):
    """Random headings and legs (a Pivot in half the cases): the model's front centre after
    every stage is the checker's, within the model's own room."""
    rng = np.random.default_rng(seed)
    u = unit(models=10, files=int(rng.integers(2, 6)), mobility=6.0,
             facing=float(rng.uniform(0, 360)))
    shape = WayShape(u.width_in, u.depth_in, 12.0, 90.0, 1.0,
                     tuple(range(-179, 181)) if seed % 2 else (0,), 3)
    pivot = int(rng.integers(-179, 181)) if seed % 2 else 0
    headings = [pivot]
    for _ in range(3):
        low, high = max(headings[-1] - 90, pivot - 90), min(headings[-1] + 90, pivot + 90)
        headings.append(int(rng.integers(low, high + 1)))
    legs = [int(x) for x in rng.integers(0, 4000, 4)]
    way, solver = _fixed_way(shape, headings, legs)
    steps = []
    for k in range(4):
        if k:
            steps.append(wheel(float(headings[k] - headings[k - 1])))
        steps.append(forward(legs[k] * LEG_IN))
    trajectory = snake(u, float(pivot), tuple(steps))
    frame = Frame(u.pose.centre, u.pose.facing_deg)
    fronts = [np.asarray(frame.point(leg.after.centre)) + u.depth_in / 2 * direction(
        leg.after.facing_deg - u.pose.facing_deg) for leg in trajectory.legs if
        leg.step.kind == StepKind.FORWARD]
    for end, expected in zip(way.ends, fronts, strict=True):
        got = np.array([solver.value(end[0]), solver.value(end[1])]) * POS_IN
        assert np.abs(got - expected).max() < 1e-4


# 2-15 s a table (tests.depth: 1 in the quick run, 3 until 2026-12-04).
@pytest.mark.parametrize("seed", rows(range(6), 1))
def test_answers_near_random_obstacles_are_legal_and_their_status_honest(seed):
    s = random_scenario(1000 + seed)
    centre = np.asarray(s.unit("u").pose.centre)
    point = tuple(float(v) for v in centre + np.random.default_rng(seed).uniform(-8, 8, 2))
    for manoeuvre in ("march", "advance"):
        result = _solve(s, manoeuvre, Objective("target_distance", point=point), 2,
                        effort=1.0)
        if result.found:
            assert result.verdict.legal
        _consistent(result)


def test_the_same_answer_twice():
    objective = Objective("target_pose", point=(40.0, 16.0), facing_deg=90.0)
    first = _solve(load_scenario(SPEARS), "march", objective, 3, unit_id="spears").to_json()
    second = _solve(load_scenario(SPEARS), "march", objective, 3, unit_id="spears").to_json()
    first.pop("elapsed_s")
    second.pop("elapsed_s")
    assert json.dumps(first, sort_keys=True) == json.dumps(second, sort_keys=True)


def _partly(step, fraction: float):
    """The first `fraction` of a step."""
    if step.kind == StepKind.WHEEL:
        return wheel(step.value * fraction)
    return forward(step.value * fraction)


@pytest.mark.parametrize("seed", range(6))
def test_a_templates_regions_hold_every_way_through_it(seed):
    """A template model's clauses see only its region of end centres and its region of the
    front's positions: random legs through its headings (within the budget) end inside the
    first and pass only through the second, by the checker's `snake`."""
    rng = np.random.default_rng(seed)
    s = scenario(unit(models=8, files=4, mobility=6.0, facing=float(rng.uniform(0, 360))))
    request = SearchRequest(s, "u", "march", Objective("forward"), max_wheels=3)
    headings = [0]
    for _ in range(3):
        headings.append(int(np.clip(headings[-1] + rng.integers(-40, 41), -90, 90)))
    ways = ways_of(request.family).way_search(request, 3, float("inf"), [headings])
    region = ways._template_ends(request.lattice.inch)
    u, frame = request.unit, request.frame
    turns = np.diff(headings)
    left = ways.shape.budget - u.width_in * np.abs(np.sin(np.radians(turns))).sum()
    fronts = ways._template_fronts()
    for _ in range(50):
        legs = rng.dirichlet(np.ones(4)) * max(left, 0.0) * rng.uniform(0.0, 1.0)
        steps = [forward(float(legs[0]))]
        for k, t in enumerate(turns, start=1):
            steps += [wheel(float(t)), forward(float(legs[k]))]
        steps = [st for st in steps if st.value]
        end = snake(u, 0.0, tuple(steps)).end
        assert region.distance(shapely.Point(frame.point(end.centre))) < 1e-9
        # Part of the way, cut inside a step: the front's centre stays in its region too.
        if not steps:
            continue
        cut = int(rng.integers(0, len(steps)))
        pose = snake(u, 0.0, (*steps[:cut], _partly(steps[cut], rng.uniform()))).end
        front = np.asarray(frame.point(pose.centre)) + u.depth_in / 2 * direction(
            np.asarray(pose.facing_deg - u.pose.facing_deg))
        assert fronts.distance(shapely.Point(front)) < 1e-9
