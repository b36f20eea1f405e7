"""Limits of a search: the same answer on a busy machine (the work is bounded by CP-SAT's
deterministic time, not the clock), `stopped_by` saying which limit ended it, and standing
still as an answer whenever it is legal."""

from __future__ import annotations

import json
import multiprocessing
import time

import pytest

import optimizer.search.more_wheels as more_wheels
import optimizer.search.request as search_request
from constraints.core.scenario_io import load_scenario
from constraints.core.status import Status
from constraints.sat.context import SearchTimeout
from constraints.t9a.checker import check_move
from optimizer import Objective, best_move
from optimizer.families.reform import ReformFamily
from optimizer.search.clock import Clock
from optimizer.search.model import build_search
from optimizer.search.request import SearchRequest
from tests.support import SCENARIOS, scenario, unit

ROCKS_MARCH = ("rocks.json", "band", "march", Objective("target_distance", (30.0, 30.0)))
# A Reform in the crowd: 232 options reach CP-SAT, so a small budget stops it.
CROWDED_REFORM = ("crowded.json", "mid", "reform", Objective("target_distance", (18.0, 12.0)))


def _spin(seconds: float) -> None:
    end = time.perf_counter() + seconds
    while time.perf_counter() < end:
        pass


def _answer(case, effort: float, max_wheels: int = 3) -> dict:
    file, unit_id, manoeuvre, objective = case
    result = best_move(load_scenario(SCENARIOS / file), unit_id, manoeuvre, objective,
                       effort=effort, time_limit_s=120.0, max_wheels=max_wheels)
    out = result.to_json()
    out.pop("elapsed_s")
    return out


def _by_model(monkeypatch) -> None:
    """A Reform searched by the model, as where geometry finds no legal best point: since
    issue 31 crowded.json's Reform is answered by geometry alone (OPTIMAL, no model)."""
    monkeypatch.setattr(ReformFamily, "answers_by_geometry", False)


def test_the_same_answer_idle_and_under_load(monkeypatch):
    """A budget small enough that CP-SAT stops on it (FEASIBLE, stopped_by
    deterministic_time): the answer is the same with the other core busy."""
    _by_model(monkeypatch)
    idle = _answer(CROWDED_REFORM, effort=0.001)
    assert idle["status"] == "FEASIBLE" and idle["stopped_by"] == "deterministic_time"
    busy = multiprocessing.get_context("spawn").Process(target=_spin, args=(60.0,))
    busy.start()
    try:
        loaded = _answer(CROWDED_REFORM, effort=0.001)
    finally:
        busy.terminate()
        busy.join()
    assert json.dumps(loaded, sort_keys=True) == json.dumps(idle, sort_keys=True)


def test_a_finished_search_was_stopped_by_nothing():
    # One wheel: the model of several wheels stops on its own share of the budget.
    answer = _answer(ROCKS_MARCH, effort=20.0, max_wheels=1)
    assert answer["family"]["status"] == "OPTIMAL" and answer["stopped_by"] is None


def test_a_wall_clock_cut_says_so_and_still_answers_standing_still():
    """A limit far too short for any search: the clock stops it, and standing still, legal
    here, is the answer (FEASIBLE), not a TIMEOUT without a move."""
    lone = scenario(unit("u", models=25, files=5, mobility=9.0, light_troops=True,
                         centre=(36.0, 24.0)))
    result = best_move(lone, "u", "reform", Objective("target_distance", (38.0, 26.0)),
                       time_limit_s=1e-6)
    assert result.stopped_by == "wall_clock"
    assert result.status == "FEASIBLE" and result.verdict is not None and result.verdict.legal
    assert result.move.centre == (36.0, 24.0)


# Issue 22: two Advances among scattered terrain whose prefilter, cut short by the clock,
# left every option (3,240 and 4,680) to the model; building it ignored the clock (18 s under
# a 5 s limit, idle).  The unit starts 0.933" from a triangle, so standing still is illegal.
OVER_LIMIT = ("advance_over_time_limit.json", "hero", "advance",
              Objective("target_distance", (37.786, 36.0)))
