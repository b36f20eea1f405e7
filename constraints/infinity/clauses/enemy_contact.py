"""route.enemy_contact: a Move ends on Silhouette contact with an enemy (docs/rules.md
§13.4).

Rule (seed 004): "A Trooper's Movement ends automatically whenever he enters Silhouette
contact with an enemy, even if the specified movement route is cut short as a result."  A
declared route that goes on after its base first touches an enemy's is cut short there:
the clause names the length at which the Move ends and where.  Contact the trooper is in
when it starts does not stop it (a trooper leaving combat Dodges; out of scope here).

Silhouettes are volumes (decision A22): upright cylinders of the Silhouette's height on the
level each trooper stands on.  They meet where the bases come within reach in the plane and
the heights overlap or touch, so an enemy on any level counts and one on a roof above the
route does not.  Along a walk the trooper stands on the region's piece under its centre and
passes through every level between two pieces where it steps; ladders, Jumps and Climbs are
straight 3-D segments (docs/rules.md §13.4).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import shapely

from constraints.core.verdict import ClauseResult
from constraints.infinity.clauses.base import CONTACT_IN, RouteClause, RouteExample
from constraints.infinity.clauses.context import Leg, RouteContext
from constraints.infinity.clauses.examples import marker, rect, skill, town, trooper, walk
from constraints.infinity.route import AIRBORNE, SAME_POINT_IN, WALKS
from constraints.infinity.surfaces import LEVEL_TOL_IN
from constraints.infinity.volumes import Span, height_span, plane_span

_ENEMY = trooper("zhanshi", 8, 13.5, player="red")
_R = 25 / 25.4 / 2  # a 25 mm base's radius
_ENEMY_6 = trooper("zhanshi", 6, 12, player="red")


def _under_roof() -> dict:
    """A 3 in building from y = 12.5, an enemy on its roof with its base at the edge; the
    trooper below, its base against the wall."""
    return town(rect("house", 6, 12.5, 10, 16, 3.0),
                troopers=(trooper("zhanshi", 8, 12.5 + _R, player="red", level=3.0),),
                at=(4, 12.5 - _R, 0))


def _crate(silhouette: int) -> dict:
    """A 1.2 in crate (y 11-13), the trooper on it, an enemy of `silhouette` on the ground
    with its base against the crate's side."""
    return town(rect("crate", 5, 11, 12, 13, 1.2),
                troopers=(trooper("zhanshi", 8, 13 + _R, player="red",
                                  silhouette=silhouette),),
                at=(6, 12.6 if silhouette == 2 else 13 - _R, 1.2))


# (t0, t1, z0, z1): over the leg's parameters [t0, t1] the base's underside runs from level z0
# to z1 (a step, t0 == t1: the trooper goes up or down from z0 to z1 there).
Stretch = tuple[float, float, float, float]


def levels_along(ctx: RouteContext, leg: Leg) -> list[Stretch]:
    """Where the base's underside is along the leg: a ladder's or the air's straight 3-D
    segment; on a walk, the level of the region's piece under the centre (pieces are flat),
    stepping up or down where two meet."""
    if leg.region is None:
        return [(0.0, 1.0, leg.start[2], leg.end[2])]
    a, b = np.asarray(leg.start[:2]), np.asarray(leg.end[:2])
    d = b - a
    if float(d @ d) <= SAME_POINT_IN ** 2:
        z = ctx.walk.level_at(leg.region, leg.start[:2])
        return [(0.0, 1.0, z, z)]
    spans: list[tuple[float, float, float]] = []
    pieces = ctx.walk.surfaces.pieces
    for k in ctx.walk.members_under(leg.line, leg.region):
        for part in shapely.get_parts(leg.line.intersection(pieces[k].polygon)):
            ts = (shapely.get_coordinates(part) - a) @ d / float(d @ d)
            if len(ts):
                spans.append((float(ts.min()), float(ts.max()), pieces[k].top_in))
    spans.sort()
    found: list[Stretch] = [(t0, t1, z, z) for t0, t1, z in spans]
    for (_, end0, z0), (start1, _, z1) in zip(spans, spans[1:], strict=False):
        if z0 != z1:  # a step between touching pieces: the Silhouette goes up or down there
            found.append((max(end0, start1), max(end0, start1), z0, z1))
    return found or [(0.0, 1.0, leg.start[2], leg.end[2])]


