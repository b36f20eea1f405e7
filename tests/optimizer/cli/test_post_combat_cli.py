"""The Post-Combat Pivot on the command line: `check` judges a pivot file, `solve --manoeuvre
post_combat_pivot --face X,Y | --facing DEG` searches it, bad input exits 2 on one line."""

from __future__ import annotations

import json

import pytest

from constraints.t9a.clauses.post_combat.unit_spacing import PostCombatSpacing
from optimizer.cli import main
from tests.support import ROOT

WALL_BEHIND = next(e for e in PostCombatSpacing.examples
                   if e.why.startswith("a wall 0.3\" behind")).scenario


@pytest.fixture
def wall(tmp_path):
    path = tmp_path / "wall.json"
    path.write_text(json.dumps(WALL_BEHIND))
    return str(path)


def _move(tmp_path, data):
    path = tmp_path / "pivot.json"
    path.write_text(json.dumps(data))
    return str(path)


def test_check_an_about_face_is_legal_and_a_quarter_turn_is_not(tmp_path, wall, capsys):
    about = _move(tmp_path, {"unit": "u", "manoeuvre": "post_combat_pivot", "pivot": 180})
    assert main(["check", wall, about, "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["legal"] is True and out["end"]["facing"] == 270.0
    quarter = _move(tmp_path, {"unit": "u", "manoeuvre": "post_combat_pivot", "pivot": 90})
    assert main(["check", wall, quarter]) == 1
    assert "t9a.post_combat_pivot.unit_spacing" in capsys.readouterr().out


@pytest.mark.parametrize(("data", "key"), [
    ({"unit": "u", "manoeuvre": "post_combat_pivot", "steps": [{"forward": 1}]}, "$.steps"),
    ({"unit": "u", "manoeuvre": "post_combat_pivot", "centre": [36, 11]}, "$.centre"),
    ({"unit": "u", "manoeuvre": "post_combat_pivot", "files": 2}, "$.files"),
    ({"unit": "u", "manoeuvre": "post_combat_pivot", "pivot": "left"}, "$.pivot"),
])
def test_check_bad_pivot_files_exit_2(tmp_path, wall, capsys, data, key):
    assert main(["check", wall, _move(tmp_path, data)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and key in err


def test_solve_a_facing_and_a_point(wall, capsys):
    assert main(["solve", wall, "--unit", "u", "--manoeuvre", "post_combat_pivot",
                 "--facing", "270", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["status"] == "OPTIMAL" and out["objective"]["value"] == 0.0
    assert out["move"] == {"unit": "u", "manoeuvre": "post_combat_pivot", "pivot": 180.0}
    # Only 0 and 180 keep the wall 0.3" away: facing 0 is 90 deg from either (ties: no turn).
    assert main(["solve", wall, "--unit", "u", "--manoeuvre", "post_combat_pivot",
                 "--facing", "0", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["status"] == "OPTIMAL" and out["objective"]["value"] == pytest.approx(9.0)
    assert main(["solve", wall, "--unit", "u", "--manoeuvre", "post_combat_pivot",
                 "--face", "36,0"]) == 0
    assert "\"pivot\": 180.0" in capsys.readouterr().out


@pytest.mark.parametrize("extra", [["--target", "1,1"], ["--forward"], [],
                                   ["--face", "1,1", "--facing", "3"],
                                   ["--facing", "3", "--avoid", "dangerous"]])
def test_solve_bad_goals_exit_2(wall, capsys, extra):
    assert main(["solve", wall, "--unit", "u", "--manoeuvre", "post_combat_pivot"]
                + extra) == 2
    assert capsys.readouterr().err.count("\n") == 1


def test_solve_for_a_unit_still_engaged_is_infeasible(tmp_path, capsys):
    from constraints.t9a.clauses.post_combat.unengaged import PostCombatUnengaged
    engaged = next(e for e in PostCombatUnengaged.examples if e.breaks).scenario
    path = tmp_path / "engaged.json"
    path.write_text(json.dumps(engaged))
    assert main(["solve", str(path), "--unit", "u", "--manoeuvre", "post_combat_pivot",
                 "--facing", "0", "--json"]) == 1
    out = json.loads(capsys.readouterr().out)
    assert out["status"] == "INFEASIBLE"
    assert out["blocking"] == ["t9a.post_combat_pivot.unengaged"]


def test_moves_refuses_a_post_combat_pivot(wall, capsys):
    assert main(["moves", wall, "--unit", "u", "--manoeuvre", "post_combat_pivot"]) == 2
    assert "--manoeuvre" in capsys.readouterr().err


def test_a_pivots_family_status_is_its_answers(capsys):
    """Every angle is searched: the family's status is the answer's (it printed "None")."""
    assert main(["solve", str(ROOT / "examples" / "combat.json"), "--unit", "A",
                 "--manoeuvre", "post_combat_pivot", "--facing", "0", "--json"]) in (0, 1)
    out = json.loads(capsys.readouterr().out)
    assert out["family"]["status"] == out["status"] != "None"
