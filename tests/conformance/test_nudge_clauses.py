"""The nudge clauses' conformance: every clause's rule-example table (the clause breaks
exactly where the rule text says, with the measurement it gives), and the whole checker
agreeing with each clause alone."""

from __future__ import annotations

import pytest

from constraints.core.scenario_io import scenario_from_json
from constraints.t9a.clauses.nudge import NUDGE_CLAUSES
from constraints.t9a.clauses.nudge.checker import check_nudge, context
from constraints.t9a.clauses.nudge.context import Leg

CASES = [(clause, example) for clause in NUDGE_CLAUSES for example in clause.examples]


def _legs(example):
    return tuple(Leg(*next(iter(leg.items()))) for leg in example.legs)


def test_every_nudge_clause_has_examples_that_break_it_and_that_do_not():
    for clause in NUDGE_CLAUSES:
        outcomes = {example.breaks for example in clause.examples}
        assert outcomes == {True, False}, clause.id


@pytest.mark.parametrize("clause, example", CASES,
                         ids=[f"{c.id}: {e.why}" for c, e in CASES])
def test_rule_example(clause, example):
    scenario = scenario_from_json(example.scenario)
    ctx = context(scenario, example.unit, example.previous, _legs(example))
    found = clause().check(ctx)
    assert bool(found.violations) is example.breaks
    if example.measured is not None:
        name, value = example.measured
        assert found.measurements[name] == pytest.approx(value, abs=1e-9)
    verdict = check_nudge(scenario, example.unit, example.previous, _legs(example))
    assert (clause.id in verdict.clauses()) is example.breaks