def meets(stretch: Stretch, plane: Span, low: float, high: float) -> float | None:
    """The first t of `stretch` within `plane` where the underside's level lies in
    [low, high] (the levels at which the two Silhouettes meet in height)."""
    t0, t1, z0, z1 = stretch
    lo, hi = max(t0, plane[0]), min(t1, plane[1])
    if lo > hi:
        return None
    if t1 <= t0:  # a step: every level between z0 and z1
        return lo if min(z0, z1) <= high and low <= max(z0, z1) else None
    found = height_span(z0 + (z1 - z0) * (lo - t0) / (t1 - t0),
                        z0 + (z1 - z0) * (hi - t0) / (t1 - t0), low, high)
    return None if found is None else lo + found[0] * (hi - lo)


@dataclass(frozen=True)
class Contact:
    """Where a declared route first meets an enemy's base short of its end."""

    walked_in: float            # the length walked to there
    leg: int                    # the leg (path[leg] -> path[leg + 1]) it happens on
    point: tuple[float, float, float]
    enemies: tuple[str, ...]


def first_contact(ctx: RouteContext) -> Contact | None:
    """The first Silhouette contact with an enemy before the route's end (within
    CONTACT_IN of it counts as the end), ignoring contact the trooper starts in."""
    r = ctx.trooper.radius_in
    tolerance = ctx.scenario.contact_tolerance
    total = sum(leg.length_in for leg in ctx.legs)
    start = ctx.route.path[0]
    walked = 0.0
    for k, leg in enumerate(ctx.legs):
        hit = EnemyContact.hit(ctx, leg, r, start, tolerance) if not leg.broken else None
        if hit is not None:
            t, enemies = hit
            at = walked + t * leg.length_in
            if at < total - CONTACT_IN:
                point = tuple(a + t * (b - a) for a, b in zip(leg.start, leg.end, strict=True))
                return Contact(at, k, (point[0], point[1], point[2]), enemies)
        walked += leg.length_in
    return None


