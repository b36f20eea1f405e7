"""The end-position cut of a certificate's pieces (optimizer.search.end_cut): no box holding a
legal way that beats the cut's target is ever settled, on random tables (walls, rocks, L and
U shapes, friends and enemies, units that start close: A20) and beside a wall with a friend
touching within the contact tolerance (A21), for random legal ways of up to four wheels and
every box the certificate's splits hold them in; end to end, no legal way beats a bound the
cut helped make; and the cut closes a certificate the pieces alone cannot."""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pytest
import shapely

from benchmarks.random_requests import random_requests
from constraints.core.scenario_io import load_scenario, scenario_from_json
from constraints.geometry.pieces import sector_distance
from constraints.rank_and_file.snaking_reach import AdvanceReach, MarchReach
from constraints.sat.lattice import Lattice
from constraints.t9a.checker import check_move
from constraints.t9a.examples import field
from constraints.t9a.examples import unit as ex_unit
from constraints.t9a.examples import wall as ex_wall
from constraints.t9a.moves import Manoeuvre, Move, forward, wheel
from optimizer.search import end_cut as end_cut_module
from optimizer.search.budget_sets import budget_polygons
from optimizer.search.certified import relaxation_of
from optimizer.search.certify import certify
from optimizer.search.end_cut import CUT_GOALS, EndCut, end_cut
from optimizer.search.objectives import Objective
from optimizer.search.request import SearchRequest
from optimizer.search.sector_polygons import grown_hulls, hull_polygons
from tests.constraints.t9a.test_snaking_reach import _child_holding, _close_scene, _random_way
from tests.depth import THOROUGH, rows

MOVES = [r for r in random_requests(80, 20261201) if r.manoeuvre != "reform"]
SCENARIOS = Path(__file__).resolve().parents[3] / "benchmarks" / "scenarios"


def _objective(rng: np.random.Generator, centre) -> Objective:
    name = CUT_GOALS[int(rng.integers(len(CUT_GOALS)))]
    if name == "forward":
        return Objective(name)
    point = (float(centre[0] + rng.uniform(-8, 8)), float(centre[1] + rng.uniform(-8, 8)))
    return Objective(name, point, float(rng.uniform(0, 360)) if name == "target_pose" else None)


def _legal_ways(rng: np.random.Generator, scn, unit_id: str, manoeuvre: str, wanted: int,
                tries: int):
    """Random ways of up to four wheels the checker passes: (move, verdict, parameters)."""
    advance = manoeuvre == "advance"
    found = []
    for _ in range(tries):
        if len(found) == wanted:
            break
        pivot = float(rng.choice([0.0, rng.uniform(-15.0, 15.0), rng.uniform(-180.0, 180.0)])) \
            if advance else 0.0
        steps, headings = _random_way(rng, float(rng.choice([30.0, 90.0])),
                                      int(rng.integers(0, 5)))
        if rng.uniform() < 0.2 and headings[-1] != 0.0 and abs(headings[-1]) <= 90.0:
            steps += (wheel(-headings[-1]),)  # back to the start facing: h = 0 exactly
            headings.append(0.0)
        move = Move(unit_id, Manoeuvre(manoeuvre), steps, pivot_deg=pivot)
        verdict = check_move(scn, move)
        if not verdict.legal:
            continue
        params = np.radians([headings[-1], min(headings), max(headings)])
        if advance:
            params = np.concatenate([[math.radians(pivot)], params])
        found.append((move, verdict, params))
    return found


def _never_settles_a_better_way(scn, unit_id: str, manoeuvre: str, rng, wanted: int,
                                tries: int, with_front: bool = True) -> int:
    """For each legal way and a random objective: the cut against a target the way beats
    (by 1e-6) settles no box that holds it, nor bounds it above the way's value (with
    `with_front`: the front's reach by heading and the raised bounds of open boxes), from
    the first grid down to tiny boxes."""
    checked = 0
    for move, verdict, params in _legal_ways(rng, scn, unit_id, manoeuvre, wanted, tries):
        request = SearchRequest(scn, unit_id, manoeuvre,
                                _objective(rng, scn.unit(unit_id).pose.centre), Lattice(),
                                10.0, 1, 1.0, 0.01, 3)
        goal, reach = request.goal, request.relaxation
        assert isinstance(reach, AdvanceReach | MarchReach)
        sign = -1.0 if goal.maximise else 1.0
        # Ranked: face_point's way facing away ranks with the penalty (Goal.ranked).
        value = sign * goal.ranked(verdict)
        # With the relaxation: the front's reach by heading too, and open boxes raised.
        cut = EndCut(scn, request.unit, manoeuvre, goal, value + 1e-6,
                     relaxation=reach if with_front else None)
        mids, halves = reach.initial()
        holds = np.flatnonzero(np.all(np.abs(mids - params) <= halves + 1e-12, axis=1))
        assert len(holds)
        box_mid, box_half = mids[holds[:1]], halves[holds[:1]]
        for depth in range(70):
            for half in (box_half, np.zeros_like(box_half)):
                mid = params[None, :] if not half.any() else box_mid
                # Plain and tighter (the hull set too: the cut meets both), alternately.
                pieces = reach.pieces(mid, half, hull=depth % 2 == 1)
                assert sector_distance(np.asarray(verdict.end_centre),
                                       pieces.centres())[0] <= 1e-9  # the relaxation holds it
                _hull_polygon_holds(cut, pieces, verdict.end_centre)
                assert not cut.settled(pieces)[0], (move, goal.name, depth, half)
                assert cut.bounds_of(pieces)[0] <= value + 1e-9, (move, goal.name, depth)
            if (box_half * reach.weights).max() < 1e-7:
                break
            box_mid, box_half = _child_holding(box_mid, box_half, params, reach.weights, rng)
        checked += 1
    return checked


