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

from constraints.core.jsonread import Node
from constraints.core.scenario import Scenario
from constraints.errors import InvalidInputError
from constraints.infinity.scenery import MAX_HEIGHT_IN, Point3
from constraints.infinity.trooper import Trooper
from constraints.schema.errors import worded_by

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


@worded_by("route", "Route")
def route_from_json(data: Any) -> Route:
    f = Node(data).fields(("unit", "path"), ("skill", "midpoint", "prone", "manoeuvre"))
    skill = f["skill"].string() if "skill" in f else "move"
    if skill not in SKILLS:
        raise f["skill"].fail(f"unknown skill {skill!r} (known: {', '.join(SKILLS)})")
    if "manoeuvre" in f and f["manoeuvre"].string() != skill:
        raise f["manoeuvre"].fail(f"manoeuvre {f['manoeuvre'].value!r} is not the skill "
                                  f"{skill!r}")
    path = tuple(_point3(n) for n in f["path"].items(min_len=2 if skill in AIRBORNE else 1))
    if len(path) > MAX_POINTS:
        raise f["path"].fail(f"expected at most {MAX_POINTS} points, got {len(path)}")
    midpoint = None
    if skill == "move_move":
        if "midpoint" not in f:
            raise Node(data).fail("missing key 'midpoint' (where the first Move ends)")
        mid = _point3(f["midpoint"])
        hits = [i for i, p in enumerate(path) if math.dist(p, mid) <= SAME_POINT_IN]
        if not hits:
            raise f["midpoint"].fail("the midpoint is not one of the path's points")
        midpoint = hits[0]
    elif "midpoint" in f:
        raise f["midpoint"].fail("a midpoint goes only with skill 'move_move'")
    prone = f["prone"].boolean() if "prone" in f else None
    return Route(f["unit"].string(), skill, path, midpoint, prone)


def _point3(node: Node) -> Point3:
    x, y, z = node.items(length=3)
    return (x.number(), y.number(), z.number(minimum=0.0, maximum=MAX_HEIGHT_IN))


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
