"""Pivot model distance (RULES.md 2.4.1-3, A6).

"No model may move more than 2xMob, measured as the straight line between its base centre
before and after."  Models may be reordered keeping the number of files, so the measure is
the bottleneck of the best assignment of models to the pivoted slots: a rigid rotation can
fail where a reordering passes.
"""

from __future__ import annotations

from constraints.clauses.base import Clause
from constraints.clauses.model_moves import assign, straight_costs
from constraints.context import MoveContext
from constraints.limits import within
from constraints.verdict import ClauseResult


class PivotModelDistance(Clause):
    kind = "pivot_model_distance"

    def check(self, ctx: MoveContext) -> ClauseResult:
        end = ctx.pivoted_unit
        cost = straight_costs(ctx.unit, end)
        found = assign(ctx, end, cost)
        limit = self.params["mob_factor"] * ctx.mobility_in
        start_pts, end_pts = ctx.unit.model_positions(), end.model_positions()
        worst = found.worst_model
        model = ctx.unit.model_ids()[worst]
        witness = (tuple(start_pts[worst]), tuple(end_pts[found.slots[worst]]))
        message = (f"in the Pivot model {model} moves {found.bottleneck:.3f}\" under the best "
                   f"reordering, limit {limit:.3f}\"")
        return self.result("pivot_model_move", found.bottleneck, limit,
                           within(found.bottleneck, limit), message, witness)
