"""The exact checker of one nudge: every nudge clause, each violation with its measurement."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from constraints.core.scenario import Scenario
from constraints.core.verdict import Reading, Verdict, Violation
from constraints.errors import InvalidInputError
from constraints.rank_and_file.contact import FACINGS
from constraints.t9a.clauses.nudge import NUDGE_CLAUSES
from constraints.t9a.clauses.nudge.context import Leg, NudgeContext


def check_nudge(scenario: Scenario, unit_id: str, previous: Mapping[str, str],
                legs: Sequence[Leg], referee: float | None = None) -> Verdict:
    """Judge `unit_id`'s nudge by `legs`, the units standing as in `scenario`, `previous`
    naming the enemies it touched before the Unit Boundaries changed (id -> its Facing);
    `referee`: a referee tolerance in inches (A21), None for the exact verdict alone."""
    ctx = context(scenario, unit_id, previous, legs)
    violations: list[Violation] = []
    measurements: dict[str, float] = {}
    readings: list[Reading] = []
    for clause in NUDGE_CLAUSES:
        found = clause().check(ctx)
        violations += found.violations
        readings += found.readings
        measurements.update({f"{clause.id}.{k}": v for k, v in found.measurements.items()})
    end = ctx.end_unit
    return Verdict(unit_id, "nudge", end.pose.centre, end.pose.facing_deg, end.files,
                   end.corners(), tuple(violations), measurements,
                   steps=tuple(leg.to_json() for leg in ctx.legs),
                   readings=tuple(readings), models_of=end.model_places).refereed(referee)


def context(scenario: Scenario, unit_id: str, previous: Mapping[str, str],
            legs: Sequence[Leg]) -> NudgeContext:
    """A validated nudge context (InvalidInputError for an unknown unit or Facing)."""
    if not isinstance(scenario, Scenario):
        raise InvalidInputError(f"expected a Scenario, got {type(scenario).__name__}",
                                path="scenario")
    if not isinstance(unit_id, str) or not scenario.has_unit(unit_id):
        raise InvalidInputError(f"unknown unit {unit_id!r}", path="unit")
    for enemy, facing in previous.items():
        if facing not in FACINGS:
            raise InvalidInputError(f"unknown Facing {facing!r} (known: "
                                    f"{', '.join(FACINGS)})", path=f"previous.{enemy}")
    if not all(isinstance(leg, Leg) for leg in legs):
        raise InvalidInputError("expected Leg values", path="legs")
    return NudgeContext(scenario, unit_id, dict(previous), tuple(legs))