def _hull_polygon_holds(cut: EndCut, pieces, centre) -> None:
    """The polygons the cut meets with G (the hull set's and the budget set's) hold the end
    centre, where the piece has a hull set."""
    for made in (hull_polygons, budget_polygons):
        sets = made(pieces.centres(), np.array([0]), cut.frame)
        if sets is not None and sets[0][0] is not None:
            framed = shapely.Point(*cut.frame.point(tuple(centre)))
            assert shapely.distance(sets[0][0], framed) <= sets[1][0], made.__name__
            assert shapely.distance(grown_hulls(*sets)[0], framed) <= 1e-9, made.__name__


# With the front's reach and without it, alternately (tests.depth: the first 2 tables; 4 until
# 2026-12-04, when the suite passed 10 minutes in CI).
@pytest.mark.parametrize("k", rows(range(len(MOVES)), 2))
def test_no_box_holding_a_better_legal_way_is_settled_on_random_tables(k, monkeypatch):
    # The budget sets (off in the search) asked for last, on the first table (of each 4 in a
    # thorough run: their polygons cost 12 ms each, hundreds a table, 12-29 s a table).
    monkeypatch.setattr(end_cut_module, "BUDGET_SETS", k % 4 == 0 and (k == 0 or THOROUGH))
    request = MOVES[k]
    rng = np.random.default_rng(9000 + k)
    _never_settles_a_better_way(request.scenario, request.unit, request.manoeuvre, rng, 3, 60,
                                with_front=k % 2 == 0)


def _close_scene_with_rocks(rng: np.random.Generator):
    """tests/constraints/t9a/test_snaking_reach.py's close scene (spears at (36, 10) facing
    +y, a wall 0.3-0.9" behind, a friend touching the right flank 0.0005" away) with three
    rocks ahead."""
    gap = float(rng.uniform(0.3, 0.9))
    rocks = tuple(ex_wall(f"rock{n}", x, y, x + float(rng.uniform(1, 3)),
                          y + float(rng.uniform(1, 2)))
                  for n, (x, y) in enumerate(rng.uniform([28.0, 13.0], [44.0, 20.0], (3, 2))))
    return scenario_from_json(field(
        ex_unit(mobility=float(rng.uniform(3.0, 6.0))),
        ex_unit("f", models=5, files=5, centre=(41.0005, 10.106)),
        terrain=(ex_wall("wall", 30.0, 8.5 - gap, 42.0, 9.0 - gap),) + rocks))


# An Advance and a March in the quick run (tests.depth; 3 tables until 2026-12-04).
@pytest.mark.parametrize("seed", rows(range(16), 2))
def test_no_box_holding_a_better_legal_way_is_settled_beside_a_wall_and_a_friend(
        seed, monkeypatch):
    """A unit 0.3-0.9" in front of a wall (A20), a friend touching its flank within the
    contact tolerance (A21), rocks ahead; the budget sets asked for last on a March's in a
    thorough run (31 s a table: the quick run has them on the random tables' first)."""
    monkeypatch.setattr(end_cut_module, "BUDGET_SETS", THOROUGH and seed % 4 == 1)
    rng = np.random.default_rng(9500 + seed)
    scn = _close_scene_with_rocks(rng)
    manoeuvre = "advance" if seed % 2 == 0 else "march"
    assert _never_settles_a_better_way(scn, "u", manoeuvre, rng, 4, 150) >= 2


