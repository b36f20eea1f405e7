"""Shortest routes and reachable areas (docs/rules.md §13.5-13.6): the issue's cases, the
lower bound, Move + Move, every answer re-checked, an independent shortest-path reference on
the same free space, and reachable areas against routes."""

from __future__ import annotations

import math

import networkx as nx
import numpy as np
import pytest
import shapely

from benchmarks.infinity_maps import ruined_town
from benchmarks.infinity_queries import queries
from constraints.core.scenario_io import scenario_from_json
from constraints.core.status import Status
from constraints.errors import InvalidInputError
from constraints.infinity.checker import check_route
from constraints.infinity.clauses.examples import ladder, rect, town, trooper
from constraints.infinity.walk import Walk
from optimizer.routes import reachable_area, shortest_route

R25 = 25 / 25.4 / 2


def _scene(*terrain, **kw):
    return scenario_from_json(town(*terrain, **kw))


def test_a_gap_narrower_than_the_base_blocks_and_the_route_goes_round():
    walls = (rect("a", 6, 0, 8, 11.55, 3.0), rect("b", 6, 12.45, 8, 20, 3.0))
    result = shortest_route(_scene(*walls), "fusilier", (10, 12))
    assert result.status == Status.OPTIMAL
    assert result.length_in > 2 * (20 - 12 + R25) - 1  # round the top end
    wider = (rect("a", 6, 0, 8, 11.4, 3.0), rect("b", 6, 12.6, 8, 20, 3.0))
    through = shortest_route(_scene(*wider), "fusilier", (10, 12), "move_move")
    assert through.length_in == pytest.approx(6.0, abs=1e-6) and through.legal


def test_walled_in_is_idle_with_a_proof():
    box = (rect("w", 2, 9, 6, 9.3, 3.0, kind="obstacle"), rect("e", 6, 9, 6.3, 15, 3.0,
                                                              kind="obstacle"),
           rect("n", 2, 15, 6.3, 15.3, 3.0, kind="obstacle"),
           rect("s", 1.7, 9, 2, 15.3, 3.0, kind="obstacle"))
    result = shortest_route(_scene(*box), "fusilier", (10, 12))
    assert result.status == Status.INFEASIBLE and result.idle and not result.legal


def test_a_low_wall_is_crossed_and_its_height_not_counted():
    wall = rect("wall", 5.5, 6, 5.8, 18, 0.8, kind="obstacle")
    result = shortest_route(_scene(wall), "fusilier", (8, 12))
    assert result.length_in == pytest.approx(4.0, abs=1e-9) and result.legal
    tall = rect("wall", 5.5, 6, 5.8, 18, 2.0, kind="obstacle")
    assert shortest_route(_scene(tall), "fusilier", (8, 12)).length_in > 12


def test_a_move_move_whose_midpoint_has_no_room_is_refused_though_8_in_exist():
    ledge = (rect("roof_a", 0, 10, 4, 14, 3.0), rect("catwalk", 4, 11.7, 12, 12.3, 3.0),
             rect("roof_b", 12, 10, 16, 14, 3.0))
    scenario = _scene(*ledge, at=(2, 12, 3))
    one = shortest_route(scenario, "fusilier", (10, 12, 3), "move")
    assert one.length_in == pytest.approx(8.0) and one.status == Status.OPTIMAL
    result = shortest_route(scenario, "fusilier", (10, 12, 3), "move_move")
    assert result.status == Status.INFEASIBLE and result.idle and not result.legal
    reach_b = shortest_route(scenario, "fusilier", (3, 12, 3), "move_move")
    assert reach_b.legal


def test_up_a_ladder_measured_along_it_and_the_bound_closes():
    scenario = _scene(rect("house", 6, 10, 10, 14, 3.0), ladder("l", (5.4, 12, 0), (6.6, 12, 3)))
    result = shortest_route(scenario, "fusilier", (7.2, 12, 3), "move_move")
    assert result.legal and result.status == Status.OPTIMAL
    assert result.length_in == pytest.approx(1.4 + math.hypot(1.2, 3) + 0.6)
    assert result.bound_in <= result.length_in + 1e-12
    x, _, level = result.path[result.midpoint]
    assert level == 0 and 5.4 - 4 + 3.83 - 1e-6 <= x <= 5.4  # on the ground, near the foot
    # 0.3 in further on the roof, the second Move would be 4.13 in: the ladder is no place
    # to stop, so no Move + Move gets there.
    farther = shortest_route(scenario, "fusilier", (7.5, 12, 3), "move_move")
    assert farther.status == Status.INFEASIBLE and farther.idle


