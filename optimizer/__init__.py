"""Manoeuvre: the exact referee and optimiser for unit movement.

The public Python API.  Queries never raise for an illegal move: they return verdicts;
searches return a result with a status (OPTIMAL, FEASIBLE, INFEASIBLE, TIMEOUT).
"""

from constraints.checker import check_move
from constraints.domain import Scenario
from constraints.encoding import Lattice
from constraints.errors import EncodingMismatchError, InvalidInputError
from constraints.moves import Move, forward, wheel
from constraints.scenario_io import load_scenario, save_scenario
from constraints.verdict import Verdict, Violation
from optimizer.batch import BatchJudge, legal_mask
from optimizer.objectives import Objective
from optimizer.queries import is_legal, legal_moves, legal_region, nearest_legal
from optimizer.reach import reach, why_not
from optimizer.solve import SearchResult, best_move

__all__ = [
    "BatchJudge",
    "EncodingMismatchError",
    "InvalidInputError",
    "Lattice",
    "Move",
    "Objective",
    "Scenario",
    "SearchResult",
    "Verdict",
    "Violation",
    "best_move",
    "check_move",
    "forward",
    "is_legal",
    "legal_mask",
    "legal_moves",
    "legal_region",
    "load_scenario",
    "nearest_legal",
    "reach",
    "save_scenario",
    "wheel",
    "why_not",
]
