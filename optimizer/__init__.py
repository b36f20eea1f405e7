"""Manoeuvre: the exact referee and optimiser for unit movement.

The public Python API.  Queries never raise for an illegal move: they return verdicts;
searches return a result with a status (OPTIMAL, FEASIBLE, INFEASIBLE, TIMEOUT).  After a
round of combat, `resolve` removes casualties, re-forms the units and nudges them back into
contact (`least_nudge` for one unit).  For Infinity N4 troopers, `check_route` judges a
declared route, `shortest_route` finds one with a proof, `reachable_area` where a Move ends.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

__version__ = "0.1.0"  # the package's version (pyproject.toml reads it from here)

if TYPE_CHECKING:
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

# Each name is imported from its module when first used, so that `import optimizer.cli`
# (and `manoeuvre --version` or `check`) does not load the solver and the plotting library.
_HOMES = {
    "Scenario": "constraints.core.scenario",
    "load_scenario": "constraints.core.scenario_io",
    "save_scenario": "constraints.core.scenario_io",
    "Verdict": "constraints.core.verdict",
    "Violation": "constraints.core.verdict",
    "EncodingMismatchError": "constraints.errors",
    "InvalidInputError": "constraints.errors",
    "RouteVerdict": "constraints.infinity.checker",
    "check_route": "constraints.infinity.checker",
    "Route": "constraints.infinity.route",
    "Lattice": "constraints.sat.lattice",
    "check_move": "constraints.t9a.checker",
    "Move": "constraints.t9a.moves",
    "forward": "constraints.t9a.moves",
    "wheel": "constraints.t9a.moves",
    "BatchJudge": "optimizer.batch",
    "legal_mask": "optimizer.batch",
    "Loss": "optimizer.nudge",
    "NudgeResult": "optimizer.nudge",
    "least_nudge": "optimizer.nudge",
    "resolve": "optimizer.nudge",
    "is_legal": "optimizer.queries",
    "legal_moves": "optimizer.queries",
    "legal_region": "optimizer.queries",
    "nearest_legal": "optimizer.queries",
    "ReachableArea": "optimizer.routes",
    "RouteResult": "optimizer.routes",
    "reachable_area": "optimizer.routes",
    "shortest_route": "optimizer.routes",
    "reach": "optimizer.search.explain",
    "why_not": "optimizer.search.explain",
    "Objective": "optimizer.search.objectives",
    "SearchResult": "optimizer.search.solve",
    "best_move": "optimizer.search.solve",
}


def __getattr__(name: str) -> Any:
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(import_module(home), name)
    globals()[name] = value  # looked up once
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_HOMES))


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
