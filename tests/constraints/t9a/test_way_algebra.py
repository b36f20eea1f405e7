"""The closed forms behind end-pose ways, and the distance bound, against brute force."""

import math

import numpy as np
import pytest

import constraints.t9a.way_problem as way_problem
from constraints.rank_and_file.kinematics import snake
from constraints.t9a.moves import forward, wheel
from constraints.t9a.snaking_bound import least_distance, window_gauge
from constraints.t9a.way_algebra import quadratic_roots, quartic_roots, sinusoid_roots
from constraints.t9a.way_problem import WayProblem, evaluate
from constraints.t9a.ways import find_ways
from tests.support import unit


def test_roots():
    assert sorted(quadratic_roots(np.array([1.0]), np.array([-3.0]), np.array([2.0]))[0]) \
        == pytest.approx([1.0, 2.0])
    tiny = quadratic_roots(np.array([1.0]), np.array([1e8]), np.array([1.0]))[0]
    assert min(abs(tiny)) == pytest.approx(1e-8, rel=1e-12)  # no cancellation
    assert np.isnan(quadratic_roots(np.array([1.0]), np.array([0.0]), np.array([1.0]))).all()
    quartic = quartic_roots(np.poly([0.5, -2.0, 3.0, 0.25])[None])[0]
    assert sorted(quartic) == pytest.approx([-2.0, 0.25, 0.5, 3.0], abs=1e-12)
    x = sinusoid_roots(np.array([0.5]), np.array([1.0]), np.array([2.0]))[0]
    assert 0.5 + np.cos(x) + 2.0 * np.sin(x) == pytest.approx([0.0, 0.0], abs=1e-12)


def _problem(rng: np.random.Generator, pivots: bool, window: float = 90.0):
    """A random unit, and the end pose of a random way with at most two wheels."""
    files, ranks = int(rng.integers(1, 7)), int(rng.integers(1, 5))
    u = unit(models=files * ranks, files=files, centre=(0.0, 0.0),
             facing=float(rng.uniform(0.0, 360.0)))
    t1 = float(rng.uniform(-90.0, 90.0))
    t2 = float(rng.uniform(max(-90.0, -window - t1), min(90.0, window - t1)))
    legs = rng.uniform(0.0, 4.0, 3) * (rng.uniform(size=3) < 0.7)
    steps = (forward(legs[0]), wheel(t1), forward(legs[1]), wheel(t2), forward(legs[2]))
    pivot = float(rng.uniform(-180.0, 180.0)) if pivots else 0.0
    way = snake(u, pivot, steps)
    return WayProblem(u.pose.centre, u.pose.facing_deg, way.end.centre, way.end.facing_deg,
                      u.width_in, u.depth_in, pivots, window), way.distance_in


def _strict(problem, pivot, t1, t2):
    """Costs of ways with these angles, legs required non-negative with no float allowance."""
    saved, way_problem.LEG_NOISE = way_problem.LEG_NOISE, 0.0
    try:
        return evaluate(problem, pivot, t1, t2)[1]
    finally:
        way_problem.LEG_NOISE = saved


@pytest.mark.parametrize("seed", range(40))
def test_the_closed_forms_find_the_cheapest_march_with_two_wheels(seed):
    problem, original = _problem(np.random.default_rng(seed), pivots=False)
    found = find_ways(problem)
    assert found and found[0].cost <= original + 1e-9
    turn = float(problem.end_turn_deg())
    grid = np.linspace(-90.0, 90.0, 36001)
    grid = grid[np.abs(turn - grid) <= 90.0]
    brute = _strict(problem, np.zeros_like(grid), grid, turn - grid)
    assert found[0].cost <= np.nanmin(brute) + 1e-9


@pytest.mark.parametrize("seed", range(6))
def test_the_pivot_search_finds_the_cheapest_advance_with_two_wheels(seed):
    problem, original = _problem(np.random.default_rng(100 + seed), pivots=True)
    found = find_ways(problem)
    assert found and found[0].cost <= original + 1e-9
    turns, first = np.meshgrid(np.linspace(-90, 90, 361), np.linspace(-90, 90, 361))
    ok = np.abs(turns - first) <= 90.0
    pivot = problem.end_facing_deg - problem.facing_deg - turns[ok]
    brute = _strict(problem, pivot, first[ok], turns[ok] - first[ok])
    assert found[0].cost <= np.nanmin(brute) + 1e-9


def _random_way(rng: np.random.Generator, window: float):
    """Up to ten wheels within the window, and forward steps between them."""
    steps, heading = [], 0.0
    for _ in range(int(rng.integers(0, 11))):
        if rng.uniform() < 0.6:
            steps.append(forward(float(rng.exponential(1.0))))
        turn = float(rng.uniform(max(-90.0, -window - heading), min(90.0, window - heading)))
        heading += turn
        steps.append(wheel(turn))
    if rng.uniform() < 0.5:
        steps.append(forward(float(rng.exponential(1.0))))
    return tuple(steps)


def test_the_distance_bound_holds_for_ways_with_many_wheels():
    rng = np.random.default_rng(7)
    for _ in range(600):
        files, ranks = int(rng.integers(1, 8)), int(rng.integers(1, 6))
        u = unit(models=files * ranks, files=files, centre=(0.0, 0.0),
                 facing=float(rng.uniform(0.0, 360.0)))
        window = float(rng.choice([45.0, 90.0, 120.0]))
        pivots = bool(rng.integers(0, 2))
        pivot = float(rng.uniform(-180.0, 180.0)) if pivots else 0.0
        way = snake(u, pivot, _random_way(rng, window))
        problem = WayProblem(u.pose.centre, u.pose.facing_deg, way.end.centre,
                             way.end.facing_deg, u.width_in, u.depth_in, pivots, window)
        assert least_distance(problem) <= way.distance_in + 1e-9


def test_the_distance_bound_is_tight_for_straight_ways_and_single_wheels():
    u = unit(centre=(0.0, 0.0), facing=90.0)  # 5" x 2"
    for steps, pivots in (((forward(3.0),), False), ((wheel(90.0),), False),
                          ((forward(3.0),), True)):
        way = snake(u, 0.0, steps)
        problem = WayProblem(u.pose.centre, 90.0, way.end.centre, way.end.facing_deg,
                             5.0, 2.0, pivots, 90.0)
        assert least_distance(problem) == pytest.approx(way.distance_in, abs=1e-9)


def test_the_window_gauge():
    assert window_gauge(np.array([0.0, 2.0]), math.pi / 2, math.pi / 2) == pytest.approx(2.0)
    assert window_gauge(np.array([2.0, 0.0]), math.pi / 2, math.pi / 2) == pytest.approx(2.0)
    assert window_gauge(np.array([0.0, -1.0]), math.pi / 2, math.pi / 2) == math.inf
    assert window_gauge(np.array([1.0, 1.0]), math.pi / 2, math.pi / 3) == pytest.approx(2 ** 0.5)
    assert window_gauge(np.array([1.0, 1.0]), math.pi / 2, math.pi / 6) == math.inf
    # a 120 deg window: a vector straight back leaves the arc's hull through its chord
    assert window_gauge(np.array([0.0, -1.0]), math.pi / 2, 2 * math.pi / 3) \
        == pytest.approx(2.0)
