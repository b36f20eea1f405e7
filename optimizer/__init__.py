"""Manoeuvre: the exact referee and optimiser for unit movement.

The public Python API.  Queries never raise for an illegal move: they return verdicts;
searches return a result with a status (OPTIMAL, FEASIBLE, INFEASIBLE, TIMEOUT).  After a
round of combat, `resolve` removes casualties, re-forms the units and nudges them back into
contact (`least_nudge` for one unit).  For Infinity N4 troopers, `check_route` judges a
declared route, `shortest_route` finds one with a proof, `reachable_area` where a Move ends.
"""

from constraints.core.scenario import Scenario
from constraints.core.scenario_io import load_scenario, save_scenario
from constraints.core.verdict import Verdict, Violation
from constraints.errors import EncodingMismatchError, InvalidInputError
from constraints.infinity.checker import RouteVerdict, check_route
from constraints.infinity.route import Route
from constraints.sat.lattice import Lattice
from constraints.t9a.checker import check_move
from constraints.t9a.moves import Move, forward, wheel
from optimizer.batch import BatchJudge, legal_mask
from optimizer.nudge import Loss, NudgeResult, least_nudge, resolve
from optimizer.queries import is_legal, legal_moves, legal_region, nearest_legal
from optimizer.routes import ReachableArea, RouteResult, reachable_area, shortest_route
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
    "ReachableArea",
    "Route",
    "RouteResult",
    "RouteVerdict",
    "Scenario",
    "SearchResult",
    "Verdict",
    "Violation",
    "best_move",
    "check_move",
    "check_route",
    "forward",
    "is_legal",
    "legal_mask",
    "legal_moves",
    "legal_region",
    "least_nudge",
    "load_scenario",
    "nearest_legal",
    "reach",
    "reachable_area",
    "resolve",
    "save_scenario",
    "shortest_route",
    "wheel",
    "why_not",
]
