"""`manoeuvre nudge` end to end through the files: the bundled example, its picture, and bad
casualties files (exit status 2, one line naming the file, the JSON path and the problem)."""

from __future__ import annotations

import json
from pathlib import Path

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


def _nudge_file(tmp_path, capsys, legs=None):
    assert main(["nudge", MELEE, "--casualties", CASUALTIES, "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    if legs is not None:
        result["nudges"][0]["legs"] = legs
    path = tmp_path / "nudges.json"
    path.write_text(json.dumps(result))
    return str(path)


def test_check_judges_the_tools_own_nudges_legal(tmp_path, capsys):
    path = _nudge_file(tmp_path, capsys)
    assert main(["check", MELEE, path, "--casualties", CASUALTIES, "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["legal"] is True and out["violations"] == []
    assert out["nudges"][0]["unit"] == "wolves" and out["nudges"][0]["least"] == 0.2
    assert main(["check", MELEE, path, "--casualties", CASUALTIES]) == 0
    assert capsys.readouterr().out.startswith("nudges: LEGAL")


@pytest.mark.parametrize(("legs", "clause"), [
    ([{"sideways": 0.5}], "nudge.minimum"),
    ([{"sideways": 0.1}], "nudge.contact"),
    ([{"sideways": 0.5}, {"forward": 0.5}], "nudge.path"),
])
def test_check_names_the_clause_an_edited_leg_breaks(tmp_path, capsys, legs, clause):
    path = _nudge_file(tmp_path, capsys, legs)
    assert main(["check", MELEE, path, "--casualties", CASUALTIES, "--json"]) == 1
    out = json.loads(capsys.readouterr().out)
    assert out["legal"] is False
    assert clause in [v["clause"] for v in out["violations"]]
    assert main(["check", MELEE, path, "--casualties", CASUALTIES]) == 1
    assert f"{clause} (wolves)" in capsys.readouterr().out


def test_check_without_the_casualties_reads_those_the_file_echoes(tmp_path, capsys):
    """A `nudge --json` file echoes its casualties: without --casualties they are read from
    it (the tool's own answer is legal); a file that echoes none judges the unfrozen
    scenario, where nobody lost contact, so a nudge of the wolves breaks nudge.eligible."""
    path = _nudge_file(tmp_path, capsys)
    assert main(["check", MELEE, path]) == 0
    capsys.readouterr()
    data = json.loads(Path(path).read_text())
    data.pop("casualties", None)
    Path(path).write_text(json.dumps(data))
    assert main(["check", MELEE, path]) == 1
    assert "nudge.eligible (wolves)" in capsys.readouterr().out


def test_check_bad_nudge_files_exit_2_naming_the_path(tmp_path, capsys):
    path = _nudge_file(tmp_path, capsys, [{"sideways": "far"}])
    assert main(["check", MELEE, path, "--casualties", CASUALTIES]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "$.nudges[0].legs[0].sideways" in err and path in err
    move = tmp_path / "move.json"
    move.write_text(json.dumps({"unit": "spears", "manoeuvre": "reform"}))
    assert main(["check", MELEE, str(move), "--casualties", CASUALTIES]) == 2
    assert "--casualties goes only with nudges" in capsys.readouterr().err
