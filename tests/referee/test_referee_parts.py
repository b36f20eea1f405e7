"""The reference referee's own pieces against hand-worked answers, so that an agreement with
the checker is an agreement with something known to be right."""

from __future__ import annotations

import ast
import itertools
import math
from pathlib import Path

import numpy as np
import pytest
from shapely.geometry import box as shapely_box

from constraints.t9a.moves import forward, wheel
from tests.referee.paths import (
    ARC_STEP_DEG,
    PathGraph,
    _bottleneck_brute,
    _bottleneck_matching,
)
from tests.referee.referee import SAMPLE_IN, corners, snake
from tests.referee.rulebook import more_than, within


def test_the_two_bottleneck_searches_agree() -> None:
    rng = np.random.default_rng(7)
    for n in range(1, 7):
        for _ in range(20):
            cost = rng.uniform(0.0, 10.0, (n, n)).round(1)  # ties on purpose
            cost[rng.random((n, n)) < 0.2] = math.inf  # pairs a character may not take
            assert _bottleneck_brute(cost) == _bottleneck_matching(cost)


def test_a_bottleneck_is_the_least_longest_move() -> None:
    cost = np.array([[1.0, 5.0, 9.0], [2.0, 1.0, 4.0], [3.0, 8.0, 2.0]])
    best = min(max(cost[i, p[i]] for i in range(3)) for p in itertools.permutations(range(3)))
    assert _bottleneck_brute(cost) == best == 2.0


def test_walks_in_the_open_are_straight() -> None:
    graph = PathGraph([], 1.0)
    a, b = np.array([[0.0, 0.0], [1.0, 1.0]]), np.array([[3.0, 4.0]])
    assert graph.lengths(a, b).ravel() == pytest.approx([5.0, math.hypot(2.0, 3.0)])


def _round_a_box() -> float:
    """From (-3, 0.5) to (6, 0.5) over the 3 x 1 box at the origin, keeping 1": tangent to
    the circle about (0, 1), along y = 2, tangent down from the circle about (3, 1)."""
    d = math.hypot(3.0, 0.5)
    tangent = math.sqrt(d * d - 1.0)
    away = math.atan2(-0.5, -3.0) % (2 * math.pi)  # direction from the corner to the start
    touch = away - math.acos(1.0 / d)  # the tangent point, on the upper side
    arc = touch - math.pi / 2
    return 2 * (tangent + arc) + 3.0


def test_a_walk_round_a_box_bends_on_circles() -> None:
    """The graph's path is a legal path (never shorter than the true one) and the true one
    kept at radius / cos(1.5 deg) is never shorter than it (paths.py docstring)."""
    graph = PathGraph([shapely_box(0.0, 0.0, 3.0, 1.0)], 1.0)
    found = graph.lengths(np.array([[-3.0, 0.5]]), np.array([[6.0, 0.5]]))[0, 0]
    exact = _round_a_box()
    grown = 1.0 / math.cos(math.radians(ARC_STEP_DEG) / 2) - 1.0
    assert exact - 1e-9 <= found <= exact + grown * (2 * math.pi + 2)


def test_a_walk_cannot_start_inside_the_clearance() -> None:
    graph = PathGraph([shapely_box(0.0, 0.0, 3.0, 1.0)], 1.0)
    assert graph.lengths(np.array([[1.5, 1.5]]), np.array([[6.0, 0.5]]))[0, 0] == math.inf


def test_a_wheel_costs_the_outer_corners_advance() -> None:
    """docs/rules.md §4.3, §8.2: frontage x sin(angle), read off the simulated corner."""
    moved = snake(corners((0.0, 0.0), 90.0, 5.0, 2.0), (forward(1.0), wheel(-30.0)))
    assert moved.costs == pytest.approx([1.0, 2.5], abs=1e-12)
    assert moved.worst_turn == pytest.approx(30.0)
    # A right wheel turns about the front-right corner, which stays put.
    assert moved.corners[1] == pytest.approx([2.5, 2.0])


def test_the_sweep_is_sampled_finely_enough() -> None:
    moved = snake(corners((0.0, 0.0), 90.0, 5.0, 2.0), (forward(2.0), wheel(90.0)))
    ends = np.asarray(moved.fronts)
    steps = np.hypot(*np.diff(ends, axis=0).transpose(2, 0, 1))
    assert steps.max() <= SAMPLE_IN + 1e-12


def test_limits_compare_as_the_rules_say() -> None:
    """docs/rules.md §1.2-1.3: 'within' allows the limit, 'more than' excludes it, and float
    noise at the limit counts as at it."""
    assert within(8.0, 8.0) and within(8.0 + 1e-12, 8.0) and not within(8.001, 8.0)
    assert not more_than(1.0, 1.0) and not more_than(1.0 + 1e-12, 1.0) and more_than(1.001, 1.0)


# The referee judges with its own geometry: it may read the domain values (scenario, unit,
# formation, move) but not the checker's clauses, kinematics, paths or assignments.
REFEREE_MODULES = ("referee.py", "paths.py", "rulebook.py", "scenes.py", "whfb7_referee.py")
FORBIDDEN = ("constraints.t9a.clauses", "constraints.rank_and_file.kinematics",
             "constraints.t9a.checker", "constraints.whfb7",
             "constraints.rank_and_file.sweeps", "constraints.rank_and_file.turns",
             "constraints.t9a.context", "constraints.t9a.end_pose", "constraints.geometry",
             "constraints.rank_and_file.obstacles", "constraints.sat", "optimizer")


def test_the_referee_does_not_use_the_checkers_geometry() -> None:
    here = Path(__file__).parent
    found = []
    for name in REFEREE_MODULES:
        for node in ast.walk(ast.parse((here / name).read_text(encoding="utf-8"))):
            modules = [a.name for a in node.names] if isinstance(node, ast.Import) else \
                [node.module] if isinstance(node, ast.ImportFrom) and node.module else []
            found += [f"{name} imports {m}" for m in modules
                      if any(m == f or m.startswith(f + ".") for f in FORBIDDEN)]
    assert not found
