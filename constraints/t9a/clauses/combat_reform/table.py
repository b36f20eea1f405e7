"""On the battlefield.  Seed 002 places the unit "in a legal formation (following the Unit
Spacing rule, etc.)"; decision: the "etc." includes the Table Edge rule, "It must finish
entirely on the board" (RULES §2.3.5).  Measured: how far the Unit Boundary reaches past the
table edge.
"""

from __future__ import annotations

from constraints.core.verdict import ClauseResult
from constraints.t9a.clauses.combat_reform.base import CombatReformClause, ReformExample
from constraints.t9a.clauses.combat_reform.context import ReformContext
from constraints.t9a.clauses.combat_reform.examples import foe, line, reform, scene

FLOAT_IN = 1e-6  # float room at the table edge: no contact is read here


class OnTable(CombatReformClause):
    id = "combat_reform.table"
    examples = (
        ReformExample("placed in the middle of the table", scene(line(), foe(0.0)),
                      (reform(),), False, ("outside", 0.0)),
        ReformExample("placed 1.5\" past the left table edge", scene(line(), foe(0.0)),
                      (reform(x=1.0),), True, ("outside", 1.5)),
    )

    def check(self, ctx: ReformContext) -> ClauseResult:
        past = ctx.before.battlefield.overhang_in(ctx.end_unit.corners())
        return self.result("outside", past, FLOAT_IN, past <= FLOAT_IN,
                           f"{ctx.unit_id} is placed {past:.4f}\" past the table edge")
