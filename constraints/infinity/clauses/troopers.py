"""route.troopers: never through an enemy, nor through an ally whose Silhouette is taller
(docs/rules.md §13.4).

Rule (seed 004): "A Trooper can move through allied Models ... whose Silhouette Template
height is equal to or lower than the height of the Trooper's Silhouette Template" (heights,
not S numbers: an S3 is 32 mm, lower than an S2's 40 mm); enemies are never passed through.
Markers ("Models, Markers, and Tokens") count the same way: an allied marker no taller than
the trooper is passed through (Silhouette 2 when the file gives none), an enemy marker is an
obstacle to the route (not to Line of Fire).  Troopers standing in the same walk region
count, as Silhouettes (decision A22): cylinders of their heights on their levels, so only
where the trooper's height overlaps the other's (more than touching) do the bases count; a
trooper on a crate passes over an enemy shorter than the crate.  Measured: the least
distance between the bases along those parts of the path (negative: they overlap); touching
is allowed.
"""

from __future__ import annotations

import shapely

from constraints.core.verdict import ClauseResult
from constraints.infinity.clauses.base import CLEAR_TOL_IN, RouteClause, RouteExample, least
from constraints.infinity.clauses.context import Leg, RouteContext, Stretch, levels_along
from constraints.infinity.clauses.examples import marker, rect, town, trooper, walk
from constraints.infinity.surfaces import LEVEL_TOL_IN
from constraints.infinity.trooper import Trooper

_ACROSS = walk((4, 12, 0), (10, 12, 0))
# Along a 1.2 in crate's edge (y 11-13), the base over it: the edge is a step for an S2.
_ON_CRATE = walk((6, 12.9, 1.2), (9.5, 12.9, 1.2))


def _crate(silhouette: int) -> dict:
    """A 1.2 in crate, the trooper on it; an enemy on the ground against its side."""
    return town(rect("crate", 5, 11, 12, 13, 1.2),
                troopers=(trooper("other", 8, 13 + 25 / 25.4 / 2, player="red",
                                  silhouette=silhouette),), at=(6, 12.9, 1.2))


def _beside(leg: Leg, stretches: list[Stretch], height_in: float, other: Trooper
            ) -> shapely.Geometry | None:
    """The parts of the leg's centre line where the trooper's height overlaps the other's
    by more than touching, or None."""
    low = other.level_in - height_in + LEVEL_TOL_IN
    high = other.level_in + other.height_in - LEVEL_TOL_IN
    parts = []
    for t0, t1, z0, z1 in stretches:
        if min(z0, z1) >= high or max(z0, z1) <= low:
            continue  # walk stretches are flat; a step spans its two levels
        a, b = (leg.start[0] + t0 * (leg.end[0] - leg.start[0]),
                leg.start[1] + t0 * (leg.end[1] - leg.start[1])), \
               (leg.start[0] + t1 * (leg.end[0] - leg.start[0]),
                leg.start[1] + t1 * (leg.end[1] - leg.start[1]))
        parts.append(shapely.LineString([a, b]) if t1 > t0 else shapely.Point(a))
    return shapely.union_all(parts) if parts else None


def _other(silhouette: int, player: str = "blue") -> dict:
    return trooper("other", 7, 12, silhouette=silhouette, base=25, player=player)


class Troopers(RouteClause):
    id = "route.troopers"

    def check(self, ctx: RouteContext) -> ClauseResult:
        r = ctx.trooper.radius_in
        found = []
        for leg in ctx.walks():
            stretches = levels_along(ctx, leg)
            for other in ctx.walk.blockers(ctx.walk.regions[leg.region]):  # type: ignore[index]
                line = _beside(leg, stretches, ctx.trooper.height_in, other)
                if line is None:
                    continue  # above or below it all along the leg
                gap = float(shapely.distance(line, shapely.Point(other.centre))) \
                    - other.radius_in - r
                side = "enemy" if other.player != ctx.trooper.player else \
                    "ally with a taller Silhouette"
                found.append(self.result(
                    "trooper_gap", gap, 0.0, gap >= -CLEAR_TOL_IN,
                    f"the base passes through {side} {other.id!r} (the bases overlap by "
                    f"{-gap:.3f} in)", (leg.start[:2], other.centre)))
        return least("trooper_gap", found)

    examples = (
        RouteExample("on a 1.2 in crate over an enemy S1 (25 mm, below the crate's top): the "
                     "Silhouettes do not meet", _crate(1), _ON_CRATE, False),
        RouteExample("but not over an enemy S2 (40 mm reaches above the crate)", _crate(2),
                     _ON_CRATE, True),
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
