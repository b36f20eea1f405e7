"""The simplest of the near-best answers (optimizer.search.simplest): a plainer answer as good
replaces the search's, never at the cost of its value beyond a lattice step or of a proof."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from types import SimpleNamespace

import pytest

from optimizer import Move, Objective, best_move, check_move, load_scenario
from optimizer.search.proof import Proof
from optimizer.search.request import SearchRequest
from optimizer.search.result import Status
from optimizer.search.simplest import _as_good, _is_straight

EXAMPLES = Path(__file__).resolve().parents[3] / "examples"
SPEARS = load_scenario(EXAMPLES / "spears.json")


@pytest.mark.parametrize("target", [(36.0, 10.5), (37.0, 10.0)])
def test_a_reform_keeps_its_facing_and_files_when_that_is_as_good(target) -> None:
    """Reaching the point needs no turn: before, the search answered facing 82 deg."""
    result = best_move(SPEARS, "spears", "reform", Objective("target_distance", target))
    assert result.status == Status.OPTIMAL and result.value == 0.0
    assert result.move.facing_deg == 90.0 and result.move.files == 5
    assert check_move(SPEARS, result.move).legal
    assert result.stats["simplest"] == {"replaced_value": 0.0, "value": 0.0}


def test_straight_moves_are_recognised() -> None:
    request = SearchRequest(SPEARS, "spears", "advance", Objective("forward"))
    assert _is_straight(request, Move("spears", "advance", steps=(), pivot_deg=30.0))
    assert not _is_straight(request, best_move(
        SPEARS, "spears", "march", Objective("target_distance", (37.0, 15.0))).move)
    assert not _is_straight(request, Move("spears", "reform", files=4, centre=(36.0, 10.0),
                                          facing_deg=90.0))


def _result(status: Status, value: float, bound: float, tolerance: float | None):
    found = best_move(SPEARS, "spears", "march", Objective("target_distance", (36.0, 16.0)))
    return replace(found, value=value, proof=Proof(status, bound=bound, tolerance=tolerance))


LEGAL = SimpleNamespace(legal=True)  # _as_good reads only whether it is legal


@pytest.mark.parametrize(("status", "value", "bound", "tolerance", "plain", "taken"), [
    (Status.FEASIBLE, 2.0, 1.0, None, 2.004, True),    # within a lattice step (0.005")
    (Status.FEASIBLE, 2.0, 1.0, None, 2.006, False),   # beyond it
    (Status.OPTIMAL, 2.0, 2.0, None, 2.0, True),       # proved on the lattice: equal only
    (Status.OPTIMAL, 2.0, 2.0, None, 2.001, False),
    (Status.OPTIMAL, 2.0, 1.995, 0.01, 2.004, True),   # within the proof's tolerance
    (Status.OPTIMAL, 2.0, 1.995, 0.008, 2.004, False),
])
def test_what_may_replace_an_answer(status, value, bound, tolerance, plain, taken) -> None:
    request = SearchRequest(SPEARS, "spears", "march", Objective("target_distance", (0, 0)))
    result = _result(status, value, bound, tolerance)
    assert _as_good(request, result, LEGAL, plain) is taken
    assert not _as_good(request, result, SimpleNamespace(legal=False), plain)
