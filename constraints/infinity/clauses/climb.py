"""The Climb clauses (docs/rules.md §13.8): route.climb.shape, route.climb.wall,
route.climb.distance, route.climb.clear, route.climb.prone.

Rule (docs/rules.md §13.8; N4, an Entire Order): "the base must touch a vertical surface"; the
trooper climbs "vertically up to the first MOV value, measured from the base's outer edge and
underside, and ends on a surface at least the base" (`route.end_surface`).  The declared
path is the base's underside centre.  Decisions:
- shape: one vertical leg (up or down) with the base touching a wall that spans it, and the
  step over the edge: after the vertical leg when climbing up (onto the surface above), before
  it when climbing down (off the surface above), each horizontal and at most the base's
  diameter long (from touching the wall to standing wholly beside or on it);
- distance: the whole path, vertical and horizontal, measured from one part of the base
  (seed 004: "the complete route"), at most the first MOV value;
- the Silhouette swept along the path never enters a prism (touching is allowed: the base
  slides up the wall it touches);
- Prone (decision A15, the N3 reading): no Climb while Prone; Prone may be left at its start
  (a Movement skill, seed 004), so `"prone": false` lets a Prone trooper Climb.
"""

from __future__ import annotations

import math

import shapely

from constraints.core.verdict import ClauseResult
from constraints.infinity.clauses.base import CLEAR_TOL_IN, Kept, RouteClause, RouteExample, merged
from constraints.infinity.clauses.context import Leg, RouteContext
from constraints.infinity.clauses.examples import rect, skill, town, trooper
from constraints.infinity.clauses.jump import clearance
from constraints.infinity.scenery import prisms
from constraints.infinity.surfaces import LEVEL_TOL_IN

R = 25 / 25.4 / 2
WALL_CONTACT_IN = 0.001   # a base this close to a wall touches it (RULES A21's contact)
_HOUSE = rect("house", 6, 10, 10, 14, 3.0)
_FOOT = (6 - R, 12, 0)
_UP = skill("climb", _FOOT, (6 - R, 12, 3), (6 + R, 12, 3))
_DOWN = skill("climb", (6 + R, 12, 3), (6 - R, 12, 3), (6 - R, 12, 0))


def vertical(leg: Leg) -> bool:
    return math.dist(leg.start[:2], leg.end[:2]) <= 1e-9 and abs(leg.end[2] - leg.start[2]) \
        > LEVEL_TOL_IN


def horizontal(leg: Leg) -> bool:
    return abs(leg.end[2] - leg.start[2]) <= LEVEL_TOL_IN


class ClimbShape(RouteClause):
    id = "route.climb.shape"
    skills = frozenset({"climb"})

    def check(self, ctx: RouteContext) -> ClauseResult:
        legs = [leg for leg in ctx.legs if leg.length_in > 0.0]
        ups = [k for k, leg in enumerate(legs) if vertical(leg)]
        wrong = [k for k, leg in enumerate(legs) if not vertical(leg) and not horizontal(leg)]
        found = [self.result("climb_vertical_legs", float(len(ups)), 1.0,
                             len(ups) == 1 and not wrong,
                             "a Climb is one vertical leg, with at most a step over the edge "
                             "at its top; this path has "
                             f"{len(ups)} vertical and {len(wrong)} slanting legs")]
        if len(ups) == 1:
            k = ups[0]
            rising = legs[k].end[2] > legs[k].start[2]
            # Climbing up, the step is after the vertical leg; climbing down, before it.
            allowed = ([k + 1] if rising else [k - 1])
            stray = [j for j in range(len(legs)) if j != k and j not in allowed]
            lip = max((legs[j].length_in for j in allowed if 0 <= j < len(legs)), default=0.0)
            limit = 2.0 * ctx.trooper.radius_in
            # The base's diameter within the contact tolerance: a file's rounded spots.
            found.append(self.result("climb_step", lip, limit, lip <= limit + WALL_CONTACT_IN
                                     and not stray,
                                     f"the step over the edge is {lip:.3f} in (at most the "
                                     f"base, {limit:.3f} in) with {len(stray)} other legs",
                                     (legs[k].end[:2],)))
        return merged(found)

    examples = (
        RouteExample("up a 3 in wall and onto the roof", town(_HOUSE, at=_FOOT), _UP, False,
                     ("climb_step", 2 * R)),
        RouteExample("down off the roof", town(_HOUSE, at=(6 + R, 12, 3)), _DOWN, False),
        RouteExample("a slanting leg is no Climb", town(_HOUSE, at=_FOOT),
                     skill("climb", _FOOT, (6 + R, 12, 3)), True),
        RouteExample("walking 1.5 in on along the roof is no part of a Climb",
                     town(_HOUSE, at=_FOOT),
                     skill("climb", _FOOT, (6 - R, 12, 3), (7.5, 12, 3)), True,
                     ("climb_step", 1.5 + R)),
    )


