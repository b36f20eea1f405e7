"""Manoeuvre: the exact referee and optimiser for unit movement.

The public Python API, one for every game system (The Ninth Age `t9a`/`t9a-2025`, Warhammer
Fantasy Battle 7th `whfb7`, Infinity N4 `infinity-n4`): each query asks the scenario's
system (constraints.core.system) whether it serves it, and a query a system does not serve
raises `InvalidInputError` naming both (docs/api.md has the table).  `Move` builds a move in
the terms of the system that takes its manoeuvre and steps (`forward`, `wheel`, `turn`);
every query reads a move again as its scenario's system's own.

Queries never raise for an illegal move: they return verdicts; searches return a result with
a status (OPTIMAL, FEASIBLE, INFEASIBLE, NOT_FOUND, TIMEOUT).  After a round of combat,
`resolve` removes casualties, re-forms the units and nudges them back into contact
(`least_nudge` searches one unit's nudge, `check_nudge` judges one); `best_reform` finds a
unit's Combat Reform and `check_combat_reform` judges a player's.  For Infinity N4
troopers, `check_route` (or `check_move`) judges a declared route, `shortest_route` finds one
with a proof, `reachable_area` where a Move ends, `line_of_fire` whether one trooper sees
another, `route_exposure` who may react (ARO) along a route.  `render` draws any of them.
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
    from constraints.infinity.checker import RouteVerdict
    from constraints.infinity.route import Route
    from constraints.rank_and_file.steps import Step, forward, turn, wheel
    from constraints.sat.lattice import Lattice
    from constraints.t9a.clauses.nudge.context import Leg
    from constraints.t9a.combat_reform import UnitReform
    from constraints.t9a.combat_reform_io import CombatResult
    from optimizer.batch import BatchJudge
    from optimizer.combat_reform.answer import ReformAnswer
    from optimizer.combat_reform.best import Asks, best_reform
    from optimizer.dispatch import (
        Move,
        check_combat_reform,
        check_move,
        check_nudge,
        check_route,
        is_legal,
    )
    from optimizer.nudge import Loss, NudgeFound, NudgeResult, least_nudge, resolve
    from optimizer.pictures.picture import render
    from optimizer.pose_mask import legal_mask
    from optimizer.queries import LegalMoves, legal_moves, legal_region, nearest_legal
    from optimizer.routes import ReachableArea, RouteResult, reachable_area, shortest_route
    from optimizer.routes.sight import line_of_fire, route_exposure
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
    "Route": "constraints.infinity.route",
    "Step": "constraints.rank_and_file.steps",
    "forward": "constraints.rank_and_file.steps",
    "turn": "constraints.rank_and_file.steps",
    "wheel": "constraints.rank_and_file.steps",
    "Lattice": "constraints.sat.lattice",
    "Leg": "constraints.t9a.clauses.nudge.context",
    "UnitReform": "constraints.t9a.combat_reform",
    "CombatResult": "constraints.t9a.combat_reform_io",
    "BatchJudge": "optimizer.batch",
    "legal_mask": "optimizer.pose_mask",
    "ReformAnswer": "optimizer.combat_reform.answer",
    "Asks": "optimizer.combat_reform.best",
    "best_reform": "optimizer.combat_reform.best",
    "Move": "optimizer.dispatch",
    "check_combat_reform": "optimizer.dispatch",
    "check_move": "optimizer.dispatch",
    "check_nudge": "optimizer.dispatch",
    "check_route": "optimizer.dispatch",
    "is_legal": "optimizer.dispatch",
    "Loss": "optimizer.nudge",
    "NudgeFound": "optimizer.nudge",
    "NudgeResult": "optimizer.nudge",
    "least_nudge": "optimizer.nudge",
    "resolve": "optimizer.nudge",
    "LegalMoves": "optimizer.queries",
    "legal_moves": "optimizer.queries",
    "legal_region": "optimizer.queries",
    "nearest_legal": "optimizer.queries",
    "ReachableArea": "optimizer.routes",
    "RouteResult": "optimizer.routes",
    "reachable_area": "optimizer.routes",
    "shortest_route": "optimizer.routes",
    "line_of_fire": "optimizer.routes.sight",
    "route_exposure": "optimizer.routes.sight",
    "render": "optimizer.pictures.picture",
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
    "Asks",
    "BatchJudge",
    "CombatResult",
    "EncodingMismatchError",
    "InvalidInputError",
    "Lattice",
    "Leg",
    "LegalMoves",
    "Loss",
    "Move",
    "NudgeFound",
    "NudgeResult",
    "Objective",
    "ReachableArea",
    "ReformAnswer",
    "Route",
    "RouteResult",
    "RouteVerdict",
    "Scenario",
    "SearchResult",
    "Step",
    "UnitReform",
    "Verdict",
    "Violation",
    "best_move",
    "best_reform",
    "check_combat_reform",
    "check_move",
    "check_nudge",
    "check_route",
    "forward",
    "is_legal",
    "least_nudge",
    "legal_mask",
    "legal_moves",
    "legal_region",
    "line_of_fire",
    "load_scenario",
    "nearest_legal",
    "reach",
    "reachable_area",
    "render",
    "resolve",
    "route_exposure",
    "save_scenario",
    "shortest_route",
    "turn",
    "wheel",
    "why_not",
]
