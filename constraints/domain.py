"""Frozen domain values: bases, poses, units, terrain, the battlefield and the scenario.

Lengths are inches; base sizes are mm as printed and converted once, here.  Changes return
new values (`with_pose`, `with_formation`); nothing is mutated in place.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from functools import cached_property
from typing import Any

import numpy as np
import shapely
from shapely.geometry import LineString, Polygon, box

from constraints.formation import Formation, Slot
from constraints.geometry import Point, local_to_world, mm_to_in, rectangle_corners
from constraints.paths import PathFinder, finder_for
from constraints.profiles import RulesProfile, profile_named


@dataclass(frozen=True)
class Base:
    """A rectangular base, frontage x depth in mm as printed."""

    frontage_mm: float
    depth_mm: float

    @property
    def width_in(self) -> float:
        return mm_to_in(self.frontage_mm)

    @property
    def depth_in(self) -> float:
        return mm_to_in(self.depth_mm)


@dataclass(frozen=True)
class Pose:
    """Centre of the Unit Boundary and the direction its Front Facing looks (degrees)."""

    centre: Point
    facing_deg: float


@dataclass(frozen=True)
class Unit:
    """A unit of models on matching rectangular bases in one formation."""

    id: str
    player: str
    base: Base
    formation: Formation
    pose: Pose
    mobility_in: float
    height: int = 1
    musician: bool = False
    light_troops: bool = False

    @property
    def files(self) -> int:
        return self.formation.files

    # Cached (the unit is immutable): option building asks for them thousands of times.
    @cached_property
    def width_in(self) -> float:
        return self.formation.files * self.base.width_in

    @cached_property
    def depth_in(self) -> float:
        return self.formation.ranks * self.base.depth_in

    def corners(self) -> tuple[Point, Point, Point, Point]:
        """Front-left, front-right, rear-right, rear-left corners of the Unit Boundary."""
        return rectangle_corners(self.pose.centre, self.pose.facing_deg, self.width_in,
                                 self.depth_in)

    def boundary(self) -> Polygon:
        return Polygon(self.corners())

    def front_facing(self) -> LineString:
        left, right = self.corners()[:2]
        return LineString([left, right])

    def slot_centre(self, slot: Slot) -> Point:
        rank, file = slot
        right = (file + 0.5) * self.base.width_in - self.width_in / 2.0
        fwd = self.depth_in / 2.0 - (rank + 0.5) * self.base.depth_in
        return local_to_world(self.pose.centre, self.pose.facing_deg, right, fwd)

    def model_positions(self) -> np.ndarray:
        """Base centres of every model, in `formation.layout()` order, shape (n, 2)."""
        return np.array([self.slot_centre(slot) for _, slot in self.formation.layout()])

    def model_ids(self) -> tuple[str, ...]:
        chars = {c.id for c in self.formation.characters}
        return tuple(key if key in chars else f"{self.id}.{key}"
                     for key, _ in self.formation.layout())

    def with_pose(self, pose: Pose) -> Unit:
        return replace(self, pose=pose)

    def with_formation(self, formation: Formation) -> Unit:
        return replace(self, formation=formation)


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


def union_of(shapes: list[Polygon]) -> shapely.Geometry:
    return shapely.union_all(shapes) if shapes else Polygon()
