"""A player's own nudges judged (`check SCENARIO NUDGE.json --casualties FILE`; seed 001:
"Move the unit the minimum amount required to maintain contact", "Move Active Player's units
first", "in the order that allows the most units to remain in Combat", "If equal, the owner
decides the order")."""

from __future__ import annotations

import json

import pytest

from constraints.core.scenario_io import load_scenario, scenario_from_json
from constraints.errors import InvalidInputError
from optimizer.nudge import Loss, resolve
from optimizer.nudge.judge import judge_nudges
from optimizer.nudge.losses import load_losses
from optimizer.nudge.output import result_to_json
from tests.optimizer.nudge import scenes
from tests.support import ROOT

MELEE = ROOT / "examples" / "melee.json"
CASUALTIES = ROOT / "examples" / "melee_casualties.json"


def _melee():
    scn = load_scenario(MELEE)
    losses = load_losses(CASUALTIES, scn)
    return scn, losses, result_to_json(resolve(scn, losses))


def _with_legs(result, legs):
    edited = json.loads(json.dumps(result))
    edited["nudges"][0]["legs"] = legs
    return edited


def test_the_tools_own_nudge_is_legal():
    scn, losses, result = _melee()
    verdict = judge_nudges(scn, losses, result)
    assert verdict.legal and verdict.violations == ()
    assert verdict.order == ("wolves",) and verdict.in_combat == verdict.best_in_combat == 3
    [wolves] = verdict.nudges
    assert wolves.least == pytest.approx(0.2) and wolves.verdict.legal


@pytest.mark.parametrize(("legs", "clause", "measured"), [
    ([{"sideways": 0.3}], "nudge.minimum", 0.3),              # longer than the least
    ([{"sideways": 3.0}], "nudge.minimum", 3.0),
    ([{"sideways": 0.1}], "nudge.contact", 0.1),               # 0.1" short of contact
    ([], "nudge.contact", 0.2),                                # not nudged at all
    ([{"sideways": 0.5}, {"forward": 0.5}], "nudge.path", 0.3),  # into the spears
    ([{"sideways": 0.1}, {"sideways": 0.1}], "nudge.legs", 2.0),
])
def test_an_edited_leg_is_illegal_naming_the_clause(legs, clause, measured):
    scn, losses, result = _melee()
    verdict = judge_nudges(scn, losses, _with_legs(result, legs))
    assert not verdict.legal
    found = {v.clause: v for v in verdict.violations}
    assert clause in found
    assert found[clause].measured == pytest.approx(measured, abs=1e-6)


def test_losing_contact_also_loses_the_order_its_unit_in_combat():
    scn, losses, result = _melee()
    verdict = judge_nudges(scn, losses, _with_legs(result, [{"sideways": 0.1}]))
    order = [v for v in verdict.violations if v.clause == "nudge.order"]
    assert [(v.measured, v.limit) for v in order] == [(2.0, 3.0)]


def test_a_nudge_within_the_least_nudges_tolerance_is_minimal():
    scn, losses, result = _melee()
    assert judge_nudges(scn, losses, _with_legs(result, [{"sideways": 0.2 + 1e-6}])).legal
    assert not judge_nudges(scn, losses, _with_legs(result, [{"sideways": 0.2 + 1e-5}])).legal


def _two_melees():
    """The bundled melee twice, 20" apart: each side's wolves are nudged independently, so
    either order keeps all six units in combat and the owner chooses."""
    data = json.loads(MELEE.read_text())
    copies = []
    for u in data["units"]:
        copy = dict(u, id=u["id"] + "2", centre=[u["centre"][0] + 20.0, u["centre"][1]])
        copy.pop("characters", None)
        copies.append(copy)
    data["units"] += copies
    scn = scenario_from_json(data)
    losses = (Loss("spears", 5), Loss("orcs", 2), Loss("spears2", 4), Loss("orcs2", 2))
    return scn, losses


def test_alternative_orders_are_the_owners_choice():
    scn, losses = _two_melees()
    result = result_to_json(resolve(scn, losses))
    assert result["order"] == ["wolves", "wolves2"]
    assert result["alternative_orders"] == [["wolves2", "wolves"]]
    assert [n["unit"] for n in result["nudges"]] == ["wolves", "wolves2"]
    assert judge_nudges(scn, losses, result).legal
    swapped = dict(result, order=["wolves2", "wolves"],
                   nudges=list(reversed(result["nudges"])))
    verdict = judge_nudges(scn, losses, swapped)
    assert verdict.legal and verdict.order == ("wolves2", "wolves")
    assert verdict.in_combat == 6


def test_the_active_players_units_move_first():
    """A (red) lost its flank model, B (blue) faces it.  With red active, A is nudged; a file
    that nudges B first (its least nudge, then A needs none) breaks the order rule."""
    red_first = scenes.flank_model_lost("red")
    blue = result_to_json(resolve(scenes.flank_model_lost("blue"), [Loss("A", 1)]))
    assert [n["unit"] for n in blue["nudges"]] == ["B"]
    verdict = judge_nudges(red_first, [Loss("A", 1)], blue)
    assert [v.clause for v in verdict.violations] == ["nudge.order"]
    assert "move Active Player's units first" in verdict.violations[0].message
    own = result_to_json(resolve(red_first, [Loss("A", 1)]))
    assert judge_nudges(red_first, [Loss("A", 1)], own).legal


@pytest.mark.parametrize(("data", "path"), [
    ([], "$"),
    ({"order": []}, "$"),
    ({"nudges": [{"unit": "ghosts", "legs": []}]}, "$.nudges[0].unit"),
    ({"nudges": [{"unit": "wolves"}]}, "$.nudges[0]"),
    ({"nudges": [{"unit": "wolves", "legs": [{"up": 1.0}]}]}, "$.nudges[0].legs[0]"),
    ({"nudges": [{"unit": "wolves", "legs": [{"forward": "far"}]}]},
     "$.nudges[0].legs[0].forward"),
    ({"nudges": [{"unit": "wolves", "legs": []}, {"unit": "wolves", "legs": []}]},
     "$.nudges[1]"),
    ({"nudges": [], "order": ["wolves", "wolves"]}, "$.order[1]"),
])
def test_malformed_nudges_name_the_json_path(data, path):
    scn, losses, _ = _melee()
    with pytest.raises(InvalidInputError) as caught:
        judge_nudges(scn, losses, data)
    assert caught.value.path == path
