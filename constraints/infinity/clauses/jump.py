"""The Jump clauses (docs/rules.md §13.8): route.jump.distance, route.jump.clear,
route.jump.prone.

Rule (docs/rules.md §13.8; N4, an Entire Order): the trooper moves "horizontally, vertically,
diagonally or along a parabola up to the first MOV value, without changing heading",
measured (N4 FAQ) "from any point of the Silhouette at the start to the base's outer edge
and underside at the end"; it needs a landing spot at least the base (`route.end_surface`);
its trajectory is clear of scenery.  The declared path is the base's underside centre: the
start, any points in the air (a parabola as a polyline, each vertical part written out),
the landing spot.  Decisions:
- the distance is the least distance from the start Silhouette to the base at the landing
  spot, as the FAQ says; the trajectory is not measured along, but no point of it may be
  farther than the first MOV value from the start Silhouette by the same measure (the jump
  goes no farther than its distance: an arc 6" high is no 1" jump).  That measure is convex
  along a straight leg, so its largest value is at a point of the path;
- "clear of scenery": the Silhouette swept along every leg never enters a prism (touching
  is allowed); troopers are not obstacles in the air;
- the heading is unchanged: a route carries no facing, the trooper keeps its own;
- Prone (docs/rules.md §13.1, decision A15, the N3 reading): no Jump while Prone, and Prone is
  neither entered nor left at the start of a Jump.
"""

from __future__ import annotations

import math

from constraints.core.verdict import ClauseResult
from constraints.infinity.clauses.base import (
    CLEAR_TOL_IN,
    CONTACT_IN,
    Kept,
    RouteClause,
    RouteExample,
    merged,
)
from constraints.infinity.clauses.context import RouteContext
from constraints.infinity.clauses.examples import rect, skill, town
from constraints.infinity.scenery import prisms
from constraints.infinity.volumes import sweep

R = 25 / 25.4 / 2
H2 = 40 / 25.4
# Two roofs 3 in high, 1.5 in apart; the fusilier on the first, at its edge.
_GAP = town(rect("roof_a", 2, 8, 8, 16, 3.0), rect("roof_b", 9.5, 8, 16, 16, 3.0),
            at=(8 - R, 12, 3))
_ACROSS = ((8 - R, 12, 3), (9.5 + R, 12, 3))
_HOUSE = rect("house", 6, 10, 10, 14, 3.0)
_WALL = rect("wall", 6, 8, 6.3, 16, 2.0, kind="obstacle")


class JumpDistance(RouteClause):
    id = "route.jump.distance"
    kept = Kept.BUDGET
    skills = frozenset({"jump"})

    def check(self, ctx: RouteContext) -> ClauseResult:
        limit = ctx.trooper.move_allowance_in(0)
        gaps = [ctx.jump_distance(p) for p in ctx.route.path]
        far = max(range(len(gaps)), key=gaps.__getitem__)
        landing = gaps[-1]
        where = "the landing spot" if far == len(gaps) - 1 else f"point {far} of the trajectory"
        found = self.result(
            "jump_reach", gaps[far], limit, gaps[far] <= limit + CLEAR_TOL_IN,
            f"{where} is {gaps[far]:.3f} in from the start Silhouette, more than the first "
            f"MOV value {limit:g} in", (ctx.route.path[far][:2],))
        return merged([found, ClauseResult({"jump_distance": landing})])

    examples = (
        RouteExample("horizontally across a 1.5 in gap between roofs", _GAP,
                     skill("jump", *_ACROSS), False, ("jump_distance", 1.5)),
        RouteExample("a 4.5 in gap is more than MOV 4",
                     town(rect("roof_a", 2, 8, 8, 16, 3.0), rect("roof_b", 12.5, 8, 16, 16, 3.0),
                          at=(8 - R, 12, 3)),
                     skill("jump", (8 - R, 12, 3), (12.5 + R, 12, 3)), True,
                     ("jump_reach", 4.5)),
        RouteExample("vertically up a 3 in house, then onto it: measured from the Silhouette's "
                     "top (3 in less 40 mm)", town(_HOUSE, at=(6 - R, 12, 0)),
                     skill("jump", (6 - R, 12, 0), (6 - R, 12, 3), (6 + R, 12, 3)), False,
                     ("jump_distance", 3 - H2)),
        RouteExample("up 5 in with MOV 4: the FAQ measures from the Silhouette (3.425 in)",
                     town(rect("tower", 6, 10, 10, 14, 5.0), at=(6 - R, 12, 0)),
                     skill("jump", (6 - R, 12, 0), (6 - R, 12, 5), (6 + R, 12, 5)), False,
                     ("jump_reach", 5 - H2)),
        RouteExample("a parabola 6 in high over a 1.5 in gap goes farther than MOV 4", _GAP,
                     skill("jump", _ACROSS[0], (8 - R, 12, 9), (9.5 + R, 12, 9), _ACROSS[1]),
                     True, ("jump_reach", math.hypot(1.5, 6 - H2))),
        RouteExample("over a 2 in wall along a parabola (up, across, down)",
                     town(_WALL), skill("jump", (4, 12, 0), (4, 12, 2), (8, 12, 2), (8, 12, 0)),
                     False, ("jump_distance", 4 - 2 * R)),
    )


