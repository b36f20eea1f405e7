"""A unit's start frame: origin at its start centre, x to its right, y forwards."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from constraints.geometry.plane import Point, unit_vector


@dataclass(frozen=True)
class Frame:
    """The unit's start frame: origin at its start centre, x to its right, y forwards."""

    origin: Point
    heading_deg: float

    def vector(self, v: Point) -> Point:
        fx, fy = unit_vector(self.heading_deg)
        return (v[0] * fy - v[1] * fx, v[0] * fx + v[1] * fy)

    def point(self, p: Point) -> Point:
        return self.vector((p[0] - self.origin[0], p[1] - self.origin[1]))

    def world(self, q: Point) -> Point:
        fx, fy = unit_vector(self.heading_deg)
        return (self.origin[0] + q[0] * fy + q[1] * fx, self.origin[1] - q[0] * fx + q[1] * fy)

    def point_array(self, p: np.ndarray) -> np.ndarray:
        """`point` for an (N, 2) array."""
        fx, fy = unit_vector(self.heading_deg)
        d = p - np.asarray(self.origin)
        return np.stack([d[:, 0] * fy - d[:, 1] * fx, d[:, 0] * fx + d[:, 1] * fy], axis=1)

    def world_array(self, q: np.ndarray) -> np.ndarray:
        """`world` for an (N, 2) array."""
        fx, fy = unit_vector(self.heading_deg)
        return np.stack([self.origin[0] + q[:, 0] * fy + q[:, 1] * fx,
                         self.origin[1] - q[:, 0] * fx + q[:, 1] * fy], axis=1)