OVER_LIMIT_2 = ("advance_over_time_limit_2.json", "hero", "advance",
                Objective("target_distance", (7.162, 28.848)))


def _request(case, **limits) -> SearchRequest:
    file, unit_id, manoeuvre, objective = case
    return SearchRequest(load_scenario(SCENARIOS / file), unit_id, manoeuvre, objective,
                         **limits)


@pytest.mark.parametrize("case", [OVER_LIMIT, OVER_LIMIT_2])
def test_building_every_option_stops_on_its_row_budget(case):
    """The model of every option, as the search builds it when its prefilter was cut short:
    the building looks at its limits while the clauses post rows (Unit Spacing's thousands
    of separating-axis rows here), so a row budget stops it soon after it is passed, the
    same way each time (counted work, not time)."""
    request = _request(case)
    stops = []
    for _ in range(2):
        with pytest.raises(SearchTimeout) as stop:
            build_search(request, max_rows=2_000)
        assert stop.value.limit == "deterministic_time"
        stops.append(str(stop.value))
    assert stops[0] == stops[1]
    # The whole model is far larger than the budget: the clauses were stopped inside.
    assert request.model_rows >= 50_000


@pytest.mark.parametrize("case", [OVER_LIMIT, OVER_LIMIT_2])
def test_a_past_deadline_stops_the_building_with_the_wall_clock(case):
    request = _request(case)
    with pytest.raises(SearchTimeout) as stop:
        build_search(request, deadline=time.perf_counter() - 1.0)
    assert stop.value.limit == "wall_clock"


@pytest.mark.parametrize("case", [OVER_LIMIT, OVER_LIMIT_2])
def test_a_search_the_clock_cuts_says_so(case):
    """A limit far too short: the answer says the wall clock stopped it, claims no proof,
    and any move it has is legal (FEASIBLE); here no legal move was found in time."""
    file, unit_id, manoeuvre, objective = case
    scenario_ = load_scenario(SCENARIOS / file)
    result = best_move(scenario_, unit_id, manoeuvre, objective, time_limit_s=1e-3)
    assert result.stopped_by == "wall_clock"
    assert result.status in (Status.TIMEOUT, Status.FEASIBLE)
    assert (result.move is None) is (result.status == Status.TIMEOUT)
    if result.move is not None:
        assert check_move(scenario_, result.move).legal


def test_a_small_row_budget_gives_the_same_answer_twice(monkeypatch):
    """The row budget is counted work: a budget the model outgrows stops the building at
    the same row every time, and the answer (the legal answer found before, FEASIBLE) is the
    same twice, saying the work budget stopped it."""
    monkeypatch.setattr(search_request, "MIN_MODEL_ROWS", 1)
    monkeypatch.setattr(search_request, "ROWS_PER_EFFORT", 100)
    _by_model(monkeypatch)
    file, unit_id, manoeuvre, objective = CROWDED_REFORM
    first, second = (best_move(load_scenario(SCENARIOS / file), unit_id, manoeuvre, objective,
                               effort=1.0, time_limit_s=120.0) for _ in range(2))
    assert "outgrew its budget of 100 rows" in first.stats["model"]
    assert first.stopped_by == "deterministic_time" and first.status == Status.FEASIBLE
    assert check_move(load_scenario(SCENARIOS / file), first.move).legal
    answers = [r.to_json() for r in (first, second)]
    for answer in answers:
        answer.pop("elapsed_s")
    assert json.dumps(answers[0], sort_keys=True) == json.dumps(answers[1], sort_keys=True)


def test_drawing_the_way_templates_stops_at_the_deadline():
    """The relaxation's grid of up to 50,000 headings (the way templates' starting points)
    is judged in chunks, each after a look at the clock: an expired clock stops it before
    any work, and a clock with time left gives the whole grid, best first."""
    request = _request(OVER_LIMIT)
    assert request.relaxation is not None
    with pytest.raises(SearchTimeout) as stop:
        more_wheels._lattice_points(request, Clock(0.0))
    assert stop.value.limit == "wall_clock"
    points = more_wheels._lattice_points(request, Clock(600.0))
    assert len(points) > more_wheels.BEST_POINTS
