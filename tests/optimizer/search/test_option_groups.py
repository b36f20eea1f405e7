"""Regions over runs of a Reform's facings (optimizer.search.option_groups): every legal end
centre of every member lies in its run's region, on random tables (walls, rocks, L and U
shapes, friends and enemies; units that start close, A20) and beside a wall with a friend
touching within the contact tolerance (A21); and the shape that stands for the run lies in
every member's end rectangle."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest
import shapely

from benchmarks.random_requests import random_requests
from constraints.geometry.frame import Frame
from constraints.sat.lattice import Lattice
from constraints.sat.option import corner_offsets
from constraints.t9a.checker import check_move
from optimizer.families.base import family_for, options_for
from optimizer.search.objectives import Objective
from optimizer.search.option_groups import GroupRegions, facing_runs, halves, shared_shape
from tests.constraints.t9a.test_snaking_reach import _close_scene
from tests.depth import rows

REFORMS = [r for r in random_requests(60, 20261201) if r.manoeuvre == "reform"]
TARGET = Objective("target_distance", (36.0, 24.0))


def _random_run(rng: np.random.Generator, runs: list[tuple[int, ...]]) -> tuple[int, ...]:
    """A run of the search's first runs, or a part of one its halving reaches."""
    run = runs[int(rng.integers(len(runs)))]
    for _ in range(int(rng.integers(0, 6))):
        if len(run) <= 2:
            break
        run = halves(run)[int(rng.integers(2))]
    return run


def _legal_outside(scenario, unit_id: str, options, run, region, rng,
                   tries: int) -> tuple[int, int]:
    """(legal member poses outside `region`, legal member poses seen): centres drawn near
    the region's outline (just outside it, where a loose cut would show) and all over the
    travel disc."""
    unit = scenario.unit(unit_id)
    frame = Frame(unit.pose.centre, unit.pose.facing_deg)
    family = family_for(scenario.profile, "reform")
    disc = shapely.Point(0.0, 0.0).buffer(unit.mobility_in / 2.0, 32)
    ring = region.boundary if not region.is_empty else disc.boundary
    outside = seen = 0
    for n in range(tries):
        if n % 2:
            along = ring.interpolate(float(rng.uniform(0.0, ring.length)))
            centre = np.array([along.x, along.y]) + rng.normal(0.0, 0.05, 2)
        else:
            centre = rng.uniform(-1.0, 1.0, 2) * unit.mobility_in / 2.0
        k = run[int(rng.integers(len(run)))]
        move = family.move(unit_id, frame, options[k], (float(centre[0]), float(centre[1])))
        verdict = check_move(scenario, move)
        if not verdict.legal:
            continue
        seen += 1
        end = frame.point(verdict.end_centre)
        if region.distance(shapely.Point(end)) > 1e-7:
            outside += 1
    return outside, seen


@pytest.mark.parametrize("n", range(len(REFORMS)))
def test_every_legal_end_centre_of_a_member_lies_in_its_runs_region(n):
    request = REFORMS[n]
    scenario, uid = request.scenario, request.unit
    unit = scenario.unit(uid)
    options, _ = options_for(scenario, unit, "reform", Lattice())
    grouped = GroupRegions(scenario, unit, "reform",
                           TARGET.goal(Frame(unit.pose.centre, unit.pose.facing_deg)))
    runs = facing_runs(options)
    rng = np.random.default_rng(n)
    seen = 0
    for _ in range(12):
        run = _random_run(rng, runs)
        region = grouped.of(options, run)
        outside, legal = _legal_outside(scenario, uid, options, run, region, rng, 40)
        assert outside == 0, (request.label, run)
        seen += legal
    assert seen > 0 or request.close


