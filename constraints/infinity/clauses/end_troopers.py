"""route.end_troopers: a Move never ends inside another trooper (docs/rules.md §13.4);
with Move + Move, the first Move's end neither.

Rule (seed 004): a Trooper moving through allied Models "cannot end their movement within
the allied Model, Marker, or Token".  Troopers and markers standing in the same walk region
count, allies of every height and enemies (a base may end touching an enemy's: that is
Silhouette contact).  Measured: the least distance between the end base and another
(negative: they overlap).
"""

from __future__ import annotations

import math

from constraints.core.verdict import ClauseResult
from constraints.infinity.clauses.base import (
    CLEAR_TOL_IN,
    EVERY_SKILL,
    Kept,
    RouteClause,
    RouteExample,
    merged,
)
from constraints.infinity.clauses.context import RouteContext
from constraints.infinity.clauses.examples import marker, town, trooper, walk
from constraints.infinity.scenery import Point3

_ALLY = trooper("ally", 7, 12, silhouette=1)


class EndTroopers(RouteClause):
    id = "route.end_troopers"
    skills = EVERY_SKILL
    kept = Kept.END
    spots_only = True

    def check(self, ctx: RouteContext) -> ClauseResult:
        found = [self._end(ctx, name, p, k) for k, (name, p) in enumerate(ctx.ends())]
        return merged(found)

    def _end(self, ctx: RouteContext, name: str, p: Point3, k: int) -> ClauseResult:
        label = "end_gap" if k == len(ctx.ends()) - 1 else "midpoint_gap"
        region = ctx.locate(p)
        if region is None:
            return ClauseResult({label: math.inf})
        r = ctx.trooper.radius_in
        others = ctx.walk.troopers_in(ctx.walk.regions[region])
        if not others:
            return ClauseResult({label: math.inf})
        gaps = [math.dist(p[:2], t.centre) - t.radius_in - r for t in others]
        k_min = min(range(len(gaps)), key=gaps.__getitem__)
        gap, other = gaps[k_min], others[k_min]
        return self.result(label, gap, 0.0, gap >= -CLEAR_TOL_IN,
                           f"{name} is inside {other.id!r} (the bases overlap by "
                           f"{-gap:.3f} in)", (p[:2], other.centre))

    examples = (
        RouteExample("through an allied S1 and out the other side", town(troopers=(_ALLY,)),
                     walk((4, 12, 0), (10, 12, 0)), False, ("end_gap", 3 - 25 / 25.4)),
        RouteExample("ending within the allied model", town(troopers=(_ALLY,)),
                     walk((4, 12, 0), (7.5, 12, 0)), True, ("end_gap", 0.5 - 25 / 25.4)),
        RouteExample("ending in base contact with the ally", town(troopers=(_ALLY,)),
                     walk((4, 12, 0), (7 - 25 / 25.4, 12, 0)), False, ("end_gap", 0.0)),
        RouteExample("through an allied marker and out: legal",
                     town(troopers=(marker("camo", 7, 12),)), walk((4, 12, 0), (8, 12, 0)),
                     False, ("end_gap", 1 - 25 / 25.4)),
        RouteExample("ending within the allied marker", town(troopers=(marker("camo", 7, 12),)),
                     walk((4, 12, 0), (7.2, 12, 0)), True, ("end_gap", 0.2 - 25 / 25.4)),
    )