class EnemyContact(RouteClause):
    id = "route.enemy_contact"
    skills = WALKS | AIRBORNE

    def check(self, ctx: RouteContext) -> ClauseResult:
        total = sum(leg.length_in for leg in ctx.legs)
        found = first_contact(ctx)
        if found is None:
            return ClauseResult({"contact_after": total})
        x, y, _ = found.point
        return self.result(
            "contact_after", found.walked_in, total, False,
            f"the Move ends on Silhouette contact with enemy {found.enemies[0]!r} after "
            f"{found.walked_in:.3f} in at ({x:.3f}, {y:.3f}), short of the route's "
            f"{total:.3f} in", ((x, y),))

    @staticmethod
    def hit(ctx: RouteContext, leg: Leg, r: float, start: tuple[float, ...],
            tolerance: float) -> tuple[float, tuple[str, ...]] | None:
        """The first touch on this leg of enemies not touching at the start (within the
        contact tolerance, A21), if any: where, and every enemy touched there.  Silhouettes
        are cylinders (A22): they touch where the bases come within reach in the plane and
        the heights overlap or touch, whatever level each stands on."""
        me = ctx.trooper
        touches: list[tuple[float, str]] = []
        stretches = None
        for enemy in ctx.scenario.units:
            if enemy.id == me.id or enemy.player == me.player or enemy.marker:
                continue  # a marker is no trooper: reaching it does not end the Move
            reach = r + enemy.radius_in
            low, high = enemy.level_in - me.height_in, enemy.level_in + enemy.height_in
            if math.dist(start[:2], enemy.centre) <= reach + tolerance and \
                    low - tolerance <= start[2] <= high + tolerance:
                continue  # in contact at the start, within the contact tolerance (A21)
            # Stopped where the Silhouettes meet; a route ending in contact (within
            # CONTACT_IN) meets them at its end, not before it.
            plane = plane_span(leg.start, leg.end, enemy.centre, reach)
            if plane is None:
                continue
            stretches = levels_along(ctx, leg) if stretches is None else stretches
            ts = [t for s in stretches
                  if (t := meets(s, plane, low - LEVEL_TOL_IN, high + LEVEL_TOL_IN)) is not None]
            if ts:
                touches.append((min(ts), enemy.id))
        if not touches:
            return None
        first = min(t for t, _ in touches)
        return first, tuple(sorted(e for t, e in touches if t <= first + 1e-12))

    examples = (
        RouteExample("into base contact at the end: the Move ends there as declared",
                     town(troopers=(_ENEMY,)), walk((4, 12, 0), (8, 13.5 - 25 / 25.4, 0)),
                     False),
        RouteExample("past an enemy, touching it on the way: cut short",
                     town(troopers=(trooper("zhanshi", 8, 12 + 25 / 25.4, player="red"),)),
                     walk((4, 12, 0), (11, 12, 0)), True),
        RouteExample("straight at an enemy and on: the Move ends after 4 in",
                     town(troopers=(trooper("zhanshi", 8 + 25 / 25.4, 12, player="red"),)),
                     walk((4, 12, 0), (11, 12, 0)), True, ("contact_after", 4.0)),
        RouteExample("past an enemy 0.5 in clear: not stopped",
                     town(troopers=(trooper("zhanshi", 8, 12.5 + 25 / 25.4, player="red"),)),
                     walk((4, 12, 0), (11, 12, 0)), False, ("contact_after", 7.0)),
        RouteExample("a Dodge leaves the Silhouette contact it starts in",
                     town(troopers=(trooper("zhanshi", 4 + 25 / 25.4, 12, player="red"),)),
                     skill("dodge", (4, 12, 0), (2, 12, 0)), False, ("contact_after", 2.0)),
        RouteExample("a Dodge ends on reaching an enemy's base",
                     town(troopers=(trooper("zhanshi", 5.5 + 25 / 25.4, 12, player="red"),)),
                     skill("dodge", (4, 12, 0), (5.8, 12, 0)), True, ("contact_after", 1.5)),
        RouteExample("touching an enemy marker on the way: a marker is no trooper, the Move "
                     "goes on (decision, docs/rules.md §13.7)",
                     town(troopers=(marker("camo", 8, 12 + 25 / 25.4, player="red"),)),
                     walk((4, 12, 0), (11, 12, 0)), False, ("contact_after", 7.0)),
        # A22: Silhouettes are cylinders; troopers on different levels touch only if those
        # do (seed 004: "Silhouette contact"; S2 is 40 mm = 1.575 in tall, S1 25 mm).
        RouteExample("along a wall below an enemy at the edge of a 3 in roof: the bases meet "
                     "in the plane, the Silhouettes do not", _under_roof(),
                     walk((4, 12.5 - _R, 0), (8, 12.5 - _R, 0)), False,
                     ("contact_after", 4.0)),
        RouteExample("on a 1.2 in crate past an S1 standing against it: the bases touch, the "
                     "crate's top is above its 25 mm", _crate(1),
                     walk((6, 13 - _R, 1.2), (9.5, 13 - _R, 1.2)), False,
                     ("contact_after", 3.5)),
        RouteExample("an S2 there reaches above 1.2 in: the Silhouettes meet where the base "
                     "reaches over the edge", _crate(2),
                     walk((6, 12.6, 1.2), (9.5, 12.6, 1.2)), True,
                     ("contact_after", 2.0 - math.sqrt((2 * _R) ** 2 - (13 + _R - 12.6) ** 2))),
        RouteExample("a Jump over an enemy's head (2 in up, it is 1.575 in tall)",
                     town(troopers=(_ENEMY_6,)),
                     skill("jump", (4, 12, 0), (4, 12, 2), (8, 12, 2), (8, 12, 0)), False),
        RouteExample("a Jump 1 in up into its Silhouette: contact in the air, where the Move "
                     "cannot end", town(troopers=(_ENEMY_6,)),
                     skill("jump", (4, 12, 0), (4, 12, 1), (8, 12, 1), (8, 12, 0)), True,
                     ("contact_after", 1.0 + (6 - 2 * _R - 4))),
    )
