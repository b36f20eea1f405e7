"""Infinity N4: troopers on round bases, Silhouettes, scenery on levels, and the route
clauses.  Importing it registers the system (`constraints.core.system`) with its profile
`infinity-n4`."""

from __future__ import annotations

from types import MappingProxyType
from typing import TYPE_CHECKING

from constraints.core.profile import RulesProfile
from constraints.core.system import System, register_system
from constraints.infinity.route import Route
from constraints.infinity.scenery import TERRAIN_KINDS, read_terrain, terrain_to_json
from constraints.infinity.trooper import Trooper, named_ids, read_trooper, trooper_to_json

if TYPE_CHECKING:
    from constraints.core.scenario import Scenario
    from constraints.infinity.checker import RouteVerdict


# The route clauses and the walk regions are imported when a route is first read, judged or
# placed: a Ninth Age `manoeuvre check` then never loads them (benchmarks/bench_startup.py).
def route_from_json(data: object) -> Route:
    from constraints.infinity.route import route_from_json as read

    return read(data)


def check_route(scenario: Scenario[Trooper], route: Route) -> RouteVerdict:
    from constraints.infinity.checker import check_route as check

    return check(scenario, route)


def check_placement(scenario: Scenario[Trooper]) -> None:
    from constraints.infinity.placement import check_placement as check

    check(scenario)


# Routes are not Move Manoeuvres: their clauses are `constraints.infinity.clauses.ROUTE_CLAUSES`
# (as the nudge's are) and the skills (`route.SKILLS`) are not manoeuvres, so the searches
# of Move Manoeuvres refuse this profile as bad input.
PROFILE = RulesProfile("infinity-n4", "Infinity N4 General Movement Rules (seed 004)",
                       MappingProxyType({}),
                       MappingProxyType({"contact_tolerance": 0.001}), "infinity")

# The public queries (docs/api.md): a route judged (`check_move` judges a Route here),
# searched, and where a Move can end; Line of Fire, a route's exposure to the enemies'
# AROs, and the safest route (RULES §5.12).
QUERIES = frozenset({"check_move", "is_legal", "check_route", "shortest_route",
                     "reachable_area", "render", "line_of_fire", "route_exposure",
                     "safest_route"})

SYSTEM = System[Trooper, Route, "RouteVerdict"](
    "infinity", (PROFILE,), TERRAIN_KINDS, read_trooper, trooper_to_json, named_ids,
    route_from_json, check_route, read_terrain, terrain_to_json, check_placement,
    move_type=Route, queries=QUERIES, clause_kinds=("constraints.infinity.clauses.judged",))
register_system(SYSTEM)