def test_prone_halves_the_move():
    result = shortest_route(_scene(), "fusilier", (7, 12), prone=True)
    assert not result.legal and result.verdict.clauses() == ("route.length",)
    assert shortest_route(_scene(), "fusilier", (7, 12)).legal


def test_a_route_never_passes_through_an_enemy():
    enemy = trooper("zhanshi", 7, 12, player="red")
    result = shortest_route(_scene(troopers=(enemy,)), "fusilier", (10, 12))
    assert result.length_in > 6.0 and "route.troopers" not in result.verdict.clauses()


def test_bad_requests_raise():
    scenario = _scene()
    for args in [("nobody", (5, 5)), ("fusilier", (50, 5)), ("fusilier", (5,)),
                 ("fusilier", ("a", 5))]:
        with pytest.raises(InvalidInputError):
            shortest_route(scenario, *args)
    with pytest.raises(InvalidInputError):
        shortest_route(scenario, "fusilier", (5, 5), skill="fly")


@pytest.fixture(scope="module")
def town_30():
    data = ruined_town(30, 4)
    return data, scenario_from_json(data)


def test_every_answer_is_rechecked_and_deterministic(town_30):
    data, scenario = town_30
    for unit, target in queries(data, 12, 5):
        for skill in ("move", "move_move"):
            result = shortest_route(scenario, unit, target, skill)
            again = shortest_route(scenario, unit, target, skill)
            assert result == again
            if result.path:
                verdict = check_route(scenario, result.route())
                assert verdict == result.verdict
                assert result.bound_in <= result.length_in + 1e-9
            if result.status == Status.OPTIMAL:
                assert result.length_in - result.bound_in <= result.tolerance_in


def _reference_length(region, a, b):
    """Shortest path through everything outside `region`'s interior: every pair of its
    outline's vertices, the start and the end, joined where the segment stays out of the
    interior (a full, not reduced, visibility graph)."""
    pts = [tuple(a), tuple(b)]
    for poly in getattr(region, "geoms", [region]):
        for ring in [poly.exterior, *poly.interiors]:
            pts += [tuple(p) for p in np.asarray(ring.coords)[:-1, :2]]
    pts = list(dict.fromkeys(pts))
    segs = [(i, j) for i in range(len(pts)) for j in range(i + 1, len(pts))]
    lines = shapely.linestrings([[pts[i], pts[j]] for i, j in segs])
    inside = shapely.relate_pattern(region, lines, "T********")
    g = nx.Graph()
    for (i, j), bad in zip(segs, inside, strict=True):
        if not bad:
            g.add_edge(i, j, weight=math.dist(pts[i], pts[j]))
    try:
        return nx.dijkstra_path_length(g, 0, 1)
    except (nx.NetworkXNoPath, nx.NodeNotFound):
        return math.inf


def test_in_region_lengths_match_a_full_visibility_graph():
    rng = np.random.default_rng(7)
    walls = [rect(f"w{k}", x, y, x + w, y + h, 3.0, kind="obstacle")
             for k, (x, y, w, h) in enumerate([(5, 5, 3, 1), (10, 8, 1, 6), (14, 3, 2, 2),
                                               (6, 14, 5, 1), (16, 12, 1, 5)])]
    scenario = _scene(*walls, at=(2, 2, 0))
    walk = Walk.of(scenario, scenario.unit("fusilier"))
    finder = walk.finder(0)
    free = shapely.box(0, 0, 24, 24).difference(finder.region)
    checked = 0
    for _ in range(12):
        a, b = rng.uniform(1, 23, 2), rng.uniform(1, 23, 2)
        if not (free.contains(shapely.Point(a)) and free.contains(shapely.Point(b))):
            continue
        ours = float(finder.lengths(a[None], b[None])[0, 0])
        assert ours == pytest.approx(_reference_length(finder.region, a, b), abs=1e-6)
        checked += 1
    assert checked >= 5


def test_reachable_area_agrees_with_routes(town_30):
    data, scenario = town_30
    unit = data["units"][0]["id"]
    area = reachable_area(scenario, unit)
    assert area.status == Status.FEASIBLE and 0 < area.area_in2 <= area.outer_area_in2
    rng = np.random.default_rng(3)
    trooper_mov = scenario.unit(unit).move_allowance_in(0)
    for level, inner in area.levels.items():
        minx, miny, maxx, maxy = inner.bounds
        for x, y in rng.uniform((minx, miny), (maxx, maxy), (40, 2)):
            if inner.contains(shapely.Point(x, y)):
                result = shortest_route(scenario, unit, (x, y, level))
                assert result.legal and result.length_in <= trooper_mov + 1e-9
    outer = shapely.union_all(list(area.outer.values()))
    ends = Walk.of(scenario, scenario.unit(unit)).end_zone(
        Walk.of(scenario, scenario.unit(unit)).regions[0])
    for x, y in rng.uniform(0, 48, (200, 2)):
        p = shapely.Point(x, y)
        if ends.contains(p) and outer.distance(p) > 1e-3:
            assert not shortest_route(scenario, unit, (x, y, 0.0)).legal


