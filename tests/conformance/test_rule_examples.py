"""One conformance suite for the rule examples of every clause of every registered system:
the Move Manoeuvres' clauses of every profile (T9A, Warhammer, the Post-Combat Pivot, any new
profile) and the other kinds each system declares (`System.clause_kinds`: nudges, Combat
Reforms, Infinity routes).  For each clause:

- its table has examples that break it and examples that do not;
- each example breaks the clause exactly where the rule text says, with the measurement the
  text gives: judged by the whole checker, and (for the kinds that judge a clause alone) by
  the clause itself too, which then names itself in each violation;
- a Move Manoeuvre's clause that refuses every move of the example's unit (a proof of
  INFEASIBLE) breaks on that example.

What else a clause is (CP-SAT rows, masks, regions) is checked by the suites of its search:
test_clauses.py (T9A's), test_whfb7_encodings.py, test_post_combat_clauses.py.
"""

from __future__ import annotations

from importlib import import_module
from typing import Any

import pytest

from constraints.core.profile import find_profile, registered_clauses
from constraints.core.scenario_io import scenario_from_json
from constraints.core.system import SYSTEMS, find_system
from tests.conformance import toy_clause

MEASURE_TOL = 1e-5  # swept arcs are circumscribed polygons (a few millionths over)


def _applies(clause_id: str, example: Any) -> bool:
    """Whether the example's profile applies the clause to the example's manoeuvre."""
    profile = find_profile(example.scenario.get("rules", "t9a"))
    specs = profile.manoeuvres.get(example.move["manoeuvre"], ())
    return any(s.id == clause_id for s in specs)


# The shipped clauses (the conformance tests' toy clause, registered by test_clauses.py in
# the same process, is that suite's own).
MOVE_CLAUSES = {cid: [e for e in spec.clause.examples if _applies(cid, e)]
                for cid, spec in sorted(registered_clauses().items())
                if cid != toy_clause.TOY_ID}
KINDS = [import_module(kind) for system in SYSTEMS.values() for kind in system.clause_kinds]
KIND_CASES = [(kind, clause, example) for kind in KINDS for clause in kind.CLAUSES
              for example in clause.examples]


def test_every_system_is_covered() -> None:
    assert {find_profile(e.scenario.get("rules", "t9a")).system
            for examples in MOVE_CLAUSES.values() for e in examples} >= {"t9a", "whfb7"}
    assert {kind.__name__.split(".")[1] for kind in KINDS} == {"t9a", "infinity"}


@pytest.mark.parametrize("clause_id", sorted(MOVE_CLAUSES))
def test_every_move_clause_has_examples_that_break_it_and_that_do_not(clause_id: str) -> None:
    assert {e.breaks for e in MOVE_CLAUSES[clause_id]} == {True, False}, clause_id


@pytest.mark.parametrize("kind, clause", [(k, c) for k in KINDS for c in k.CLAUSES],
                         ids=lambda v: getattr(v, "id", getattr(v, "__name__", "")))
def test_every_other_clause_has_examples_that_break_it_and_that_do_not(kind: Any,
                                                                        clause: Any) -> None:
    assert {e.breaks for e in clause.examples} == {True, False}, clause.id


MOVE_CASES = [(cid, e) for cid, examples in MOVE_CLAUSES.items() for e in examples]


@pytest.mark.parametrize("clause_id, example", MOVE_CASES,
                         ids=[f"{c}: {e.why}" for c, e in MOVE_CASES])
def test_move_rule_example(clause_id: str, example: Any) -> None:
    scenario = scenario_from_json(example.scenario)
    system = find_system(scenario.rules)
    verdict = system.check(scenario, system.read_move(example.move))
    assert (clause_id in verdict.clauses()) is example.breaks, example.why
    if example.measured is not None:
        name, value = example.measured
        assert verdict.measurements[name] == pytest.approx(value, abs=MEASURE_TOL), example.why
    # `refuses_every_move` is a proof of INFEASIBLE: where it says so for the example's unit,
    # the example breaks the clause (no legal move of that unit is in the table).
    clause = next(c for c in scenario.profile.clauses(example.move["manoeuvre"])
                  if c.id == clause_id)
    if clause.refuses_every_move(scenario, scenario.unit(example.move["unit"])):
        assert example.breaks, example.why


@pytest.mark.parametrize("kind, clause, example", KIND_CASES,
                         ids=[f"{c.id}: {e.why}" for _, c, e in KIND_CASES])
def test_other_rule_example(kind: Any, clause: Any, example: Any) -> None:
    found, broken = kind.judge_example(clause, example)
    assert bool(found.violations) is example.breaks, [v.message for v in found.violations]
    assert all(v.clause == clause.id for v in found.violations)
    if example.measured is not None:
        name, value = example.measured
        assert found.measurements[name] == pytest.approx(value, abs=MEASURE_TOL)
    if broken is None:  # the checker judged the part of a route before a contact (A22)
        assert example.breaks
    else:
        assert (clause.id in broken) is example.breaks
