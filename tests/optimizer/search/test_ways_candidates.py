"""Candidate ways of two wheels by exact geometry per heading sequence
(optimizer.search.ways.snaking_candidates): legal moves of two wheels that beat the value asked for,
the value the checker's end pose gives; used by the search of several wheels only (K >= 2,
T9A's family), and its statuses stay honest."""

from __future__ import annotations

import math

import pytest

from constraints.core.scenario_io import load_scenario, scenario_from_json
from constraints.core.status import Status
from constraints.sat.option import Option
from constraints.t9a.checker import check_move
from constraints.t9a.examples import advance, field, unit, wall
from constraints.t9a.move_io import move_from_json
from constraints.t9a.moves import StepKind
from optimizer import Objective, best_move
from optimizer.search.request import SearchRequest
from optimizer.search.ways import snaking_candidates, ways_of
from optimizer.search.ways.snaking_candidates import two_wheel_way
from tests.solver_support import random_scenario
from tests.support import SCENARIOS

SIDESTEP = Objective("target_pose", (28.0, 17.0), 90.0)  # 5" ahead, 4" right, facing 90


def _wheels(move) -> int:
    return sum(s.kind == StepKind.WHEEL for s in move.steps)


@pytest.mark.parametrize(("manoeuvre", "objective"), [
    ("march", SIDESTEP), ("march", Objective("forward")),
    ("march", Objective("face_point", (10.0, 30.0))),
    ("march", Objective("front_target_distance", (24.0, 20.0))),
    ("advance", Objective("target_pose", (20.0, 8.0), 270.0))])
def test_a_candidate_is_a_legal_two_wheel_move_with_its_value(manoeuvre, objective):
    s = load_scenario(SCENARIOS / "open.json")
    request = SearchRequest(s, "solo", manoeuvre, objective, max_wheels=2)
    move, verdict, stats = two_wheel_way(request, None, math.inf)
    assert verdict.legal and check_move(s, move).legal and _wheels(move) == 2
    assert stats["checked"] >= 1
    assert verdict.end_facing_deg == pytest.approx(check_move(s, move).end_facing_deg)


def test_a_candidate_beats_the_value_asked_for_or_there_is_none():
    s = load_scenario(SCENARIOS / "open.json")
    request = SearchRequest(s, "solo", "march", SIDESTEP, max_wheels=2)
    move, verdict, _ = two_wheel_way(request, None, math.inf)
    value = request.goal.exact(verdict)
    assert value < 1.0  # a one-wheel way cannot come within 3" (benchmarks/README.md)
    assert two_wheel_way(request, value - 0.5, math.inf) is None
    again = two_wheel_way(request, value + 0.5, math.inf)
    assert again is not None and request.goal.exact(again[1]) <= value + 1e-9


def test_only_the_search_of_several_wheels_uses_them():
    s = load_scenario(SCENARIOS / "open.json")
    request = SearchRequest(s, "solo", "march", SIDESTEP, max_wheels=1)
    assert ways_of(request.family).way_candidates(request, 1, None, math.inf) is None
    one = best_move(s, "solo", "march", SIDESTEP, max_wheels=1)
    assert one.value > 3.0 and _wheels(one.move) <= 1


@pytest.mark.parametrize("case, status", [("open", Status.OPTIMAL), ("column", Status.FEASIBLE)])
def test_the_search_finds_the_candidate_and_is_proved_where_the_bound_closes(case, status):
    """open-sidestep is proved since its runs are charged their exact net turn
    (docs/techniques.md §9); the column's bound stays open."""
    unit, objective = {"open": ("solo", SIDESTEP),
                       "column": ("column", Objective("target_pose", (25.0, 17.0), 90.0))}[case]
    s = load_scenario(SCENARIOS / f"{case}.json")
    request = SearchRequest(s, unit, "march", objective, max_wheels=3)
    _, verdict, _ = two_wheel_way(request, None, math.inf)
    result = best_move(s, unit, "march", objective, max_wheels=3)
    assert check_move(s, result.move).legal
    assert result.value <= request.goal.exact(verdict) + 1e-9
    assert result.status == status and result.value >= result.bound - 1e-9
    assert (result.value - result.bound <= 0.01 + 1e-9) == (status == Status.OPTIMAL)


@pytest.mark.parametrize("seed", range(4))
def test_candidates_near_random_obstacles_are_legal(seed):
    s = random_scenario(2000 + seed)
    for manoeuvre in ("march", "advance"):
        request = SearchRequest(s, "u", manoeuvre, Objective("forward"), max_wheels=2)
        found = two_wheel_way(request, None, math.inf)
        if found is not None:
            assert check_move(s, found[0]).legal and _wheels(found[0]) == 2


def _close_to_a_wall():
    """A 5 x 2 unit 2" in front of a wall: a Pivot of 90 deg leaves its rear 0.5" from it
    (Unit Spacing after the Pivot refuses it, constraints/t9a/clauses/movement/
    pivot_unit_spacing.py's example)."""
    return scenario_from_json(field(unit(), terrain=(wall("rocks", 30.0, 6.0, 42.0, 7.0),)))


def test_a_pivot_the_rules_refuse_is_screened_once_for_all_its_sequences(monkeypatch):
    """Sequences whose Pivot and end facing the way's own clauses refuse
    (BatchJudge.way_passes) are passed by before any region is cut or move judged; the
    checker refuses each such Pivot too, and the candidate found is the one found when the
    checker judges them one by one."""
    s = _close_to_a_wall()
    request = SearchRequest(s, "u", "advance", Objective("target_pose", (50.0, 10.0), 0.0),
                            max_wheels=2)
    screened = two_wheel_way(request, None, math.inf)
    assert screened is not None
    coarse = screened[2].get("coarse", screened[2])
    assert coarse["way_refused"] > 0
    screen = snaking_candidates._WayPasses(request)
    refused = [p for p in range(-135, 181, 45) if p and not screen(
        Option(0, 90.0 + p, 90.0 + p, 5, 5.0, 2.0), float(p))]
    assert 90 in refused or -90 in refused
    for pivot in refused:
        verdict = check_move(s, move_from_json(advance(pivot=float(pivot))))
        assert not verdict.legal
    monkeypatch.setattr(snaking_candidates._WayPasses, "__call__", lambda *a: True)
    one_by_one = two_wheel_way(SearchRequest(s, "u", "advance", request.objective,
                                             max_wheels=2), None, math.inf)
    assert one_by_one is not None
    assert one_by_one[0] == screened[0]
    assert one_by_one[2].get("coarse", one_by_one[2])["checked"] > coarse["checked"]
