"""A model whose rows keep only a safe part of what a clause allows on some options (a
Reform's model paths round obstacles: safe discs) proves nothing about them; their regions
holding every legal end centre bound them instead (optimizer.search.unproved): the
model's OPTIMAL stands only if none of them can beat its answer by more than a lattice step
(else FEASIBLE with their bound), its INFEASIBLE only if none has a legal end centre (else
NOT_FOUND); where no rows are inexact (nothing near the paths) a Reform keeps its proof."""

from __future__ import annotations

import numpy as np
import pytest
import shapely

from constraints.core.scenario_io import load_scenario
from constraints.core.status import Status
from constraints.sat.lattice import Lattice
from constraints.t9a.checker import check_move
from constraints.t9a.moves import Move
from optimizer.families.base import options_for
from optimizer.families.reform import ReformFamily
from optimizer.search.objectives import Objective
from optimizer.search.proof import Proof
from optimizer.search.regions import CentreRegions
from optimizer.search.request import SearchRequest
from optimizer.search.result import SearchResult
from optimizer.search.solve import best_move
from optimizer.search.unproved import unproved
from tests.solver_support import make_scenario
from tests.support import SCENARIOS, scenario, unit, wall

OPEN_REFORM = ("open.json", "solo", "reform", Objective("target_distance", (25.0, 13.0)))


def _request() -> SearchRequest:
    file, unit_id, manoeuvre, objective = OPEN_REFORM
    return SearchRequest(load_scenario(SCENARIOS / file), unit_id, manoeuvre, objective)


def inexact_result(request: SearchRequest, status: Status, value: float | None,
            inexact: list[int]) -> SearchResult:
    stats = {"inexact_options": list(inexact), "inexact": ["t9a.reform.model_path"]} \
        if inexact else {}
    if value is not None:
        stats["search_value"] = value
    unit = request.unit  # an answer has a move: the unit as it stands will do
    move = None if value is None else Move(unit.id, "reform", files=unit.files,
                                           centre=unit.pose.centre,
                                           facing_deg=unit.pose.facing_deg)
    proof = Proof(status, bound=value if status == Status.OPTIMAL else None)
    return SearchResult(request.objective, value, request.lattice, 0.0, proof, move,
                        stats=stats)


@pytest.mark.parametrize(("status", "margin", "expected"), [
    (Status.OPTIMAL, 1.0, Status.FEASIBLE),      # an inexact option's region beats it by 1"
    (Status.OPTIMAL, 0.5, Status.FEASIBLE),
    (Status.OPTIMAL, 0.002, Status.OPTIMAL),     # within a lattice step (0.005")
    (Status.OPTIMAL, -1.0, Status.OPTIMAL),      # its region cannot beat it at all
    (Status.FEASIBLE, 1.0, Status.FEASIBLE),
    (Status.TIMEOUT, 1.0, Status.TIMEOUT),
])
def test_an_answer_stays_proved_only_if_no_inexact_option_beats_it(status, margin, expected):
    request = _request()
    options, regions = request.options()
    k = 0
    bound = float(request.goal.bounds([options[k]], [regions[k]])[0])
    value = bound + margin if status.found else None
    out = unproved(request, options, inexact_result(request, status, value, [k]), regions,
                   {k: regions[k]})
    assert out.status == expected and "inexact_options" not in out.stats
    if status == Status.OPTIMAL and expected == Status.FEASIBLE:
        assert out.bound == pytest.approx(bound) and out.value == value


@pytest.mark.parametrize(("empty", "expected"), [(True, Status.INFEASIBLE),
                                                 (False, Status.NOT_FOUND)])
def test_infeasible_stays_proved_only_if_no_inexact_option_has_a_legal_centre(empty, expected):
    request = _request()
    options, regions = request.options()
    relaxed = {0: shapely.Polygon() if empty else regions[0]}
    out = unproved(request, options, inexact_result(request, Status.INFEASIBLE, None, [0]),
                   regions, relaxed)
    assert out.status == expected


def test_an_option_the_goal_cannot_bound_might_beat_anything(monkeypatch):
    """Bounds unknown (NaN): the model's OPTIMAL is FEASIBLE with no bound, its INFEASIBLE
    NOT_FOUND."""
    request = _request()
    options, regions = request.options()
    monkeypatch.setattr(type(request.goal), "bounds",
                        lambda self, opts, regs: np.full(len(opts), np.nan))
    relaxed = {0: regions[0]}
    out = unproved(request, options, inexact_result(request, Status.OPTIMAL, 1.0, [0]), regions,
                   relaxed)
    assert out.status == Status.FEASIBLE and out.bound is None
    out = unproved(request, options, inexact_result(request, Status.INFEASIBLE, None, [0]),
                   regions, relaxed)
    assert out.status == Status.NOT_FOUND


def test_without_inexact_rows_the_model_s_status_stands():
    request = _request()
    options, regions = request.options()
    for status, value in ((Status.OPTIMAL, 9.0), (Status.INFEASIBLE, None)):
        out = unproved(request, options, inexact_result(request, status, value, []), regions, {})
        assert out.status == status