@pytest.mark.parametrize("seed", rows(range(8), 3))
def test_no_legal_way_beats_a_bound_the_cut_made(seed):
    """End to end: the certificate against an answer just worse than a legal way (by 0.02)
    with the cut has a bound no better than the way's value."""
    rng = np.random.default_rng(9800 + seed)
    scn = _close_scene(rng)
    manoeuvre = "advance" if seed % 2 == 0 else "march"
    for move, verdict, _ in _legal_ways(rng, scn, "u", manoeuvre, 3, 120):
        request = SearchRequest(scn, "u", manoeuvre, _objective(rng, (36.0, 10.0)), Lattice(),
                                10.0, 1, 1.0, 0.01, 3)
        goal = request.goal
        value = goal.ranked(verdict)  # face_point facing away: with the penalty
        worse = value - 0.02 if goal.maximise else value + 0.02
        cut = end_cut(scn, request.unit, manoeuvre, goal, worse, 0.01,
                      relaxation=request.relaxation)
        assert cut is not None
        bound = certify(goal, request.relaxation, worse, max_boxes=20_000, cut=cut).bound
        assert (bound >= value - 1e-9) if goal.maximise else (bound <= value + 1e-9), \
            (move, goal.name, value, bound)


def test_the_cut_closes_what_the_pieces_alone_cannot():
    """rocks.json's band, Advance forward: its answer 4.8704 (bench_solve's rocks-advance);
    the pieces alone leave boxes above it by more than the tolerance (a front through the
    rocks), the cut settles them."""
    scn = load_scenario(SCENARIOS / "rocks.json")
    request = SearchRequest(scn, "band", "advance", Objective("forward"), Lattice(), 10.0, 1,
                            1.0, 0.01, 3)
    value = 4.870432
    alone = certify(request.goal, request.relaxation, value)
    assert not alone.closed and alone.bound > value + 0.01
    cut = end_cut(scn, request.unit, "advance", request.goal, value, 0.01)
    with_cut = certify(request.goal, request.relaxation, value, cut=cut)
    assert with_cut.closed and with_cut.proves(value, 0.01)
    assert cut is not None and cut.made > 0


@pytest.mark.parametrize("seed", range(20))
def test_face_point_keeps_every_centre_whose_line_passes_near_the_point(seed):
    """face_point's better set for a cell of facings: every end centre whose centre line, at
    a facing of the cell, passes within the target of the point lies in the clip."""
    rng = np.random.default_rng(9900 + seed)
    scn = load_scenario(SCENARIOS / "rocks.json")
    point = (float(rng.uniform(20, 50)), float(rng.uniform(10, 40)))
    request = SearchRequest(scn, "band", "march", Objective("face_point", point), Lattice(),
                            10.0, 1, 1.0, 0.01, 3)
    target = float(rng.uniform(0.05, 3.0))
    cut = end_cut(scn, request.unit, "march", request.goal, target, 0.0)
    assert cut is not None
    low = float(rng.uniform(0.0, 360.0))
    high = low + float(rng.choice([0.0625, 1.0, 8.0]))
    clip = cut._clip(low, high)
    facing = rng.uniform(low, high, 200)
    angle = np.radians(90.0 + facing - cut.frame.heading_deg)
    along = np.stack([np.cos(angle), np.sin(angle)], axis=1)
    across = np.stack([-along[:, 1], along[:, 0]], axis=1)
    centres = np.asarray(request.goal.point) + rng.uniform(-30, 30, (200, 1)) * along + \
        rng.uniform(-0.999, 0.999, (200, 1)) * target * across
    assert shapely.contains_xy(clip, centres[:, 0], centres[:, 1]).all()


def test_finer_cells_settle_what_the_boxs_own_level_leaves_open(monkeypatch):
    """bench_random's request 128 (a March forward, starting close): its answer's
    certificate, with the front's reach, closes when the boxes the level of their facings
    leaves open are asked again on finer cells, and not without (boxes of facings 1.4 deg
    wide judged on 2-deg cells stay open until the box cap)."""
    request = random_requests(129, 20261201)[128]
    value = 9.743801985186515  # the answer of best_move (polished), a legal way's value
    found = {}
    for finer in (0, 2):
        monkeypatch.setattr("optimizer.search.end_cut.FINER_LEVELS", finer)
        again = SearchRequest(random_requests(129, 20261201)[128].scenario, request.unit,
                              request.manoeuvre, request.objective)  # a new reach each time
        cut = end_cut(again.scenario, again.unit, again.manoeuvre, again.goal, value, 0.01,
                      relaxation=again.relaxation)
        found[finer] = certify(again.goal, again.relaxation, value, cut=cut)
    assert not found[0].proves(value, 0.01)
    assert found[2].proves(value, 0.01) and found[2].closed