def test_a_block_reached_by_a_crate_is_climbed_from_the_crate_not_the_ground():
    steps = (rect("crate", 6, 10, 8, 14, 1.0), rect("block", 8, 10, 10, 14, 2.0))
    result = shortest_route(_scene(*steps, at=(9, 16, 0)), "fusilier", (9, 13, 2), "move_move")
    assert result.status == Status.OPTIMAL and result.legal
    assert min(p[0] for p in result.path) < 8.0      # by way of the crate
    assert result.length_in > 3.0 + 1.0              # not straight up the 2 in face


def test_a_route_into_base_contact_with_an_enemy_ends_there():
    enemy = trooper("zhanshi", 7, 12, player="red")
    scenario = _scene(troopers=(enemy,))
    touching = shortest_route(scenario, "fusilier", (7 - 2 * R25, 12))
    assert touching.legal and touching.length_in == pytest.approx(3 - 2 * R25)
    inside = shortest_route(scenario, "fusilier", (7 - 2 * R25 + 0.01, 12))
    assert inside.status == Status.INFEASIBLE and inside.idle


def test_a_move_of_nothing_is_a_move():
    area = reachable_area(_scene(), "fusilier", mov_in=0.0)
    assert area.status == Status.FEASIBLE and area.area_in2 == 0.0


def test_a_shortest_route_that_meets_an_enemy_below_is_not_claimed():
    """A22: an S1 walking along a 1.2 in roof's edge (its base over the edge by the r/2 it may)
    meets the Silhouette of a TAG (S7, 67 mm) standing on the ground below: the Move would end
    there, so the straight route does not reach the target.  The free space keeps only the
    roof's enemies out, so the answer is NOT_FOUND with the bound, not OPTIMAL."""
    tag = trooper("tag", 8, 12.2 + 55 / 25.4 / 2 + 0.05, player="red", base=55, silhouette=7)
    data = town(rect("roof", 2, 10, 14, 12.2, 1.2), troopers=(tag,), at=(4, 11.95, 1.2),
                silhouette=1)
    result = shortest_route(scenario_from_json(data), "fusilier", (7.5, 11.95, 1.2))
    assert result.status == Status.NOT_FOUND and result.bound_in == pytest.approx(3.5)
    assert "Silhouette of enemy tag" in result.reason
    # Two inches from the edge, the same walk passes the TAG by: OPTIMAL, as before.
    clear = town(rect("roof", 2, 10, 14, 12.2, 1.2), troopers=(tag,), at=(4, 11.0, 1.2),
                 silhouette=1)
    assert shortest_route(scenario_from_json(clear), "fusilier",
                          (7.5, 11.0, 1.2)).status == Status.OPTIMAL


@pytest.mark.parametrize(("silhouette", "passable"), [(1, True), (2, False)])
def test_the_relaxed_free_space_leaves_out_an_enemy_the_route_may_pass_over(silhouette,
                                                                            passable):
    """route.troopers judges Silhouettes (A22): from a 1.2 in crate an S2 passes over an S1
    (25 mm) standing against it, not over an S2 (40 mm).  The relaxed free space (the bound)
    must hold every legal path, so it leaves out an enemy some piece lets it pass over; the
    strict one (the answer) keeps its whole disc."""
    r = 25 / 25.4 / 2
    data = town(rect("crate", 5, 11, 12, 13, 1.2),
                troopers=(trooper("z", 8, 13 + r, player="red", silhouette=silhouette),),
                at=(6, 12.5, 1.2))
    scenario = scenario_from_json(data)
    me, enemy = scenario.unit("fusilier"), scenario.unit("z")
    strict, relaxed = Walk.of(scenario, me), Walk.of(scenario, me, relaxed=True)
    region = strict.regions[strict.locate(6, 12.5, 1.2)]
    assert strict.passable(enemy, region) == passable
    near = shapely.Point(8, 12.9)  # over the crate, within the two bases' reach
    assert strict.blocked(region).contains(near)
    assert relaxed.blocked(relaxed.regions[region.index]).contains(near) != passable
