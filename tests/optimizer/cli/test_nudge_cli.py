"""`manoeuvre nudge` end to end through the files: the bundled example, its picture, and bad
casualties files (exit status 2, one line naming the file, the JSON path and the problem)."""

from __future__ import annotations

import json

import pytest

from optimizer.cli import main
from tests.support import ROOT

MELEE = str(ROOT / "examples" / "melee.json")
CASUALTIES = str(ROOT / "examples" / "melee_casualties.json")


def test_the_bundled_melee(capsys):
    code = main(["nudge", MELEE, "--casualties", CASUALTIES, "--json"])
    out = json.loads(capsys.readouterr().out)
    assert code == 0 and out["status"] == "OPTIMAL"
    assert out["nudges"] == [{"unit": "wolves", "legs": [{"sideways": 0.2}], "distance": 0.2,
                              "touches": ["spears"]}]
    assert out["combats"] == [["orcs", "spears", "wolves"]]
    changed = {u["id"]: u for u in out["units"]}
    assert changed["spears"]["models"] == 5 and changed["spears"]["centre"] == [36.0, 10.5]
    assert changed["orcs"]["files"] == 3
    assert out["casualties"] == {"spears": 5, "orcs": 2}


def test_text_output_names_the_nudge_and_the_combats(capsys):
    assert main(["nudge", MELEE, "--casualties", CASUALTIES]) == 0
    out = capsys.readouterr().out
    assert "nudge wolves: sideways +0.200000\"" in out
    assert "combats: orcs spears wolves" in out


def test_no_casualties_file_only_unfreezes(capsys):
    assert main(["nudge", MELEE, "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["nudges"] == [] and out["units"] == [] and out["no_more_foes"] == []


def test_render_before_and_after(tmp_path, capsys):
    picture = tmp_path / "melee.png"
    assert main(["nudge", MELEE, "--casualties", CASUALTIES, "--render", str(picture)]) == 0
    assert picture.stat().st_size > 10_000
    capsys.readouterr()
    result = tmp_path / "result.json"
    main(["nudge", MELEE, "--casualties", CASUALTIES, "--json"])
    result.write_text(capsys.readouterr().out, encoding="utf-8")
    again = tmp_path / "again.svg"
    assert main(["render", MELEE, str(result), "-o", str(again)]) == 0
    assert again.read_text(encoding="utf-8").startswith("<?xml")


@pytest.mark.parametrize("casualties, problem", [
    ({"bats": 2}, "$.bats: unknown unit 'bats'"),
    ({"orcs": 6}, "$.orcs: 6 casualties but orcs has 5 rank-and-file models"),
    ({"spears": [[0, 7]]}, "$.spears[0]: slot [0, 7] of spears holds no model"),
    ({"spears": [[0, 0], [0, 0]]}, "$.spears[1]: slot [0, 0] is listed twice"),
    ({"orcs": -1}, "$.orcs"),
    ({"orcs": {"count": 1, "outside": True}}, "$.orcs.outside: unknown key"),
    ([1, 2], "expected an object"),
])
def test_bad_casualties(tmp_path, capsys, casualties, problem):
    bad = tmp_path / "casualties.json"
    bad.write_text(json.dumps(casualties), encoding="utf-8")
    assert main(["nudge", MELEE, "--casualties", str(bad)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and str(bad) in err and problem in err


def test_an_unknown_state_is_bad_input(tmp_path, capsys):
    data = json.loads((ROOT / "examples" / "melee.json").read_text(encoding="utf-8"))
    data["units"][1]["state"] = "routed"
    bad = tmp_path / "scenario.json"
    bad.write_text(json.dumps(data), encoding="utf-8")
    assert main(["nudge", str(bad)]) == 2
    assert "$.units[1].state: unknown state 'routed'" in capsys.readouterr().err
