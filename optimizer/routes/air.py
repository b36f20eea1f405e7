"""The shortest Jump and the shortest Climb to a spot (docs/rules.md §13.9).

A Jump is measured from the start Silhouette to the base at the landing spot (the N4 FAQ):
the distance depends on the two spots only, so every legal Jump to a spot has the same
length, and the first legal trajectory found is OPTIMAL.  The trajectories tried: straight,
then up to a height H, across, and down, for H the higher of the two levels and then each
top of the scenery near the way across (lowest first) while the trajectory stays within
reach.  None legal: INFEASIBLE when a clause that judges the two spots alone breaks (the
distance, the landing spot, Prone); else NOT_FOUND (another trajectory is not ruled out).

A Climb's path is fixed by its two spots (docs/rules.md §13.8: up the wall at the start and
over the edge, or over the edge and down the wall at the end), so its verdict is a proof:
legal, OPTIMAL; not, INFEASIBLE.
"""

from __future__ import annotations

import math
from typing import Any

import shapely

from constraints.core.status import Status
from constraints.infinity.checker import RouteVerdict, check_route
from constraints.infinity.clauses import ROUTE_CLAUSES
from constraints.infinity.route import Route
from constraints.infinity.scenery import Point3, prisms
from constraints.infinity.surfaces import LEVEL_TOL_IN
from constraints.infinity.volumes import silhouette_gap
from optimizer.routes.request import RouteRequest
from optimizer.routes.result import RouteResult

MAX_HEIGHTS = 24  # arc heights tried past the first
# Clauses judging a Jump's two spots alone: a break holds for every trajectory between them.
SPOT_CLAUSES = frozenset(c.id for c in ROUTE_CLAUSES if c.spots_only)


def _dedup(points: list[Point3]) -> tuple[Point3, ...]:
    out = [points[0]]
    for p in points[1:]:
        if math.dist(p, out[-1]) > 1e-12:
            out.append(p)
    return tuple(out)


def arc(start: Point3, target: Point3, height: float) -> tuple[Point3, ...]:
    """Up to `height` above the start, across, down to the target."""
    return _dedup([start, (start[0], start[1], height), (target[0], target[1], height), target])


def trajectories(request: RouteRequest) -> list[tuple[Point3, ...]]:
    """The Jump trajectories tried, in order (see the module's text)."""
    start, target, t = request.start, request.target, request.trooper
    limit = t.move_allowance_in(0)
    low = max(start[2], target[2])
    way = shapely.LineString([start[:2], target[:2]]) if math.dist(start[:2], target[:2]) \
        > 1e-12 else shapely.Point(start[:2])
    tops = sorted({s.top_in for s in prisms(request.scenario.terrain)
                   if s.top_in > low + LEVEL_TOL_IN
                   and float(shapely.distance(way, s.shape)) < t.radius_in})
    found = [_dedup([start, target]), arc(start, target, low)]
    for top in tops[:MAX_HEIGHTS]:
        up = (start[0], start[1], top)
        over = (target[0], target[1], top)
        if max(silhouette_gap(start, p, t.radius_in, t.height_in) for p in (up, over)) > limit:
            break
        found.append(arc(start, target, top))
    return found


def shortest_jump(request: RouteRequest, base: dict[str, Any]) -> RouteResult:
    t = request.trooper
    distance = silhouette_gap(request.start, request.target, t.radius_in, t.height_in)
    first: RouteVerdict | None = None
    first_path: tuple[Point3, ...] = ()
    for path in trajectories(request):
        verdict = check_route(request.scenario, Route(t.id, "jump", path, None, request.prone))
        if verdict.legal:
            return RouteResult(Status.OPTIMAL, path=path, length_in=distance, bound_in=distance,
                               verdict=verdict, **base)
        if first is None:
            first, first_path = verdict, path
    assert first is not None
    spot = [v for v in first.violations if v.clause in SPOT_CLAUSES]
    if spot:
        reason = f"no Jump to that spot: {spot[0].message}"
    elif distance > t.move_allowance_in(0) + 1e-9:
        reason = (f"the landing spot is {distance:.3f} in from the start Silhouette, more "
                  f"than the first MOV value: no Jump reaches it")
    else:
        return RouteResult(Status.NOT_FOUND, path=first_path, length_in=distance,
                           bound_in=distance, verdict=first, reason="no trajectory tried is "
                           "clear; others are not ruled out", **base)
    return RouteResult(Status.INFEASIBLE, path=first_path, length_in=distance,
                       bound_in=distance, verdict=first, reason=reason, **base)


def climb_path(start: Point3, target: Point3) -> tuple[Point3, ...]:
    """The only Climb from `start` to `target`: up the wall at the start then over the edge,
    or over the edge then down the wall at the target."""
    if target[2] >= start[2]:
        return _dedup([start, (start[0], start[1], target[2]), target])
    return _dedup([start, (target[0], target[1], start[2]), target])


def shortest_climb(request: RouteRequest, base: dict[str, Any]) -> RouteResult:
    """The Climb; a Prone trooper not told otherwise stands up at its start (free, seed
    004), since no Prone trooper Climbs."""
    path = climb_path(request.start, request.target)
    prone = False if request.prone is None and request.trooper.prone else request.prone
    verdict = check_route(request.scenario,
                          Route(request.trooper.id, "climb", path, None, prone))
    length = verdict.length_in
    climber = request.trooper if prone is None else request.trooper.with_prone(prone)
    base = {**base, "prone": prone,
            "extra": {**base["extra"], "mov_in": climber.move_allowance_in(0)}}
    if verdict.legal:
        return RouteResult(Status.OPTIMAL, path=path, length_in=length, bound_in=length,
                           verdict=verdict, **base)
    return RouteResult(Status.INFEASIBLE, path=path, length_in=length, bound_in=length,
                       verdict=verdict, reason="the only Climb to that spot breaks "
                       f"{', '.join(dict.fromkeys(verdict.clauses()))}", **base)
