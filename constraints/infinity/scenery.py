"""Scenery on levels, and the ladders and stairs between them (docs/formats.md, "Infinity
N4"; docs/rules.md §13.2).

A `building` or an `obstacle` is a prism: a footprint polygon standing on the surface at
height `level`, rising `height` inches.  A building's roof is a surface troopers may stand
on; an obstacle (a wall, a fence, a crate) is never a place to stop.  A `ladder` or
`stairs` joins the point where a trooper's base centre stands on one surface to one on
another; a Move along it is measured along it (its 3-D length).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import cached_property
from typing import Any

import shapely
from shapely.geometry import LineString

from constraints.core.scenario import Terrain
from constraints.errors import InvalidInputError

PRISMS = ("building", "obstacle")
CONNECTORS = ("ladder", "stairs")
TERRAIN_KINDS = PRISMS + CONNECTORS
MAX_HEIGHT_IN = 100.0

Point3 = tuple[float, float, float]


@dataclass(frozen=True)
class Scenery(Terrain):
    """A prism of scenery: `polygon` rising `height_in` from the surface at `level_in`."""

    height_in: float = 0.0
    level_in: float = 0.0

    @property
    def top_in(self) -> float:
        return self.level_in + self.height_in

    @property
    def standable(self) -> bool:
        """Whether its roof is a surface to stand on (buildings; not walls or crates)."""
        return self.kind == "building"


@dataclass(frozen=True)
class Connector:
    """A ladder or stairs from one surface point to another (base centres), measured along."""

    id: str
    kind: str
    start: Point3
    end: Point3

    @property
    def impassable(self) -> bool:
        return False

    @cached_property
    def shape(self) -> LineString:
        return LineString([self.start[:2], self.end[:2]])

    @property
    def length_in(self) -> float:
        return math.dist(self.start, self.end)


def read_terrain(model: Any, path: str) -> Scenery | Connector:
    """A prism or a connector from its validated model (`constraints.schema.units.Prism`,
    `Connector`); the polygon and the two levels of a connector are judged here."""
    if model.kind in CONNECTORS:
        start, end = tuple(model.from_), tuple(model.to)
        if start[2] == end[2]:
            raise InvalidInputError(f"a {model.kind} joins two levels; both ends are at "
                                    f"{start[2]:g} in", path=f"{path}.to")
        return Connector(model.id, model.kind, start, end)
    try:
        return Scenery(model.id, model.kind, tuple(model.polygon), None, model.height,
                       model.level)
    except InvalidInputError as exc:
        raise exc.at(f"{path}.polygon" if exc.path == "polygon" else path) from None


def terrain_to_json(t: Any) -> dict[str, Any]:
    if isinstance(t, Connector):
        return {"id": t.id, "kind": t.kind, "from": list(t.start), "to": list(t.end)}
    out: dict[str, Any] = {"id": t.id, "kind": t.kind, "polygon": [list(p) for p in t.polygon],
                           "height": t.height_in}
    if t.level_in:
        out["level"] = t.level_in
    return out


def prisms(terrain: tuple[Any, ...]) -> tuple[Scenery, ...]:
    return tuple(t for t in terrain if isinstance(t, Scenery))


def connectors(terrain: tuple[Any, ...]) -> tuple[Connector, ...]:
    return tuple(t for t in terrain if isinstance(t, Connector))


def footprint(s: Scenery) -> shapely.Geometry:
    return s.shape