@pytest.mark.parametrize(("cells", "fine"), [(180, False), (270, False), (180, True)])
def test_a_finer_reach_keeps_the_front_before_a_walls_far_face(monkeypatch, cells, fine):
    """bench_random's request 170: a March whose front stands 0.75" from a wall across its
    front-right, every way towards the target past the wall's far face.  Standing still, its
    answer, is proved with the front's reach on 270 cells a side, and not on 180 (0.21" cells:
    their rounding let F through beside the wall's end and down its far face); on 180 cells
    the fine reach within the coarse one (bands of 1 deg, steps of 5) proves it too."""
    monkeypatch.setattr("constraints.rank_and_file.front_reach.CELLS_ACROSS", cells)
    monkeypatch.setattr("optimizer.search.end_cut.FINE_REACH", fine)
    request = random_requests(171, 20261201)[170]
    search = SearchRequest(request.scenario, request.unit, request.manoeuvre, request.objective)
    value = 14.394591641185562  # standing still: a legal way's value
    cut = end_cut(search.scenario, search.unit, search.manoeuvre, search.goal, value, 0.01,
                  relaxation=search.relaxation)
    assert cut is not None
    found = certify(search.goal, search.relaxation, value, cut=cut)
    assert found.proves(value, 0.01) == (cells == 270 or fine)


@pytest.mark.parametrize(("index", "value", "asks"), [
    (60, 2.495602738828795, False),   # an Advance: no middle stays open after the plain cut
    (113, 2.9726157950328638, True),  # a March boxed in by rocks: the reach cuts its middles
])
def test_a_cut_that_never_asks_for_the_reach_bounds_the_same_without_it(index, value, asks):
    """The search reuses a certificate made without the front's reach for the final answer's
    when its cut never asked for the reach (optimizer.search.more_wheels): the two are the
    same there; where the cut asks, the reach changes the bound."""
    request = random_requests(index + 1, 20261201)[index]
    made = []
    for front in (False, True):
        search = SearchRequest(random_requests(index + 1, 20261201)[index].scenario,
                               request.unit, request.manoeuvre, request.objective)
        relaxation = relaxation_of(search)
        cut = end_cut(search.scenario, search.unit, search.manoeuvre, search.goal, value, 0.01,
                      relaxation=relaxation if front else None)
        assert cut is not None
        made.append((certify(search.goal, relaxation, value, cut=cut), cut))
    (plain, plain_cut), (reach, reach_cut) = made
    assert plain_cut.asked_reach == asks and reach_cut.escalated == asks
    same = (plain.bound, plain.boxes, plain.reached) == (reach.bound, reach.boxes, reach.reached)
    assert same != asks


# edge.json's knights, March their front to (1, 20) by the table edge (bench_solve's
# edge-march): the best legal way known, forward 0.00088, wheel 66.394, forward 13.2919,
# wheel 0.028, forward 0.0001, is worth 0.40263 (grids and a local search over ways of up to
# two wheels, on a model exact for the end's table edge, found none better:
# benchmarks/README.md).
EDGE_BEST = 0.40263


def _edge_march() -> tuple[SearchRequest, object]:
    scn = load_scenario(SCENARIOS / "edge.json")
    request = SearchRequest(scn, "knights", "march", Objective("front_target_distance",
                                                              (1.0, 20.0)))
    return request, relaxation_of(request)


@pytest.mark.parametrize("point", [(68.5, 0.0, 68.5), (70.0, 0.0, 70.0), (67.0, 0.0, 67.25)])
def test_the_hull_set_met_with_the_edge_settles_what_the_sector_leaves_open(point):
    """At these ways' parameters the sector within the table edge, or the hull set alone,
    reaches below the answer's target (0.4027 - 0.01); the two met with the edge do not."""
    request, relaxation = _edge_march()
    goal, target = request.goal, 0.4027 - 0.01
    cut = end_cut(request.scenario, request.unit, "march", goal, 0.4027, 0.01)
    assert cut is not None
    mids = np.radians([point])
    plain = relaxation.pieces(mids, np.zeros_like(mids))
    tighter = relaxation.tighter_pieces(mids, np.zeros_like(mids))
    assert max(cut.bounds_of(plain)[0], goal.piece_values(tighter)[0]) < target
    assert cut.bounds_of(tighter)[0] >= target


def test_no_bound_on_the_edge_march_passes_its_best_legal_way():
    """The way above is legal, and a certificate for an answer 0.01 worse bounds every way
    at or below its value (the hull set met with the edge, end to end)."""
    request, relaxation = _edge_march()
    move = Move("knights", Manoeuvre.MARCH, (forward(0.000882559733), wheel(66.3938132),
                                             forward(13.2919062), wheel(0.0279532),
                                             forward(0.000102812544)))
    verdict = check_move(request.scenario, move)
    assert verdict.legal and request.goal.exact(verdict) == pytest.approx(EDGE_BEST, abs=1e-5)
    worse = EDGE_BEST + 0.01
    cut = end_cut(request.scenario, request.unit, "march", request.goal, worse, 0.01)
    certificate = certify(request.goal, relaxation, worse, max_boxes=30_000, cut=cut)
    assert certificate.bound <= request.goal.exact(verdict) + 1e-9
