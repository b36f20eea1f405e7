"""`manoeuvre check` on the cases the foundation issue names, end to end through the files."""

import json

import pytest

from constraints.core.scenario_io import save_scenario
from optimizer.cli import main
from tests.support import Base, scenario, unit, wall


def run_check(tmp_path, capsys, s, move: dict) -> tuple[int, dict]:
    scenario_file, move_file = tmp_path / "scenario.json", tmp_path / "move.json"
    save_scenario(s, scenario_file)
    move_file.write_text(json.dumps(move), encoding="utf-8")
    code = main(["check", str(scenario_file), str(move_file), "--json"])
    verdict = json.loads(capsys.readouterr().out)
    assert code == (0 if verdict["legal"] else 1)
    assert (verdict["violations"] == []) == verdict["legal"]
    return code, verdict


def clauses(verdict: dict) -> list[str]:
    return [v["clause"] for v in verdict["violations"]]


MARCHER = scenario(unit("u", models=10, files=5, centre=(36.0, 10.0), mobility=4.0))


@pytest.mark.parametrize("distance, legal", [(8.0, True), (8.01, False)])
def test_march_of_exactly_twice_mobility(tmp_path, capsys, distance, legal):
    move = {"unit": "u", "manoeuvre": "march", "steps": [{"forward": distance}]}
    code, verdict = run_check(tmp_path, capsys, MARCHER, move)
    assert verdict["legal"] == legal
    if not legal:
        assert "t9a.march.distance" in clauses(verdict)
        distance_violation = verdict["violations"][0]
        assert distance_violation["measured"] == 8.01 and distance_violation["limit"] == 8.0


def test_long_column_cheap_wheel_breaks_valid_final_position(tmp_path, capsys):
    column = unit("column", models=12, files=1, base=Base(25, 50), centre=(36.0, 20.0))
    move = {"unit": "column", "manoeuvre": "march", "steps": [{"wheel": 30.0}]}
    _, verdict = run_check(tmp_path, capsys, scenario(column), move)
    assert clauses(verdict) == ["t9a.valid_final_position"]
    assert verdict["measurements"]["distance"] < 0.5


def test_second_wheel_past_ninety_degrees(tmp_path, capsys):
    s = scenario(unit("u", models=4, files=2, centre=(36.0, 20.0), mobility=5.0))
    move = {"unit": "u", "manoeuvre": "march", "steps": [{"wheel": 60.0}, {"wheel": 40.0}]}
    _, verdict = run_check(tmp_path, capsys, s, move)
    assert clauses(verdict) == ["t9a.march.heading_window"]
    assert verdict["violations"][0]["measured"] == 100.0


@pytest.mark.parametrize("rules, musician, legal", [("t9a", False, True),
                                                     ("t9a-2025", False, False),
                                                     ("t9a-2025", True, True)])
def test_reform_changing_files_by_three(tmp_path, capsys, rules, musician, legal):
    u = unit("u", models=20, files=5, centre=(36.0, 20.0), mobility=8.0, musician=musician)
    move = {"unit": "u", "manoeuvre": "reform", "files": 8, "centre": [36.0, 20.0],
            "facing": 90.0}
    _, verdict = run_check(tmp_path, capsys, scenario(u, rules=rules), move)
    assert verdict["legal"] == legal
    assert clauses(verdict) == ([] if legal else ["t9a.reform.file_change"])


def test_pivot_needs_the_best_reordering(tmp_path, capsys):
    line = unit("line", models=10, files=10, centre=(36.0, 20.0), mobility=2.0)
    move = {"unit": "line", "manoeuvre": "advance", "pivot": 180.0}
    _, verdict = run_check(tmp_path, capsys, scenario(line), move)
    assert verdict["legal"]
    rigid = dict(move, assignment={f"line.{i}": [0, i] for i in range(10)})
    _, verdict = run_check(tmp_path, capsys, scenario(line), rigid)
    assert clauses(verdict) == ["t9a.pivot.model_distance"]


@pytest.mark.parametrize("gap, legal", [(1.0, False), (1.001, True)])
def test_ending_one_inch_from_another_unit(tmp_path, capsys, gap, legal):
    mover = unit("u", centre=(36.0, 10.0))
    foe = unit("foe", centre=(36.0, 11.0 + 4.0 + gap + 1.0), facing=270.0, player="blue")
    move = {"unit": "u", "manoeuvre": "advance", "steps": [{"forward": 4.0}]}
    _, verdict = run_check(tmp_path, capsys, scenario(mover, foe), move)
    assert verdict["legal"] == legal
    assert verdict["measurements"]["clearance"] == pytest.approx(gap, abs=1e-9)


def test_reform_model_walks_round_an_impassable_wall(tmp_path, capsys):
    u = unit("u", models=5, files=5, centre=(20.0, 10.0), mobility=4.15, light_troops=True)
    s = scenario(u, terrain=(wall("wall", 19.0, 13.5, 21.0, 14.5),))
    move = {"unit": "u", "manoeuvre": "reform", "centre": [20.0, 18.0], "facing": 90.0}
    _, verdict = run_check(tmp_path, capsys, s, move)
    assert clauses(verdict) == ["t9a.reform.model_path"]
    assert verdict["measurements"]["model_path"] > 8.0  # every straight line is exactly 8"


def test_text_verdict_names_each_broken_clause(tmp_path, capsys):
    scenario_file, move_file = tmp_path / "s.json", tmp_path / "m.json"
    save_scenario(MARCHER, scenario_file)
    move_file.write_text(json.dumps({"unit": "u", "manoeuvre": "march",
                                     "steps": [{"forward": 9.0}]}), encoding="utf-8")
    assert main(["check", str(scenario_file), str(move_file)]) == 1
    text = capsys.readouterr().out
    assert "ILLEGAL" in text and "t9a.march.distance" in text and "limit 8.000" in text


def test_an_end_pose_move_is_reached_and_the_way_is_named(tmp_path, capsys):
    move = {"unit": "u", "manoeuvre": "march", "centre": [36.0, 16.0], "facing": 90.0}
    _, verdict = run_check(tmp_path, capsys, MARCHER, move)
    assert verdict["legal"]
    assert verdict["steps"] == [{"forward": pytest.approx(6.0)}]
