"""End-pose options: the discrete part of a unit's end pose (facing, files, way)."""

from __future__ import annotations

from dataclasses import dataclass

from constraints.geometry.plane import Point, rectangle_corners
from constraints.sat.lattice import HalfPlane

ORIGIN: Point = (0.0, 0.0)


@dataclass(frozen=True)
class Option:
    """One discrete end-pose choice.  Geometry in frame inches (the unit's start frame).

    Every option has an end facing (world, and relative to the start: 90 = unchanged) and an
    end formation (files, and the rectangle's size).  A Snaking way "Pivot, forward a, wheel,
    forward b" also has: the Pivot and wheel angles; `family_rows`, its own half-planes of
    end centres d (legs not backwards); the maps a = a_map . (d, 1), b = b_map . (d, 1); the
    centre's shift in the wheel and the legs' directions; the wheel's cost and the family's
    budget; `band` when it goes straight ahead off the lattice axes (its end centres are a
    line that may hold no lattice point, see optimizer.families.snaking).
    """

    index: int
    facing_deg: float
    frame_facing_deg: float
    files: int
    width_in: float
    depth_in: float
    pivot_deg: float = 0.0
    wheel_deg: float = 0.0
    family_rows: tuple[HalfPlane, ...] = ()
    a_map: tuple[float, float, float] = (0.0, 0.0, 0.0)
    b_map: tuple[float, float, float] = (0.0, 0.0, 0.0)
    wheel_shift: Point = (0.0, 0.0)
    first_dir: Point = (0.0, 0.0)
    end_dir: Point = (0.0, 0.0)
    wheel_cost_in: float = 0.0
    budget_in: float = 0.0
    band: bool = False

    @property
    def spare_in(self) -> float:
        """What the budget leaves for the forward legs after the wheel."""
        return self.budget_in - self.wheel_cost_in


def corner_offsets(option: Option) -> tuple[Point, Point, Point, Point]:
    """Frame offsets of the end corners (FL, FR, RR, RL) from the end centre."""
    return rectangle_corners(ORIGIN, option.frame_facing_deg, option.width_in, option.depth_in)


def corner_offset(option: Option, corner: int) -> Point:
    """Frame offset of one end corner (FL, FR, RR, RL) from the end centre."""
    return corner_offsets(option)[corner]


def front_offset(option: Option) -> Point:
    """Frame offset of the centre of the end Front Facing from the end centre."""
    fl, fr = corner_offsets(option)[:2]
    return ((fl[0] + fr[0]) / 2, (fl[1] + fr[1]) / 2)
