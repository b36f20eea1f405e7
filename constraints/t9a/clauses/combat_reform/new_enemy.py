"""No new enemy contact.  Seed 002: "it cannot move into base contact with enemy units that it
was not in base contact with before the Combat Reform"; RULES §2.12 (A) 3.4: "no new enemy
contacts".

Measured: the distance from the reformed unit to the nearest enemy unit it did not touch
before; touching (within 1e-6") breaks the clause, while coming close is Unit Spacing's
business (`combat_reform.spacing`).
"""

from __future__ import annotations

import math

from constraints.core.verdict import ClauseResult
from constraints.t9a.clauses.combat_reform.base import CombatReformClause, ReformExample
from constraints.t9a.clauses.combat_reform.context import ReformContext
from constraints.t9a.clauses.combat_reform.examples import foe, line, reform, scene
from constraints.t9a.examples import unit

# g: a second enemy 1" to the right of u's front-right corner, touching nobody.
_G = unit("g", models=2, files=2, centre=(40.5, 11.5), facing=270.0, player="blue")


class NewEnemy(CombatReformClause):
    id = "combat_reform.new_enemy"
    examples = (
        ReformExample("0.25\" from an enemy it did not touch before is no contact",
                      scene(line(), foe(0.0), _G), (reform(x=36.75),), False,
                      ("distance", 0.25)),
        ReformExample("it cannot move into base contact with enemy units that it was not in "
                      "base contact with before: corner to corner",
                      scene(line(), foe(0.0), _G), (reform(x=37.0),), True, ("distance", 0.0)),
        ReformExample("no new enemy contacts (variant A)",
                      scene(line(), foe(0.0), _G, rules="t9a-2025"), (reform(x=37.0),), True,
                      ("distance", 0.0)),
    )

    def check(self, ctx: ReformContext) -> ClauseResult:
        touched = {u.id for u in ctx.enemies_touched_before(ctx.unit_id)}
        end = ctx.end_unit.boundary()
        nearest, label = math.inf, ""
        for other in ctx.before.others(ctx.unit_id):
            if other.player != ctx.player and other.id not in touched:
                gap = float(end.distance(other.boundary()))
                if gap < nearest:
                    nearest, label = gap, other.id
        return self.result("distance", nearest, ctx.contact_in, nearest > ctx.contact_in,
                           f"{ctx.unit_id} is placed in base contact with {label}, an enemy "
                           "unit it did not touch before")
