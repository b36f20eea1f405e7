"""What every route clause reads: the trooper as it moves, its walk view, and the route cut
into legs (docs/rules.md §13.4).

A leg joins two consecutive points of the path.  It is a *walk* when both points belong to
one walk region (measured in the plane: vertical steps are not counted), a *ladder* when
it runs from one end of a ladder or stairs to the other (measured along it), and *broken*
otherwise (a point on no surface, or a change of level with no way up or down).  A Jump's
or a Climb's legs are *in the air*: straight 3-D segments of the base's underside centre.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from functools import cached_property

import numpy as np
import shapely

from constraints.core.scenario import Scenario
from constraints.infinity.route import AIRBORNE, SAME_POINT_IN, Route, trooper_of
from constraints.infinity.scenery import Connector, Point3, connectors
from constraints.infinity.trooper import Trooper
from constraints.infinity.volumes import silhouette_gap
from constraints.infinity.walk import Walk


@dataclass(frozen=True)
class Leg:
    start: Point3
    end: Point3
    move: int                      # 0: the first Move, 1: the second
    region: int | None = None      # a walk in this region
    connector: Connector | None = None
    air: bool = False              # a Jump's or a Climb's straight segment in 3-D

    @property
    def broken(self) -> bool:
        return self.region is None and self.connector is None and not self.air

    @property
    def length_in(self) -> float:
        if self.connector is not None:
            return self.connector.length_in
        if self.air:
            return math.dist(self.start, self.end)
        return math.dist(self.start[:2], self.end[:2])

    @cached_property
    def line(self) -> shapely.Geometry:
        if math.dist(self.start[:2], self.end[:2]) <= SAME_POINT_IN:
            return shapely.Point(self.start[:2])
        return shapely.LineString([self.start[:2], self.end[:2]])


class RouteContext:
    def __init__(self, scenario: Scenario, route: Route) -> None:
        self.scenario, self.route = scenario, route
        self.trooper: Trooper = trooper_of(scenario, route)
        self.walk = Walk.of(scenario, self.trooper)
        self.legs = self._legs()

    @property
    def skill(self) -> str:
        return self.route.skill

    @property
    def airborne(self) -> bool:
        return self.route.skill in AIRBORNE

    def _legs(self) -> tuple[Leg, ...]:
        path, mid = self.route.path, self.route.midpoint
        if self.airborne:
            return tuple(Leg(a, b, 0, air=True) for a, b in zip(path, path[1:], strict=False))
        legs = []
        for k in range(len(path) - 1):
            move = 1 if mid is not None and k >= mid else 0
            legs.append(self._leg(path[k], path[k + 1], move))
        return tuple(legs)

    def _leg(self, a: Point3, b: Point3, move: int) -> Leg:
        ra, rb = self.locate(a), self.locate(b)
        if ra is None or rb is None:
            return Leg(a, b, move)
        # A leg from one end of a ladder to the other climbs it, even within one region.
        for c in connectors(self.scenario.terrain):
            if _joins(c, a, b):
                return Leg(a, b, move, connector=c)
        return Leg(a, b, move, region=ra) if ra == rb else Leg(a, b, move)

    def locate(self, p: Point3) -> int | None:
        return self.walk.locate(*p)

    def walks(self) -> list[Leg]:
        return [leg for leg in self.legs if leg.region is not None]

    def ends(self) -> list[tuple[str, Point3]]:
        """Where a Move ends: the first Move's end (Move + Move), then the route's end."""
        found = []
        if self.route.midpoint is not None:
            found.append(("the first Move's end", self.route.path[self.route.midpoint]))
        found.append(("the end", self.route.path[-1]))
        return found

    def jump_distance(self, p: Point3) -> float:
        """How far a Jump to p is measured (N4 FAQ): from any point of the Silhouette at
        the start to the base's edge and underside at p."""
        t = self.trooper
        return silhouette_gap(self.route.path[0], p, t.radius_in, t.height_in)

    def move_lengths(self) -> list[float]:
        """What the skill measures: each Move's length, a Dodge's, a Climb's along its
        path, a Jump's from the start Silhouette to the landing base."""
        if self.skill == "jump":
            return [self.jump_distance(self.route.path[-1])]
        lengths = [0.0] * len(self.route.moves())
        for leg in self.legs:
            lengths[leg.move] += leg.length_in
        return lengths


def _joins(c: Connector, a: Point3, b: Point3) -> bool:
    forward = math.dist(a, c.start) <= SAME_POINT_IN and math.dist(b, c.end) <= SAME_POINT_IN
    back = math.dist(a, c.end) <= SAME_POINT_IN and math.dist(b, c.start) <= SAME_POINT_IN
    return forward or back


def pieces_crossed(ctx: RouteContext) -> list[tuple[Leg, int, shapely.Geometry]]:
    """(leg, piece, the part of the leg over that piece) for every walk leg: a centre
    standing on a piece is judged by that piece's walls and drops."""
    found = []
    for leg in ctx.walks():
        for k in ctx.walk.members_under(leg.line, leg.region):  # type: ignore[arg-type]
            part = leg.line.intersection(ctx.walk.surfaces.pieces[k].polygon)
            if not part.is_empty:
                found.append((leg, k, part))
    return found


def nearest_pieces(ctx: RouteContext, near: Callable[[int], list[int]]
                   ) -> list[tuple[Leg, float, str]]:
    """For every part of a walk leg over a piece k, the least distance to the pieces
    `near(k)` (its walls, or its drops) and the nearest one's id."""
    found = []
    for leg, k, part in pieces_crossed(ctx):
        ks = near(k)
        if ks:
            gaps = shapely.distance(part, ctx.walk.shapes(ks))
            w = int(gaps.argmin())
            found.append((leg, float(gaps[w]), ctx.walk.surfaces.pieces[ks[w]].id))
    return found


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
