"""How a route clause's rule example is judged: by the clause alone and by the whole checker.
The conformance suite (tests/conformance/test_rule_examples.py) runs every kind of clause of
every registered system this way (`System.clause_kinds` names this module)."""

from __future__ import annotations

from constraints.core.scenario_io import scenario_from_json
from constraints.core.verdict import ClauseResult
from constraints.infinity.checker import check_route
from constraints.infinity.clauses import ROUTE_CLAUSES, RouteClause
from constraints.infinity.clauses.base import RouteExample
from constraints.infinity.clauses.context import RouteContext
from constraints.infinity.route import route_from_json

CLAUSES = ROUTE_CLAUSES


def judge_example(clause: type[RouteClause],
                  example: RouteExample) -> tuple[ClauseResult, frozenset[str] | None]:
    """The clause's own result on the declared route, and the ids the whole checker breaks;
    None when the checker judged another route: the declared one met an enemy first and was
    cut short there (A22), so only the part up to the contact is judged."""
    scenario = scenario_from_json(example.scenario)
    route = route_from_json(example.route)
    found = clause().check(RouteContext(scenario, route))
    verdict = check_route(scenario, route)
    return found, None if verdict.cut_at is not None else frozenset(verdict.clauses())
