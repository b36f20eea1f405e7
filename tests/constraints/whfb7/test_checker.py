"""The whfb7 checker end to end: turn geometry (seed 003), costs after a turn, reforms and
their assignments, rule options, bad input, determinism."""

from __future__ import annotations

import math

import pytest

from constraints.core.scenario_io import load_scenario, scenario_from_json
from constraints.errors import InvalidInputError
from constraints.rank_and_file.steps import forward, turn, wheel
from constraints.t9a.move_io import move_from_json as t9a_move
from constraints.whfb7.checker import check_move
from constraints.whfb7.examples import field, fw, march, move, reform, tn, unit, wh
from constraints.whfb7.move_io import move_from_json
from constraints.whfb7.moves import Manoeuvre, WarhammerMove
from tests.support import ROOT

GOBLINS = ROOT / "examples" / "goblins.json"
BASE_IN = 20.0 / 25.4


def verdict(scenario_json: dict, move_json: dict):
    return check_move(scenario_from_json(scenario_json), move_from_json(move_json))


def _box(corners) -> tuple[float, float, float, float]:
    xs, ys = [c[0] for c in corners], [c[1] for c in corners]
    return min(xs), min(ys), max(xs), max(ys)


def test_the_example_turn_is_legal_and_ends_four_files_wide_facing_left():
    scenario = load_scenario(GOBLINS)
    v = check_move(scenario, move_from_json({"unit": "goblins", "manoeuvre": "move",
                                             "steps": [{"turn": 90}, {"forward": 3.0}]}))
    assert v.legal and v.measurements["distance"] == pytest.approx(4.0)
    assert v.end_files == 4 and v.end_facing_deg == pytest.approx(180.0)
    assert v.end_centre == pytest.approx((21.0, 10.0))


def test_a_quarter_turn_of_full_ranks_keeps_the_block_where_it_stands():
    # 5 files x 4 ranks of 20 mm goblins: 4 files x 5 ranks after the turn, same footprint
    # for square bases, its front now the old left flank.
    v = verdict(field(unit(models=20, files=5, base=(20.0, 20.0))), move(tn(90.0)))
    assert v.end_files == 4 and v.end_centre == pytest.approx((36.0, 10.0))
    assert _box(v.end_corners) == pytest.approx(
        (36.0 - 2.5 * BASE_IN, 10.0 - 2.0 * BASE_IN, 36.0 + 2.5 * BASE_IN, 10.0 + 2.0 * BASE_IN))
    front_left, front_right = v.end_corners[:2]
    assert front_left[0] == pytest.approx(front_right[0]) == pytest.approx(36.0 - 2.5 * BASE_IN)


def test_a_half_turn_keeps_the_files_and_faces_about():
    v = verdict(field(), move(tn(180.0)))
    assert (v.end_files, v.end_facing_deg, v.end_centre) == (5, 270.0, pytest.approx((36, 10)))
    assert v.measurements["distance"] == pytest.approx(1.0)


def test_the_leftovers_of_an_incomplete_rear_rank_go_to_the_back():
    # 11 models in 5 files: 2 full ranks (x 33.5-38.5, y 9.5-11.5) and one model behind.
    # Turned left, the block's 5 old files become 5 ranks and the leftover a sixth behind it:
    # 2 files, facing -x, the new rear rank at x 38.5-39.5.
    v = verdict(field(unit(models=11)), move(tn(90.0)))
    assert v.end_files == 2 and v.end_centre == pytest.approx((36.5, 10.5))
    assert _box(v.end_corners) == pytest.approx((33.5, 9.5, 39.5, 11.5))


def test_a_wheel_after_a_turn_costs_the_new_frontage():
    v = verdict(field(unit(models=20, files=5, base=(20.0, 20.0), movement=6.0)),
                march(wh(30.0)))
    assert v.measurements["distance"] == pytest.approx(5 * BASE_IN * math.pi / 6)
    turned = verdict(field(unit(models=20, files=5, base=(20.0, 20.0), movement=6.0)),
                     move(tn(-90.0), wh(30.0)))
    assert turned.measurements["distance"] == pytest.approx(1.5 + 4 * BASE_IN * math.pi / 6)


