"""Each model within its March Rate.  Seed 002: "All models in the unit must be placed with
their centre within their March Rate from their position before the Combat Reform."

March Rate is 2 x Mobility (RULES §2.2.3, A3: `march_mob`).  "Within" is inclusive.  Each
model is measured centre to centre in a straight line (the reform lifts the unit off the
table and places it back: no path); rank-and-file models the reform does not place take the
assignment minimising the longest move (`model_moves`).  Measured: the longest move.
"""

from __future__ import annotations

import math

from constraints.core.verdict import ClauseResult
from constraints.t9a.clauses.combat_reform.base import CombatReformClause, ReformExample, Role
from constraints.t9a.clauses.combat_reform.context import ReformContext
from constraints.t9a.clauses.combat_reform.examples import at, foe, line, reform, scene
from constraints.t9a.combat_reform import model_moves

_SLOW = scene(line(mobility=1.0), foe(0.0))  # March Rate 2"


class MarchRate(CombatReformClause):
    id = "combat_reform.march_rate"
    role = Role.MARCH_RATE
    examples = (
        ReformExample("two front-rank models swap places: 1\" each", _SLOW,
                      (reform(models=(at("u.0", 0, 1), at("u.1", 0, 0))),), False,
                      ("distance", 1.0)),
        ReformExample("within is inclusive: every model 2\" to the right, March Rate 2\"",
                      _SLOW, (reform(x=38.0),), False, ("distance", 2.0)),
        ReformExample("the rear-left model to the front-right corner is 4.12\" away", _SLOW,
                      (reform(models=(at("u.5", 0, 4),)),), True,
                      ("distance", math.sqrt(17.0))),
        ReformExample("2.5\" to the right is beyond a March Rate of 2\"", _SLOW,
                      (reform(x=38.5),), True, ("distance", 2.5)),
    )

    def check(self, ctx: ReformContext) -> ClauseResult:
        moves = model_moves(ctx.unit, ctx.reform)
        model = max(moves, key=lambda m: moves[m])
        limit = float(ctx.param("march_mob")) * ctx.unit.mobility_in
        return self.result("distance", moves[model], limit, moves[model] <= limit,
                           f"model {model} is placed {moves[model]:.4f}\" from where it "
                           f"stood, beyond its March Rate of {limit:g}\"")
