"""The Pivot cut of an Advance's certificate (optimizer/search/pivot_cut.py; docs/techniques.md
§9, "The Pivot's own clause"): no Pivot the checker allows lies in a dead cell, no box that
holds a legal way is narrowed past it, and no certificate with the cut claims a bound a legal
way beats; on random tables and beside a wall and a friend (A20, A21)."""

from __future__ import annotations

import math

import numpy as np
import pytest
import shapely

from benchmarks.random_requests import random_requests
from constraints.core.clause import KeepsClear, keeping_clear
from constraints.geometry.pieces import sector_distance
from constraints.geometry.plane import rectangle_corners_array
from constraints.sat.lattice import Lattice
from constraints.t9a.context import MoveContext
from constraints.t9a.moves import Manoeuvre, Move
from optimizer.search.certified import relaxation_of as _relaxation
from optimizer.search.certify import certify
from optimizer.search.end_cut import end_cut
from optimizer.search.pivot_cut import CELL_DEG, PivotCut, live_cells, pivot_cut
from optimizer.search.request import SearchRequest
from tests.constraints.t9a.test_snaking_reach import _child_holding, _close_scene
from tests.depth import rows
from tests.optimizer.search.test_end_cut import (
    _close_scene_with_rocks,
    _legal_ways,
    _objective,
)

ADVANCES = [r for r in random_requests(120, 20261202) if r.manoeuvre == "advance"]


def _spacing_clause(scn):
    return keeping_clear(scn.profile.clauses("advance"), KeepsClear.PIVOT)


def _pivots(rng: np.random.Generator, live: np.ndarray, count: int) -> np.ndarray:
    """Pivots (degrees) at random and next to every change between live and dead cells."""
    edges = -180.0 + CELL_DEG * (np.flatnonzero(np.diff(live.astype(int))) + 1)
    near = (edges[:, None] + rng.uniform(-0.3, 0.3, (len(edges), 4))).reshape(-1)
    return np.concatenate([rng.uniform(-180.0, 180.0, count), np.clip(near, -180.0, 180.0),
                           [180.0, -180.0, 90.0, -90.0]])


