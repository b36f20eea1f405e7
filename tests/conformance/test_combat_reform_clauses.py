"""The Combat Reform clauses' conformance: every clause's rule-example table (the clause breaks
exactly where the rule text says, with the measurement it gives), and the whole checker
agreeing with each clause alone."""

from __future__ import annotations

import pytest

from constraints.core.scenario_io import scenario_from_json
from constraints.t9a.clauses.combat_reform import CLAUSES
from constraints.t9a.clauses.combat_reform.checker import check_combat_reform, unit_contexts
from constraints.t9a.clauses.combat_reform.context import ReformContext
from constraints.t9a.combat_reform_io import (
    MANOEUVRE,
    CombatResult,
    combat_reform_from_json,
    combat_result_from_json,
)

CLASSES = list(dict.fromkeys(c for clauses in CLAUSES.values() for c in clauses))
CASES = [(clause, example) for clause in CLASSES for example in clause.examples]


def _inputs(example):
    scenario = scenario_from_json(example.scenario)
    reforms = combat_reform_from_json({"manoeuvre": MANOEUVRE,
                                       "reforms": list(example.reforms)}, scenario)
    result = CombatResult() if example.result is None else \
        combat_result_from_json(example.result)
    return scenario, reforms, result


def test_every_clause_has_examples_that_break_it_and_that_do_not():
    for clause in CLASSES:
        outcomes = {example.breaks for example in clause.examples}
        assert outcomes == {True, False}, clause.__name__


def test_every_profile_has_each_clause_id_once():
    for profile, clauses in CLAUSES.items():
        ids = [c.id for c in clauses]
        assert len(ids) == len(set(ids)), profile


@pytest.mark.parametrize("clause, example", CASES,
                         ids=[f"{c.__name__}: {e.why}" for c, e in CASES])
def test_rule_example(clause, example):
    scenario, reforms, result = _inputs(example)
    assert clause in CLAUSES[scenario.profile.name], "the example's profile applies it"
    if clause.deferred:
        ctx = ReformContext(scenario, reforms, result)
    else:
        ctx = unit_contexts(scenario, reforms, result)[-1]
    found = clause().check(ctx)
    assert bool(found.violations) is example.breaks, [v.message for v in found.violations]
    if example.measured is not None:
        name, value = example.measured
        assert found.measurements[name] == pytest.approx(value, abs=1e-9)
    verdict = check_combat_reform(scenario, reforms, result)
    if not clause.deferred and len(reforms) > 1:
        judged = [v for v in verdict.violations if reforms[-1].unit in v.message]
    else:
        judged = list(verdict.violations)
    assert any(v.clause == clause.id for v in judged) is example.breaks
