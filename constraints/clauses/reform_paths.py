"""Reform model paths (seed 000; RULES.md 2.5.4.3, 2.5.5, A6, A16).

"Each model is considered to have moved from its starting position to end position, around
obstructions where needed, and no single model can move further than twice its Mobility."
Each model moves on its own, ignoring its own unit but not other units, and keeps more than
0.5" from other units and Impassable Terrain (a model is treated as a unit in a move).  The
measure is the longest shortest path (base centre) under the best assignment of models to
end slots.
"""

from __future__ import annotations

from constraints.clauses.base import Clause
from constraints.clauses.model_moves import assign
from constraints.context import MoveContext
from constraints.limits import within
from constraints.paths import PathFinder
from constraints.verdict import ClauseResult


class ModelPath(Clause):
    kind = "model_path"

    def check(self, ctx: MoveContext) -> ClauseResult:
        end = ctx.end_unit
        finder = PathFinder([shape for _, shape in ctx.obstacles], self.params["spacing_in"])
        start_pts, end_pts = ctx.unit.model_positions(), end.model_positions()
        cost = finder.lengths(start_pts, end_pts)
        found = assign(ctx, end, cost)
        limit = self.params["mob_factor"] * ctx.mobility_in
        worst = found.worst_model
        model = ctx.unit.model_ids()[worst]
        src, dst = tuple(start_pts[worst]), tuple(end_pts[found.slots[worst]])
        path = finder.path(src, dst)
        message = (f"model {model} must walk {found.bottleneck:.3f}\" around obstructions "
                   f"under the best assignment, limit {limit:.3f}\"")
        return self.result("model_path", found.bottleneck, limit, within(found.bottleneck, limit),
                           message, tuple(path.coords))