@pytest.mark.parametrize("seed", rows(range(6), 3))
def test_beside_a_wall_and_touching_a_friend_the_runs_hold_every_legal_centre(seed):
    """A20 (0.3-0.9" from a wall) and A21 (a friend touching the flank within the contact
    tolerance): the relaxed limits are the start distances, and the run's shape keeps them."""
    rng = np.random.default_rng(900 + seed)
    scenario = _close_scene(rng)
    unit = scenario.unit("u")
    options, _ = options_for(scenario, unit, "reform", Lattice())
    grouped = GroupRegions(scenario, unit, "reform",
                           TARGET.goal(Frame(unit.pose.centre, unit.pose.facing_deg)))
    runs = facing_runs(options)
    seen = 0
    for _ in range(10):
        run = _random_run(rng, runs)
        outside, legal = _legal_outside(scenario, "u", options, run,
                                        grouped.of(options, run), rng, 40)
        assert outside == 0, (seed, run)
        seen += legal
    assert seen > 0


def test_without_the_shrinking_a_wide_run_leaves_out_legal_centres():
    """The check has teeth: the middle facing's own rectangle for a whole run of 64 facings
    cuts legal centres of its members (a random table's first Reform)."""
    request = REFORMS[0]
    scenario, uid = request.scenario, request.unit
    unit = scenario.unit(uid)
    options, _ = options_for(scenario, unit, "reform", Lattice())
    grouped = GroupRegions(scenario, unit, "reform",
                           TARGET.goal(Frame(unit.pose.centre, unit.pose.facing_deg)))
    rng = np.random.default_rng(0)
    found = 0
    for run in facing_runs(options):
        region = grouped.regions.of(options[run[len(run) // 2]])
        found += _legal_outside(scenario, uid, options, run, region, rng, 30)[0]
    assert found > 0


@pytest.mark.parametrize("seed", range(4))
def test_the_shared_shape_lies_in_every_members_rectangle(seed):
    rng = np.random.default_rng(seed)
    request = REFORMS[seed]
    unit = request.scenario.unit(request.unit)
    options, _ = options_for(request.scenario, unit, "reform", Lattice())
    for _ in range(30):
        run = _random_run(rng, facing_runs(options))
        shared = shapely.Polygon(corner_offsets(shared_shape(options, run)))
        for k in run:
            own = shapely.Polygon(corner_offsets(options[k]))
            assert own.buffer(1e-9).contains(shared), (run, k)
        # A shape as wide as the middle facing's rectangle is not held (the shrinking is
        # needed wherever the run spans facings).
        if len(run) > 1:
            middle = replace(options[run[0]], frame_facing_deg=float(np.mean(
                [options[run[0]].frame_facing_deg, options[run[-1]].frame_facing_deg])))
            whole = shapely.Polygon(corner_offsets(middle))
            assert not all(shapely.Polygon(corner_offsets(options[k])).buffer(1e-9)
                           .contains(whole) for k in run)


@pytest.mark.parametrize("n", [0, 3, 5, 8])
def test_the_bounds_the_search_leaves_hold_each_options_relaxed_bound(n):
    """After the geometric search (runs best first, halved), every option's bound, whether
    its run's key or its own, is no better than its own relaxed region's bound: the pruning
    after the search may drop by it."""
    from optimizer.search.geometric import geometric_answer
    from optimizer.search.request import SearchRequest

    request = REFORMS[n]
    lattice = Lattice(degree=5.0)
    search = SearchRequest(request.scenario, request.unit, "reform", request.objective, lattice)
    assert search.goal.centre_only
    options, reach = options_for(request.scenario, search.unit, "reform", lattice)
    learned = geometric_answer(search, options, search.goal.bounds(options, reach))
    assert learned.answer is not None and learned.answer.verdict.legal
    sign = -1.0 if search.goal.maximise else 1.0
    for k, option in enumerate(options):
        region = search.relaxed_regions.of(option)
        if region.is_empty:
            continue
        own = float(search.goal.bounds([option], [region])[0])
        assert sign * learned.bounds[k] <= sign * own + 1e-7, (k, learned.bounds[k], own)
