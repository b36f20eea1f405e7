"""The nudge clauses' protocol: an exact `check` of one nudge and a table of rule examples.

Nudges are not Move Manoeuvres, so their clauses are not in a profile's manoeuvre table; they
keep the clause protocol's shape (`check` returning a `ClauseResult`, `examples` from the rule
text) so the one conformance suite runs them (tests/conformance/test_rule_examples.py).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

from constraints.core.clause import RuleClause
from constraints.t9a.clauses.nudge.context import NudgeContext

# Touching is a distance within the contact tolerance (A21; a clause reads the scenario's,
# `NudgeContext.contact_in`); a hair for float room where nothing touches (the table edge).
FLOAT_IN = 1e-6


@dataclass(frozen=True)
class NudgeExample:
    """A case from the rule text: a scenario (JSON, units as they stand before the nudge),
    the unit, the enemies it touched before (id -> its Facing), the legs (JSON), whether
    the clause breaks, and optionally the measurement the rule text fixes."""

    why: str
    scenario: Mapping[str, Any]
    unit: str
    previous: Mapping[str, str]
    legs: tuple[Mapping[str, float], ...]
    breaks: bool
    measured: tuple[str, float] | None = None


class NudgeClause(RuleClause[NudgeContext]):
    """One clause of "Nudge units to maintain contact" (seed 001)."""

    examples: ClassVar[tuple[NudgeExample, ...]] = ()
    # Its break says the unit did not regain contact: when no legal nudge exists the unit
    # stands still without breaking it (optimizer.nudge.judge).
    regains_contact: ClassVar[bool] = False
