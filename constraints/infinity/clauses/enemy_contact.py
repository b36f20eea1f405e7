"""route.enemy_contact: a Move ends on Silhouette contact with an enemy (docs/rules.md
§13.4).

Rule (seed 004): "A Trooper's Movement ends automatically whenever he enters Silhouette
contact with an enemy, even if the specified movement route is cut short as a result."  A
declared route that goes on after its base first touches an enemy's is cut short there:
the clause names the length at which the Move ends and where.  Contact the trooper is in
when it starts does not stop it (a trooper leaving combat Dodges; out of scope here).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from constraints.core.verdict import ClauseResult
from constraints.infinity.clauses.base import CONTACT_IN, RouteClause, RouteExample
from constraints.infinity.clauses.context import Leg, RouteContext
from constraints.infinity.clauses.examples import marker, skill, town, trooper, walk

_ENEMY = trooper("zhanshi", 8, 13.5, player="red")


def first_touch(leg: Leg, centre: tuple[float, float], reach_in: float) -> float | None:
    """The least t in [0, 1] where the leg's centre comes within `reach_in` of `centre`."""
    a, b, c = np.asarray(leg.start[:2]), np.asarray(leg.end[:2]), np.asarray(centre)
    d, f = b - a, a - c
    if float(f @ f) <= reach_in ** 2:
        return 0.0
    qa, qb, qc = float(d @ d), 2.0 * float(f @ d), float(f @ f) - reach_in ** 2
    disc = qb * qb - 4.0 * qa * qc
    if qa == 0.0 or disc < 0.0:
        return None
    t = (-qb - math.sqrt(disc)) / (2.0 * qa)
    return t if 0.0 <= t <= 1.0 else None


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
        hit = EnemyContact.hit(ctx, leg, r, start, tolerance) if leg.region is not None \
            else None
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
        contact tolerance, A21), if any: where, and every enemy touched there."""
        touches: list[tuple[float, str]] = []
        for enemy in ctx.walk.troopers_in(ctx.walk.regions[leg.region]):  # type: ignore[index]
            if enemy.player == ctx.trooper.player or enemy.marker:
                continue  # a marker is no trooper: reaching it does not end the Move
            reach = r + enemy.radius_in
            if math.dist(start[:2], enemy.centre) <= reach + tolerance:
                continue  # in contact at the start, within the contact tolerance (A21)
            # Stopped where the bases meet; a route ending in contact (within CONTACT_IN)
            # meets them at its end, not before it.
            t = first_touch(leg, enemy.centre, reach)
            if t is not None:
                touches.append((t, enemy.id))
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
    )
