"""Declared routes (docs/formats.md, "Infinity N4"): a trooper's Move, two Moves of one
Order with the point where the first ends, a Dodge, a Jump or a Climb, as a polyline of
points (x, y, level).

`{"unit": "fusilier", "skill": "move", "path": [[10, 12, 0], [14, 16, 0]]}`; for two Moves
`"skill": "move_move"` and `"midpoint": [x, y, level]`, one of the path's points; optional
`"prone": true|false` enters or leaves Prone at the start (no cost, docs/rules.md §13.1).
`"skill": "dodge"` walks like a Move (up to 2").  For `"jump"` and `"climb"` the points are
the base's underside centre in the air: every vertical part written out (a point straight
above the last), the last point the landing spot on a surface (docs/formats.md).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from constraints.core.scenario import Scenario
from constraints.errors import InvalidInputError
from constraints.infinity.scenery import Point3
from constraints.infinity.trooper import Trooper

SKILLS = ("move", "move_move", "dodge", "jump", "climb")
WALKS = frozenset({"move", "move_move", "dodge"})   # along surfaces, measured in the plane
AIRBORNE = frozenset({"jump", "climb"})             # through the air, points in 3-D
DODGE_IN = 2.0                                       # a Dodge moves up to 2" (RULES §5.10)
MAX_POINTS = 10_000
SAME_POINT_IN = 1e-6


@dataclass(frozen=True)
class Route:
    unit: str
    skill: str
    path: tuple[Point3, ...]
    midpoint: int | None = None     # index into `path` where the first Move ends
    prone: bool | None = None       # None: as the trooper stands

    @property
    def manoeuvre(self) -> str:
        return self.skill

    def moves(self) -> list[tuple[Point3, ...]]:
        """The path of each Move (one, or two split at the midpoint)."""
        if self.midpoint is None:
            return [self.path]
        return [self.path[:self.midpoint + 1], self.path[self.midpoint:]]

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"unit": self.unit, "skill": self.skill,
                               "path": [list(p) for p in self.path]}
        if self.midpoint is not None:
            out["midpoint"] = list(self.path[self.midpoint])
        if self.prone is not None:
            out["prone"] = self.prone
        return out


def route_from_json(data: Any) -> Route:
    """A route from its parsed JSON: the route model decides what is accepted
    (constraints/schema/route.py); the midpoint is found among the path's points here."""
    from constraints.schema.errors import read_as

    return route_from_model(read_as("route:Route", data))


def route_from_model(model: Any) -> Route:
    """The route a validated `constraints.schema.route.Route` describes."""
    path = tuple(tuple(p) for p in model.path)
    midpoint = None
    if model.midpoint is not None:
        mid = tuple(model.midpoint)
        hits = [i for i, p in enumerate(path) if math.dist(p, mid) <= SAME_POINT_IN]
        if not hits:
            raise InvalidInputError("the midpoint is not one of the path's points",
                                    path="$.midpoint")
        midpoint = hits[0]
    return Route(model.unit, model.skill, path, midpoint, model.prone)


def trooper_of(scenario: Scenario, route: Route) -> Trooper:
    """The trooper as it moves (Prone entered or left at the start); bad input when the
    unit is unknown or the path does not start where it stands."""
    if not scenario.has_unit(route.unit):
        known = ", ".join(u.id for u in scenario.units)
        raise InvalidInputError(f"unknown unit {route.unit!r} (units: {known})", path="$.unit")
    trooper: Trooper = scenario.unit(route.unit)
    if trooper.marker:
        raise InvalidInputError(f"{trooper.id!r} is a marker: it does not move", path="$.unit")
    start = (*trooper.centre, trooper.level_in)
    if math.dist(route.path[0], start) > SAME_POINT_IN:
        raise InvalidInputError(f"the path starts at {_show(route.path[0])}, not where "
                                f"{trooper.id!r} stands {_show(start)}", path="$.path[0]")
    return trooper if route.prone is None else trooper.with_prone(route.prone)


def _show(p: Point3) -> str:
    return "(" + ", ".join(f"{v:g}" for v in p) + ")"
