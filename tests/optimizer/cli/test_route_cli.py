"""`manoeuvre route`, `check` and `render` on Infinity towns, end to end through the files:
the bundled example, the documented outputs, pictures, and bad input (exit status 2, one
line, never a traceback)."""

from __future__ import annotations

import json
import math

import pytest

from optimizer.cli import main
from tests.support import ROOT

RUINS = str(ROOT / "examples" / "ruins.json")
ROUTE = str(ROOT / "examples" / "ruins_route.json")


def test_the_bundled_route_is_legal(capsys):
    assert main(["check", RUINS, ROUTE, "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["legal"] and out["moves"] == pytest.approx([3.969887, 3.992676], abs=1e-6)
    assert main(["check", RUINS, ROUTE]) == 0
    assert "fusilier move_move: LEGAL" in capsys.readouterr().out


def test_route_to_the_roof_is_optimal_and_checked(capsys):
    code = main(["route", RUINS, "--unit", "fusilier", "--to", "9.3,16.3", "--skill",
                 "move_move", "--json"])
    out = json.loads(capsys.readouterr().out)
    assert code == 0 and out["status"] == "OPTIMAL" and out["legal"]
    assert out["path"][-1] == [9.3, 16.3, 3.0]            # the roof, found from x, y alone
    assert out["length"] - out["bound"] <= out["tolerance"]


def test_too_far_for_one_move_is_idle(capsys):
    code = main(["route", RUINS, "--unit", "fusilier", "--to", "9.3,16.3", "--skill", "move",
                 "--json"])
    out = json.loads(capsys.readouterr().out)
    assert code == 1 and out["idle"] and not out["legal"]
    assert [v["clause"] for v in out["violations"]] == ["route.length"]


def test_reach_and_pictures(tmp_path, capsys):
    picture = tmp_path / "area.png"
    assert main(["route", RUINS, "--unit", "fusilier", "--reach", "--json", "--render",
                 str(picture)]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["status"] == "FEASIBLE" and 0 < out["area"] <= out["outer_area"]
    assert out["levels"][0]["level"] == 0.0 and out["levels"][0]["polygons"]
    assert picture.stat().st_size > 10_000
    drawn = tmp_path / "route.svg"
    assert main(["render", RUINS, ROUTE, "-o", str(drawn)]) == 0
    assert drawn.read_text(encoding="utf-8").startswith("<?xml")


def _scenario(tmp_path, change):
    data = json.loads((ROOT / "examples" / "ruins.json").read_text(encoding="utf-8"))
    change(data)
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    return str(path)


BAD_SCENARIOS = [
    ("trooper inside scenery", lambda d: d["units"][0].update(centre=[12, 15]), "not on a"),
    ("ladder touching no level",
     lambda d: d["terrain"].append({"id": "l2", "kind": "ladder", "from": [2, 2, 0],
                                    "to": [2, 3, 5]}), "touches no level"),
    ("unknown silhouette", lambda d: d["units"][0].update(silhouette=0), "unknown silhouette"),
]


@pytest.mark.parametrize("why, change, message", BAD_SCENARIOS, ids=[b[0] for b in BAD_SCENARIOS])
def test_bad_scenarios_exit_2_with_one_line(tmp_path, capsys, why, change, message):
    path = _scenario(tmp_path, change)
    assert main(["route", path, "--unit", "fusilier", "--to", "5,5"]) == 2
    err = capsys.readouterr().err.strip()
    assert message in err and "\n" not in err and err.startswith("manoeuvre: error: ")


@pytest.mark.parametrize("args, message", [
    (["--unit", "nobody", "--to", "5,5"], "unknown unit"),
    (["--unit", "fusilier", "--to", "5"], "expected X,Y"),
    (["--unit", "fusilier", "--to", "500,5"], "off the battlefield"),
    (["--unit", "fusilier"], "either --to"),
    (["--unit", "fusilier", "--to", "5,5", "--reach"], "either --to"),
    (["--unit", "fusilier", "--to", "5,5", "--skill", "fly"], "invalid choice"),
])
def test_bad_requests_exit_2(capsys, args, message):
    assert main(["route", RUINS, *args]) == 2
    assert message in capsys.readouterr().err


@pytest.mark.parametrize("route, message", [
    ({"unit": "fusilier", "path": [[1, 1, 0]]}, "not where"),
    ({"unit": "fusilier", "skill": "fly", "path": [[4.8, 13, 0]]}, "unknown skill"),
    ({"unit": "fusilier", "skill": "jump", "path": [[4.8, 13, 0]]}, "at least 2 items"),
    ({"unit": "fusilier", "skill": "move_move", "path": [[4.8, 13, 0], [6, 13, 0]],
      "midpoint": [5, 13, 0]}, "not one of the path"),
    ({"unit": "fusilier", "path": [[4.8, 13, 0], [6, 13]]}, "expected 3 items"),
])
def test_bad_routes_exit_2(tmp_path, capsys, route, message):
    path = tmp_path / "route.json"
    path.write_text(json.dumps(route), encoding="utf-8")
    assert main(["check", RUINS, str(path)]) == 2
    err = capsys.readouterr().err
    assert message in err and "route.json" in err


def test_t9a_commands_refuse_an_infinity_scenario(capsys):
    assert main(["solve", RUINS, "--unit", "fusilier", "--manoeuvre", "march",
                 "--forward"]) == 2
    assert "manoeuvre" in capsys.readouterr().err


def test_render_draws_a_route_result(tmp_path, capsys):
    assert main(["route", RUINS, "--unit", "fusilier", "--to", "9.3,16.3", "--skill",
                 "move_move", "--json"]) == 0
    result = tmp_path / "result.json"
    result.write_text(capsys.readouterr().out, encoding="utf-8")
    picture = tmp_path / "result.png"
    assert main(["render", RUINS, str(result), "-o", str(picture)]) == 0
    assert picture.stat().st_size > 10_000


def test_route_chooses_the_skill_and_says_which(capsys):
    assert main(["route", RUINS, "--unit", "fusilier", "--to", "9.3,16.3", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["skill"] == "move_move" and out["tried"] == {
        "move": {"status": "OPTIMAL", "legal": False},
        "move_move": {"status": "OPTIMAL", "legal": True}}
    assert "Move + Move reaches it" in out["chosen"]
    assert main(["route", RUINS, "--unit", "fusilier", "--to", "9.3,16.3"]) == 0
    assert "move_move chosen" in capsys.readouterr().out


def test_route_reach_per_skill_and_move_move_refused(capsys):
    assert main(["route", RUINS, "--unit", "fusilier", "--reach", "--skill", "dodge",
                 "--json"]) == 0
    dodge = json.loads(capsys.readouterr().out)
    assert dodge["skill"] == "dodge" and dodge["mov"] == 2.0
    assert main(["route", RUINS, "--unit", "fusilier", "--reach", "--skill", "jump",
                 "--json"]) in (0, 1)
    jump = json.loads(capsys.readouterr().out)
    assert jump["skill"] == "jump" and jump["area"] <= jump["outer_area"]
    assert main(["route", RUINS, "--unit", "fusilier", "--reach", "--skill",
                 "move_move"]) == 2
    assert "not built" in capsys.readouterr().err


@pytest.mark.parametrize("name, unit, to, skill, length", [
    ("climb_tower", "sniper", "8.492126,11,3", "climb", 3 + 25 / 25.4),
    ("rooftop_gap", "runner", "12,15,3", "jump",
     math.hypot(12 - (9 - 25 / 25.4 / 2), 3) - 25 / 25.4),
])
def test_the_skill_examples(capsys, name, unit, to, skill, length):
    scene = str(ROOT / "examples" / f"{name}.json")
    assert main(["check", scene, str(ROOT / "examples" / f"{name}_route.json"), "--json"]) == 0
    declared = json.loads(capsys.readouterr().out)
    assert declared["legal"] and declared["skill"] == skill
    assert declared["length"] == pytest.approx(length, abs=1e-5)
    assert main(["route", scene, "--unit", unit, "--to", to, "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["skill"] == skill and out["status"] == "OPTIMAL" and out["legal"]
    assert not out["tried"]["move_move"]["legal"]
    assert out["length"] == pytest.approx(length, abs=1e-5)


@pytest.mark.parametrize("scenario", ["spears.json", "goblins.json"])
def test_reach_on_another_systems_scenario_is_bad_input(scenario, capsys):
    # It raised AttributeError (a rank-and-file unit has no trooper's centre) before the
    # scenario's system was checked; found by the HTTP service's fuzz.
    unit = "spears" if scenario == "spears.json" else "goblins"
    assert main(["route", str(ROOT / "examples" / scenario), "--unit", unit, "--reach"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "reachable_area is not available for the" in err
