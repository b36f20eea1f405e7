"""On the battlefield.  Seed 001 does not say it; decision (docs/rules.md §11): a nudge
ends with the whole Unit Boundary on the battlefield, since no move may leave the table.
Measured: how far the boundary reaches past the table edge."""

from __future__ import annotations

from constraints.core.verdict import ClauseResult
from constraints.t9a.clauses.nudge.base import FLOAT_IN, NudgeClause, NudgeExample
from constraints.t9a.clauses.nudge.context import NudgeContext
from constraints.t9a.clauses.nudge.examples import foe, line, scene


class NudgeTable(NudgeClause):
    id = "nudge.table"
    examples = (
        NudgeExample("a nudge near the middle of the table", scene(line(), foe(5.5)), "u",
                     {"e": "front"}, ({"sideways": 0.5},), False, ("outside", 0.0)),
        NudgeExample("10\" backwards leaves the table by 0.5\"", scene(line(), foe(5.5)),
                     "u", {"e": "front"}, ({"forward": -10.0},), True, ("outside", 0.5)),
    )

    def check(self, ctx: NudgeContext) -> ClauseResult:
        past = ctx.scenario.battlefield.overhang_in(ctx.end_unit.corners())
        return self.result("outside", past, FLOAT_IN, past <= FLOAT_IN,
                           f"the nudge leaves the battlefield by {past:.4f}\"")
