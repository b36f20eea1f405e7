"""The answer by exact geometry before the model (optimizer.search.geometric) against its
reference, every option's region cut and the best points judged in order (the per-heading
peer's method, with the sweep's cut first, written plainly here); never worse than the
per-heading peer's own answer; the model's cut-off at a known answer's value
(Goal.post's `worst`) never losing a better lattice answer; an Advance's wheel refined on
the lattice's degree, legal and never worse."""

from __future__ import annotations

import numpy as np
import pytest
import shapely

from constraints.core.scenario_io import load_scenario
from constraints.core.system import find_system
from constraints.sat.lattice import Lattice
from optimizer.families.base import options_for
from optimizer.search.distance_goals import POSE_SHRINK, combined, reach_within
from optimizer.search.geometric import MAX_CHECKS, geometric_answer
from optimizer.search.model import build_search, solver_for
from optimizer.search.objectives import Objective
from optimizer.search.regions import CentreRegions
from optimizer.search.request import DEFAULT_EFFORT, SearchRequest
from optimizer.search.solve import best_move, post_objective
from tests.depth import rows
from tests.solver_support import make_request, make_scenario
from tests.support import SCENARIOS

CASES = [(seed, k, manoeuvre) for seed in (11, 12, 13, 14) for k in (0, 1)
         for manoeuvre in ("march", "advance")]


def _request(seed: int, k: int, manoeuvre: str) -> SearchRequest:
    made = make_request("random", seed, k, manoeuvre)
    lattice = Lattice(degree=5.0) if manoeuvre == "march" else \
        Lattice(degree=15.0, advance_wheel_deg=15.0)
    return SearchRequest(make_scenario("random", seed), "u", manoeuvre, made.objective,
                         lattice, 60.0, 1, DEFAULT_EFFORT, 0.01, 1)


def _reference(request: SearchRequest, options: list) -> float | None:
    """Every option's sound region cut, and its part outside what the way's sweep surely
    refuses; per option the latter's best point, then the former's (when it differs and is
    not in the sweep's cut); options in the order of their first point's value, points
    judged in turn, as many as the lazy search may judge; the first legal one's value."""
    goal = request.goal
    sound = CentreRegions(request.scenario, request.unit, request.manoeuvre, outer=False)
    sweeps = CentreRegions(request.scenario, request.unit, request.manoeuvre, outer=True)
    per_option = []
    for option in options:
        region, cut = sound.of(option), sweeps.sweep_cut(option)
        if region.is_empty:
            continue
        points = []
        for n, part in enumerate((region.difference(cut), region)):
            best = None if part.is_empty else goal.best_point(option, part)
            if best is None or (n and shapely.Point(best).intersects(cut)):
                continue
            if not points or not np.allclose(best, points[0][1], atol=1e-9, rtol=0.0):
                points.append((float(goal.values(option, best[None])[0]), best))
        if points:
            per_option.append((points[0][0], option.index, option, points))
    per_option.sort(key=lambda p: (-p[0] if goal.maximise else p[0], p[1]))
    system = find_system(request.scenario.rules)
    judged = [(value, option, best) for _, _, option, points in per_option
              for value, best in points][:MAX_CHECKS]
    for value, option, best in judged:
        move = request.family.move(request.unit_id, request.frame, option, tuple(best))
        if system.check(request.scenario, move).legal:
            return value
    return None


@pytest.mark.parametrize("seed, k, manoeuvre", CASES)
def test_the_lazy_answer_is_the_reference_answer(seed, k, manoeuvre):
    request = _request(seed, k, manoeuvre)
    options, regions = options_for(request.scenario, request.unit, manoeuvre, request.lattice)
    found = geometric_answer(request, options, request.goal.bounds(options, regions)).answer
    expected = _reference(request, options)
    if found is None:
        assert expected is None
        return
    assert found.verdict.legal
    assert found.verdict.legal == find_system(request.scenario.rules).check(
        request.scenario, found.move).legal
    # Equal values (ties may fall to another option; the lazy search cuts fewer regions).
    assert expected is not None and found.value == pytest.approx(expected, abs=1e-9)


def _peer(request: SearchRequest, options: list) -> float | None:
    """The per-heading peer: every option's sound region's best point, judged best first;
    the first legal one's value."""
    goal = request.goal
    sound = CentreRegions(request.scenario, request.unit, request.manoeuvre, outer=False)
    points = []
    for option in options:
        region = sound.of(option)
        best = None if region.is_empty else goal.best_point(option, region)
        if best is not None:
            points.append((float(goal.values(option, best[None])[0]), option, best))
    points.sort(key=lambda p: -p[0] if goal.maximise else p[0])
    system = find_system(request.scenario.rules)
    for value, option, best in points:
        move = request.family.move(request.unit_id, request.frame, option, tuple(best))
        if system.check(request.scenario, move).legal:
            return value
    return None


