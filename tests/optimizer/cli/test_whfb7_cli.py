"""`manoeuvre check` on whfb7 files: exit 0 legal, 1 illegal, 2 bad input (one line naming the
file); `moves` lists whfb7 moves over the searched family, saying which; the commands of
T9A's nudges and Combat Reforms refuse a whfb7 scenario as bad input."""

from __future__ import annotations

import json

import pytest

from optimizer.cli import main
from tests.support import ROOT

GOBLINS = str(ROOT / "examples" / "goblins.json")
TURN = str(ROOT / "examples" / "goblins_turn.json")


def _write(tmp_path, data: dict, name: str = "move.json") -> str:
    path = tmp_path / name
    path.write_text(json.dumps(data), encoding="utf-8")
    return str(path)


def test_the_example_turn_is_legal(capsys):
    assert main(["check", GOBLINS, TURN, "--json"]) == 0
    verdict = json.loads(capsys.readouterr().out)
    assert verdict["legal"] and verdict["end"]["files"] == 4
    assert verdict["measurements"]["distance"] == 4.0


@pytest.mark.parametrize("move, clause", [
    ({"unit": "goblins", "manoeuvre": "march", "steps": [{"turn": 90}, {"forward": 3.0}]},
     "whfb7.march.no_turn"),
    ({"unit": "goblins", "manoeuvre": "move", "steps": [{"turn": 90}, {"forward": 3.01}]},
     "whfb7.move.distance"),
    ({"unit": "goblins", "manoeuvre": "move", "steps": [{"turn": 90}, {"forward": 2.5}],
      }, None),
    ({"unit": "goblins", "manoeuvre": "reform", "files": 2, "facing": 0.0},
     "whfb7.reform.front_rank"),
])
def test_check_exits_1_exactly_when_a_clause_breaks(tmp_path, capsys, move, clause):
    code = main(["check", GOBLINS, _write(tmp_path, move), "--json"])
    verdict = json.loads(capsys.readouterr().out)
    assert code == (0 if clause is None else 1)
    assert [v["clause"] for v in verdict["violations"]] == ([clause] if clause else [])


@pytest.mark.parametrize("move, words", [
    ({"unit": "goblins", "manoeuvre": "move", "steps": [{"turn": 45}]},
     "$.steps[0].turn: expected a turn of 90, -90 or 180 degrees"),
    ({"unit": "goblins", "manoeuvre": "advance", "steps": []}, "unknown manoeuvre 'advance'"),
    ({"unit": "goblins", "manoeuvre": "reform", "files": 21, "facing": 0.0},
     "21 files but unit 'goblins' has only 20 models"),
    ({"unit": "goblins", "manoeuvre": "reform", "files": 5, "facing": 0.0,
      "assignment": {"goblins.champion": [0, 0]}}, "every model of the unit exactly once"),
])
def test_bad_moves_exit_2_with_one_line_naming_the_file(tmp_path, capsys, move, words):
    assert main(["check", GOBLINS, _write(tmp_path, move)]) == 2
    out = capsys.readouterr()
    assert out.out == "" and out.err.count("\n") == 1
    assert words in out.err and "move.json" in out.err


def test_a_t9a_unit_key_in_a_whfb7_scenario_exits_2(tmp_path, capsys):
    data = json.loads((ROOT / "examples" / "goblins.json").read_text(encoding="utf-8"))
    data["units"][0]["mobility"] = data["units"][0].pop("movement")
    scenario = _write(tmp_path, data, "scenario.json")
    assert main(["check", scenario, TURN]) == 2
    assert '"movement"' in capsys.readouterr().err


@pytest.mark.parametrize(("argv", "query"), [
    (["nudge", GOBLINS, "--casualties", TURN], "resolve"),
    (["combat-reform", GOBLINS], "best_reform"),
])
def test_t9a_commands_refuse_a_whfb7_scenario(capsys, argv, query):
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert f"{query} is not available for the whfb7 rules" in err and "'whfb7'" in err
    assert err.count("\n") == 1


def test_render_draws_a_whfb7_scenario(tmp_path):
    picture = tmp_path / "goblins.png"
    assert main(["render", GOBLINS, "-o", str(picture)]) == 0
    assert picture.stat().st_size > 0


