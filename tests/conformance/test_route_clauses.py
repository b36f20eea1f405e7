"""The route clauses' conformance (Infinity N4): every clause's rule-example table (it breaks
exactly where the rule text says, with the measurement it gives), and the whole checker
agreeing with each clause alone."""

from __future__ import annotations

import pytest

from constraints.core.scenario_io import scenario_from_json
from constraints.infinity.checker import check_route
from constraints.infinity.clauses import ROUTE_CLAUSES
from constraints.infinity.clauses.context import RouteContext
from constraints.infinity.route import route_from_json

CASES = [(clause, example) for clause in ROUTE_CLAUSES for example in clause.examples]


def test_every_route_clause_has_examples_that_break_it_and_that_do_not():
    for clause in ROUTE_CLAUSES:
        assert {example.breaks for example in clause.examples} == {True, False}, clause.id


@pytest.mark.parametrize("clause, example", CASES,
                         ids=[f"{c.id}: {e.why}" for c, e in CASES])
def test_rule_example(clause, example):
    scenario = scenario_from_json(example.scenario)
    route = route_from_json(example.route)
    found = clause().check(RouteContext(scenario, route))
    assert bool(found.violations) is example.breaks, [v.message for v in found.violations]
    if example.measured is not None:
        name, value = example.measured
        assert found.measurements[name] == pytest.approx(value, abs=1e-5)
    verdict = check_route(scenario, route)
    if verdict.cut_at is None:
        assert (clause.id in verdict.clauses()) is example.breaks
    else:  # A22: the route met an enemy first; the checker judges the route as executed
        assert example.breaks and verdict.contact
        assert clause.id not in verdict.clauses()
