"""The shortest Jump, Climb and Dodge, the skill chosen for a spot, and where each skill can
land: every answer legal by the exact checker, every status honest (a Jump's distance is
fixed by its two spots, a Climb's path by its two spots), the areas sound (inner spots are
reached, no spot outside the outer area is)."""

from __future__ import annotations

import numpy as np
import pytest
import shapely

from constraints.core.scenario_io import scenario_from_json
from constraints.core.status import Status
from constraints.infinity.checker import check_route
from constraints.infinity.clauses.examples import rect, town, trooper
from constraints.infinity.route import Route
from optimizer.routes import reachable_area, route_to, shortest_route
from optimizer.routes.air import arc, climb_path

R = 25 / 25.4 / 2
H2 = 40 / 25.4
HOUSE = rect("house", 6, 10, 10, 14, 3.0)


def _gap(width: float, at=(8 - R, 12, 3)):
    return scenario_from_json(town(rect("a", 2, 8, 8, 16, 3.0),
                                   rect("b", 8 + width, 8, 16, 16, 3.0), at=at))


def test_a_jump_across_a_gap_is_optimal_at_the_faq_distance():
    result = shortest_route(_gap(1.5), "fusilier", (9.5 + R, 12, 3), "jump")
    assert result.status == Status.OPTIMAL and result.legal
    assert result.length_in == pytest.approx(1.5) == result.bound_in


def test_a_gap_wider_than_mov_is_proved_out_of_reach():
    result = shortest_route(_gap(4.5), "fusilier", (12.5 + R, 12, 3), "jump")
    assert result.status == Status.INFEASIBLE and result.idle and not result.legal
    assert "route.jump.distance" in result.verdict.clauses()


def test_a_jump_over_a_tall_wall_takes_an_arc():
    scenario = scenario_from_json(town(rect("wall", 6, 8, 6.3, 16, 2.0, kind="obstacle")))
    result = shortest_route(scenario, "fusilier", (8, 12, 0), "jump")
    assert result.status == Status.OPTIMAL and result.legal
    assert max(p[2] for p in result.path) == pytest.approx(2.0) and len(result.path) == 4


def test_a_jump_landing_inside_a_trooper_is_infeasible():
    scenario = scenario_from_json(town(rect("a", 2, 8, 8, 16, 3.0),
                                       rect("b", 9.5, 8, 16, 16, 3.0), at=(8 - R, 12, 3),
                                       troopers=(trooper("ally", 10.5, 12, level=3.0),)))
    result = shortest_route(scenario, "fusilier", (10.2, 12, 3), "jump")
    assert result.status == Status.INFEASIBLE and "route.end_troopers" in result.verdict.clauses()


def test_a_climb_up_the_wall_it_touches_is_optimal_and_a_taller_one_is_infeasible():
    scenario = scenario_from_json(town(HOUSE, at=(6 - R, 12, 0)))
    up = shortest_route(scenario, "fusilier", (6 + R, 12, 3), "climb")
    assert up.status == Status.OPTIMAL and up.legal and up.length_in == pytest.approx(3 + 2 * R)
    tall = scenario_from_json(town(rect("house", 6, 10, 10, 14, 3.5), at=(6 - R, 12, 0)))
    no = shortest_route(tall, "fusilier", (6 + R, 12, 3.5), "climb")
    assert no.status == Status.INFEASIBLE and no.idle


def test_a_climb_down_goes_over_the_edge_then_down():
    scenario = scenario_from_json(town(HOUSE, at=(6 + R, 12, 3)))
    down = shortest_route(scenario, "fusilier", (6 - R, 12, 0), "climb")
    assert down.status == Status.OPTIMAL and down.legal
    assert down.path[1] == pytest.approx((6 - R, 12, 3))


def test_a_dodge_is_a_short_move():
    scenario = scenario_from_json(town())
    near = shortest_route(scenario, "fusilier", (5.5, 12, 0), "dodge")
    far = shortest_route(scenario, "fusilier", (6.5, 12, 0), "dodge")
    assert near.legal and near.status == Status.OPTIMAL
    assert not far.legal and far.idle and far.verdict.clauses() == ("route.dodge",)


def test_the_skill_chosen_move_first_then_jump_or_climb():
    house = scenario_from_json(town(HOUSE, at=(6 - R, 12, 0)))
    walk = route_to(house, "fusilier", (3, 12, 0))
    assert walk.skill == "move" and walk.legal
    roof = route_to(house, "fusilier", (6 + R, 12, 3))
    assert roof.skill == "jump" and roof.legal and roof.extra["tried"]["climb"]["legal"]
    assert roof.length_in < 3 + 2 * R   # the Jump, measured from the Silhouette, is shorter
    gap = route_to(_gap(1.5), "fusilier", (9.5 + R, 12, 3))
    assert gap.skill == "jump" and gap.extra["tried"]["move_move"]["status"] == "INFEASIBLE"


def test_a_prone_trooper_climbs_standing_up_since_it_may_not_jump():
    data = town(HOUSE)
    data["units"] = [trooper("fusilier", 6 - R, 12, prone=True)]
    result = route_to(scenario_from_json(data), "fusilier", (6 + R, 12, 3))
    assert result.skill == "climb" and result.legal and result.prone is False
    assert result.extra["tried"]["jump"]["status"] == "INFEASIBLE"


def test_nothing_reaches_a_far_roof_idle_proved():
    scenario = scenario_from_json(town(HOUSE, at=(2, 2, 0)))
    result = route_to(scenario, "fusilier", (8, 12, 3))
    assert result.status == Status.INFEASIBLE and result.idle and not result.legal


def _samples(geometry, n, rng):
    minx, miny, maxx, maxy = geometry.bounds
    pts = rng.uniform((minx, miny), (maxx, maxy), (n * 20, 2))
    inside = [p for p in pts if geometry.contains(shapely.Point(p))]
    return inside[:n]


@pytest.mark.parametrize("skill", ["jump", "climb"])
def test_air_areas_are_sound(skill):
    data = town(HOUSE, rect("tower", 12, 10, 14, 14, 5.0), rect("crate", 2, 15, 4, 17, 1.0),
                at=(6 - R, 12, 0))
    scenario = scenario_from_json(data)
    area = reachable_area(scenario, "fusilier", skill=skill)
    rng = np.random.default_rng(7)
    start = (6 - R, 12, 0)
    make = (lambda p: arc(start, p, max(start[2], p[2]))) if skill == "jump" else \
        (lambda p: climb_path(start, p))
    checked = 0
    for level, geometry in area.levels.items():
        assert area.outer[level].buffer(1e-6).covers(geometry)
        for x, y in _samples(geometry, 15, rng):
            verdict = check_route(scenario, Route("fusilier", skill, make((x, y, level))))
            assert verdict.legal, (level, x, y, verdict.clauses())
            checked += 1
    assert checked >= (15 if skill == "jump" else 0)
    # No spot outside the outer area is reached, on any surface.
    for x, y in rng.uniform(0.6, 23.4, (60, 2)):
        for level in (0.0, 1.0, 3.0, 5.0):
            if level in area.outer and area.outer[level].distance(shapely.Point(x, y)) < 1e-3:
                continue
            try:
                result = shortest_route(scenario, "fusilier", (x, y, level), skill)
            except ValueError:
                continue
            assert not result.legal, (level, x, y)
