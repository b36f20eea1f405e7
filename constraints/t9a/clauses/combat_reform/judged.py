"""How a Combat Reform clause's rule example is judged: by the clause alone and by the whole
checker.  The conformance suite (tests/conformance/test_rule_examples.py) runs every kind of
clause of every registered system this way (`System.clause_kinds` names this module)."""

from __future__ import annotations

from constraints.core.scenario_io import scenario_from_json
from constraints.core.verdict import ClauseResult
from constraints.t9a.clauses.combat_reform import CLAUSES as BY_PROFILE
from constraints.t9a.clauses.combat_reform import CombatReformClause
from constraints.t9a.clauses.combat_reform.base import ReformExample
from constraints.t9a.clauses.combat_reform.checker import check_combat_reform, unit_contexts
from constraints.t9a.clauses.combat_reform.context import ReformContext
from constraints.t9a.combat_reform_io import (
    MANOEUVRE,
    CombatResult,
    combat_reform_from_json,
    combat_result_from_json,
)

CLAUSES = tuple(dict.fromkeys(c for clauses in BY_PROFILE.values() for c in clauses))


def judge_example(clause: type[CombatReformClause],
                  example: ReformExample) -> tuple[ClauseResult, frozenset[str] | None]:
    """The clause's own result on the example (a clause judging one unit: the last reform's,
    with the ones before it in place), and the ids the whole checker breaks for it."""
    scenario = scenario_from_json(example.scenario)
    if clause not in BY_PROFILE[scenario.profile.name]:
        raise ValueError(f"{clause.id}: the example's profile {scenario.profile.name} does "
                         "not apply it")
    reforms = combat_reform_from_json({"manoeuvre": MANOEUVRE,
                                       "reforms": list(example.reforms)}, scenario)
    result = CombatResult() if example.result is None else \
        combat_result_from_json(example.result)
    ctx = ReformContext(scenario, reforms, result) if clause.deferred else \
        unit_contexts(scenario, reforms, result)[-1]
    found = clause().check(ctx)
    verdict = check_combat_reform(scenario, reforms, result)
    judged = verdict.violations
    if not clause.deferred and len(reforms) > 1:  # the last unit's own
        judged = tuple(v for v in judged if reforms[-1].unit in v.message)
    return found, frozenset(v.clause for v in judged)
