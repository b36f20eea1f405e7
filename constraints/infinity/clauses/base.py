"""The route clauses' protocol: an exact `check` of one declared route and a table of rule
examples (docs/rules.md §13.4).

Routes are not rank-and-flank Move Manoeuvres: no CP-SAT rows or batch masks.  The route
clauses keep the clause protocol's shape (`check` returning a `ClauseResult`, `examples`
from the rule text) so one conformance test runs them all
(tests/conformance/test_rule_examples.py), and the shortest-route search is checked by them.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from enum import Enum
from typing import Any, ClassVar

from constraints.core.clause import RuleClause
from constraints.core.verdict import ClauseResult, Violation
from constraints.infinity.clauses.context import RouteContext
from constraints.infinity.route import SKILLS, WALKS

CLEAR_TOL_IN = 1e-9   # a distance this far under its limit still passes (float noise)
CONTACT_IN = 1e-6     # Silhouette contact: the bases within this of touching


@dataclass(frozen=True)
class RouteExample:
    """A case from the rule text: a scenario and a declared route (JSON), whether the
    clause breaks, and optionally a measurement (name, value) the rule text fixes."""

    why: str
    scenario: Mapping[str, Any]
    route: Mapping[str, Any]
    breaks: bool
    measured: tuple[str, float] | None = None


class Kept(Enum):
    """How a route search treats a clause: its free space keeps it (a break is our bug), it
    is the MOV budget (a shortest route may be too long), or it judges where a Move ends (a
    target may be no place to stop)."""

    FREE_SPACE = "free_space"
    BUDGET = "budget"
    END = "end"


EVERY_SKILL = frozenset(SKILLS)


class RouteClause(RuleClause[RouteContext]):
    """One clause of Infinity's movement (seed 004) judging a declared route."""

    examples: ClassVar[tuple[RouteExample, ...]] = ()
    kept: ClassVar[Kept] = Kept.FREE_SPACE
    skills: ClassVar[frozenset[str]] = WALKS   # the skills whose routes this clause judges
    # It judges a route's spots alone (where a Jump takes off and lands, where a Move ends),
    # never the way between them: a break holds for every trajectory between the same spots.
    spots_only: ClassVar[bool] = False


def merged(results: list[ClauseResult]) -> ClauseResult:
    """Several measurements of one clause (one per leg or per end) as one result."""
    measurements: dict[str, float] = {}
    violations: list[Violation] = []
    for r in results:
        measurements.update(r.measurements)
        violations += r.violations
    return ClauseResult(measurements, tuple(violations))


def least(name: str, found: list[ClauseResult]) -> ClauseResult:
    """Several measurements named `name` (one per leg, say) as their least, with every
    violation among them (inf when none was measured)."""
    values = [f.measurements[name] for f in found if name in f.measurements]
    return ClauseResult({name: min(values, default=math.inf)}, merged(found).violations)
