"""Limits of a search: the same answer on a busy machine (the work is bounded by CP-SAT's
deterministic time, not the clock), `stopped_by` saying which limit ended it, and standing
still as an answer whenever it is legal."""

from __future__ import annotations

import json
import multiprocessing
import time

from constraints.core.scenario_io import load_scenario
from optimizer import Objective, best_move
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


def test_the_same_answer_idle_and_under_load():
    """A budget small enough that CP-SAT stops on it (FEASIBLE, stopped_by
    deterministic_time): the answer is the same with the other core busy."""
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
