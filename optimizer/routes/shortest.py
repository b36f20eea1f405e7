"""The shortest route of a trooper's Move (or Move + Move) to a point, with a proof
(docs/rules.md §13.5).

The route is a shortest path through the free space with its zones circumscribed
(`Network`), so the exact checker accepts it; the same search through the free space with
its zones inscribed (relaxed) gives a length no legal route beats.  OPTIMAL: the two are
within `tolerance_in`; INFEASIBLE (Idle): even the relaxed space has no route, or the
target is no place to stand; NOT_FOUND: only the circumscribed space has none (the way
needs less than 0.001" more room than the rounding leaves).  Every route is judged by the
exact checker before it is returned.
"""

from __future__ import annotations

from typing import Any

from constraints.core.scenario import Scenario
from constraints.core.status import Status
from constraints.errors import EncodingMismatchError, InvalidInputError
from constraints.infinity.checker import RouteVerdict, check_route
from constraints.infinity.clauses import ROUTE_CLAUSES, Kept
from constraints.infinity.route import AIRBORNE, Route
from constraints.infinity.trooper import Trooper
from optimizer.dispatch import require
from optimizer.routes.midpoint import detour, meeting_impossible, with_midpoint
from optimizer.routes.network import Network
from optimizer.routes.request import RouteRequest
from optimizer.routes.result import RouteResult

__all__ = ["MAY_BREAK", "RouteResult", "shortest_route"]

# Clauses a shortest route may break and still be the answer: the MOV budget, or where a
# Move ends.  The search's free space keeps every other: a break of one is our bug.
MAY_BREAK = frozenset(c.id for c in ROUTE_CLAUSES if c.kept is not Kept.FREE_SPACE)


def shortest_route(scenario: Scenario, unit: str, target: tuple[float, ...],
                   skill: str = "move", prone: bool | None = None,
                   tolerance_in: float = 0.01) -> RouteResult:
    """The shortest route of `unit` to `target` (x, y[, level]); see the module's text."""
    require(scenario, "shortest_route")
    request = RouteRequest.build(scenario, unit, target, skill, prone, tolerance_in)
    base: dict[str, Any] = dict(unit=unit, skill=skill, tolerance_in=tolerance_in,
                                extra={"mov_in": request.allowance_in}, prone=prone)
    if skill in AIRBORNE:
        from optimizer.routes.air import shortest_climb, shortest_jump

        return (shortest_jump if skill == "jump" else shortest_climb)(request, base)
    upper = Network(scenario, request.trooper).route(request.start, request.target)
    lower = Network(scenario, request.trooper, relaxed=True).route(request.start,
                                                                   request.target)
    if upper is None:
        if lower is None:
            return RouteResult(Status.INFEASIBLE, reason=request.why_none(), **base)
        return RouteResult(Status.NOT_FOUND, bound_in=lower[1], reason="a route exists only "
                           "within 0.001 in of the clearances the rules require", **base)
    path, length = upper
    bound = lower[1] if lower is not None else length
    route = Route(unit, skill, path, len(path) - 1 if skill == "move_move" else None, prone)
    if skill == "move_move":
        route, on_shortest = with_midpoint(scenario, request, route)
        if not on_shortest:
            return _two_moves(scenario, request, route, bound, base)
    verdict = _checked(scenario, route)
    if verdict.cut_at is not None:
        return _cut_short(verdict, bound, base)
    status = Status.OPTIMAL if length - bound <= tolerance_in else Status.FEASIBLE
    return RouteResult(status, path=route.path, midpoint=route.midpoint, length_in=length,
                       bound_in=bound, verdict=verdict, **base)


def _two_moves(scenario: Scenario, request: RouteRequest, shortest: Route, bound: float,
               base: dict[str, Any]) -> RouteResult:
    """Move + Move when the shortest route has no legal place for the first Move to end."""
    if bound > request.allowance_in + 1e-9:
        verdict = _checked(scenario, shortest)
        return RouteResult(Status.INFEASIBLE, path=shortest.path, midpoint=shortest.midpoint,
                           length_in=verdict.length_in, bound_in=bound, verdict=verdict,
                           reason=f"no route is shorter than {bound:.3f} in, more than both "
                           f"MOV values: Idle", **base)
    found = detour(scenario, request)
    if found is not None:
        verdict = _checked(scenario, found)
        if verdict.cut_at is not None:
            return _cut_short(verdict, bound, base)
        return RouteResult(Status.FEASIBLE, path=found.path, midpoint=found.midpoint,
                           length_in=verdict.length_in, bound_in=bound, verdict=verdict,
                           reason="the shortest route has no legal spot for the first Move to "
                           "end; this longer one has", **base)
    if meeting_impossible(scenario, request):
        verdict = _checked(scenario, shortest)
        return RouteResult(Status.INFEASIBLE, path=shortest.path, midpoint=shortest.midpoint,
                           length_in=verdict.length_in, bound_in=bound, verdict=verdict,
                           reason="no spot where the base may stand is within the first MOV "
                           "value of the start and the second of the target: Idle", **base)
    return RouteResult(Status.NOT_FOUND, bound_in=bound, reason="no legal spot for the first "
                       "Move to end was found; none is ruled out either", **base)


def _cut_short(verdict: RouteVerdict, bound: float, base: dict[str, Any]) -> RouteResult:
    """The route found meets an enemy's Silhouette on the way (on another level: the free
    space keeps its own region's enemies out), so the Move would end there (A22): it does
    not reach the target, and routes round that contact are not searched."""
    x, y, z = verdict.cut_at or (0.0, 0.0, 0.0)
    return RouteResult(Status.NOT_FOUND, bound_in=bound, reason=(
        f"the shortest route meets the Silhouette of enemy {', '.join(verdict.contact)} at "
        f"({x:.3f}, {y:.3f}, level {z:.3f}), where the Move would end; routes round it are "
        "not searched"), **base)


def _checked(scenario: Scenario, route: Route) -> RouteVerdict:
    verdict = check_route(scenario, route)
    wrong = [v for v in verdict.violations if v.clause not in MAY_BREAK]
    if wrong:
        raise EncodingMismatchError(f"the shortest route breaks {wrong[0].clause}: "
                                    f"{wrong[0].message}")
    return verdict


def trooper_for(scenario: Scenario, unit: str) -> Trooper:
    if not scenario.has_unit(unit):
        known = ", ".join(u.id for u in scenario.units)
        raise InvalidInputError(f"unknown unit {unit!r} (units: {known})", path="unit")
    found: Trooper = scenario.unit(unit)
    return found
