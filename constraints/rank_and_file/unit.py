"""A rank-and-file unit: models on matching rectangular bases in one formation."""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import cached_property

import numpy as np
from shapely.geometry import Polygon

from constraints.core.scenario import Pose
from constraints.geometry.plane import Point, local_to_world, mm_to_in, rectangle_corners
from constraints.rank_and_file.formation import Formation, Slot


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