class ClimbWall(RouteClause):
    id = "route.climb.wall"
    skills = frozenset({"climb"})

    def check(self, ctx: RouteContext) -> ClauseResult:
        r = ctx.trooper.radius_in
        found = [ClauseResult({"climb_wall_gap": math.inf})]
        for leg in (leg for leg in ctx.legs if vertical(leg)):
            low, high = sorted((leg.start[2], leg.end[2]))
            walls = [s for s in prisms(ctx.scenario.terrain)
                     if s.level_in <= low + LEVEL_TOL_IN and s.top_in >= high - LEVEL_TOL_IN]
            centre = shapely.Point(leg.start[:2])
            gaps = [float(shapely.distance(centre, s.shape)) - r for s in walls]
            gap = min(gaps, default=math.inf)
            found.append(self.result(
                "climb_wall_gap", gap, WALL_CONTACT_IN, gap <= WALL_CONTACT_IN,
                f"climbing from {low:g} to {high:g} in the base touches no vertical surface "
                f"that high (the nearest is {gap:.3f} in away)", (leg.start[:2],)))
        return merged(found)

    examples = (
        RouteExample("the base touches the house's wall", town(_HOUSE, at=_FOOT), _UP, False,
                     ("climb_wall_gap", 0.0)),
        RouteExample("0.5 in from the wall: nothing to climb",
                     town(_HOUSE, at=(5.5 - R, 12, 0)),
                     skill("climb", (5.5 - R, 12, 0), (5.5 - R, 12, 3), (5.5 + R, 12, 3)), True,
                     ("climb_wall_gap", 0.5)),
        RouteExample("down the outside of the wall", town(_HOUSE, at=(6 + R, 12, 3)), _DOWN,
                     False, ("climb_wall_gap", 0.0)),
        RouteExample("a 1 in wall does not reach 3 in up",
                     town(rect("low", 5, 10, 6, 14, 1.0, kind="obstacle"), _HOUSE, at=(4.5, 9, 0)),
                     skill("climb", (4.5, 9, 0), (4.5, 9, 3)), True),
    )


class ClimbDistance(RouteClause):
    id = "route.climb.distance"
    kept = Kept.BUDGET
    skills = frozenset({"climb"})

    def check(self, ctx: RouteContext) -> ClauseResult:
        length, limit = sum(ctx.move_lengths()), ctx.trooper.move_allowance_in(0)
        return self.result("climb_length", length, limit, length <= limit + CLEAR_TOL_IN,
                           f"the Climb covers {length:.3f} in, more than the first MOV value "
                           f"{limit:g} in")

    examples = (
        RouteExample("3 in up and 0.984 in onto the roof: 3.984 in, within MOV 4",
                     town(_HOUSE, at=_FOOT), _UP, False, ("climb_length", 3 + 2 * R)),
        RouteExample("a 3.5 in wall: 4.484 in, more than MOV 4",
                     town(rect("house", 6, 10, 10, 14, 3.5), at=_FOOT),
                     skill("climb", _FOOT, (6 - R, 12, 3.5), (6 + R, 12, 3.5)), True,
                     ("climb_length", 3.5 + 2 * R)),
        RouteExample("MOV 6-2 climbs the 3.5 in wall",
                     town(rect("house", 6, 10, 10, 14, 3.5),
                          troopers=()) | {"units": [trooper("fusilier", *_FOOT[:2], mov=(6, 2))]},
                     skill("climb", _FOOT, (6 - R, 12, 3.5), (6 + R, 12, 3.5)), False),
    )


class ClimbClear(RouteClause):
    id = "route.climb.clear"
    skills = frozenset({"climb"})

    def check(self, ctx: RouteContext) -> ClauseResult:
        return clearance(self, ctx, "climb_clearance", "Climb")

    examples = (
        RouteExample("sliding up the wall it touches", town(_HOUSE, at=_FOOT), _UP, False,
                     ("climb_clearance", R)),
        RouteExample("a step over the edge into a tall chimney",
                     town(_HOUSE, rect("chimney", 6.2, 11.5, 7, 12.5, 1.0, level=3.0), at=_FOOT),
                     _UP, True, ("climb_clearance", 0.0)),
    )


class ClimbProne(RouteClause):
    id = "route.climb.prone"
    skills = frozenset({"climb"})

    def check(self, ctx: RouteContext) -> ClauseResult:
        prone = ctx.trooper.prone
        return self.result("climb_prone", float(prone), 0.0, not prone,
                           "a Prone trooper does not Climb (it may stand up at the start)")

    examples = (
        RouteExample("standing: Climbs", town(_HOUSE, at=_FOOT), _UP, False),
        RouteExample("Prone: no Climb",
                     town(_HOUSE) | {"units": [trooper("fusilier", *_FOOT[:2], prone=True)]},
                     _UP, True),
        RouteExample("Prone, standing up at the start (free): Climbs",
                     town(_HOUSE) | {"units": [trooper("fusilier", *_FOOT[:2], prone=True)]},
                     _UP | {"prone": False}, False),
    )
