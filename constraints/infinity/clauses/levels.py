"""route.levels: every point is on a surface, and every change of level is a step no higher
than the Silhouette or a ladder or stairs (docs/rules.md §13.4).

Rule (seed 004): "A Trooper can move over any scenery item whose height is equal to or lower
than the height of the Trooper's Silhouette Template, with no need to declare Climb or
Jump"; "the movement cannot, in any way, cause the Trooper to fall"; ladders and stairs
"allow Troopers to treat those vertical or diagonal surfaces as a horizontal surface".
"""

from __future__ import annotations

from constraints.core.verdict import ClauseResult
from constraints.infinity.clauses.base import RouteClause, RouteExample, merged
from constraints.infinity.clauses.context import RouteContext
from constraints.infinity.clauses.examples import ladder, rect, town, walk


class Levels(RouteClause):
    id = "route.levels"

    def check(self, ctx: RouteContext) -> ClauseResult:
        limit = ctx.trooper.height_in
        found = [self.result("level_step", 0.0, limit, True, "")]
        for k, p in enumerate(ctx.route.path):
            if ctx.locate(p) is None:
                found.append(self.result(
                    f"level_of_point_{k}", p[2], limit, False,
                    f"point {k} ({p[0]:g}, {p[1]:g}) at level {p[2]:g} in is on no surface "
                    f"at that height", (p[:2],)))
        for leg in ctx.legs:
            if leg.broken and ctx.locate(leg.start) is not None \
                    and ctx.locate(leg.end) is not None:
                step = abs(leg.end[2] - leg.start[2])
                found.append(self.result(
                    "level_step", step, limit, False,
                    f"from level {leg.start[2]:g} to {leg.end[2]:g} in with no ladder or "
                    f"stairs: a step without Climb or Jump is at most the Silhouette's "
                    f"height {limit:.3f} in", (leg.start[:2], leg.end[:2])))
        return merged(found)

    examples = (
        RouteExample("a walk on the ground", town(), walk((4, 12, 0), (7, 12, 0)), False),
        RouteExample("a 3 in roof is no step for an S2 (40 mm): Climb or Jump, not a Move",
                     town(rect("house", 6, 10, 10, 14, 3.0)),
                     walk((4, 12, 0), (5.4, 12, 0), (6.6, 12, 3)), True, ("level_step", 3.0)),
        RouteExample("a ladder takes the trooper up",
                     town(rect("house", 6, 10, 10, 14, 3.0),
                          ladder("l", (5.4, 12, 0), (6.6, 12, 3))),
                     walk((4, 12, 0), (5.4, 12, 0), (6.6, 12, 3)), False),
        RouteExample("a 1 in crate is stepped onto (no higher than the Silhouette)",
                     town(rect("crate", 6, 10, 10, 14, 1.0)),
                     walk((4, 12, 0), (7, 12, 1)), False),
        RouteExample("a point at 2 in where no surface is",
                     town(), walk((4, 12, 0), (7, 12, 2)), True),
        RouteExample("stepping off a 3 in roof would be a fall",
                     town(rect("house", 6, 10, 10, 14, 3.0), at=(8, 12, 3)),
                     walk((8, 12, 3), (9.6, 12, 3), (11, 12, 0)), True, ("level_step", 3.0)),
    )
