"""Seed 001's acceptance cases, each built from its geometry (tests/optimizer/nudge/scenes.py)
and resolved whole: casualties, unfreezing, the nudges and their order, combats, No More Foes.
Every nudge returned is judged again here by the exact checker."""

from __future__ import annotations

import pytest

from constraints.rank_and_file.combats import combats, engagements
from constraints.t9a.clauses.nudge.checker import check_nudge
from optimizer.nudge import Loss, resolve
from optimizer.nudge.order import best_order
from tests.optimizer.nudge import scenes

MM = scenes.MM


def _recheck(result):
    """Replay the nudges in order and judge each with the exact checker."""
    previous = engagements(result.before.units)
    now = result.after
    for found in result.nudges:
        start = now.unit(found.unit)
        total = sum(leg.shift(start.pose.facing_deg) for leg in found.legs)
        placed = start.with_pose(type(start.pose)(
            (start.pose.centre[0] - total[0], start.pose.centre[1] - total[1]),
            start.pose.facing_deg))
        verdict = check_nudge(now.with_unit(placed), found.unit, previous[found.unit],
                              found.legs)
        assert verdict.legal, verdict.violations


def test_a_lost_flank_model_is_nudged_back_exactly_10_mm_to_a_corner_contact():
    """A single-rank unit fighting frontally loses its flank model; the gap closes so
    contact is lost by 10 mm.  The nudge is exactly 10 mm sideways, ending corner to corner
    with the enemy, and corner-to-corner contact counts."""
    result = resolve(scenes.flank_model_lost(), [Loss("A", count=1)])
    assert result.status == "OPTIMAL"
    [found] = result.nudges
    assert found.unit == "A" and [leg.direction for leg in found.legs] == ["sideways"]
    assert found.legs[0].distance_in == pytest.approx(10 * MM, abs=1e-9)
    assert found.touched == ("B",)
    assert result.combats == (("A", "B"),) and result.no_more_foes == ()
    _recheck(result)


def test_when_the_enemy_moves_first_it_is_the_one_nudged():
    result = resolve(scenes.flank_model_lost(active="blue"), [Loss("A", count=1)])
    [found] = result.nudges
    assert found.unit == "B" and found.legs[0].distance_in == pytest.approx(10 * MM, abs=1e-9)
    assert result.order == ("B",) or result.order[0] == "B"
    _recheck(result)


def test_a_slide_blocked_by_a_friend_leaves_the_enemy_to_be_nudged():
    """The same, with the slide blocked by another unit, so the enemy is nudged instead.

    The 10 mm slide of the unit that lost its flank model cannot be blocked: it stays inside
    the footprint the unit had before, which no other unit or impassable terrain may
    overlap.  So here both units lose their models next to each other (a 35 mm gap) and F,
    a friend of A beside A's old right edge, stops A after 25 mm; B (the enemy) slides the
    35 mm instead."""
    scn = scenes.both_lost_a_model(blocked_a=True, blocked_b=False)
    result = resolve(scn, [Loss("A", count=1), Loss("B", slots=((0, 4),))])
    [found] = result.nudges
    assert found.unit == "B"
    assert [leg.direction for leg in found.legs] == ["sideways"]
    assert abs(found.legs[0].distance_in) == pytest.approx(35 * MM, abs=1e-9)
    assert ("A", "B") in result.combats
    _recheck(result)


def test_both_slides_blocked_send_both_units_to_no_more_foes():
    scn = scenes.both_lost_a_model(blocked_a=True, blocked_b=True)
    result = resolve(scn, [Loss("A", count=1), Loss("B", slots=((0, 4),))])
    assert result.nudges == ()
    assert dict(result.no_more_foes) == {"A": ("post_combat_pivot",),
                                         "B": ("post_combat_pivot",)}
    assert all("A" not in c and "B" not in c for c in result.combats)


def test_an_enemy_in_the_flank_comes_back_forward_then_sideways():
    """A (3 x 2) loses its rear rank and a front-rank flank model; B had touched A's right
    flank along the rear rank only, so it now stands 1" out and 0.5" below A's new rear
    corner: forward 1", then sideways 0.5", ending corner to corner."""
    result = resolve(scenes.flank_contact(), [Loss("A", count=4)])
    [found] = result.nudges
    assert found.unit == "B"
    assert [(leg.direction, round(leg.distance_in, 9)) for leg in found.legs] == \
        [("forward", 1.0), ("sideways", 0.5)]
    assert result.combats == (("A", "B"),)
    _recheck(result)


def test_the_order_that_keeps_more_units_in_combat_is_found():
    scn, previous = scenes.race_for_one_spot()
    found = best_order(scn, [["A1", "A2"], ["E1", "E2"]], previous)
    assert found.proved
    assert found.order[:2] == ("A2", "A1")
    assert found.in_combat == 4
    worse = best_order(scn, [["A1"], ["A2"], ["E1", "E2"]], previous)  # A1 forced first
    assert worse.in_combat == 3


def test_a_combat_of_two_against_two_splits_in_two():
    scn = scenes.two_against_two()
    assert combats(scn.units) == [("A1", "A2", "B1", "B2")]
    result = resolve(scn, [Loss("A2", slots=((0, 0),))])
    assert result.nudges == ()
    assert result.combats == (("A1", "B1"), ("A2", "B2"))


def test_a_unit_wiped_out_leaves_and_its_enemy_has_no_more_foes():
    a, b = scenes.line_and_foe(state="charging")
    scn = scenes.scenario(b, a)
    result = resolve(scn, [Loss("A", count=5)])
    assert result.removed == ("A",)
    assert dict(result.no_more_foes) == {"B": ("post_combat_pivot", "overrun")}
    assert result.combats == ()


def test_fleeing_and_pursuing_units_are_not_nudged():
    a, b = scenes.line_and_foe(state="pursuing")
    result = resolve(scenes.scenario(a, b), [Loss("A", count=1)])
    [found] = result.nudges  # A is nudged; B, about to pursue, would not be
    assert found.unit == "A"
    a2, b2 = scenes.line_and_foe(state="fleeing")
    from dataclasses import replace
    result = resolve(replace(scenes.scenario(a2, b2), active_player="blue"),
                     [Loss("A", count=1)])
    assert [n.unit for n in result.nudges] == ["A"]


def test_losses_outside_the_melee_come_from_the_side_that_keeps_contact():
    """B overlaps only A's two left models.  In the Melee Phase two casualties come one from
    each side, A closes up and must be nudged 0.5" back; outside it (RULES §2.7.2) both come
    from the right, so A keeps its contact and no nudge is needed."""
    from tests.support import scenario, unit
    a = unit("A", models=5, files=5, centre=(36.0, 10.0))
    b = unit("B", models=5, files=5, centre=(31.5, 11.0), facing=270.0, player="blue")
    melee = resolve(scenario(a, b), [Loss("A", count=2)])
    assert [(n.unit, n.distance_in) for n in melee.nudges] == [("A", pytest.approx(0.5))]
    outside = resolve(scenario(a, b), [Loss("A", count=2, outside_melee=True)])
    assert outside.nudges == () and outside.after.unit("A").pose.centre == (35.0, 10.0)
    assert outside.combats == (("A", "B"),)
