"""A Reform placed mid-move (seed 000, "Mid-Reform Move Actions"; docs/rules.md §5.6): the
move file's `mid`, read and refused where it does not belong, judged through `check`, and
the note when a Light Troops March-Reform states none.  The clause's rule examples run in the
conformance suite (t9a.reform.mid_placement, t9a.reform.model_path)."""

from __future__ import annotations

import json

import pytest

from constraints.core.scenario_io import scenario_from_json
from constraints.errors import InvalidInputError
from constraints.geometry import relay
from constraints.schema import validate
from constraints.t9a.checker import check_move
from constraints.t9a.clauses.movement.dangerous_terrain import UNCHECKED_MID
from constraints.t9a.clauses.movement.reform_mid_placement import light_by_marsh, reform_through
from constraints.t9a.move_io import move_from_json
from constraints.t9a.moves import MidPlacement, Move
from optimizer.cli import main

SCENARIO = light_by_marsh()
THROUGH = reform_through()


def test_the_placement_is_read_and_written_back():
    move = move_from_json({**THROUGH, "mid": {"centre": [36, 14.5], "facing": 90, "files": 6}})
    assert move.mid == MidPlacement((36.0, 14.5), 90.0, 6)
    assert move_from_json(move.to_json()) == move
    assert move_from_json(THROUGH).mid == MidPlacement((36.0, 14.5), 90.0)


@pytest.mark.parametrize(("move", "path"), [
    ({"unit": "u", "manoeuvre": "march", "steps": [], "mid": {"centre": [1, 1], "facing": 0}},
     "$.mid"),
    ({**THROUGH, "mid": {"centre": [36, 14.5]}}, "$.mid"),
    ({**THROUGH, "mid": {"centre": [36, 14.5], "facing": 90, "ranks": 2}}, "$.mid.ranks"),
    ({**THROUGH, "mid": {"centre": [36, 14.5], "facing": 90, "files": 0}}, "$.mid.files"),
])
def test_a_misplaced_or_malformed_placement_is_bad_input(move, path):
    with pytest.raises(InvalidInputError) as caught:
        move_from_json(move)
    assert caught.value.path == path
    with pytest.raises(ValueError):
        validate("move", move)


def test_the_schema_takes_the_placement():
    validate("move", THROUGH)
    with pytest.raises(InvalidInputError):
        Move("u", "advance", mid=MidPlacement((0.0, 0.0), 0.0))


def test_the_placement_is_what_takes_the_test():
    """Seed 000: the unit ends beyond the marsh; placed in it mid-move it takes the test."""
    scenario = scenario_from_json(SCENARIO)
    placed = check_move(scenario, move_from_json(THROUGH))
    assert placed.legal and placed.notes == ()
    assert placed.dangerous_terrain == ({"terrain": "marsh", "dice": 5, "test": 4},)
    assert placed.measurements["model_path"] == pytest.approx(7.5)
    unstated = check_move(scenario, move_from_json({"unit": "u", "manoeuvre": "reform",
                                                    "centre": [36.0, 17.5]}))
    assert unstated.legal and unstated.dangerous_terrain == ()
    assert unstated.notes == (UNCHECKED_MID,)


def test_no_note_where_nothing_is_dangerous_or_no_march():
    bare = scenario_from_json({**SCENARIO, "terrain": []})
    far = {"unit": "u", "manoeuvre": "reform", "centre": [36.0, 17.5]}
    assert check_move(bare, move_from_json(far)).notes == ()
    near = {"unit": "u", "manoeuvre": "reform", "centre": [36.0, 13.0]}
    assert check_move(scenario_from_json(SCENARIO), move_from_json(near)).notes == ()


def test_walks_too_many_to_weigh_are_not_proved_not_bad_input(monkeypatch, tmp_path, capsys):
    """A well-formed move the checker cannot decide is NOT PROVED (exit 1), with the reason;
    an exception would call the player's file malformed."""
    monkeypatch.setattr(relay, "MAX_MODELS", 3)
    verdict = check_move(scenario_from_json(SCENARIO), move_from_json(THROUGH))
    assert verdict.status == "not_proved" and not verdict.violations
    assert "t9a.reform.model_path" in verdict.not_proved and "assignment" in verdict.not_proved
    (tmp_path / "s.json").write_text(json.dumps(SCENARIO))
    (tmp_path / "m.json").write_text(json.dumps(THROUGH))
    assert main(["check", str(tmp_path / "s.json"), str(tmp_path / "m.json")]) == 1
    assert "NOT PROVED" in capsys.readouterr().out


def test_check_on_the_command_line(tmp_path, capsys):
    (tmp_path / "s.json").write_text(json.dumps(SCENARIO))
    (tmp_path / "m.json").write_text(json.dumps(THROUGH))
    assert main(["check", str(tmp_path / "s.json"), str(tmp_path / "m.json"), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["dangerous_terrain"] == [{"terrain": "marsh", "dice": 5, "test": 4}]
    assert "notes" not in out and out["measurements"]["mid_clearance"] is None
    (tmp_path / "m.json").write_text(json.dumps(reform_through(files=1)))
    assert main(["check", str(tmp_path / "s.json"), str(tmp_path / "m.json")]) == 1
    assert "broken t9a.reform.mid_placement" in capsys.readouterr().out
    (tmp_path / "m.json").write_text(json.dumps({"unit": "u", "manoeuvre": "reform",
                                                 "centre": [36.0, 17.5]}))
    assert main(["check", str(tmp_path / "s.json"), str(tmp_path / "m.json")]) == 0
    assert "note: a Light Troops Reform beyond Mob" in capsys.readouterr().out


def test_a_placement_on_a_march_exits_2(tmp_path, capsys):
    (tmp_path / "s.json").write_text(json.dumps(SCENARIO))
    (tmp_path / "m.json").write_text(json.dumps(
        {"unit": "u", "manoeuvre": "march", "steps": [], "mid": {"centre": [1, 1], "facing": 0}}))
    assert main(["check", str(tmp_path / "s.json"), str(tmp_path / "m.json")]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "$.mid" in err[0]
