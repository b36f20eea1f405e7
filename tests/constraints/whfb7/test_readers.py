"""whfb7 units and moves in files: what they read, and the bad input they refuse (one
InvalidInputError naming the JSON path)."""

from __future__ import annotations

import copy

import pytest

from constraints.core.scenario_io import load_scenario, scenario_from_json, scenario_to_json
from constraints.errors import InvalidInputError
from constraints.rank_and_file.steps import forward, turn, wheel
from constraints.whfb7.examples import field, unit
from constraints.whfb7.move_io import move_from_json
from constraints.whfb7.moves import Manoeuvre, WarhammerMove
from constraints.whfb7.unit_io import model_ids
from tests.support import ROOT

GOBLINS = ROOT / "examples" / "goblins.json"


def test_a_unit_reads_its_move_as_movement_and_its_command_group():
    goblins = load_scenario(GOBLINS).unit("goblins")
    assert goblins.mobility_in == 4.0
    assert goblins.command == ("champion", "standard", "musician")
    assert goblins.formation.files == 5 and goblins.formation.model_count == 20


def test_a_scenario_written_and_read_again_is_the_same():
    scenario = load_scenario(GOBLINS)
    again = scenario_from_json(scenario_to_json(scenario))
    assert again.units == scenario.units and again.terrain == scenario.terrain


def test_command_models_are_the_first_of_the_layout_and_characters_keep_their_ids():
    s = scenario_from_json(field(unit(models=6, files=3, command=["standard", "champion"],
                                      characters=[{"id": "boss", "slot": [1, 1]}])))
    assert model_ids(s.unit("u")) == ("u.standard", "u.champion", "u.2", "u.3", "u.4", "u.5",
                                      "boss")


def _bad_unit(**changes) -> dict:
    data = field(unit())
    data["units"][0].update(changes)
    return data


@pytest.mark.parametrize("changes, words, path", [
    ({"mobility": 4.0}, '"movement"', "$.units[0].mobility"),
    ({"command": ["captain"]}, "unknown command model", "$.units[0].command[0]"),
    ({"command": ["champion", "champion"]}, "listed twice", "$.units[0].command[1]"),
    ({"command": "champion"}, "expected an array", "$.units[0].command"),
    ({"movement": 0.0}, "expected a number > 0", "$.units[0].movement"),
    ({"state": "routed"}, "unknown state", "$.units[0].state"),
    ({"models": 2, "files": 2, "command": ["champion", "standard", "musician"]},
     "3 command models", "$.units[0].command"),
])
def test_bad_units(changes, words, path):
    with pytest.raises(InvalidInputError, match=words) as caught:
        scenario_from_json(_bad_unit(**changes))
    assert caught.value.path == path


def test_a_unit_without_movement_is_refused():
    data = _bad_unit()
    del data["units"][0]["movement"]
    with pytest.raises(InvalidInputError, match="missing key 'movement'"):
        scenario_from_json(data)


def test_moves_read_as_the_format_writes_them():
    move = move_from_json({"unit": "goblins", "manoeuvre": "move",
                           "steps": [{"turn": 90}, {"forward": 3.0}]})
    assert move == WarhammerMove("goblins", Manoeuvre.MOVE, (turn(90.0), forward(3.0)))
    reform = move_from_json({"unit": "goblins", "manoeuvre": "reform", "files": 8,
                             "facing": 0.0, "assignment": {"goblins.champion": [0, 3]}})
    assert (reform.files, reform.facing_deg) == (8, 0.0)
    assert reform.assignment == (("goblins.champion", (0, 3)),)
    for m in (move, reform):
        assert move_from_json(m.to_json()) == m


def test_a_march_may_be_written_with_a_turn_for_the_checker_to_refuse():
    move = move_from_json({"unit": "u", "manoeuvre": "march", "steps": [{"turn": -90}]})
    assert move.steps == (turn(-90.0),)


GOOD = {"unit": "u", "manoeuvre": "move", "steps": [{"forward": 1.0}]}


@pytest.mark.parametrize("changes, words, path", [
    ({"steps": [{"turn": 45}]}, "turn of 90, -90 or 180", "$.steps[0].turn"),
    ({"steps": [{"turn": 90, "forward": 1.0}]}, "exactly one of", "$.steps[0]"),
    ({"steps": [{"wheel": 91.0}]}, "<= 90", "$.steps[0].wheel"),
    ({"manoeuvre": "advance"}, "unknown manoeuvre 'advance' (known: move, march, reform)",
     "$.manoeuvre"),
    ({"files": 4}, "steps only", "$.files"),
    ({"pivot": 30.0}, "unknown key 'pivot'", "$.pivot"),
    ({"manoeuvre": "reform", "files": 4, "facing": 0.0}, "a reform has no steps", "$.steps"),
])
def test_bad_moves(changes, words, path):
    data = {**copy.deepcopy(GOOD), **changes}
    with pytest.raises(InvalidInputError, match=words.replace("(", r"\(").replace(")", r"\)")) \
            as caught:
        move_from_json(data)
    assert caught.value.path == path


@pytest.mark.parametrize("data, words", [
    ({"unit": "u", "manoeuvre": "reform", "facing": 0.0}, "gives 'files'"),
    ({"unit": "u", "manoeuvre": "reform", "files": 4}, "gives 'facing'"),
    ({"unit": "u", "manoeuvre": "reform", "files": 0, "facing": 0.0}, ">= 1"),
    ({"unit": "u", "manoeuvre": "reform", "files": 4, "facing": 0.0, "assignment": [1]},
     "expected an object"),
])
def test_bad_reforms(data, words):
    with pytest.raises(InvalidInputError, match=words):
        move_from_json(data)


def test_moves_built_in_code_are_checked_as_files_are():
    with pytest.raises(InvalidInputError, match="turn of 90, -90 or 180"):
        WarhammerMove("u", Manoeuvre.MOVE, (turn(45.0),))
    with pytest.raises(InvalidInputError, match="a reform has no steps"):
        WarhammerMove("u", Manoeuvre.REFORM, (wheel(10.0),), files=4, facing_deg=0.0)
    with pytest.raises(InvalidInputError, match="a reform gives files"):
        WarhammerMove("u", Manoeuvre.REFORM, facing_deg=0.0)
    with pytest.raises(InvalidInputError, match="steps only"):
        WarhammerMove("u", Manoeuvre.MARCH, (forward(1.0),), facing_deg=0.0)
    with pytest.raises(InvalidInputError, match="unknown manoeuvre"):
        WarhammerMove("u", "charge", ())  # type: ignore[arg-type]
    with pytest.raises(InvalidInputError, match="assigned twice"):
        WarhammerMove("u", Manoeuvre.REFORM, files=4, facing_deg=0.0,
                      assignment=(("u.1", (0, 0)), ("u.1", (0, 1))))
