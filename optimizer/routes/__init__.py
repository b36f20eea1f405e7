"""Infinity N4 routes and reachable areas (docs/rules.md §13.5-13.6)."""

from optimizer.routes.area import ReachableArea, reachable_area
from optimizer.routes.choose import route_to
from optimizer.routes.shortest import RouteResult, shortest_route

__all__ = ["ReachableArea", "RouteResult", "reachable_area", "route_to", "shortest_route"]