@pytest.mark.parametrize("move", [
    {"unit": "goblins", "manoeuvre": "move", "steps": [{"turn": 90}, {"forward": 3.0}]},
    {"unit": "goblins", "manoeuvre": "march", "steps": [{"wheel": -60.0}, {"forward": 2.0}]},
    {"unit": "goblins", "manoeuvre": "reform", "files": 2, "facing": 0.0},
], ids=["turn", "wheel", "reform"])
def test_render_draws_a_whfb7_move(tmp_path, capsys, move):
    from matplotlib.figure import Figure

    from constraints.core.scenario_io import load_scenario
    from constraints.whfb7.move_io import move_from_json
    from optimizer.pictures import make_figure

    out = tmp_path / "move.png"
    assert main(["render", GOBLINS, _write(tmp_path, move), "-o", str(out)]) == 0
    assert out.stat().st_size > 0
    figure: Figure = make_figure(load_scenario(GOBLINS), move_from_json(move))
    labels = {h.get_label() for ax in figure.axes for h in ax.get_lines() + ax.patches}
    steps = {next(iter(s)) for s in move.get("steps", [])}
    assert ("outer corner's arc" in labels) is ("wheel" in steps)
    assert ("turn on the spot" in labels) is ("turn" in steps)
    assert ("whole unit's sweep" in labels) is bool(steps)


def test_render_region_draws_a_whfb7_region(tmp_path, capsys):
    """`legal_region` serves whfb7 (docs/api.md): the region of the turned move's end facing
    and files (a turn on the spot changes them)."""
    out = tmp_path / "move.png"
    assert main(["render", GOBLINS, TURN, "-o", str(out), "--region"]) == 0
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_solve_answers_a_whfb7_march(capsys):
    assert main(["solve", GOBLINS, "--unit", "goblins", "--manoeuvre", "march",
                 "--forward"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("OPTIMAL") and '"manoeuvre": "march"' in out


@pytest.mark.parametrize("manoeuvre", ["move", "march", "reform"])
def test_moves_lists_legal_whfb7_moves_and_says_which_ways(capsys, manoeuvre):
    from constraints.core.scenario_io import load_scenario
    from constraints.whfb7.checker import check_move
    from constraints.whfb7.move_io import move_from_json

    assert main(["moves", GOBLINS, "--unit", "goblins", "--manoeuvre", manoeuvre,
                 "--limit", "5", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert len(out["moves"]) == 5 and out["lattice"]["inch"] == 0.1
    scenario = load_scenario(GOBLINS)
    for move in out["moves"]:
        assert check_move(scenario, move_from_json(move)).legal
    if manoeuvre == "reform":
        assert out["family"] == {}  # every files and facing on the lattice
    else:
        assert out["family"]["max_wheels"] == 1 and "forward" in out["family"]["ways"]


def test_moves_text_names_the_family_first(capsys):
    assert main(["moves", GOBLINS, "--unit", "goblins", "--manoeuvre", "move",
                 "--limit", "2"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("ways of the family searched: ")
    assert len(lines) == 3 and all(json.loads(line)["manoeuvre"] == "move"
                                   for line in lines[1:])


def test_moves_of_a_blocked_march_exit_1(tmp_path, capsys):
    from constraints.whfb7.examples import field, unit

    data = field(unit(), unit("foe", centre=(36.0, 18.0), facing=270.0, player="blue"))
    scenario = _write(tmp_path, data, "blocked.json")
    assert main(["moves", scenario, "--unit", "u", "--manoeuvre", "march"]) == 1
    assert "no legal move" in capsys.readouterr().out
    assert main(["moves", scenario, "--unit", "u", "--manoeuvre", "move", "--limit", "1"]) == 0


@pytest.mark.parametrize("argv, words", [
    (["--unit", "goblins", "--manoeuvre", "advance"], "--manoeuvre: manoeuvre 'advance' is "
     "not in rules 'whfb7'"),
    (["--unit", "orcs", "--manoeuvre", "move"], "--unit: unknown unit 'orcs'"),
    (["--unit", "goblins", "--manoeuvre", "move", "--limit", "0"], "--limit: expected 1 <= N"),
    (["--unit", "goblins", "--manoeuvre", "move", "--limit", "x"], "--limit"),
    (["--unit", "goblins", "--manoeuvre", "wheel"], "--manoeuvre"),
    (["--manoeuvre", "move"], "--unit"),
    (["--unit", "goblins", "--manoeuvre", "move", "--target", "1,2"], "unrecognized"),
])
def test_a_whfb7_moves_request_with_bad_arguments_exits_2(capsys, argv, words):
    assert main(["moves", GOBLINS, *argv]) == 2
    out = capsys.readouterr()
    assert out.out == "" and out.err.count("\n") == 1 and words in out.err


def test_moves_of_a_bad_whfb7_scenario_exits_2(tmp_path, capsys):
    data = json.loads((ROOT / "examples" / "goblins.json").read_text(encoding="utf-8"))
    data["units"][0]["mobility"] = data["units"][0].pop("movement")
    scenario = _write(tmp_path, data, "scenario.json")
    assert main(["moves", scenario, "--unit", "goblins", "--manoeuvre", "move"]) == 2
    assert '"movement"' in capsys.readouterr().err
