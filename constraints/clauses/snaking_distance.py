"""Snaking Forward distance of an Advance (<= Mob) or a March (<= 2 x Mob).

Seed 000: "any number of Snaking Forward Moves, with a distance no more than equal to its
Mobility" (Advance), "a total distance no more than equal to twice its Mobility" (March).
RULES.md 2.4.8: forward steps cost their length; a wheel costs how far the outer front
corner advances along the unit's forward direction, frontage x sin(angle).
"""

from __future__ import annotations

from constraints.clauses.base import Clause
from constraints.context import MoveContext
from constraints.limits import within
from constraints.verdict import ClauseResult


class SnakingDistance(Clause):
    kind = "snaking_distance"

    def check(self, ctx: MoveContext) -> ClauseResult:
        trajectory = ctx.trajectory
        used = trajectory.distance_in
        limit = self.params["mob_factor"] * ctx.mobility_in
        wheels = sum(leg.cost_in for leg in trajectory.legs if leg.step.kind == "wheel")
        message = (f"Snaking Forward Moves total {used:.3f}\" (wheels {wheels:.3f}\"), "
                   f"limit {limit:.3f}\"")
        witness = (trajectory.start.centre, trajectory.end.centre)
        return self.result("distance", used, limit, within(used, limit), message, witness)
