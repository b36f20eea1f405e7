"""The pydantic models of the file formats (constraints/schema/) against the files and the
readers: every bundled example reads; what a model refuses the hand-written reader refuses
too, and the other way round, on a table of broken files; the models' bounds are the
readers' bounds; the published schemas are valid draft 2020-12 and accept the same."""

from __future__ import annotations

import copy
import json
from typing import Any

import jsonschema
import pytest
from pydantic import ValidationError

from constraints.core.jsonread import MAX_COUNT, MAX_MAGNITUDE
from constraints.core.profile import find_profile
from constraints.core.scenario_io import scenario_from_json, scenario_to_json
from constraints.errors import InvalidInputError
from constraints.schema import SCHEMAS, json_schema, validate
from constraints.schema import casualties as casualties_model
from constraints.schema import combat_result as combat_result_model
from constraints.schema import move as move_model
from constraints.schema import route as route_model
from constraints.schema import scenario as scenario_model
from constraints.schema import units as units_model
from constraints.t9a.combat_reform_io import combat_result_from_json
from constraints.t9a.move_io import move_from_json as t9a_move
from constraints.whfb7.move_io import move_from_json as whfb7_move
from tests.support import ROOT

EXAMPLES = ROOT / "examples"
# Each bundled input file and the format it is in.
INPUTS = {
    "spears.json": "scenario", "flank_march.json": "scenario", "goblins.json": "scenario",
    "melee.json": "scenario", "combat.json": "scenario", "ruins.json": "scenario",
    "climb_tower.json": "scenario", "rooftop_gap.json": "scenario",
    "spears_march.json": "move", "goblins_turn.json": "move",
    "ruins_route.json": "route", "climb_tower_route.json": "route",
    "rooftop_gap_route.json": "route",
    "melee_casualties.json": "casualties", "combat_result.json": "combat-result",
}


def load(name: str) -> Any:
    return json.loads((EXAMPLES / name).read_text(encoding="utf-8"))


def schema_validator(name: str) -> jsonschema.Draft202012Validator:
    return jsonschema.Draft202012Validator(json_schema(name))


def test_every_bundled_example_is_listed() -> None:
    assert sorted(INPUTS) == sorted(p.name for p in EXAMPLES.glob("*.json"))


@pytest.mark.parametrize("name", sorted(INPUTS))
def test_every_bundled_example_validates(name: str) -> None:
    data, fmt = load(name), INPUTS[name]
    validate(fmt, data)
    assert list(schema_validator(fmt).iter_errors(data)) == []


@pytest.mark.parametrize("name", sorted(SCHEMAS))
def test_each_schema_is_draft_2020_12(name: str) -> None:
    schema = json_schema(name)
    assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    jsonschema.Draft202012Validator.check_schema(schema)


@pytest.mark.parametrize("name", [n for n, f in INPUTS.items() if f == "scenario"])
def test_a_scenario_as_written_validates(name: str) -> None:
    """What `save_scenario` writes (every optional key given) reads as the model too."""
    written = scenario_to_json(scenario_from_json(load(name)))
    validate("scenario", written)
    assert list(schema_validator("scenario").iter_errors(written)) == []


def _set(data: Any, path: tuple[Any, ...], value: Any) -> Any:
    changed = copy.deepcopy(data)
    target = changed
    for key in path[:-1]:
        target = target[key]
    if value is DELETE:
        del target[path[-1]]
    else:
        target[path[-1]] = value
    return changed


