"""The search of several wheels without the work that cannot change its answer
(optimizer.search.more_wheels): a template's screen never leaves out one whose ways could
beat the answer (its bound holds every legal way through it, for each objective it knows),
no legal way follows a template whose wheels cost more than the budget, the relaxation's
pieces are the same bit for bit, and the same value keeps the same certificate."""

from __future__ import annotations

import math

import numpy as np
import pytest

from constraints.core.status import Status
from constraints.rank_and_file.snaking_reach import _LeastPsi, least_psi, psi_chord, psi_projected
from constraints.t9a.checker import check_move
from constraints.t9a.moves import Move, forward, wheel
from optimizer import Objective, best_move
from optimizer.search.certify import certify
from optimizer.search.model import solver_for
from optimizer.search.regions import CentreRegions
from optimizer.search.request import SearchRequest
from optimizer.search.template_screen import TemplateScreen, exact_bound
from optimizer.search.ways import ways_of
from tests.solver_support import random_scenario

OBJECTIVES = ("target_distance", "front_target_distance", "target_pose", "forward",
              "face_point")


def _objective(name: str, centre: np.ndarray, rng: np.random.Generator) -> Objective:
    point = tuple(float(v) for v in centre + rng.uniform(-10.0, 10.0, 2))
    if name == "forward":
        return Objective("forward")
    if name == "target_pose":
        return Objective(name, point, float(rng.uniform(0.0, 360.0)))
    return Objective(name, point)


def _headings(rng: np.random.Generator, turn: int = 60) -> list[int]:
    headings = [0]
    for _ in range(3):
        headings.append(int(np.clip(headings[-1] + rng.integers(-turn, turn + 1), -90, 90)))
    return headings


@pytest.mark.parametrize("seed", range(8))
def test_a_templates_bound_holds_every_legal_way_through_it(seed):
    """Random legs through a template's headings: every legal way's value (as the search
    ranks it: face_point's penalty of facing away counted) is no better than the bound over
    the template's end centres left by the end-position rules."""
    rng = np.random.default_rng(seed)
    s = random_scenario(2000 + seed)
    u = s.unit("u")
    name = OBJECTIVES[seed % len(OBJECTIVES)]
    request = SearchRequest(s, "u", "march", _objective(name, np.asarray(u.pose.centre), rng),
                            max_wheels=3)
    regions = CentreRegions(s, u, "march", outer=True)
    goal, checked = request.goal, 0
    for n in range(12):
        headings = _headings(rng, 60 if n % 2 else 25)
        reach = ways_of(request.family).way_template_reach(request, 3, headings)
        turns = np.diff(headings)
        cost = u.width_in * np.abs(np.sin(np.radians(turns))).sum()
        budget = request.limits.budget_in
        if reach is None:
            assert cost > budget  # no legal way follows it
            continue
        end, hull = reach
        bound = exact_bound(goal, end, regions.within(end, hull))
        for _ in range(15):
            legs = rng.dirichlet(np.ones(4)) * max(budget - cost, 0.0) * rng.uniform()
            steps = [forward(float(legs[0]))]
            for k, t in enumerate(turns, start=1):
                steps += [wheel(float(t)), forward(float(legs[k]))]
            verdict = check_move(s, Move("u", "march", tuple(st for st in steps if st.value)))
            if not verdict.legal:
                continue
            checked += 1
            value = goal.ranked(verdict)
            assert (value <= bound + 1e-9) if goal.maximise else (value >= bound - 1e-9)
    assert checked > 0


@pytest.mark.parametrize("seed", range(4))
def test_the_screen_keeps_every_template_that_finds_a_better_way(seed):
    """Solved on their own, the templates a search tries: the screen leaves out none that
    beats the value it is asked about (here: a hair worse than the template's own answer)."""
    rng = np.random.default_rng(seed)
    s = random_scenario(3000 + seed)
    u = s.unit("u")
    name = OBJECTIVES[seed % len(OBJECTIVES)]
    request = SearchRequest(s, "u", "march", _objective(name, np.asarray(u.pose.centre), rng),
                            max_wheels=3)
    screen = TemplateScreen(request)
    solver_found = 0
    for n in range(4):
        headings = _headings(rng, 60 if n % 2 else 25)
        ways = ways_of(request.family).way_search(request, 3, float("inf"), [headings])
        solver = solver_for(600.0, 1, 0.2)  # the budget stops it; the clock is a backstop
        solver.parameters.linearization_level = 1
        solver.parameters.cut_level = 0
        _, move = ways.solve(solver)
        if move is None:
            continue
        solver_found += 1
        value = request.goal.ranked(check_move(s, move))
        worse = value - 1e-3 if request.goal.maximise else value + 1e-3
        assert not screen.hopeless(headings, worse)
    assert solver_found > 0


def test_the_relaxations_pieces_are_the_same_bit_for_bit():
    rng = np.random.default_rng(0)
    x = rng.uniform(0.0, 4.0, 1000)
    for r in (rng.uniform(0.0, np.pi / 2, 1000), np.zeros(1000)):
        for psi in (psi_projected, psi_chord):
            assert np.array_equal(_LeastPsi(r, psi)(x), least_psi(x, r, psi))


def test_the_same_value_keeps_its_certificate_and_the_answer_its_bound():
    """A search of several wheels that ends on the one-wheel answer reports the bound that a
    certificate of that answer gives on its own."""
    s = random_scenario(4000)
    u = s.unit("u")
    target = (u.pose.centre[0] + 3.0, u.pose.centre[1] + 5.0)
    result = best_move(s, "u", "march", Objective("target_distance", target), max_wheels=3,
                       time_limit_s=120.0)
    assert result.found
    request = SearchRequest(s, "u", "march", Objective("target_distance", target))
    alone = certify(request.goal, request.relaxation, result.value)
    assert result.bound == alone.bound
    assert (result.status == Status.OPTIMAL) == alone.proves(result.value, result.tolerance)
    assert math.isfinite(result.bound)
