"""`solve --avoid dangerous`: answers never touch Dangerous Terrain (no test), and no status
claims more than the search proved (OPTIMAL and INFEASIBLE hold only for the moves kept
0.5" / 1" away, so they are reported FEASIBLE and NOT_FOUND)."""

from __future__ import annotations

import json

import pytest

from constraints.core.scenario_io import scenario_from_json
from constraints.core.status import Status
from constraints.t9a.checker import check_move
from constraints.t9a.clauses.movement.dangerous_terrain import EXAMPLES
from constraints.t9a.examples import field, unit
from optimizer.cli import main
from optimizer.search.avoid import avoiding, kept_away
from optimizer.search.objectives import Objective
from optimizer.search.solve import best_move

MARSH_AHEAD = EXAMPLES[0][1]  # a marsh 3" ahead of the default unit, 4" wide


def _solve(scn, manoeuvre, objective, avoid):
    search = (lambda *a, **k: avoiding(best_move, *a, **k)) if avoid else best_move
    return search(scn, "u", manoeuvre, objective, time_limit_s=20.0)


def test_the_plain_answer_marches_through_and_the_avoiding_one_does_not():
    scn = scenario_from_json(MARSH_AHEAD)
    plain = _solve(scn, "march", Objective("forward"), avoid=False)
    assert plain.status == Status.OPTIMAL and plain.verdict.dangerous_terrain
    kept = _solve(scn, "march", Objective("forward"), avoid=True)
    assert kept.status == Status.FEASIBLE and kept.bound is None
    # Within the family that keeps out of the marsh the answer is proved: the front's reach
    # (optimizer.search.front_cut) shows no way past the marsh within the budget.
    assert kept.family["avoid"] == {"dangerous": ["marsh"], "status": "OPTIMAL"}
    verdict = check_move(scn, kept.move)
    assert verdict.legal and verdict.dangerous_terrain == ()
    assert 0.0 < kept.value < plain.value


@pytest.mark.parametrize(("manoeuvre", "objective"), [
    ("advance", Objective("target_distance", (36.0, 17.0))),
    ("reform", Objective("target_distance", (36.0, 15.0))),
])
def test_every_avoiding_answer_keeps_out_of_it(manoeuvre, objective):
    light = field(unit(light_troops=True), terrain=tuple(MARSH_AHEAD["terrain"]))
    scn = scenario_from_json(light)
    kept = _solve(scn, manoeuvre, objective, avoid=True)
    assert kept.status in (Status.FEASIBLE, Status.NOT_FOUND, Status.TIMEOUT)
    if kept.move is not None:
        marsh = scn.terrain[0].shape
        verdict = check_move(scn, kept.move)
        assert verdict.legal and verdict.dangerous_terrain == ()
        from shapely.geometry import Polygon
        assert Polygon(verdict.end_corners).distance(marsh) > 1.0


def test_without_dangerous_terrain_the_search_is_the_plain_one():
    scn = scenario_from_json(field(unit()))
    plain = _solve(scn, "march", Objective("forward"), avoid=False)
    kept = _solve(scn, "march", Objective("forward"), avoid=True)
    assert kept.status == plain.status == Status.OPTIMAL
    assert kept.value == plain.value and kept.bound == plain.bound
    assert kept.family["avoid"]["dangerous"] == []


def test_kept_away_counts_only_dangerous_terrain_as_impassable():
    scn = scenario_from_json(MARSH_AHEAD)
    assert [t.kind for t in kept_away(scn).terrain] == ["impassable"]
    assert [t.kind for t in scn.terrain] == ["dangerous"]


def test_solve_json_reports_the_tests_and_the_avoidance(tmp_path, capsys):
    path = tmp_path / "s.json"
    path.write_text(json.dumps(MARSH_AHEAD))
    args = ["solve", str(path), "--unit", "u", "--manoeuvre", "march", "--forward", "--json"]
    assert main(args) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["dangerous_terrain"] == [{"terrain": "marsh", "dice": 5, "test": 4}]
    assert main(args + ["--avoid", "dangerous"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["dangerous_terrain"] == [] and out["status"] == "FEASIBLE"
    assert out["family"]["avoid"]["dangerous"] == ["marsh"]
    assert main(args[:-1] + ["--avoid", "forests"]) == 2
