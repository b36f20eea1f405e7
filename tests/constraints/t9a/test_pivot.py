"""Pivot: each model's straight-line move <= 2 x Mob under the best reordering (RULES 2.4).

Their rule-example tables live with the clauses (`Clause.examples`) and run in the
conformance suite (tests/conformance); these are the cases that need more than a table.
"""

import itertools
import math
from dataclasses import replace

import numpy as np
import pytest

from constraints.geometry.assignment import bottleneck_assignment
from constraints.t9a.checker import check_move
from constraints.t9a.moves import Move, forward
from tests.support import scenario, unit


def pivot(u, angle, assignment=None):
    return check_move(scenario(u), Move(u.id, "advance", pivot_deg=angle,
                                        assignment=assignment))


def test_a_pivot_in_place_moves_nobody():
    assert pivot(unit(), 0.0).measurements["pivot_model_move"] == 0.0


def test_rigid_rotation_fails_but_the_best_reordering_passes():
    # One rank of 10 models on 1" bases, Mob 2: turning about by 180 deg as a rigid body
    # moves the end models 9" (> 4"), but each model can simply take the slot that lands
    # on its own position.
    line = unit("line", models=10, files=10, mobility=2.0)
    rigid = tuple((f"line.{i}", (0, i)) for i in range(10))  # each keeps its own slot
    stiff = pivot(line, 180.0, assignment=rigid)
    assert stiff.clauses() == ("t9a.pivot.model_distance",)
    assert stiff.violations[0].measured == pytest.approx(9.0)
    best = pivot(line, 180.0)
    assert best.legal
    assert best.measurements["pivot_model_move"] == pytest.approx(0.0, abs=1e-12)


def test_pivot_limit_is_inclusive():
    # A 2-model line on 1" bases turning 90 deg: each model goes from (+-0.5, 0) to
    # (0, +-0.5) or crosses over; the best move is sqrt(0.5) per model.
    line = unit("l", models=2, files=2, centre=(36, 20))
    best = math.sqrt(0.5 ** 2 + 0.5 ** 2)
    ok = pivot(replace(line, mobility_in=best / 2), 90.0)
    assert ok.measurements["pivot_model_move"] == pytest.approx(best)
    assert "t9a.pivot.model_distance" not in pivot(replace(line, mobility_in=best / 2 + 1e-9),
                                                   90.0).clauses()
    assert "t9a.pivot.model_distance" in pivot(replace(line, mobility_in=best / 2 - 1e-6),
                                               90.0).clauses()


def test_pivot_then_snake_is_one_advance():
    verdict = check_move(scenario(unit()), Move("u", "advance", pivot_deg=45.0,
                                                steps=(forward(4.0),)))
    assert verdict.legal and verdict.end_facing_deg == 135.0


@pytest.mark.parametrize("seed", range(20))
def test_bottleneck_assignment_matches_brute_force(seed):
    rng = np.random.default_rng(seed)
    n = int(rng.integers(1, 7))
    cost = rng.random((n, n)).round(2)
    allowed = rng.random((n, n)) > 0.2
    found = bottleneck_assignment(cost, allowed)
    perms = [p for p in itertools.permutations(range(n))
             if all(allowed[i, p[i]] for i in range(n))]
    brute = min((max(cost[i, p[i]] for i in range(n)) for p in perms), default=math.inf)
    assert found.bottleneck == brute
    if perms:
        assert all(allowed[i, s] for i, s in enumerate(found.slots))
        assert sorted(found.slots) == list(range(n))