class JumpClear(RouteClause):
    id = "route.jump.clear"
    skills = frozenset({"jump"})

    def check(self, ctx: RouteContext) -> ClauseResult:
        return clearance(self, ctx, "jump_clearance", "trajectory")

    examples = (
        RouteExample("across the gap: nothing in the way", _GAP, skill("jump", *_ACROSS),
                     False),
        RouteExample("diagonally from the house's foot into its roof: through the wall",
                     town(_HOUSE, at=(6 - R, 12, 0)),
                     skill("jump", (6 - R, 12, 0), (7, 12, 3)), True, ("jump_clearance", 0.0)),
        RouteExample("vertically first, then across: clear", town(_HOUSE, at=(6 - R, 12, 0)),
                     skill("jump", (6 - R, 12, 0), (6 - R, 12, 3), (7, 12, 3)), False,
                     ("jump_clearance", R)),
        RouteExample("straight through a 2 in wall", town(_WALL),
                     skill("jump", (4, 12, 0), (8, 12, 0)), True, ("jump_clearance", 0.0)),
        RouteExample("over it along a parabola", town(_WALL),
                     skill("jump", (4, 12, 0), (4, 12, 2), (8, 12, 2), (8, 12, 0)), False),
    )


def clearance(clause: RouteClause, ctx: RouteContext, name: str, what: str) -> ClauseResult:
    """The least plane distance from the legs' centre line to a prism the Silhouette meets
    in height, against the base's radius (a base within CONTACT_IN of it touches it: a
    trooper may stand that close to a wall, as placement allows)."""
    r, h = ctx.trooper.radius_in, ctx.trooper.height_in
    solids = prisms(ctx.scenario.terrain)
    found = [ClauseResult({name: math.inf})]
    for leg in ctx.legs:
        c = sweep(leg.start, leg.end, h, solids)
        if math.isfinite(c.gap_in):
            found.append(clause.result(
                name, c.gap_in, r, c.gap_in >= r - CONTACT_IN,
                f"the {what} takes the Silhouette into {c.scenery!r}: its centre comes "
                f"{c.gap_in:.3f} in from it, less than the base's radius {r:.3f} in", (c.at,)))
    least = min(f.measurements[name] for f in found)
    return merged([*found, ClauseResult({name: least})])


class JumpProne(RouteClause):
    id = "route.jump.prone"
    spots_only = True
    skills = frozenset({"jump"})

    def check(self, ctx: RouteContext) -> ClauseResult:
        standing = ctx.scenario.unit(ctx.route.unit).prone
        prone = standing or ctx.trooper.prone
        return self.result("jump_prone", float(prone), 0.0, not prone,
                           "a Prone trooper does not Jump, and Prone is neither entered nor "
                           "left at the start of a Jump")

    examples = (
        RouteExample("standing: Jumps", _GAP, skill("jump", *_ACROSS), False),
        RouteExample("Prone: no Jump", _GAP | {"units": [_GAP["units"][0] | {"prone": True}]},
                     skill("jump", *_ACROSS), True),
        RouteExample("Prone, standing up at the start: not for a Jump",
                     _GAP | {"units": [_GAP["units"][0] | {"prone": True}]},
                     skill("jump", *_ACROSS, prone=False), True),
        RouteExample("going Prone at the start: not for a Jump", _GAP,
                     skill("jump", *_ACROSS, prone=True), True),
    )