@pytest.mark.parametrize("seed, k, manoeuvre", CASES[::2])
def test_the_answer_is_never_worse_than_the_peers(seed, k, manoeuvre):
    request = _request(seed, k, manoeuvre)
    options, regions = options_for(request.scenario, request.unit, manoeuvre, request.lattice)
    found = geometric_answer(request, options, request.goal.bounds(options, regions)).answer
    peer = _peer(request, options)
    if found is not None and peer is not None:
        assert request.goal.better(found.value, peer) or found.value == pytest.approx(peer)


def test_the_sweep_cut_finds_the_s_through_the_gap_the_peer_misses():
    """gap.json: every sound region's best point sweeps the front into a wall (the peer
    finds nothing); less the sweep's cut, a legal one-wheel answer is found by geometry."""
    request = SearchRequest(load_scenario(SCENARIOS / "gap.json"), "block", "march",
                            Objective("target_pose", (40.0, 24.0), 90.0),
                            Lattice(degree=2.0), 60.0, 1, DEFAULT_EFFORT, 0.01, 1)
    options, regions = options_for(request.scenario, request.unit, "march", request.lattice)
    found = geometric_answer(request, options, request.goal.bounds(options, regions)).answer
    assert _peer(request, options) is None
    assert found is not None and found.verdict.legal and found.value < 6.0


@pytest.mark.parametrize("seed, k, manoeuvre", rows(CASES[::2], 4))
def test_a_cut_off_at_a_value_keeps_every_better_answer(seed, k, manoeuvre):
    """The model's optimum over every option, then the same model cut off at that value
    (or a little worse): the same optimum (within the norm's rounding); cut off better than
    it by far: no solution."""
    request = _request(seed, k, manoeuvre)
    options, regions = options_for(request.scenario, request.unit, manoeuvre, request.lattice)
    best = _optimum(request, regions, None)
    if best is None:
        return
    slack = 1e-3 * (1.0 + abs(best))
    worse = best - slack if request.goal.maximise else best + slack
    # The model's integer norm ranks lattice points a hair otherwise than `values`: within
    # the norm's rounding, the same optimum, never a worse one.
    rounding = request.lattice.inch + 2e-3 * abs(best)
    for worst in (best, worse):
        cut = _optimum(request, regions, worst)
        assert cut is not None and abs(cut - best) <= rounding
    far = best + 1.0 if request.goal.maximise else best - 1.0
    if not request.goal.maximise and far < 0:
        return
    assert _optimum(request, regions, far) is None


def _optimum(request: SearchRequest, regions: list, worst: float | None) -> float | None:
    """The model's optimum over every option in the goal's terms (None: no solution)."""
    search = build_search(request)
    post_objective(request, search.enc, regions, worst)
    solver = solver_for(600.0, 1, 100.0)  # the budget stops it; the clock is a backstop
    status = solver.solve(search.enc.sat_model)
    if solver.status_name(status) not in ("OPTIMAL",):
        assert solver.status_name(status) == "INFEASIBLE"
        return None
    enc = search.enc
    option = next(o for o, lit in zip(enc.options, enc.option_vars, strict=True)
                  if solver.boolean_value(lit))
    centre = enc.centre_in((solver.value(enc.right_ticks), solver.value(enc.forward_ticks)))
    return float(request.goal.values(option, np.array([centre]))[0])


@pytest.mark.parametrize("seed, k", rows([(s, k) for s in (11, 12, 13, 14, 15) for k in (0, 1)],
                                         4))
def test_an_advance_wheel_refined_is_legal_and_no_worse(seed, k):
    """An Advance's options wheel on 15 deg; the answer's wheel is refined on the degree:
    the refined answer is legal and at least as good as the 15-deg options' own answer by
    geometry (target_pose is left out: the search weighs its facing linearly, the exact
    value by a hypotenuse, so exact values may rank otherwise)."""
    made = make_request("random", seed, k, "advance")
    if made.objective.name == "target_pose":
        return
    scenario = make_scenario("random", seed)
    coarse = Lattice(degree=5.0, advance_wheel_deg=15.0)
    result = best_move(scenario, "u", "advance", made.objective, lattice=coarse, max_wheels=1)
    if result.move is None:
        return
    assert result.verdict is not None and result.verdict.legal
    request = SearchRequest(scenario, "u", "advance", made.objective, coarse, 60.0, 1,
                            DEFAULT_EFFORT, 0.01, 1)
    options, regions = options_for(scenario, request.unit, "advance", coarse)
    bounds = request.goal.bounds(options, regions)
    plain = geometric_answer(request, options, bounds).answer
    if plain is not None:
        exact = request.goal.exact(plain.verdict)
        room = 1e-9 if request.goal.maximise else -1e-9
        assert not request.goal.better(exact, result.value + room)


