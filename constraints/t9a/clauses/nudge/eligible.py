"""Who is nudged (seed 001): units "that were Engaged in Combat just before this, but lost base
contact"; "If the unit is in contact with an enemy already, it is not moved"; "Units that are
Broken and about to flee, and units that are about to Pursue, are not nudged."

Measured: the nudge's length, which must be 0 for a unit that may not be nudged.
"""

from __future__ import annotations

from constraints.core.verdict import ClauseResult
from constraints.t9a.clauses.nudge.base import NudgeClause, NudgeExample
from constraints.t9a.clauses.nudge.context import NudgeContext
from constraints.t9a.clauses.nudge.examples import foe, line, scene

_LEG = ({"sideways": 0.5},)


def why_not_nudged(ctx: NudgeContext) -> str:
    """Why the unit may not be nudged at all, or "" when it may."""
    unit = ctx.unit
    if unit.state in ("fleeing", "pursuing"):
        return f"{unit.id} is {unit.state} and is not nudged"
    if not ctx.previous:
        return f"{unit.id} was not in contact with an enemy before"
    for other in ctx.others:
        if ctx.is_enemy(other) and \
                unit.boundary().distance(other.boundary()) <= ctx.contact_in:
            return f"{unit.id} is in contact with {other.id} already"
    return ""


class NudgeEligible(NudgeClause):
    id = "nudge.eligible"
    examples = (
        NudgeExample("a unit that lost contact may be nudged", scene(line(), foe(5.5)), "u",
                     {"e": "front"}, _LEG, False, ("nudge", 0.5)),
        NudgeExample("a unit still in contact is not moved", scene(line(), foe(4.5)), "u",
                     {"e": "front"}, _LEG, True, ("nudge", 0.5)),
        NudgeExample("a unit about to pursue is not nudged",
                     scene(line(state="pursuing"), foe(5.5)), "u", {"e": "front"}, _LEG, True),
        NudgeExample("a unit about to flee is not nudged",
                     scene(line(state="fleeing"), foe(5.5)), "u", {"e": "front"}, _LEG, True),
        NudgeExample("staying put is always allowed", scene(line(), foe(4.5)), "u",
                     {"e": "front"}, (), False, ("nudge", 0.0)),
    )

    def check(self, ctx: NudgeContext) -> ClauseResult:
        length = sum(abs(leg.distance_in) for leg in ctx.legs)
        why = why_not_nudged(ctx) if length > 0.0 else ""
        return self.result("nudge", length, 0.0, not why, why)
