"""The safest route of a Move (or Move + Move) to a point (docs/rules.md §13.10; RULES.md
§5.12.4): fewest enemies able to ARO, then least exposed length, then shortest, within the
skill's MOV budget.

The family searched: the shortest route, and the shortest routes through one waypoint of a
grid (WAYPOINT_GRID_IN apart) within the budget's ellipse round the start and the target,
taken in order of their length, at most WAYPOINTS_TRIED of them (counted work, so the same
request gives the same answer on any machine; the time limit is a cap on top, and an answer
it cut short says so).  Each is judged by the exact checker
(only legal routes count) and screened by its exposure with coarse Line of Fire every
SCREEN_SPACING_IN; the best is measured again in full (constraints.infinity.exposure, Line
of Fire sampled), and the shortest route kept when it is as safe in full.  Routes with two
or more detours, or through points off the grid, are not searched: the answer is FEASIBLE
with that family named, never OPTIMAL.
"""

from __future__ import annotations

import math
import time

import numpy as np

from constraints.core.scenario import Scenario
from constraints.core.status import Status
from constraints.infinity.checker import check_route
from constraints.infinity.exposure import DEFAULT_SPACING_IN, Exposure, route_exposure
from constraints.infinity.route import Route
from optimizer.dispatch import require
from optimizer.routes.midpoint import with_midpoint
from optimizer.routes.network import Network
from optimizer.routes.request import RouteRequest
from optimizer.routes.result import RouteResult
from optimizer.routes.shortest import shortest_route

WAYPOINT_GRID_IN = 1.0
SCREEN_SPACING_IN = 0.5   # candidates are screened with coarse Line of Fire this far apart
MAX_WAYPOINTS = 400
WAYPOINTS_TRIED = 60  # the search's work budget (each costs a route and a coarse exposure)


def safest_route(scenario: Scenario, unit: str, target: tuple[float, ...],
                 skill: str = "move", prone: bool | None = None,
                 spacing_in: float = DEFAULT_SPACING_IN, time_limit_s: float = 10.0
                 ) -> tuple[RouteResult, Exposure | None]:
    """The safest route found (see the module's text) and its exposure; the shortest
    route's answer (and no exposure) when no legal route reaches the target."""
    require(scenario, "safest_route")
    if skill not in ("move", "move_move"):
        from constraints.errors import InvalidInputError

        raise InvalidInputError("the safest route walks: skill move or move_move",
                                path="skill")
    began = time.monotonic()
    shortest = shortest_route(scenario, unit, target, skill, prone)
    first = shortest.route()
    if first is None or not shortest.legal:
        return shortest, None
    request = RouteRequest.build(scenario, unit, target, skill, prone, 0.01)
    screen = max(spacing_in, SCREEN_SPACING_IN)
    best_route, best = first, route_exposure(scenario, first, screen, coarse=True)
    tried, found = 1, 1
    network = Network(scenario, request.trooper)
    candidates = _waypoints(request, network)
    clock_cut = False
    for _, w in candidates[:WAYPOINTS_TRIED]:
        if best.key()[:2] == (0, 0.0):
            break  # nobody can react and nothing is exposed: no route is safer
        if time.monotonic() - began > time_limit_s:
            clock_cut = True
            break
        route = _through(scenario, request, network, w)
        tried += 1
        if route is None:
            continue
        found += 1
        exposure = route_exposure(scenario, route, screen, coarse=True)
        if exposure.key() < best.key():
            best_route, best = route, exposure
    verdict = check_route(scenario, best_route)
    best = route_exposure(scenario, best_route, spacing_in)   # the answer's, in full
    if best_route is not first and route_exposure(scenario, first, spacing_in).key() \
            <= best.key():  # the screening misjudged: the shortest is as safe in full
        best_route, best, verdict = first, route_exposure(scenario, first, spacing_in), \
            check_route(scenario, first)
    cut = ", stopped by the time limit" if clock_cut else \
        f", at most {WAYPOINTS_TRIED} by length" if len(candidates) > WAYPOINTS_TRIED else ""
    family = (f"the shortest route and the shortest routes through one waypoint of a "
              f"{WAYPOINT_GRID_IN:g} in grid within the budget ({tried - 1} of "
              f"{len(candidates)} waypoints tried{cut}; {found} legal routes compared)")
    result = RouteResult(Status.FEASIBLE, unit, skill, best_route.path, best_route.midpoint,
                         verdict.length_in, shortest.bound_in, verdict,
                         reason=f"safest found among {family}", prone=prone,
                         extra={"mov_in": request.allowance_in,
                                "shortest_exposed": round(route_exposure(
                                    scenario, first, spacing_in).exposed_in, 6)
                                if best_route is not first else round(best.exposed_in, 6)})
    return result, best


def _waypoints(request: RouteRequest, network: Network) -> list[tuple[float, tuple[float, float]]]:
    """Grid points within the budget's ellipse on the start's walk region, by the straight
    detour's length (shortest first)."""
    (sx, sy), (tx, ty) = request.start[:2], request.target[:2]
    budget = request.allowance_in
    lo_x, hi_x = min(sx, tx) - budget, max(sx, tx) + budget
    lo_y, hi_y = min(sy, ty) - budget, max(sy, ty) + budget
    xs = np.arange(math.floor(lo_x), math.ceil(hi_x) + 1, WAYPOINT_GRID_IN)
    ys = np.arange(math.floor(lo_y), math.ceil(hi_y) + 1, WAYPOINT_GRID_IN)
    found = []
    for x in xs:
        for y in ys:
            detour = math.hypot(x - sx, y - sy) + math.hypot(tx - x, ty - y)
            if detour <= budget and network.stop("w", (x, y, request.start[2])) is not None:
                found.append((detour, (float(x), float(y))))
    found.sort()
    return found[:MAX_WAYPOINTS]


def _through(scenario: Scenario, request: RouteRequest, network: Network,
             w: tuple[float, float]) -> Route | None:
    """The legal route start -> w -> target of shortest legs, or None."""
    mid = (w[0], w[1], request.start[2])
    one = network.route(request.start, mid)
    two = network.route(mid, request.target)
    if one is None or two is None or one[1] + two[1] > request.allowance_in + 1e-9:
        return None
    path = one[0] + two[0][1:]
    route = Route(request.trooper.id, request.skill, path,
                  len(path) - 1 if request.skill == "move_move" else None, request.prone)
    if request.skill == "move_move":
        route, ok = with_midpoint(scenario, request, route)
        if not ok:
            return None
    return route if check_route(scenario, route).legal else None