def test_the_pose_cost_is_the_hypotenuse_within_its_polygon():
    """target_pose's search value combines distance and facing as the exact value does:
    no more than the hypotenuse, no less than POSE_SHRINK of it; the distance itself when
    the facing costs nothing; `reach_within` keeps every distance that is no worse."""
    rng = np.random.default_rng(3)
    d, a = rng.uniform(0.0, 20.0, 500), rng.uniform(0.0, 20.0, 500)
    value, exact = combined(d, a), np.hypot(d, a)
    assert np.all(value <= exact + 1e-12) and np.all(value >= POSE_SHRINK * exact - 1e-12)
    assert np.array_equal(combined(d, 0.0), d)
    assert np.all(reach_within(value, a) >= d - 1e-9)
    assert np.all(reach_within(0.99 * POSE_SHRINK * a, a)[a > 0] < 0)  # the facing costs more


# The model's rows give up to INCUMBENT_MARGIN_IN (0.03") near limits, and its lattice a
# tick: an option the model searched may hide a grid pose that much better.
FAMILY_ROOM_IN = 0.05
GRID_IN = 0.1


# Each seed's first request first, both manoeuvres (all 16 cost 44 s: tests.depth).
@pytest.mark.parametrize("seed, k, manoeuvre", rows(sorted(CASES, key=lambda c: c[1]), 4))
def test_a_family_optimum_is_not_beaten_on_a_grid(seed, k, manoeuvre):
    """Where the one-wheel search says OPTIMAL within its family (from geometry alone, or
    with the model over the options that might beat it), no legal pose of the family on a
    0.1" grid of legs, judged by the checker, beats it by more than the model's room."""
    request = _request(seed, k, manoeuvre)
    result = best_move(request.scenario, "u", manoeuvre, request.objective,
                       lattice=request.lattice, max_wheels=1)
    if result.move is None or result.family_status != "OPTIMAL":
        return
    goal, system = request.goal, find_system(request.scenario.rules)
    # A polished answer (optimizer.search.polish) left the family's lattice: the family's
    # own answer is the one it started from.
    polished = result.stats.get("polished")
    answer = polished["from"] if polished else \
        goal.values(*_option_and_centre(request, result))[0]
    options, _ = options_for(request.scenario, request.unit, manoeuvre, request.lattice)
    beating = []
    for option in options:
        centres = _grid_centres(option)
        values = goal.values(option, centres)
        better = values > answer + FAMILY_ROOM_IN if goal.maximise else \
            values < answer - FAMILY_ROOM_IN
        beating += [(float(v), option, c) for v, c in zip(values[better], centres[better],
                                                          strict=True)]
    beating.sort(key=lambda b: -b[0] if goal.maximise else b[0])
    for _, option, centre in beating[:300]:
        move = request.family.move("u", request.frame, option, (float(centre[0]),
                                                                float(centre[1])))
        assert not system.check(request.scenario, move).legal, (option, centre, answer)


def _grid_centres(option) -> np.ndarray:
    """End centres of the option's way (forward a, wheel, forward b) on a grid of legs."""
    ticks = np.arange(0.0, option.spare_in + 1e-9, GRID_IN)
    a, b = (m.reshape(-1) for m in np.meshgrid(ticks, ticks, indexing="ij"))
    keep = (a + b <= option.spare_in + 1e-9) & ((option.wheel_deg != 0) | (b == 0))
    a, b = a[keep], b[keep]
    w, fp, fe = (np.asarray(v) for v in (option.wheel_shift, option.first_dir,
                                         option.end_dir))
    return w + a[:, None] * fp + b[:, None] * fe


def _option_and_centre(request: SearchRequest, result) -> tuple:
    """The answer's option (by its Pivot and wheel) and end centre (start frame)."""
    options, _ = options_for(request.scenario, request.unit, request.manoeuvre,
                             request.lattice)
    wheels = [s.value for s in result.move.steps if s.kind == "wheel"]
    turn = wheels[0] if wheels else 0.0
    option = next(o for o in options if abs(o.wheel_deg - turn) < 1e-9 and
                  abs(o.pivot_deg - result.move.pivot_deg) < 1e-9)
    centre = request.frame.point(result.verdict.end_centre)
    return option, np.array([centre])
