"""Game-agnostic frozen values: poses, terrain, the battlefield and the scenario.

Lengths are inches.  Changes return new values (`with_unit`); nothing is mutated in place,
and nothing derived is cached on them (see `constraints.core.cache`).  The units are the
system's own values (`constraints.rank_and_file.unit.Unit` for T9A); the scenario asks of
them only an `id` and a `boundary()`.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from functools import cached_property
from typing import Any, Generic, Protocol, TypeVar

import numpy as np
import shapely
from shapely.geometry import Polygon, box

from constraints.core.jsonread import MAX_COUNT, number, point, text, whole
from constraints.core.profile import RulesProfile, find_profile
from constraints.errors import InvalidInputError
from constraints.geometry.plane import Point

U = TypeVar("U")


@dataclass(frozen=True)
class Pose:
    """Centre of the Unit Boundary and the direction its Front Facing looks (degrees)."""

    centre: Point
    facing_deg: float


class Feature(Protocol):
    """What shared code asks of a terrain feature: an id, a kind, a plane shape and whether
    it is impassable (T9A's `Terrain`; Infinity's scenery and ladders)."""

    @property
    def id(self) -> str: ...

    @property
    def kind(self) -> str: ...

    @property
    def shape(self) -> shapely.Geometry: ...

    @property
    def impassable(self) -> bool: ...


@dataclass(frozen=True)
class Terrain:
    """A terrain feature: an id, a kind and a simple polygon (inches)."""

    id: str
    kind: str
    polygon: tuple[Point, ...]
    test: int | None = None

    def __post_init__(self) -> None:
        object.__setattr__(self, "id", text(self.id, "id"))
        object.__setattr__(self, "kind", text(self.kind, "kind"))
        if self.test is not None:
            object.__setattr__(self, "test", whole(self.test, "test", minimum=1, maximum=6))
        polygon = self.polygon
        if isinstance(polygon, str | bytes) or not hasattr(polygon, "__len__") \
                or not 3 <= len(polygon) <= MAX_COUNT:
            raise InvalidInputError(f"expected 3 to {MAX_COUNT} points (x, y)", path="polygon")
        points = tuple(point(p, f"polygon[{i}]") for i, p in enumerate(polygon))
        object.__setattr__(self, "polygon", points)
        if shapely.MultiPoint(points).convex_hull.area <= 0:
            raise InvalidInputError("polygon is degenerate (zero area)", path="polygon")
        if not self.shape.is_valid:
            raise InvalidInputError(f"polygon is not simple: "
                                    f"{shapely.is_valid_reason(self.shape)}", path="polygon")

    @cached_property
    def shape(self) -> Polygon:
        return Polygon(self.polygon)

    @property
    def impassable(self) -> bool:
        return self.kind == "impassable"


@dataclass(frozen=True)
class Battlefield:
    width_in: float
    depth_in: float

    def __post_init__(self) -> None:
        for name in ("width_in", "depth_in"):
            object.__setattr__(self, name, number(getattr(self, name), name, positive=True))

    def area(self) -> Polygon:
        return box(0.0, 0.0, self.width_in, self.depth_in)

    def overhang_in(self, points: Any) -> float:
        """How far the farthest of `points` (an (n, 2) array) lies past a table edge (0 when
        every one is on the table)."""
        p = np.asarray(points, dtype=float)
        return max(float(-p.min()), float(p[:, 0].max() - self.width_in),
                   float(p[:, 1].max() - self.depth_in), 0.0)


@dataclass(frozen=True)
class Scenario(Generic[U]):
    """A battlefield, its terrain and its units, under one rules profile."""

    battlefield: Battlefield
    units: tuple[U, ...]
    terrain: tuple[Feature, ...] = ()
    rules: str = "t9a"
    rule_options: tuple[tuple[str, Any], ...] = ()
    active_player: str | None = None
    _index: dict[str, U] = field(default_factory=dict, init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        self._index.update({u.id: u for u in self.units})  # type: ignore[attr-defined]

    @cached_property
    def profile(self) -> RulesProfile:
        return find_profile(self.rules).with_options(dict(self.rule_options))

    @property
    def contact_tolerance(self) -> float:
        """The rule option `contact_tolerance` (A21): objects closer than this, a gap or an
        overlap, are in contact (0 for a profile without it: exact)."""
        value = self.profile.params.get("contact_tolerance", 0.0)
        return float(value) if isinstance(value, int | float) else 0.0

    def unit(self, unit_id: str) -> U:
        return self._index[unit_id]

    def has_unit(self, unit_id: str) -> bool:
        return unit_id in self._index

    def others(self, unit_id: str) -> tuple[U, ...]:
        return tuple(u for u in self.units if u.id != unit_id)  # type: ignore[attr-defined]

    def impassable(self) -> tuple[Feature, ...]:
        return tuple(t for t in self.terrain if t.impassable)

    def obstacles_for(self, unit_id: str) -> list[tuple[str, Polygon]]:
        """(label, shape) of everything Unit Spacing keeps `unit_id` away from."""
        found = [(f"unit {u.id}", u.boundary())  # type: ignore[attr-defined]
                 for u in self.others(unit_id)]
        found += [(f"impassable terrain {t.id}", t.shape) for t in self.impassable()]
        return found

    def with_unit(self, unit: U) -> Scenario[U]:
        units = tuple(unit if u.id == unit.id else u  # type: ignore[attr-defined]
                      for u in self.units)
        return replace(self, units=units)


def validate_manoeuvre(scenario: Scenario, unit_id: str, manoeuvre: str,
                       unit_path: str = "$.unit", manoeuvre_path: str = "$.manoeuvre") -> None:
    """Raise `InvalidInputError` unless the unit exists and its profile has the manoeuvre."""
    if not isinstance(scenario, Scenario):
        raise InvalidInputError(f"expected a Scenario, got {type(scenario).__name__}",
                                path="scenario")
    for value, where in ((unit_id, unit_path), (manoeuvre, manoeuvre_path)):
        if not isinstance(value, str):
            raise InvalidInputError(f"expected a string, got {type(value).__name__}",
                                    path=where)
    if not scenario.has_unit(unit_id):
        known = ", ".join(u.id for u in scenario.units)
        raise InvalidInputError(f"unknown unit {unit_id!r} (units: {known})", path=unit_path)
    if manoeuvre not in scenario.profile.manoeuvres:
        known = ", ".join(scenario.profile.manoeuvres) or "none: it has no Move Manoeuvres"
        raise InvalidInputError(f"manoeuvre {manoeuvre!r} is not in rules "
                                f"{scenario.profile.name!r} (known: {known})",
                                path=manoeuvre_path)