DELETE = object()
# (example, path, new value): a file both the reader and the model must refuse.
BROKEN = [
    ("spears.json", ("format",), "manoeuvre/2"),
    ("spears.json", ("units",), []),
    ("spears.json", ("units", 0, "mobility"), 0),
    ("spears.json", ("units", 0, "mobility"), 20.5),
    ("spears.json", ("units", 0, "mobility"), True),
    ("spears.json", ("units", 0, "models"), 1001),
    ("spears.json", ("units", 0, "models"), 20.0),
    ("spears.json", ("units", 0, "files"), 0),
    ("spears.json", ("units", 0, "base"), [20, 0]),
    ("spears.json", ("units", 0, "base"), [20, 20, 20]),
    ("spears.json", ("units", 0, "base"), [20, 1001]),
    ("spears.json", ("units", 0, "centre"), [1e7, 10]),
    ("spears.json", ("units", 0, "facing"), "north"),
    ("spears.json", ("units", 0, "height"), 6),
    ("spears.json", ("units", 0, "state"), "resting"),
    ("spears.json", ("units", 0, "musician"), 1),
    ("spears.json", ("units", 0, "id"), ""),
    ("spears.json", ("units", 0, "id"), "a\nb"),
    ("spears.json", ("units", 0, "colour"), "red"),
    ("spears.json", ("units", 0, "movement"), 4.0),
    ("spears.json", ("units", 0, "mobility"), DELETE),
    ("spears.json", ("units", 0, "player"), None),
    ("spears.json", ("battlefield", "width"), -1),
    ("spears.json", ("rules",), "t10a"),
    ("spears.json", ("rule_options",), {"turn_mob": 1.0}),
    ("spears.json", ("rule_options",), {"march_mob": 11}),
    ("spears.json", ("rule_options",), {"max_file_change": 2.5}),
    ("spears.json", ("rule_options",), {"proper_rank_width": [5, 5, 5, 3, 3]}),
    ("spears.json", ("rule_options",), {"contact_tolerance": 2}),
    ("flank_march.json", ("terrain", 0, "kind"), "lava"),
    ("flank_march.json", ("terrain", 0, "polygon"), [[0, 0], [1, 1]]),
    ("goblins.json", ("units", 0, "command"), ["champion", "champion"]),
    ("goblins.json", ("units", 0, "command"), ["wizard"]),
    ("goblins.json", ("units", 0, "mobility"), 4.0),
    ("goblins.json", ("units", 0, "musician"), True),
    ("goblins.json", ("rule_options",), {"wheel_chord": 1}),
    ("ruins.json", ("units", 0, "base"), 30),
    ("ruins.json", ("units", 0, "silhouette"), 9),
    ("ruins.json", ("units", 0, "mov"), [4, 25]),
    ("ruins.json", ("units", 0, "level"), -1),
    ("ruins.json", ("units", 0, "kind"), "tank"),
    ("ruins.json", ("terrain", 0, "height"), 0),
    ("ruins.json", ("terrain", 0, "height"), 101),
    ("ruins.json", ("rule_options",), {"march_mob": 2}),
    ("spears_march.json", ("steps", 0), {"forward": -1}),
    ("spears_march.json", ("steps", 0), {"forward": 1, "wheel": 2}),
    ("spears_march.json", ("steps", 0), {}),
    ("spears_march.json", ("steps", 1), {"wheel": 91}),
    ("spears_march.json", ("steps",), [{"forward": 1.0}] * 101),
    ("spears_march.json", ("pivot",), 10),
    ("spears_march.json", ("centre",), [1, 2]),
    ("spears_march.json", ("manoeuvre",), "charge"),
    ("spears_march.json", ("assignment",), {"spears.0": [0, -1]}),
    ("spears_march.json", ("unit",), 7),
    ("goblins_turn.json", ("steps", 0), {"turn": 45}),
    ("goblins_turn.json", ("files",), 4),
    ("goblins_turn.json", ("manoeuvre",), "reform"),
    ("ruins_route.json", ("midpoint",), DELETE),
    ("ruins_route.json", ("skill",), "fly"),
    ("ruins_route.json", ("path", 0), [4.8, 13.0]),
    ("ruins_route.json", ("path", 0), [4.8, 13.0, 101]),
    ("ruins_route.json", ("prone",), "no"),
    ("climb_tower_route.json", ("path",), [[7.507874, 11.0, 0.0]]),
    ("melee_casualties.json", ("spears",), -1),
    ("melee_casualties.json", ("spears",), 1.5),
    ("melee_casualties.json", ("spears",), [[0, -1]]),
    ("melee_casualties.json", ("spears",), {"count": 1, "outside": True}),
    ("combat_result.json", ("passed",), "B"),
    ("combat_result.json", ("discipline",), {"B": 21}),
    ("combat_result.json", ("score_difference",), -1),
    ("combat_result.json", ("loser",), ""),
    ("combat_result.json", ("winner",), "red"),
]


def reader_refuses(fmt: str, data: Any) -> bool:
    """Whether the reader of `fmt` (the model, then the checks needing the scenario) refuses
    `data`."""
    try:
        if fmt == "scenario":
            scenario_from_json(data)
        elif fmt == "move":
            whfb7 = isinstance(data, dict) and data.get("unit") == "goblins"
            (whfb7_move if whfb7 else t9a_move)(data)
        elif fmt == "route":
            from constraints.infinity.route import route_from_json
            route_from_json(data)
        elif fmt == "casualties":
            from optimizer.nudge.losses import losses_from_json
            losses_from_json(data, scenario_from_json(load("melee.json")))
        else:
            combat_result_from_json(data)
    except InvalidInputError:
        return True
    return False


@pytest.mark.parametrize(("name", "path", "value"), BROKEN,
                         ids=[f"{n}:{p}" for n, p, _ in BROKEN])