def wall_ahead_case() -> tuple[SearchRequest, list, list, int, float, float]:
    """A Reform forward with a wall 2.5" ahead: the request, its options and regions, an
    option with a relaxed region, and that option's bound from its relaxed region (`far`)
    and from its reach alone (`near`)."""
    s = scenario(unit(), terrain=(wall("wall", 0.0, 13.5, 72.0, 14.5),))
    request = SearchRequest(s, "u", "reform", Objective("forward"))
    options, regions = request.options()
    relaxed = CentreRegions(s, s.unit("u"), "reform", outer=True)
    k = next(o.index for o in options if not relaxed.of(o).is_empty)
    far = float(request.goal.bounds([options[k]], [relaxed.of(options[k])])[0])
    near = float(request.goal.bounds([options[k]], [regions[k]])[0])
    return request, options, regions, k, far, near


def test_an_option_without_a_relaxed_region_gets_one():
    """A wall 2.5" ahead: an option's reach alone (the 2" centre travel) would beat the
    forward-most answer; its relaxed region, made then, cannot (every formation keeps its
    centre 2" short of the wall): the answer stays proved."""
    request, options, regions, k, far, near = wall_ahead_case()
    assert near > far + 0.1  # the reach reaches further forward than the rules leave
    out = unproved(request, options, inexact_result(request, Status.OPTIMAL, far, [k]),
                   regions, {})
    assert out.status == Status.OPTIMAL
    out = unproved(request, options, inexact_result(request, Status.OPTIMAL, far - 0.1, [k]),
                   regions, {})
    assert out.status == Status.FEASIBLE and out.bound == pytest.approx(far)


def test_a_reform_whose_paths_bend_is_optimal_only_as_no_inexact_option_beats_it(monkeypatch):
    """Crowded seed 1: obstacles near the model paths, safe discs posted; searched by the
    model (as where geometry finds no legal best point), the answer is legal.  It was FEASIBLE
    with a bound of 1.70 from the inexact options' regions, all of them of 1 file, which no
    viable formation of this unit allows (their regions are empty since issue 31): no
    inexact option of a viable formation beats the answer by a lattice step, so OPTIMAL
    (the unit tests above keep the case where one does)."""
    monkeypatch.setattr(ReformFamily, "answers_by_geometry", False)
    s, point = _crowded_reform()
    result = best_move(s, "u", "reform", Objective("target_distance", point),
                       time_limit_s=120.0)
    assert result.stats.get("inexact") == ["t9a.reform.model_path"]
    assert "inexact_options" not in result.stats
    assert result.status == Status.OPTIMAL
    assert result.move is not None and check_move(s, result.move).legal
    assert result.value is not None and _least_bound(s, point) >= result.value - \
        result.lattice.inch


def test_the_same_reform_by_geometry_is_optimal_as_no_option_can_beat_it():
    """The same request as the search runs it (issue 31): the sound regions' best point is
    legal and no option's relaxed region, recomputed here, beats it by more than a lattice
    step, so OPTIMAL holds without a model.  The bound of the model's run above came from
    options of 1 file, which no viable formation of this unit allows: their regions are now
    empty."""
    s, point = _crowded_reform()
    result = best_move(s, "u", "reform", Objective("target_distance", point),
                       time_limit_s=120.0)
    assert result.status == Status.OPTIMAL and result.stats.get("options") == 0
    assert result.move is not None and check_move(s, result.move).legal
    assert result.value is not None
    assert _least_bound(s, point) >= result.value - result.lattice.inch


def _least_bound(s, point) -> float:
    """The least bound over every option's relaxed region (its options of 1 file: none)."""
    request = SearchRequest(s, "u", "reform", Objective("target_distance", point), Lattice())
    options, _ = options_for(s, s.unit("u"), "reform", Lattice())
    regions = [request.relaxed_regions.of(o) for o in options]
    assert {o.files for o, r in zip(options, regions, strict=True) if r.is_empty} == {1}
    return min(float(request.goal.bounds([o], [r])[0])
               for o, r in zip(options, regions, strict=True) if not r.is_empty)


def _crowded_reform():
    s = make_scenario("crowded", 1)
    u = s.unit("u")
    point = tuple(np.asarray(u.pose.centre) + np.random.default_rng([1, 3]).uniform(-2.5, 2.5, 2))
    return s, point


def test_a_reform_in_the_open_keeps_its_proof():
    result = best_move(load_scenario(SCENARIOS / "open.json"), "solo", "reform",
                       Objective("target_pose", (25.0, 13.0), 45.0), time_limit_s=120.0)
    assert "inexact" not in result.stats and result.status == Status.OPTIMAL


def test_the_inexact_options_of_a_pruned_model_are_the_requests_own(monkeypatch):
    """bench_random's request 11 (a Reform, `front_target_distance`), searched by the model
    over the 46-119 options the pruning keeps: the model numbers them 0, 1, ..., and its
    inexact options were read as the request's options of those numbers, so the inexact
    option 626 (files 4, facing 87, legal at 2.7242) was never bounded and 3.2126 was called
    OPTIMAL.  In the request's numbering it bounds the answer: FEASIBLE, its bound within
    reach of that legal move."""
    from benchmarks.random_requests import random_requests

    monkeypatch.setattr(ReformFamily, "answers_by_geometry", False)
    request = random_requests(12, 20261201)[11]
    result = best_move(request.scenario, request.unit, request.manoeuvre, request.objective,
                       time_limit_s=120.0)
    assert result.move is not None and check_move(request.scenario, result.move).legal
    assert result.value is not None
    if result.status == Status.OPTIMAL:  # only by an answer as good as the legal one
        assert result.value <= 2.7242 + result.lattice.inch
    else:
        assert result.status == Status.FEASIBLE and result.bound is not None
        assert result.bound <= 2.7242
