"""Jump, Climb and Dodge through the whole checker: which clauses judge each skill, the
violations named with their measurements, and the verdict's length per skill."""

from __future__ import annotations

import pytest

from constraints.core.scenario_io import scenario_from_json
from constraints.infinity.checker import check_route
from constraints.infinity.clauses.examples import rect, skill, town
from constraints.infinity.route import route_from_json
from constraints.infinity.volumes import height_overlap, silhouette_gap

R = 25 / 25.4 / 2
H2 = 40 / 25.4
HOUSE = rect("house", 6, 10, 10, 14, 3.0)


def _check(data, route):
    return check_route(scenario_from_json(data), route_from_json(route))


def test_a_jump_through_a_wall_names_the_clause_the_wall_and_the_measurement():
    verdict = _check(town(HOUSE, at=(6 - R, 12, 0)),
                     skill("jump", (6 - R, 12, 0), (7, 12, 3)))
    assert verdict.clauses() == ("route.jump.clear",)
    (v,) = verdict.violations
    assert "'house'" in v.message and v.measured == pytest.approx(0.0) and v.limit == R
    assert verdict.to_json()["measurements"]["jump_distance"] == pytest.approx(
        silhouette_gap((6 - R, 12, 0), (7, 12, 3), R, H2))


def test_walk_clauses_do_not_judge_a_jump_nor_jump_clauses_a_move():
    jump = _check(town(HOUSE, at=(6 - R, 12, 0)),
                  skill("jump", (6 - R, 12, 0), (6 - R, 12, 3), (6 + R, 12, 3)))
    assert jump.legal and "level_step" not in jump.measurements
    assert jump.length_in == pytest.approx(3 - H2)          # the FAQ's distance
    move = _check(town(), {"unit": "fusilier", "path": [[4, 12, 0], [6, 12, 0]]})
    assert move.legal and "jump_reach" not in move.measurements


def test_a_climb_is_measured_along_its_path_and_a_dodge_by_its_2_inches():
    climb = _check(town(HOUSE, at=(6 - R, 12, 0)),
                   skill("climb", (6 - R, 12, 0), (6 - R, 12, 3), (6 + R, 12, 3)))
    assert climb.legal and climb.length_in == pytest.approx(3 + 2 * R)
    dodge = _check(town(), skill("dodge", (4, 12, 0), (6.5, 12, 0)))
    assert dodge.clauses() == ("route.dodge",)
    assert "route.length" not in dodge.measurements


def test_a_climb_onto_a_roof_too_small_for_the_base_breaks_the_end_surface():
    data = town(rect("post", 6, 11.8, 6.6, 12.2, 3.0), at=(6 - R, 12, 0))
    verdict = _check(data, skill("climb", (6 - R, 12, 0), (6 - R, 12, 3), (6.3, 12, 3)))
    assert "route.end_surface" in verdict.clauses()


def test_the_silhouette_gap_is_the_least_distance_between_the_volumes():
    assert silhouette_gap((0, 0, 0), (3, 0, 0), R, H2) == pytest.approx(3 - 2 * R)
    assert silhouette_gap((0, 0, 0), (0, 0, 5), R, H2) == pytest.approx(5 - H2)
    assert silhouette_gap((0, 0, 3), (0, 0, 0), R, H2) == pytest.approx(3)
    assert silhouette_gap((0, 0, 0), (4, 0, 4), R, H2) == pytest.approx(
        ((4 - 2 * R) ** 2 + (4 - H2) ** 2) ** 0.5)


def test_height_overlap_leaves_out_touching_tops_and_bottoms():
    assert height_overlap((0, 0, 3), (1, 0, 3), H2, 0.0, 3.0) is None     # on the roof
    assert height_overlap((0, 0, 0), (1, 0, 0), H2, 3.0, 5.0) is None     # under a floor at 3
    assert height_overlap((0, 0, 0), (0, 0, 4), H2, 0.0, 3.0) == pytest.approx((0.0, 0.75),
                                                                             abs=1e-5)
