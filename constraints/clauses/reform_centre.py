"""Reform centre travel (seed 000; RULES.md 2.5.4.1, 2.5.8, A7).

"The centre of the unit can not travel further than half the unit's Mobility": the straight
distance between the Unit Boundary's centres before and after.  Light Troops use 2 x Mob.
"""

from __future__ import annotations

import math

from constraints.clauses.base import Clause
from constraints.context import MoveContext
from constraints.limits import within
from constraints.verdict import ClauseResult


class CentreTravel(Clause):
    kind = "centre_travel"

    def check(self, ctx: MoveContext) -> ClauseResult:
        start, end = ctx.unit.pose.centre, ctx.end_unit.pose.centre
        travel = math.dist(start, end)
        light = ctx.unit.light_troops
        factor = self.params["light_troops_mob_factor" if light else "mob_factor"]
        limit = factor * ctx.mobility_in
        message = f"the unit's centre travels {travel:.3f}\", limit {limit:.3f}\""
        return self.result("centre_travel", travel, limit, within(travel, limit), message,
                           (start, end))
