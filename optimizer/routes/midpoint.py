"""Where the first of two Moves ends (Move + Move, docs/rules.md §13.5).

The first Move ends where the base may stand (the end-surface and end-trooper clauses), at
most the first MOV value along the route, with the rest within the second.  On the shortest
route such a point is looked for in the window of lengths [L - second, first]; failing
that, a point of the end zone reached within the first value whose distance to the target
is within the second (the two geodesic discs of `reach`) makes a longer legal route; if the
same discs with outer polygons and the relaxed space do not meet, none exists.
"""

from __future__ import annotations

import math
from dataclasses import replace

import shapely

from constraints.core.scenario import Scenario
from constraints.infinity.clauses.context import Leg, RouteContext
from constraints.infinity.route import Route
from constraints.infinity.scenery import Point3
from constraints.infinity.walk import Walk
from optimizer.routes.network import Network
from optimizer.routes.reach import reachable
from optimizer.routes.request import RouteRequest


def with_midpoint(scenario: Scenario, request: RouteRequest, route: Route) -> tuple[Route, bool]:
    """The route split where a legal first Move ends on it (True), or at the first MOV
    value (False: no legal spot on this route)."""
    trooper = request.trooper
    first, second = trooper.move_allowance_in(0), trooper.move_allowance_in(1)
    legs = RouteContext(scenario, replace(route, skill="move", midpoint=None)).legs
    total = sum(leg.length_in for leg in legs)
    lo, hi = max(0.0, total - second), min(first, total)
    walk = Walk.of(scenario, trooper)
    walked = 0.0
    for k, leg in enumerate(legs):
        if lo <= hi and leg.region is not None:
            spot = _spot(walk, leg, leg.region, walked, lo, hi)
            if spot is not None:
                return _split(route, k, spot), True
        if leg.connector is not None and lo <= walked + leg.length_in <= hi \
                and _stands(walk, leg.end):
            return replace(route, midpoint=k + 1), True
        walked += leg.length_in
    return _split_at(route, legs, min(first, total)), False


def _spot(walk: Walk, leg: Leg, region: int, walked: float, lo: float,
          hi: float) -> Point3 | None:
    """The middle of the first stretch of this walk leg in the end zone and the window."""
    a, b = leg.start, leg.end
    length = math.dist(a[:2], b[:2])
    if length == 0.0:
        return None
    zone = walk.end_zone(walk.regions[region])
    inside = zone.intersection(shapely.LineString([a[:2], b[:2]]))
    for part in sorted(getattr(inside, "geoms", [inside]), key=lambda g: g.bounds):
        if part.is_empty or part.geom_type != "LineString":
            continue
        ts = sorted(math.dist(a[:2], c) / length for c in part.coords)
        t0 = max(ts[0], (lo - walked) / length)
        t1 = min(ts[-1], (hi - walked) / length)
        if t0 <= t1:
            t = (t0 + t1) / 2.0
            x, y = a[0] + t * (b[0] - a[0]), a[1] + t * (b[1] - a[1])
            return (x, y, walk.level_at(region, (x, y)))
    return None


def _stands(walk: Walk, p: Point3) -> bool:
    region = walk.locate(*p)
    return region is not None and walk.end_zone(walk.regions[region]).covers(
        shapely.Point(p[:2]))


def _split(route: Route, k: int, spot: Point3) -> Route:
    """The route with `spot` inserted after point k, and the midpoint there."""
    path = list(route.path)
    if math.dist(spot, path[k]) <= 1e-9:
        return replace(route, midpoint=k)
    path.insert(k + 1, spot)
    return replace(route, path=tuple(path), midpoint=k + 1)


def _split_at(route: Route, legs: tuple, length: float) -> Route:
    """The route split at `length` along it (on a walk leg; else at the next point)."""
    walked = 0.0
    for k, leg in enumerate(legs):
        if walked + leg.length_in >= length - 1e-12:
            if leg.region is None or leg.length_in == 0.0:
                return replace(route, midpoint=k + 1)
            t = (length - walked) / leg.length_in
            a, b = leg.start, leg.end
            return _split(route, k, (a[0] + t * (b[0] - a[0]), a[1] + t * (b[1] - a[1]),
                                     a[2]))
        walked += leg.length_in
    return replace(route, midpoint=len(route.path) - 1)


def _meeting(scenario: Scenario, request: RouteRequest,
             outer: bool) -> list[tuple[int, shapely.Geometry]]:
    """Per region, the spots where a first Move may end within the first MOV value of the
    start and the second of the target (inner, or outer with the relaxed space)."""
    trooper = request.trooper
    first, second = trooper.move_allowance_in(0), trooper.move_allowance_in(1)
    near_start = reachable(scenario, trooper, request.start, first, outer)
    near_goal = reachable(scenario, trooper, request.target, second, outer)
    walk = Walk.of(scenario, trooper, relaxed=outer)
    found = []
    for region in sorted(set(near_start) & set(near_goal)):
        both = near_start[region].intersection(near_goal[region])
        spots = both.intersection(walk.end_zone(walk.regions[region]))
        if not spots.is_empty and spots.area > 0.0:
            found.append((region, spots))
    return found


def detour(scenario: Scenario, request: RouteRequest) -> Route | None:
    """A legal Move + Move through a spot of the inner meeting area, or None."""
    network = Network(scenario, request.trooper)
    walk = Walk.of(scenario, request.trooper)
    for region, spots in _meeting(scenario, request, outer=False):
        p = spots.representative_point()
        mid = (p.x, p.y, walk.level_at(region, (p.x, p.y)))
        one = network.route(request.start, mid)
        two = network.route(mid, request.target)
        if one is not None and two is not None:
            return Route(request.trooper.id, "move_move", one[0] + two[0][1:], len(one[0]) - 1,
                         request.prone)
    return None


def meeting_impossible(scenario: Scenario, request: RouteRequest) -> bool:
    """Proved: no spot where the first Move may end is within reach of both."""
    return not _meeting(scenario, request, outer=True)
