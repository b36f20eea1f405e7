"""Snaking Forward Moves: distance with the sin-cost of wheels, the heading window, the
Front Facing's swept path (spacing and table edge), and the Reorder (seed 000; RULES 2.4).

Their rule-example tables live with the clauses (`Clause.examples`) and run in the
conformance suite (tests/conformance); these are the cases that need more than a table.
"""

import math

import pytest
import shapely

from constraints.t9a.checker import check_move
from constraints.t9a.moves import Move, forward, wheel
from tests.support import scenario, unit, wall

# 5 files of 1" bases: frontage W = 5".
FREE = scenario(unit(mobility=4.0, centre=(36.0, 10.0)))


def march(*steps, s=FREE, **kw):
    return check_move(s, Move("u", "march", steps=tuple(steps), **kw))


def advance(*steps, pivot=0.0, s=FREE):
    return check_move(s, Move("u", "advance", steps=tuple(steps), pivot_deg=pivot))


def test_march_exactly_twice_mobility_is_legal_and_a_hundredth_more_is_not():
    assert march(forward(8.0)).legal
    verdict = march(forward(8.01))
    assert verdict.clauses() == ("t9a.march.distance", "t9a.valid_final_position")
    assert verdict.violations[0].measured == pytest.approx(8.01)
    assert verdict.violations[0].limit == 8.0


def test_advance_allows_mobility_only():
    assert advance(forward(4.0)).legal
    assert advance(forward(4.01)).clauses() == ("t9a.advance.distance",)


def test_the_rulebook_wheel_of_4_inches():
    # "The example Wheel moved 4 inches": a 90 deg wheel of a 4" wide unit costs 4".
    s = scenario(unit(models=8, files=4, mobility=2.0))
    assert march(wheel(90.0), s=s).measurements["distance"] == pytest.approx(4.0)
    assert "t9a.march.distance" in march(wheel(90.0), forward(0.01), s=s).clauses()


def test_a_wheel_pivots_on_the_inner_front_corner():
    left = march(wheel(90.0))
    # Facing +y, front-left corner at (33.5, 11): after a 90 deg left wheel the unit faces -x
    # and that corner has not moved.
    assert left.end_facing_deg == 180.0
    assert left.end_corners[0] == pytest.approx((33.5, 11.0))
    right = march(wheel(-90.0))
    assert right.end_corners[1] == pytest.approx((38.5, 11.0))


def test_advance_window_is_measured_from_the_heading_after_the_pivot():
    s = scenario(unit(models=2, files=2, mobility=10.0, centre=(36.0, 20.0)))
    verdict = advance(wheel(80.0), pivot=90.0, s=s)
    assert verdict.measurements["heading_change"] == 80.0
    assert "t9a.advance.heading_window" not in verdict.clauses()


def test_front_path_must_stay_more_than_half_an_inch_from_terrain():
    # Rocks 0.6" left of the unit's left edge (x = 33.5), level with its path: going
    # straight on passes them.  Rocks ahead on the right: a left wheel swings the front
    # into them.
    rocks = wall("rocks", 30.0, 11.0, 32.9, 16.0)
    s = scenario(unit(centre=(36.0, 10.0)), terrain=(rocks,))
    assert march(forward(3.0), s=s).measurements["front_clearance"] == pytest.approx(0.6)
    ahead = wall("ahead", 37.0, 14.0, 40.0, 16.0)
    s = scenario(unit(centre=(36.0, 10.0)), terrain=(ahead,))
    assert march(forward(1.0), s=s).measurements["front_clearance"] == 2.0
    swung = march(forward(1.0), wheel(30.0), s=s)
    assert swung.measurements["front_clearance"] == 0.0
    assert "t9a.snaking.front_spacing" in swung.clauses()


def test_front_clearance_of_exactly_half_an_inch_is_illegal_and_a_bit_more_legal():
    # The rocks begin 0.5" ahead of the Front Facing, so the unit does not start within the
    # 0.5" limit of them (A20 would make its start distance the limit).
    for gap, legal in ((0.5, False), (0.501, True)):
        rocks = wall("rocks", 33.5 - gap - 1.0, 11.5, 33.5 - gap, 12.5)
        s = scenario(unit(centre=(36.0, 10.0)), terrain=(rocks,))
        verdict = march(forward(0.9), s=s)
        assert verdict.measurements["front_clearance"] == pytest.approx(gap)
        assert ("t9a.snaking.front_spacing" not in verdict.clauses()) == legal


def test_only_the_front_counts_while_snaking():
    # A wheel swings the rear of the unit across rocks that the front never comes near: only
    # the end position may be judged, and here it is clear.
    rocks = wall("rocks", 39.0, 6.0, 41.0, 8.0)
    s = scenario(unit(models=10, files=5, centre=(36.0, 10.0), mobility=6.0), terrain=(rocks,))
    verdict = march(wheel(-90.0), forward(0.0), s=s)
    assert verdict.measurements["front_clearance"] > 0.5


def test_front_facing_stays_on_the_table():
    s = scenario(unit(centre=(36.0, 40.0), mobility=6.0), depth=45.0)
    verdict = march(wheel(90.0), s=s)  # the front swings up to y = 46
    assert "t9a.table_edge.front" in verdict.clauses()
    assert march(forward(2.0), s=s).legal


def test_a_unit_may_hang_off_the_table_mid_move_but_must_end_on_it():
    # Touching the far edge is on the table; a hair more is not.
    s = scenario(unit(centre=(36.0, 10.0)), depth=19.0)
    assert march(forward(8.0), s=s).legal  # front edge ends at y = 19
    over = march(forward(8.0) , forward(0.01), s=s)
    assert {"t9a.table_edge.end", "t9a.table_edge.front"} <= set(over.clauses())


def test_reorder_keeps_the_files():
    assert march(forward(1.0), files=5).legal
    verdict = march(forward(1.0), files=4)
    assert verdict.clauses() == ("t9a.reorder.files",)


def test_swept_wheel_area_contains_the_true_sector():
    from constraints.geometry.wheel import wheel_sweep

    sweep = wheel_sweep((0.0, 0.0), (5.0, 0.0), 90.0)
    for k in range(91):
        a = math.radians(k)
        assert sweep.buffer(1e-9).covers(shapely.Point(5 * math.cos(a), 5 * math.sin(a)))
    assert sweep.area == pytest.approx(math.pi * 25 / 4, rel=1e-5)
