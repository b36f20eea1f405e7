"""The Combat Reform clauses' protocol: an exact `check` and a table of rule examples.

Combat Reforms are not Move Manoeuvres, so, like the nudge clauses, their clauses are not in a
profile's manoeuvre table: they keep the clause protocol's shape (`check` returning a
`ClauseResult`, `examples` taken from the rule text) so one conformance test runs them all
(tests/conformance/test_rule_examples.py).

Most clauses judge one unit's reform, with the units reformed before it in place.  A
`deferred` clause judges all of one player's reforms at once: seed 002 checks the enemy
models "after a player has completed all their Combat Reforms", and variant A (RULES §2.12
(A) 4) checks its counting conditions then.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import Enum
from typing import Any, ClassVar

from constraints.core.clause import RuleClause
from constraints.t9a.clauses.combat_reform.context import ReformContext


@dataclass(frozen=True)
class ReformExample:
    """A case from the rule text: a scenario (JSON, every unit as it stands before the
    reforms), one player's reforms (JSON entries of the proposal file, in order), whether the
    clause breaks (judged on the last reform, or on all of them for a deferred clause),
    optionally the measurement the text fixes, and the combat result (JSON) if it matters."""

    why: str
    scenario: Mapping[str, Any]
    reforms: tuple[Mapping[str, Any], ...]
    breaks: bool
    measured: tuple[str, float] | None = None
    result: Mapping[str, Any] | None = None


class Role(Enum):
    """What a clause asks of a Combat Reform, as the best-reform search reads it
    (optimizer/combat_reform): the search asks a profile's clauses for their roles, never
    for their ids."""

    PLACEMENT = "placement"          # where the reformed unit may stand (checked as placed)
    ELIGIBILITY = "eligibility"      # who may reform at all: the caller's, not the search's
    FILE_CHANGE = "file_change"      # the files may change by a profile's limit only
    MARCH_RATE = "march_rate"        # no model moves more than its March Rate
    SPACING = "spacing"              # Unit Spacing kept from other units
    CONTACT_COUNT = "contact_count"  # as many own models in contact as before
    ALIGNED = "aligned"              # the Facing in contact ends flush with the enemy's
    SAME_ENEMIES = "same_enemies"    # every enemy touched before is touched after


class CombatReformClause(RuleClause[ReformContext]):
    """One clause of "Combat Reforms" (seed 002 for `t9a`, RULES §2.12 (A) for `t9a-2025`)."""

    role: ClassVar[Role] = Role.PLACEMENT
    deferred: ClassVar[bool] = False
    examples: ClassVar[tuple[ReformExample, ...]] = ()
