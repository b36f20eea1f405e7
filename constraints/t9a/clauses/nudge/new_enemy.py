"""No new enemies (seed 001): "The unit cannot move into contact with new enemy units, but
they can end their move within 1" of other units and Impassable Terrain."

Measured at the end of the nudge: the distance to the nearest enemy unit the nudged unit did
not touch before the Unit Boundaries changed; touching (within the contact tolerance, A21)
breaks the clause.
"""

from __future__ import annotations

import math

from constraints.core.verdict import ClauseResult
from constraints.t9a.clauses.nudge.base import NudgeClause, NudgeExample
from constraints.t9a.clauses.nudge.context import NudgeContext
from constraints.t9a.clauses.nudge.examples import foe, line, scene

_BEFORE = {"e": "front"}


class NudgeNewEnemy(NudgeClause):
    id = "nudge.new_enemy"
    examples = (
        NudgeExample("ending 0.71\" from a new enemy is allowed (within 1\" is fine)",
                     scene(line(), foe(5.5), foe(-5.0, "g", dy=0.5)), "u", _BEFORE,
                     ({"sideways": 0.5},), False, ("distance", math.sqrt(0.5))),
        NudgeExample("sliding left into a new enemy's corner touches it",
                     scene(line(), foe(-5.5), foe(5.5, "g")), "u", {"g": "front"},
                     ({"sideways": -0.5},), True, ("distance", 0.0)),
    )

    def check(self, ctx: NudgeContext) -> ClauseResult:
        end = ctx.end_unit.boundary()
        nearest, label = float("inf"), ""
        for other in ctx.others:
            if ctx.is_enemy(other) and other.id not in ctx.previous:
                gap = end.distance(other.boundary())
                if gap < nearest:
                    nearest, label = gap, other.id
        return self.result("distance", nearest, ctx.contact_in, nearest > ctx.contact_in,
                           f"the nudge ends in contact with {label}, an enemy unit it did "
                           "not touch before")