def _refused_in_dead_cells(scn, unit_id: str, live: np.ndarray, pivots: np.ndarray) -> list:
    """The Pivots the checker's clause passes whose cell is dead (none, if the cut is sound)."""
    clause = _spacing_clause(scn)
    wrong = []
    for pivot in pivots:
        cell = min(int((pivot + 180.0) // CELL_DEG), len(live) - 1)
        cells = {cell, max(cell - 1, 0)} if (pivot + 180.0) % CELL_DEG == 0 else {cell}
        if pivot == 0.0 or any(live[c] for c in cells):
            continue
        move = Move(unit_id, Manoeuvre("advance"), pivot_deg=float(pivot))
        if not clause.check(MoveContext(scn, move)).violations:
            wrong.append(float(pivot))
    return wrong


@pytest.mark.parametrize("seed", rows(range(12), 6))
def test_no_pivot_the_checker_allows_is_in_a_dead_cell_beside_a_wall_and_a_friend(seed):
    rng = np.random.default_rng(12000 + seed)
    scn = _close_scene_with_rocks(rng) if seed % 2 else _close_scene(rng)
    live = live_cells(scn, scn.unit("u"), float(_spacing_clause(scn).number("spacing_in")))
    assert 0 < live.sum() < len(live)  # the wall cuts some Pivots, the about-face stays
    assert not _refused_in_dead_cells(scn, "u", live, _pivots(rng, live, 150))


@pytest.mark.parametrize("k", rows(range(0, len(ADVANCES), 2), 8))
def test_no_pivot_the_checker_allows_is_in_a_dead_cell_on_random_tables(k):
    request = ADVANCES[k]
    scn, unit = request.scenario, request.scenario.unit(request.unit)
    rng = np.random.default_rng(13000 + k)
    live = live_cells(scn, unit, float(_spacing_clause(scn).number("spacing_in")))
    assert not _refused_in_dead_cells(scn, request.unit, live, _pivots(rng, live, 60))


def _unsound_live(scn, unit, spacing: float) -> np.ndarray:
    """A deliberately unsound variant: cells of 8 deg judged by the boundary at their middle
    (not shrunk), every object at the 0.5" limit (A20 ignored): repeated onto CELL_DEG cells."""
    mids = -180.0 + 8.0 * (np.arange(45) + 0.5)
    corners = rectangle_corners_array(np.tile(np.asarray(unit.pose.centre), (45, 1)),
                                      unit.pose.facing_deg + mids, unit.width_in,
                                      unit.depth_in)
    shapes = np.array([s for _, s in scn.obstacles_for(unit.id)], dtype=object)
    gaps = shapely.distance(shapely.polygons(corners)[:, None], shapes[None, :]).min(axis=1)
    return np.repeat(gaps > spacing, round(8.0 / CELL_DEG))


def test_the_unsound_variant_is_caught():
    """Cells judged at their middle only, and A20's start distance read as 0.5": a unit 0.3"
    before a wall may about-face (RULES 2.3.2.4), which that variant refuses."""
    failed = 0
    for seed in range(4):
        rng = np.random.default_rng(12000 + 2 * seed)
        scn = _close_scene(rng)
        live = _unsound_live(scn, scn.unit("u"), 0.5)
        failed += bool(_refused_in_dead_cells(scn, "u", live, _pivots(rng, live, 150)))
    assert failed == 4


def _cut_relaxation(scn, unit_id: str, objective) -> tuple[SearchRequest, PivotCut]:
    request = SearchRequest(scn, unit_id, "advance", objective, Lattice(), 10.0, 1, 1.0, 0.01, 3)
    relaxation = pivot_cut(scn, request.unit, request.clauses, request.relaxation)
    assert isinstance(relaxation, PivotCut)
    return request, relaxation


@pytest.mark.parametrize("seed", range(10))
def test_every_box_holding_a_legal_way_keeps_it_beside_a_wall_and_a_friend(seed):
    """Random checker-legal Advances of up to four wheels (Pivots small and large) of a unit
    0.3-0.9" before a wall (A20) touching a friend (A21), rocks ahead for odd seeds: the
    narrowed piece of every box the certificate's splits hold the way in holds its end, from
    the first grid down to boxes of about 1e-7."""
    rng = np.random.default_rng(14000 + seed)
    scn = _close_scene_with_rocks(rng) if seed % 2 else _close_scene(rng)
    ways = _legal_ways(rng, scn, "u", "advance", 4, 200)
    assert len(ways) >= 2
    for move, verdict, params in ways:
        _, cut = _cut_relaxation(scn, "u", _objective(rng, (36.0, 10.0)))
        mids, halves = cut.initial()
        holds = np.flatnonzero(np.all(np.abs(mids - params) <= halves + 1e-12, axis=1))
        box_mid, box_half = mids[holds[:1]], halves[holds[:1]]
        end = np.asarray(verdict.end_centre)
        for depth in range(80):
            for mid, half in ((box_mid, box_half), (params[None, :], np.zeros((1, 4)))):
                pieces = cut.pieces(mid, half)
                assert not pieces.empty[0], (move, depth)
                assert sector_distance(end, pieces.centres())[0] <= 1e-9, (move, depth)
            if (box_half * cut.weights).max() < 1e-7:
                break
            box_mid, box_half = _child_holding(box_mid, box_half, params, cut.weights, rng)


@pytest.mark.parametrize("seed", range(8))
def test_no_legal_way_beats_a_bound_with_the_pivot_cut(seed):
    """End to end: the certificate with the Pivot cut (and the end cut) against an answer
    just worse than a legal way (by 0.02) has a bound no better than the way's value."""
    rng = np.random.default_rng(15000 + seed)
    scn = _close_scene_with_rocks(rng) if seed % 2 else _close_scene(rng)
    for move, verdict, _ in _legal_ways(rng, scn, "u", "advance", 3, 150):
        request, cut = _cut_relaxation(scn, "u", _objective(rng, (36.0, 10.0)))
        goal = request.goal
        value = goal.ranked(verdict)
        worse = value - 0.02 if goal.maximise else value + 0.02
        bound = certify(goal, cut, worse, max_boxes=20_000,
                        cut=end_cut(scn, request.unit, "advance", goal, worse, 0.01)).bound
        assert (bound >= value - 1e-9) if goal.maximise else (bound <= value + 1e-9), \
            (move, goal.name, value, bound)


def test_a_box_is_narrowed_to_the_hull_of_its_live_cells_and_zero():
    """Against a plain count of the cells: a box's Pivots narrowed to the least and largest
    live cell it meets (and 0), never past its own ends; a box meeting none is empty."""
    rng = np.random.default_rng(1)
    scn = _close_scene(rng)
    _, cut = _cut_relaxation(scn, "u", _objective(rng, (36.0, 10.0)))
    quarter = math.radians(90.0)  # a quarter turn puts the rear rank into the wall
    assert cut.pieces(np.array([[quarter, 0, 0, 0.0]]), np.array([[0.05, 0, 0, 0.0]])).empty[0]
    cell = math.radians(CELL_DEG)
    for _ in range(300):
        lo, hi = np.sort(rng.uniform(-math.pi, math.pi, 2))
        if rng.uniform() < 0.3:
            hi = lo
        mids = np.array([[(lo + hi) / 2, 0.0, 0.0, 0.0]])
        halves = np.array([[(hi - lo) / 2, 0.0, 0.0, 0.0]])
        narrowed, new_halves, empty = cut.narrow(mids, halves)
        met = [k for k in range(len(cut.live)) if cut.live[k]
               and -math.pi + k * cell <= hi and -math.pi + (k + 1) * cell >= lo]
        ends = [max(lo, -math.pi + met[0] * cell), min(hi, -math.pi + (met[-1] + 1) * cell)] \
            if met else []
        if lo <= 0.0 <= hi:
            ends = [min(ends + [0.0]), max(ends + [0.0])]
        assert bool(empty[0]) == (not ends)
        if ends:
            got = (narrowed[0, 0] - new_halves[0, 0], narrowed[0, 0] + new_halves[0, 0])
            assert got[0] <= ends[0] + 1e-12 and got[1] >= ends[1] - 1e-12
            assert got[0] >= lo - 1e-12 and got[1] <= hi + 1e-12


def test_the_certificate_of_an_advance_beside_a_wall_uses_the_cut_and_an_open_one_not():
    """more_wheels certifies with the cut relaxation where a Pivot is refused, with the
    family's own elsewhere (a March, or an Advance with room to turn)."""
    scn = _close_scene(np.random.default_rng(3))
    beside = SearchRequest(scn, "u", "advance", _objective(np.random.default_rng(4), (36, 10)),
                           Lattice(), 10.0, 1, 1.0, 0.01, 3)
    assert isinstance(_relaxation(beside), PivotCut)
    assert _relaxation(beside) is _relaxation(beside)  # made once per request
    march = SearchRequest(scn, "u", "march", beside.objective, Lattice(), 10.0, 1, 1.0, 0.01, 3)
    assert _relaxation(march) is march.relaxation
    open_field = next(r for r in ADVANCES if not r.close and live_cells(
        r.scenario, r.scenario.unit(r.unit), 0.5).all())
    request = SearchRequest(open_field.scenario, open_field.unit, "advance",
                            open_field.objective, Lattice(), 10.0, 1, 1.0, 0.01, 3)
    assert _relaxation(request) is request.relaxation
