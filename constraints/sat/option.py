"""End-pose options: the discrete part of a unit's end pose (facing, files, way)."""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

from constraints.geometry.plane import Point, unit_vector
from constraints.sat.lattice import HalfPlane


@dataclass(frozen=True)
class Option:
    """One discrete end-pose choice.  Geometry in frame inches.

    For Snaking Forward Moves the end centre d maps to the forward legs by
    a = a_map . (d, 1) and b = b_map . (d, 1); `first_leg_max_in` bounds a by the swept
    Front Facing (first leg and wheel, see constraints.options).
    """

    index: int
    facing_deg: float          # world heading at the end
    files: int
    width_in: float
    depth_in: float
    pivot_deg: float = 0.0
    wheel_deg: float = 0.0
    reach: tuple[HalfPlane, ...] = ()
    a_map: tuple[float, float, float] = (0.0, 0.0, 0.0)
    b_map: tuple[float, float, float] = (0.0, 0.0, 0.0)
    first_leg_max_in: float = math.inf
    info: dict[str, Any] = field(default_factory=dict, compare=False)

    @property
    def frame_facing_deg(self) -> float:
        """End facing relative to the start facing."""
        return self.info["frame_facing_deg"]


def corner_offset(option: Option, corner: int) -> Point:
    """Frame offset of an end corner (FL, FR, RR, RL) from the end centre."""
    hw, hd = option.width_in / 2.0, option.depth_in / 2.0
    local = [(-hw, hd), (hw, hd), (hw, -hd), (-hw, -hd)][corner]
    fx, fy = unit_vector(option.frame_facing_deg)
    rx, ry = fy, -fx
    return (local[0] * rx + local[1] * fx, local[0] * ry + local[1] * fy)


def front_offset(option: Option) -> Point:
    """Frame offset of the centre of the end Front Facing from the end centre."""
    fl, fr = corner_offset(option, 0), corner_offset(option, 1)
    return ((fl[0] + fr[0]) / 2, (fl[1] + fr[1]) / 2)
