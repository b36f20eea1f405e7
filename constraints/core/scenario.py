"""Frozen domain values: bases, poses, units, terrain, the battlefield and the scenario.

Lengths are inches; base sizes are mm as printed and converted once, here.  Changes return
new values (`with_pose`, `with_formation`); nothing is mutated in place.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from functools import cached_property
from typing import TYPE_CHECKING, Any

from shapely.geometry import Polygon, box

from constraints.core.profile import RulesProfile
from constraints.geometry.paths import PathFinder, finder_for
from constraints.geometry.plane import Point
from constraints.t9a.profiles import profile_named

if TYPE_CHECKING:
    from constraints.rank_and_file.unit import Unit


@dataclass(frozen=True)
class Pose:
    """Centre of the Unit Boundary and the direction its Front Facing looks (degrees)."""

    centre: Point
    facing_deg: float




TERRAIN_KINDS = ("impassable", "dangerous")


@dataclass(frozen=True)
class Terrain:
    """A terrain feature: an id, a kind and a simple polygon (inches)."""

    id: str
    kind: str
    polygon: tuple[Point, ...]
    test: int | None = None

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

    def area(self) -> Polygon:
        return box(0.0, 0.0, self.width_in, self.depth_in)


@dataclass(frozen=True)
class Scenario:
    """A battlefield, its terrain and its units, under one rules profile."""

    battlefield: Battlefield
    units: tuple[Unit, ...]
    terrain: tuple[Terrain, ...] = ()
    rules: str = "t9a"
    rule_options: tuple[tuple[str, Any], ...] = ()
    active_player: str | None = None
    _index: dict[str, Unit] = field(default_factory=dict, init=False, repr=False, compare=False)
    # Derived data shared by queries on this (immutable) scenario, e.g. path finders.
    memo: dict = field(default_factory=dict, init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        self._index.update({u.id: u for u in self.units})

    @cached_property
    def profile(self) -> RulesProfile:
        return profile_named(self.rules).with_options(dict(self.rule_options))

    def unit(self, unit_id: str) -> Unit:
        return self._index[unit_id]

    def has_unit(self, unit_id: str) -> bool:
        return unit_id in self._index

    def others(self, unit_id: str) -> tuple[Unit, ...]:
        return tuple(u for u in self.units if u.id != unit_id)

    def impassable(self) -> tuple[Terrain, ...]:
        return tuple(t for t in self.terrain if t.impassable)

    def path_finder(self, unit_id: str, clearance_in: float) -> PathFinder:
        """Paths around everything `unit_id`'s models must avoid, built once per scenario."""
        shapes = [shape for _, shape in self.obstacles_for(unit_id)]
        return finder_for(self.memo, ("paths", unit_id, clearance_in), shapes, clearance_in)

    def obstacles_for(self, unit_id: str) -> list[tuple[str, Polygon]]:
        """(label, shape) of everything Unit Spacing keeps `unit_id` away from."""
        found = [(f"unit {u.id}", u.boundary()) for u in self.others(unit_id)]
        found += [(f"impassable terrain {t.id}", t.shape) for t in self.impassable()]
        return found

    def with_unit(self, unit: Unit) -> Scenario:
        units = tuple(unit if u.id == unit.id else u for u in self.units)
        return replace(self, units=units)


