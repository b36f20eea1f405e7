"""The reachable area of a trooper's Move: every spot where a Move of at most a MOV value
may end, per level (docs/rules.md §13.6).

The area is the geodesic disc of `reach` within the end zone (the base wholly on one
surface, clear of every trooper).  Two are computed: the inner area (inscribed discs,
circumscribed zones), every point of which a legal Move reaches, and the outer one (the
relaxed space, circumscribed discs), which holds every spot a legal Move reaches.  Their
areas are both reported; when the outer one is empty and the base may not stay where it
stands (a Move has no minimum), no Move is possible: Idle, proved.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import shapely

from constraints.core.jsonread import number
from constraints.core.scenario import Scenario
from constraints.core.status import Status
from constraints.errors import InvalidInputError
from constraints.infinity.checker import check_route
from constraints.infinity.route import AIRBORNE, Route
from constraints.infinity.trooper import MAX_MOV_IN, Trooper
from constraints.infinity.walk import Walk
from optimizer.dispatch import require
from optimizer.routes.reach import reachable
from optimizer.routes.request import RouteRequest


@dataclass(frozen=True)
class ReachableArea:
    status: Status                                  # FEASIBLE, or INFEASIBLE (Idle)
    unit: str
    mov_in: float
    levels: dict[float, shapely.Geometry]           # inner: surely reachable
    outer: dict[float, shapely.Geometry]            # holds every reachable spot
    skill: str = "move"

    @property
    def area_in2(self) -> float:
        return sum(g.area for g in self.levels.values())

    @property
    def outer_area_in2(self) -> float:
        return sum(g.area for g in self.outer.values())

    def to_json(self) -> dict[str, Any]:
        return {"status": str(self.status), "unit": self.unit, "skill": self.skill,
                "mov": self.mov_in,
                "area": round(self.area_in2, 6), "outer_area": round(self.outer_area_in2, 6),
                "levels": [{"level": level, "area": round(g.area, 6),
                            "polygons": _polygons(g)} for level, g in self.levels.items()]}


def reachable_area(scenario: Scenario, unit: str, mov_in: float | None = None,
                   prone: bool | None = None, skill: str = "move") -> ReachableArea:
    """Where `unit` may end a Move (or a Dodge, a Jump, a Climb) of at most `mov_in`
    (default: its first MOV value; 2" for a Dodge)."""
    require(scenario, "reachable_area")
    if skill == "move_move":
        raise InvalidInputError("the reachable area of Move + Move is not built: ask for a "
                                "Move's (or route --to a spot)", path="skill")
    # The scenario is Infinity's (require above): its units are troopers with a centre.
    request = RouteRequest.build(scenario, unit, scenario.unit(unit).centre if
                                 scenario.has_unit(unit) else (0.0, 0.0), skill, prone, 0.01)
    trooper = request.trooper
    budget = request.allowance_in if mov_in is None else \
        number(mov_in, "mov", minimum=0.0, maximum=MAX_MOV_IN)
    if skill in AIRBORNE:
        from optimizer.routes.air_reach import air_areas

        inner, outer = air_areas(request, skill, budget)
        return ReachableArea(Status.FEASIBLE if outer else Status.INFEASIBLE, unit, budget,
                             inner, outer, skill)
    inner = _by_level(scenario, trooper, request, budget, outer=False)
    outer = _by_level(scenario, trooper, request, budget, outer=True)
    # A Move has no minimum: staying put is a Move when the base may end where it stands,
    # so only an empty outer area and an illegal start prove Idle.
    stays = check_route(scenario, Route(unit, "move", (request.start,), prone=prone)).legal
    status = Status.FEASIBLE if outer or stays else Status.INFEASIBLE
    return ReachableArea(status, unit, budget, inner, outer, skill)


def _by_level(scenario: Scenario, trooper: Trooper, request: RouteRequest, budget: float,
              outer: bool) -> dict[float, shapely.Geometry]:
    walk = Walk.of(scenario, trooper, relaxed=outer)
    found: dict[float, list[shapely.Geometry]] = {}
    for region, area in reachable(scenario, trooper, request.start, budget, outer).items():
        ends = area.intersection(walk.end_zone(walk.regions[region]))
        for m in walk.regions[region].members:
            piece = walk.surfaces.pieces[m]
            if piece.standable:
                part = ends.intersection(piece.polygon)
                if not part.is_empty and part.area > 0.0:
                    found.setdefault(piece.top_in, []).append(part)
    return {level: shapely.union_all(parts) for level, parts in sorted(found.items())}


def _polygons(g: shapely.Geometry) -> list[list[list[list[float]]]]:
    """Each polygon as its rings (exterior first), each ring as [x, y] points."""
    out = []
    for poly in getattr(g, "geoms", [g]):
        if poly.geom_type != "Polygon" or poly.is_empty:
            continue
        rings = [poly.exterior, *poly.interiors]
        out.append([[[round(x, 6), round(y, 6)] for x, y in r.coords] for r in rings])
    return out