def test_the_model_and_the_reader_refuse_the_same(name: str, path: tuple[Any, ...],
                                                  value: Any) -> None:
    fmt = INPUTS[name]
    data = _set(load(name), path, value)
    assert reader_refuses(fmt, data)
    with pytest.raises(ValidationError):
        validate(fmt, data)
    if (name, path, value) not in WHOLE_AS_FLOAT:
        assert list(schema_validator(fmt).iter_errors(data)) != []


# JSON Schema counts 20.0 an integer (a number with no fraction); the reader and the model
# do not (a whole number is written without a point).
WHOLE_AS_FLOAT = [("spears.json", ("units", 0, "models"), 20.0)]


def test_the_bounds_are_the_readers() -> None:
    from constraints.infinity import route, scenery, silhouettes, trooper
    from constraints.rank_and_file import formation, steps, unit
    from constraints.t9a import combat_reform_io, moves

    assert (units_model.MAX_BASE_MM, units_model.MAX_MOBILITY_IN, units_model.MAX_MODELS) \
        == (unit.MAX_BASE_MM, unit.MAX_MOBILITY_IN, formation.MAX_MODELS)
    assert (units_model.MAX_MOV_IN, units_model.MAX_HEIGHT_IN) == (trooper.MAX_MOV_IN,
                                                                   scenery.MAX_HEIGHT_IN)
    assert tuple(map(float, units_model.INFINITY_BASES_MM)) == silhouettes.BASES_MM
    assert set(silhouettes.SILHOUETTES_MM) == set(range(1, 9))
    assert (move_model.MAX_STEPS, move_model.MAX_FORWARD_IN, move_model.MAX_WHEEL_DEG) \
        == (steps.MAX_STEPS, steps.MAX_FORWARD_IN, steps.MAX_WHEEL_DEG)
    assert move_model.MAX_PIVOT_DEG == moves.MAX_PIVOT_DEG
    assert route_model.MAX_POINTS == route.MAX_POINTS
    assert (combat_result_model.MAX_DISCIPLINE, combat_result_model.MAX_SCORE_DIFFERENCE) \
        == (combat_reform_io.MAX_DISCIPLINE, combat_reform_io.MAX_SCORE_DIFFERENCE)
    assert (MAX_MAGNITUDE, MAX_COUNT) == (1e6, 10_000)
    assert casualties_model.Casualties is not None


@pytest.mark.parametrize("rules", scenario_model.RULES)
def test_the_rule_options_are_the_profiles(rules: str) -> None:
    system = scenario_model.SYSTEM_OF[rules]
    assert set(scenario_model.RULE_OPTIONS[system]) == set(find_profile(rules).params)
    assert set(scenario_model.RuleOptions.model_fields) \
        == {k for keys in scenario_model.RULE_OPTIONS.values() for k in keys}


# Files the reader, the model and the schema all accept (besides the bundled examples).
GOOD = [
    ("move", {"unit": "spears", "manoeuvre": "advance", "pivot": 30.0,
              "steps": [{"forward": 3.5}]}),
    ("move", {"unit": "spears", "manoeuvre": "march", "centre": [36, 14], "facing": 90}),
    ("move", {"unit": "spears", "manoeuvre": "reform", "files": 8, "centre": [36.5, 11.0],
              "facing": 0.0, "assignment": {"spears.0": [0, 1]}}),
    ("move", {"unit": "spears", "manoeuvre": "post_combat_pivot", "pivot": -90}),
    ("move", {"unit": "goblins", "manoeuvre": "reform", "files": 8, "facing": 0.0}),
    ("move", {"unit": "goblins", "manoeuvre": "march", "steps": [{"wheel": -90.0},
                                                                  {"forward": 1.8}]}),
    ("route", {"unit": "fusilier", "skill": "dodge", "path": [[4.8, 13.0, 0.0],
                                                               [5.8, 13.0, 0.0]],
               "prone": True}),
    ("casualties", {"spears": [[0, 0], [0, 4]], "orcs": {"count": 1, "outside_melee": True}}),
    ("combat-result", {"loser": "blue", "passed": ["B"], "first": "red", "skip": ["C"],
                       "discipline": {"B": 8}, "score_difference": 2, "steadfast": ["B"],
                       "stubborn": [], "steady": []}),
]


@pytest.mark.parametrize(("fmt", "data"), GOOD, ids=[f"{f}{i}" for i, (f, _) in
                                                   enumerate(GOOD)])
def test_the_model_and_the_reader_accept_the_same(fmt: str, data: Any) -> None:
    assert not reader_refuses(fmt, data)
    validate(fmt, data)
    assert list(schema_validator(fmt).iter_errors(data)) == []
