"""A watched search (optimizer.search.watch): the same answer as unwatched, told of its
better answers on the way, and stopped when the watcher cancels."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from constraints.sat.context import SearchTimeout
from optimizer import Objective, best_move, check_move, load_scenario
from optimizer.search.model import build_search
from optimizer.search.request import SearchRequest
from optimizer.search.watch import Watch, watching

SCENARIOS = Path(__file__).resolve().parents[3] / "benchmarks" / "scenarios"
ROCKS = ("rocks.json", "march", Objective("target_distance", (40.0, 50.0)))
# bench_solve's open-march: two better answers on the way, proved in a fraction of a second
# (the rocks March, unproved, takes its 10 s a solve and is watched the same way).
OPEN = ("open.json", "march", Objective("target_distance", (30.0, 22.0)))


def _solve(case: tuple[str, str, Objective], watch: Watch | None = None) -> Any:
    file, manoeuvre, objective = case
    scenario = load_scenario(SCENARIOS / file)
    unit = scenario.units[0].id
    if watch is None:
        return best_move(scenario, unit, manoeuvre, objective, time_limit_s=30)
    with watching(watch):
        return best_move(scenario, unit, manoeuvre, objective, time_limit_s=30)


def test_watching_changes_nothing_and_hears_each_better_answer() -> None:
    told: list[dict[str, Any]] = []
    started: list[bool] = []
    watched = _solve(OPEN, Watch(told.append, lambda: started.append(True)))
    plain = _solve(OPEN)
    assert (watched.status, watched.value, watched.move) == \
        (plain.status, plain.value, plain.move)
    assert started == [True]
    values = [t["objective"]["value"] for t in told]
    assert len(values) >= 2 and values == sorted(values, reverse=True)
    assert len(set(values)) == len(values)
    scenario = load_scenario(SCENARIOS / OPEN[0])
    for t in told:
        assert t["verdict"]["legal"] is True
    assert check_move(scenario, watched.move).legal
    assert watched.value <= values[-1] + 1e-6


def test_a_search_cancelled_as_it_starts_says_so_with_a_legal_answer_or_none() -> None:
    watch = Watch()
    watch.on_started = watch.cancel
    result = _solve(ROCKS, watch)
    assert result.stopped_by == "cancelled"
    assert str(result.status) in ("FEASIBLE", "TIMEOUT")
    if result.move is not None:
        assert check_move(load_scenario(SCENARIOS / ROCKS[0]), result.move).legal


def test_a_cancelled_watch_stops_building_the_model() -> None:
    file, manoeuvre, objective = ROCKS
    scenario = load_scenario(SCENARIOS / file)
    request = SearchRequest(scenario, scenario.units[0].id, manoeuvre, objective)
    watch = Watch()
    watch.cancel()
    with watching(watch), pytest.raises(SearchTimeout, match="stopped"):
        build_search(request)
