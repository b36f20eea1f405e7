"""The descent (optimizer/search/descent.py): the polish's first stage, a projected gradient
search along the boundary of the legal ways, steered by the clauses' readings.  It follows a
boundary it is pressed against, it never returns an illegal or worse way, and it is the same
on every run."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from constraints.core.scenario_io import load_scenario
from constraints.t9a.checker import check_move
from constraints.t9a.moves import Move, forward, wheel
from optimizer.search.clock import Clock
from optimizer.search.descent import Descent, Measured
from optimizer.search.objectives import Objective
from optimizer.search.polish import DESCENT_CHECKS, Polish
from optimizer.search.request import SearchRequest

SCENARIOS = Path(__file__).parents[3] / "benchmarks" / "scenarios"


class _Disc:
    """A toy request: rank (x - 3)^2 + (y - 3)^2, legal where x + y <= 2 (a reading of its
    sum against the limit 2) and y <= 1.5 (another, far from binding at the best way)."""

    def __init__(self) -> None:
        self.checks = 0

    def measure(self, x: list[float]) -> Measured:
        self.checks += 1
        rank = (x[0] - 3.0) ** 2 + (x[1] - 3.0) ** 2
        legal = x[0] + x[1] <= 2.0 + 1e-12 and x[1] <= 1.5
        margins = {"sum": x[0] + x[1] - 2.0, "y": x[1] - 1.5}
        return Measured(np.array(x), (rank, tuple(x), None) if legal else None,  # type: ignore[arg-type]
                        margins)


@pytest.mark.parametrize("start", [(2.0, 0.0), (0.5, 1.5), (-1.0, 0.0)])
def test_the_descent_follows_the_boundary_to_the_best_way_on_it(start: tuple[float, float]) -> None:
    """On the toy request the best legal way is (1, 1), on the boundary x + y = 2: from a
    start on that boundary (where the gradient points out of the legal ways) or inside, the
    descent ends within a hundredth of it, every candidate it returns legal."""
    toy = _Disc()
    descent = Descent(toy.measure, lambda scored: True, [0, 1], set(), lambda: toy.checks > 500)
    rank = toy.measure(list(start)).scored
    assert rank is not None
    found = descent.run(list(start), rank[0])
    assert found is not None
    scored, x = found
    assert x[0] + x[1] <= 2.0 + 1e-9 and x[1] <= 1.5
    assert x == pytest.approx([1.0, 1.0], abs=0.01)
    assert scored[0] == pytest.approx(8.0, abs=0.05)


def test_the_descent_returns_nothing_where_nothing_improves() -> None:
    """At the best way of the toy request no candidate improves: no answer."""
    toy = _Disc()
    descent = Descent(toy.measure, lambda scored: True, [0, 1], set(), lambda: toy.checks > 200)
    assert descent.run([1.0, 1.0], 8.0) is None


def _gap_sidestep() -> tuple[SearchRequest, Move]:
    """bench_solve's gap-sidestep (a 4" front through a 5.4" gap in a wall, to a pose 4"
    right and 14" ahead) and a legal way of two wheels near the lattice's answer (0.87)."""
    scenario = load_scenario(SCENARIOS / "gap.json")
    request = SearchRequest(scenario, "block", "march",
                            Objective("target_pose", (40.0, 24.0), 90.0))
    move = Move("block", "march", (forward(0.0100), wheel(-29.8007), forward(6.5355),
                                   wheel(27.7317), forward(5.5614)))
    return request, move


def _stage(request: SearchRequest, move: Move, stage: str, limit: int):
    verdict = check_move(request.scenario, move)
    assert verdict.legal
    polish = Polish(request, move, verdict, Clock(600.0))
    polish.limit = limit
    rank = request.goal.ranked(verdict)
    return getattr(polish, stage)(rank), request.goal.exact(verdict)


def test_the_descent_takes_gap_sidestep_along_the_wall_where_the_pattern_search_stalls() -> None:
    """From the way at 0.87, pressed against its budget and the Front Facing's spacing to the
    wall's end at once, the ways that improve move all four parameters together.  The
    descent follows both limits down to below 0.6 (0.484 here), its way legal by the checker
    and still held at the wall's 0.5"; the pattern search alone, given as many checks, stays
    above 0.8.  The same way on a second run."""
    request, move = _gap_sidestep()
    found, before = _stage(request, move, "_descent", DESCENT_CHECKS)
    assert found is not None
    verdict = check_move(request.scenario, found[1])
    assert verdict.legal
    value = request.goal.exact(verdict)
    assert value < 0.6 < before - 0.25
    assert verdict.measurements["front_clearance"] == pytest.approx(0.5, abs=0.02)
    assert verdict.measurements["distance"] == pytest.approx(16.0, abs=0.02)
    again, _ = _stage(request, move, "_descent", DESCENT_CHECKS)
    assert again is not None and again[1] == found[1]
    pattern, _ = _stage(request, move, "_pattern", DESCENT_CHECKS)
    assert pattern is None or request.goal.exact(pattern[2]) > 0.8
