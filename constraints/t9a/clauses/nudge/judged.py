"""How a nudge clause's rule example is judged: by the clause alone and by the whole checker.
The conformance suite (tests/conformance/test_rule_examples.py) runs every kind of clause of
every registered system this way (`System.clause_kinds` names this module)."""

from __future__ import annotations

from constraints.core.scenario_io import scenario_from_json
from constraints.core.verdict import ClauseResult
from constraints.t9a.clauses.nudge import NUDGE_CLAUSES, NudgeClause
from constraints.t9a.clauses.nudge.base import NudgeExample
from constraints.t9a.clauses.nudge.checker import check_nudge, context
from constraints.t9a.clauses.nudge.context import Leg

CLAUSES = NUDGE_CLAUSES


def judge_example(clause: type[NudgeClause],
                  example: NudgeExample) -> tuple[ClauseResult, frozenset[str] | None]:
    """The clause's own result on the example, and the ids the whole checker breaks."""
    scenario = scenario_from_json(example.scenario)
    legs = tuple(Leg(*next(iter(leg.items()))) for leg in example.legs)
    found = clause().check(context(scenario, example.unit, example.previous, legs))
    verdict = check_nudge(scenario, example.unit, example.previous, legs)
    return found, frozenset(verdict.clauses())
