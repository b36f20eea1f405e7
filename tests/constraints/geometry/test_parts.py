"""Measurements part by part (constraints.geometry.parts), on the sweeps of
tests/data/sweep_union_move.json, whose union GEOS 3.14 gets wrong (issue 22)."""

from __future__ import annotations

import numpy as np
import shapely
from shapely.geometry import box

from constraints.core.scenario_io import load_scenario
from constraints.geometry.parts import holding_union, holds, least_distance, reach_past
from constraints.rank_and_file.kinematics import snake
from constraints.t9a.move_io import load_move
from tests.support import ROOT

DATA = ROOT / "tests" / "data"


def _repro():
    s = load_scenario(DATA / "sweep_union_scenario.json")
    move = load_move(DATA / "sweep_union_move.json")
    return s, snake(s.unit("hero"), 0.0, move.steps).front_sweep_parts


def test_the_least_distance_is_over_the_parts():
    s, parts = _repro()
    rocks = [(t.id, t.shape) for t in s.terrain]
    gap, label, witness = least_distance(parts, rocks)
    expected = min(float(shapely.distance(p, rocks[0][1])) for p in parts)
    assert gap == expected == 0.0
    assert label == "t4_tri" and len(witness) == 2


def test_nothing_to_measure_is_infinitely_far():
    assert least_distance([], [("a", box(0, 0, 1, 1))])[0] == float("inf")
    assert least_distance([box(0, 0, 1, 1)], [])[0] == float("inf")


def test_the_reach_past_the_table_is_the_farthest_part():
    parts = [box(1, 1, 2, 2), box(9, 3, 10.5, 4), box(2, -0.25, 3, 1)]
    assert reach_past(parts, 10.0, 10.0) == 0.5
    assert reach_past(parts[:1], 10.0, 10.0) == 0.0
    assert reach_past([], 10.0, 10.0) == 0.0


def test_the_holding_union_holds_every_part():
    s, parts = _repro()
    union = holding_union(parts)
    assert holds(union, list(parts))
    # Its distance to the triangle is the least over the parts: 0, the forward leg's.
    assert union.distance(s.terrain[0].shape) == 0.0
    # Every vertex of every part is on it.
    points = shapely.points(np.vstack([shapely.get_coordinates(p) for p in parts]))
    assert float(shapely.distance(union, points).max()) <= 1e-9


def test_a_union_that_lost_a_piece_does_not_hold():
    parts = [box(0, 0, 2, 2), box(1, 1, 3, 3)]
    assert not holds(box(0, 0, 2, 2), parts)
    assert holds(box(0, 0, 3, 3), parts)


def test_a_plain_union_is_returned_when_it_holds():
    parts = [box(0, 0, 2, 2), box(1, 1, 3, 3)]
    assert holding_union(parts).equals(shapely.union_all(parts))
