"""Manoeuvre: the exact referee and optimiser for unit movement.

The public Python API.  Queries never raise for an illegal move: they return verdicts;
searches return a result with a status (OPTIMAL, FEASIBLE, INFEASIBLE, TIMEOUT).  After a
round of combat, `resolve` removes casualties, re-forms the units and nudges them back into
contact (`least_nudge` for one unit).
"""

from constraints.core.scenario import Scenario
from constraints.core.scenario_io import load_scenario, save_scenario
from constraints.core.verdict import Verdict, Violation
from constraints.errors import EncodingMismatchError, InvalidInputError
from constraints.sat.lattice import Lattice
from constraints.t9a.checker import check_move
from constraints.t9a.moves import Move, forward, wheel
from optimizer.batch import BatchJudge, legal_mask
from optimizer.nudge import Loss, NudgeResult, least_nudge, resolve
from optimizer.queries import is_legal, legal_moves, legal_region, nearest_legal
from optimizer.search.explain import reach, why_not
from optimizer.search.objectives import Objective
from optimizer.search.solve import SearchResult, best_move

__all__ = [
    "BatchJudge",
    "EncodingMismatchError",
    "InvalidInputError",
    "Lattice",
    "Loss",
    "Move",
    "NudgeResult",
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
    "least_nudge",
    "load_scenario",
    "nearest_legal",
    "reach",
    "resolve",
    "save_scenario",
    "wheel",
    "why_not",
]
