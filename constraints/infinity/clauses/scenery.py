"""route.scenery: the base never passes into scenery higher than its Silhouette above the
surface the trooper stands on, so a gap narrower than the base blocks (docs/rules.md §13.4).

Rule (seed 004, "Move and Obstacles"): an obstacle is passed without Jump or Climb only
when "the obstacle's height is equal to or lower than the height of the Trooper's Silhouette
Template, on both sides"; docs/rules.md §13.2: obstacles are grown by the base's radius.  Measured:
the least distance from the centre's path to such scenery, against the radius.
"""

from __future__ import annotations

from constraints.core.verdict import ClauseResult
from constraints.infinity.clauses.base import CLEAR_TOL_IN, RouteClause, RouteExample, least
from constraints.infinity.clauses.context import RouteContext, nearest_pieces
from constraints.infinity.clauses.examples import rect, town, walk

# A crate 1 in high and a block 2 in high side by side: one walk region for an S2 (40 mm).
_STEPS = (rect("crate", 6, 10, 8, 14, 1.0), rect("block", 8, 10, 10, 14, 2.0))


class Scenery(RouteClause):
    id = "route.scenery"

    def check(self, ctx: RouteContext) -> ClauseResult:
        r = ctx.trooper.radius_in
        return least("scenery_clearance", [self.result(
            "scenery_clearance", gap, r, gap >= r - CLEAR_TOL_IN,
            f"the base passes into {name!r}, higher than the surface it stands on by more "
            f"than its Silhouette: its centre comes {gap:.3f} in from it, less than the "
            f"base's radius {r:.3f} in", (leg.start[:2], leg.end[:2]))
            for leg, gap, name in nearest_pieces(ctx, ctx.walk.walls_of)])

    examples = (
        RouteExample("passing 1 in from a house", town(rect("house", 6, 13.5, 10, 17, 3.0)),
                     walk((4, 12, 0), (8, 12, 0)), False, ("scenery_clearance", 1.5)),
        RouteExample("walking into a tall wall", town(rect("wall", 6, 8, 6.3, 16, 2.0,
                                                           kind="obstacle")),
                     walk((4, 12, 0), (8, 12, 0)), True, ("scenery_clearance", 0.0)),
        RouteExample("a low wall (0.8 in, below 40 mm) is crossed",
                     town(rect("wall", 6, 8, 6.3, 16, 0.8, kind="obstacle")),
                     walk((4, 12, 0), (8, 12, 0)), False),
        RouteExample("a gap of 0.9 in is narrower than a 25 mm base (0.984 in): blocked",
                     town(rect("a", 6, 6, 8, 11.55, 3.0), rect("b", 6, 12.45, 8, 18, 3.0)),
                     walk((4, 12, 0), (9, 12, 0)), True, ("scenery_clearance", 0.45)),
        RouteExample("a gap of 1.2 in lets a 25 mm base through",
                     town(rect("a", 6, 6, 8, 11.4, 3.0), rect("b", 6, 12.6, 8, 18, 3.0)),
                     walk((4, 12, 0), (9, 12, 0)), False, ("scenery_clearance", 0.6)),
        RouteExample("a 2 in block is one step (1 in) from a 1 in crate beside it",
                     town(*_STEPS), walk((4, 12, 0), (6.5, 12, 1), (9, 12, 2)), False),
        RouteExample("the same block is 2 in from the ground: a wall from there",
                     town(*_STEPS, at=(9, 16, 0)), walk((9, 16, 0), (9, 13, 2)), True,
                     ("scenery_clearance", 0.0)),
        RouteExample("the same 1.2 in gap blocks a 40 mm base",
                     town(rect("a", 6, 6, 8, 11.4, 3.0), rect("b", 6, 12.6, 8, 18, 3.0),
                          base=40, silhouette=3),
                     walk((4, 12, 0), (9, 12, 0)), True, ("scenery_clearance", 0.6)),
    )
