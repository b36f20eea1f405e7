"""A20 (RULES 2.3.2.4): units that start close.  "A unit that ended within 1" through an
uncontrolled move or unintended event may stay within 1" until the units are more than 1"
apart."  Towards each object the unit starts within a Unit Spacing limit of, the limit for
the unit and its models is its start distance: nothing comes closer than the unit stood,
and an object it touches is never overlapped.  The checker's cases, and the search finds
such moves (standing still is legal again)."""

from __future__ import annotations

import pytest

from constraints.core.scenario_io import scenario_from_json
from constraints.t9a.checker import check_move
from constraints.t9a.examples import field, unit, wall
from constraints.t9a.move_io import move_from_json
from optimizer.search.objectives import Objective
from optimizer.search.solve import best_move


def _behind_wall():
    """Spears (x 33.5-38.5, y 9-11) 0.3" behind a wall (y 11.3-12.3)."""
    return scenario_from_json(field(unit(), terrain=(wall("wall", 30.0, 11.3, 42.0, 12.3),)))


def _beside_friend():
    """Spears touching the flank of a shallower friend, whose front corner is 0.394" from
    the spears' Front Facing."""
    return scenario_from_json(field(unit(), unit("f", models=5, files=5, centre=(41.0, 10.106))))


def _verdict(scn, **move):
    return check_move(scn, move_from_json({"unit": "u", **move}))


@pytest.mark.parametrize("move", [
    {"manoeuvre": "reform"},                                  # in place
    {"manoeuvre": "reform", "centre": [37.0, 10.0]},          # sideways along the wall
    {"manoeuvre": "reform", "centre": [36.0, 8.0]},           # away from it
    {"manoeuvre": "reform", "facing": 270.0},                 # about-face by a Reform
    {"manoeuvre": "advance", "pivot": 180.0, "steps": []},    # about-face in place
], ids=["in-place", "sideways", "away", "reform-about", "pivot-180"])
def test_a_unit_behind_a_wall_may_move_as_far_from_it(move):
    verdict = _verdict(_behind_wall(), **move)
    assert verdict.legal, verdict.violations


def test_a_reform_towards_the_wall_is_still_illegal():
    verdict = _verdict(_behind_wall(), manoeuvre="reform", centre=[36.0, 10.2])
    assert {"t9a.unit_spacing", "t9a.reform.model_path"} <= set(verdict.clauses())
    assert verdict.measurements["clearance"] == pytest.approx(0.1)


def test_the_normal_limit_holds_towards_what_the_unit_did_not_start_close_to():
    """A second wall 1.7" to the side of the spears, 0.7" from their new place: more than 0.5"
    mid-move but within the 1" of the end."""
    scn = scenario_from_json(field(unit(), terrain=(
        wall("wall", 30.0, 11.3, 42.0, 12.3), wall("side", 40.2, 5.0, 42.0, 11.0))))
    verdict = _verdict(scn, manoeuvre="reform", centre=[37.0, 10.0])
    assert "t9a.unit_spacing" in verdict.clauses()


@pytest.mark.parametrize("steps", [[{"forward": 3.0}], [{"forward": 0.2}], [{"forward": 8.0}]])
def test_a_unit_touching_a_friends_flank_marches_straight_ahead(steps):
    verdict = _verdict(_beside_friend(), manoeuvre="march", steps=steps)
    assert verdict.legal, verdict.violations


def test_a_unit_touching_a_friend_never_overlaps_it():
    scn = scenario_from_json(field(unit(), unit("f", centre=(36.0, 12.0))))
    verdict = _verdict(scn, manoeuvre="march", steps=[{"forward": 1.0}])
    assert "t9a.snaking.front_spacing" in verdict.clauses()


@pytest.mark.parametrize("scene, manoeuvre, objective", [
    (_behind_wall, "reform", Objective("target_distance", (36.0, 8.0))),
    (_behind_wall, "advance", Objective("target_distance", (36.0, 6.0))),
    (_beside_friend, "march", Objective("forward")),
], ids=["reform-away", "about-face-advance", "march-past-friend"])
def test_the_search_finds_such_moves(scene, manoeuvre, objective):
    scn = scene()
    found = best_move(scn, "u", manoeuvre, objective, time_limit_s=30.0, effort=20.0)
    assert found.status.found and found.move is not None
    assert check_move(scn, found.move).legal
