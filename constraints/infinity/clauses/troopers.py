"""route.troopers: never through an enemy, nor through an ally whose Silhouette is taller
(docs/rules.md §13.4).

Rule (seed 004): "A Trooper can move through allied Models ... whose Silhouette Template
height is equal to or lower than the height of the Trooper's Silhouette Template" (heights,
not S numbers: an S3 is 32 mm, lower than an S2's 40 mm); enemies are never passed through.
Markers ("Models, Markers, and Tokens") count the same way: an allied marker no taller than
the trooper is passed through (Silhouette 2 when the file gives none), an enemy marker is an
obstacle to the route (not to Line of Fire).  Troopers standing in the same walk region
count.  Measured: the least distance between the bases along the path (negative: they
overlap); touching is allowed.
"""

from __future__ import annotations

import shapely

from constraints.core.verdict import ClauseResult
from constraints.infinity.clauses.base import CLEAR_TOL_IN, RouteClause, RouteExample, least
from constraints.infinity.clauses.context import RouteContext
from constraints.infinity.clauses.examples import marker, town, trooper, walk

_ACROSS = walk((4, 12, 0), (10, 12, 0))


def _other(silhouette: int, player: str = "blue") -> dict:
    return trooper("other", 7, 12, silhouette=silhouette, base=25, player=player)


class Troopers(RouteClause):
    id = "route.troopers"

    def check(self, ctx: RouteContext) -> ClauseResult:
        r = ctx.trooper.radius_in
        found = []
        for leg in ctx.walks():
            for other in ctx.walk.blockers(ctx.walk.regions[leg.region]):  # type: ignore[index]
                gap = float(shapely.distance(leg.line, shapely.Point(other.centre))) \
                    - other.radius_in - r
                side = "enemy" if other.player != ctx.trooper.player else \
                    "ally with a taller Silhouette"
                found.append(self.result(
                    "trooper_gap", gap, 0.0, gap >= -CLEAR_TOL_IN,
                    f"the base passes through {side} {other.id!r} (the bases overlap by "
                    f"{-gap:.3f} in)", (leg.start[:2], other.centre)))
        return least("trooper_gap", found)

    examples = (
        RouteExample("through an allied S1 (25 mm, lower than 40 mm)",
                     town(troopers=(_other(1),)), _ACROSS, False),
        RouteExample("through an allied S3: 32 mm is lower than an S2's 40 mm",
                     town(troopers=(_other(3),)), _ACROSS, False),
        RouteExample("not through an allied S5 (45 mm, taller)",
                     town(troopers=(_other(5),)), _ACROSS, True,
                     ("trooper_gap", -25 / 25.4)),
        RouteExample("never through an enemy", town(troopers=(_other(1, "red"),)), _ACROSS,
                     True),
        RouteExample("round an enemy, 0.5 in clear", town(troopers=(_other(1, "red"),)),
                     walk((4, 12, 0), (7, 10.516, 0)), False),
        RouteExample("through an allied marker (S2 by default, no taller than an S2)",
                     town(troopers=(marker("camo", 7, 12),)), _ACROSS, False),
        RouteExample("not through an allied marker of Silhouette 5 (45 mm) for an S2",
                     town(troopers=(marker("tall", 7, 12, silhouette=5),)), _ACROSS, True,
                     ("trooper_gap", -25 / 25.4)),
        RouteExample("an S1 (25 mm) may not pass through an allied S2 marker",
                     town(troopers=(marker("camo", 7, 12),), silhouette=1), _ACROSS, True),
        RouteExample("an enemy marker is an obstacle to the route",
                     town(troopers=(marker("camo", 7, 12, player="red"),)), _ACROSS, True,
                     ("trooper_gap", -25 / 25.4)),
        RouteExample("round an enemy marker, touching it",
                     town(troopers=(marker("camo", 7, 12 + 25 / 25.4, player="red"),)),
                     _ACROSS, False, ("trooper_gap", 0.0)),
    )