def test_rule_options_override_the_profile():
    near = field(unit(), unit("foe", centre=(36.0, 19.9), facing=270.0, player="blue"))
    assert "whfb7.march.blocked" in verdict(near, march(fw(1.0))).clauses()
    assert verdict({**near, "rule_options": {"march_block_in": 6.0}}, march(fw(1.0))).legal
    quarter = {**field(), "rule_options": {"turn_mob": 0.5}}
    assert verdict(quarter, move(tn(90.0), fw(2.0))).measurements["distance"] == 4.0
    with pytest.raises(InvalidInputError, match="true or false"):
        scenario_from_json({**field(), "rule_options": {"wheel_chord": 1}})


def test_a_march_with_no_enemy_on_the_table_measures_no_enemy_distance():
    v = verdict(field(), march(fw(2.0)))
    assert v.legal and "enemy_distance" not in v.measurements


def test_a_march_with_a_turn_is_a_violation_not_bad_input():
    v = verdict(field(), march(tn(90.0), fw(1.0)))
    assert v.clauses() == ("whfb7.march.no_turn",)


def test_a_reform_keeps_the_centre_and_takes_files_and_facing():
    v = verdict(field(unit(models=20, files=5, centre=(36.0, 20.0))), reform(10, 45.0))
    assert v.legal and v.end_centre == (36.0, 20.0)
    assert (v.end_files, v.end_facing_deg) == (10, 45.0)


SIX = field(unit(models=6, files=3, centre=(36.0, 20.0), command=["champion"]))
IN_PLACE = {"u.champion": [0, 0], "u.1": [0, 1], "u.2": [0, 2], "u.3": [1, 0], "u.4": [1, 1],
            "u.5": [1, 2]}


def _without(key: str) -> dict:
    return {k: v for k, v in IN_PLACE.items() if k != key}


@pytest.mark.parametrize("assignment, words", [
    (_without("u.5"), "exactly once"),                       # a model lost
    ({**IN_PLACE, "u.6": [1, 1]}, "exactly once"),            # a model more
    ({**_without("u.champion"), "u.0": [0, 0]}, "unknown"),   # the champion by its index
    ({**IN_PLACE, "u.5": [1, 1]}, "two models assigned to one slot"),
    ({**IN_PLACE, "u.5": [2, 0]}, "not an occupied slot"),
])
def test_an_assignment_that_changes_the_model_count_is_bad_input(assignment, words):
    with pytest.raises(InvalidInputError, match=words):
        verdict(SIX, reform(3, 90.0, assignment=assignment))


def test_an_assignment_that_keeps_every_model_is_judged():
    assert verdict(SIX, reform(3, 90.0, assignment=IN_PLACE)).legal


def test_more_files_than_models_is_bad_input():
    with pytest.raises(InvalidInputError, match="7 files but unit 'u' has only 6 models"):
        verdict(SIX, reform(7, 90.0))


def test_the_checker_refuses_what_is_not_a_whfb7_move_or_scenario():
    scenario = load_scenario(GOBLINS)
    with pytest.raises(InvalidInputError, match="expected a WarhammerMove"):
        check_move(scenario, t9a_move({"unit": "goblins", "manoeuvre": "march",
                                       "steps": [{"forward": 1.0}]}))
    t9a = load_scenario(ROOT / "examples" / "spears.json")
    with pytest.raises(InvalidInputError, match="needs a whfb7 scenario"):
        check_move(t9a, WarhammerMove("spears", Manoeuvre.MOVE, (forward(1.0),)))
    with pytest.raises(InvalidInputError, match="unknown unit"):
        check_move(scenario, WarhammerMove("orcs", Manoeuvre.MOVE, (forward(1.0),)))


def test_the_same_move_gets_the_same_verdict():
    steps = (wheel(-20.0), forward(1.0), turn(180.0), forward(0.5))
    judged = [check_move(load_scenario(GOBLINS),
                         WarhammerMove("goblins", Manoeuvre.MOVE, steps)).to_json()
              for _ in range(2)]
    assert judged[0] == judged[1]
