"""Where a unit goes: Pivot, forward steps and wheels, and the area its Front Facing sweeps.

The swept area is what Unit Spacing and the table edge look at during Snaking Forward Moves
(docs/rules.md §3.3-3.4, §4.2): the front segment swept along straight legs (a parallelogram) and
wheels (a circumscribed sector, see `geometry.wheel_sweep`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import cached_property

import shapely
from shapely.geometry import LineString, Polygon

from constraints.core.scenario import Pose
from constraints.geometry.plane import rectangle_corners, rotate_about, unit_vector
from constraints.geometry.wheel import wheel_sweep
from constraints.rank_and_file.unit import Unit
from constraints.t9a.moves import Step, StepKind


@dataclass(frozen=True)
class Leg:
    """One executed step: its cost against the Snaking allowance and what its front swept."""

    step: Step
    before: Pose
    after: Pose
    cost_in: float
    sweep: shapely.Geometry


@dataclass(frozen=True)
class Trajectory:
    """An Advance or March as executed: start, after the Pivot, each leg, the end."""

    start: Pose
    after_pivot: Pose
    legs: tuple[Leg, ...]
    width_in: float
    depth_in: float

    @property
    def end(self) -> Pose:
        return self.legs[-1].after if self.legs else self.after_pivot

    @property
    def distance_in(self) -> float:
        """Snaking distance: forward legs by length, wheels by frontage x sin(angle)."""
        return math.fsum(leg.cost_in for leg in self.legs)

    def headings_after_wheels(self) -> list[float]:
        """Heading change from the post-Pivot heading after each wheel (unwrapped)."""
        total, out = 0.0, []
        for leg in self.legs:
            if leg.step.kind == StepKind.WHEEL:
                total += leg.step.value
                out.append(total)
        return out

    @cached_property
    def front_sweep(self) -> shapely.Geometry:
        """Everything the Front Facing covers from the end of the Pivot to the end."""
        parts = [front_segment(self.after_pivot, self.width_in, self.depth_in)]
        parts += [leg.sweep for leg in self.legs if not leg.sweep.is_empty]
        return shapely.union_all(parts)


def front_segment(pose: Pose, width_in: float, depth_in: float) -> LineString:
    left, right = rectangle_corners(pose.centre, pose.facing_deg, width_in, depth_in)[:2]
    return LineString([left, right])


def advance_step(pose: Pose, step: Step, width_in: float, depth_in: float) -> Leg:
    """Execute one forward or wheel step from `pose`."""
    left, right = rectangle_corners(pose.centre, pose.facing_deg, width_in, depth_in)[:2]
    if step.kind == StepKind.FORWARD:
        fx, fy = unit_vector(pose.facing_deg)
        dx, dy = fx * step.value, fy * step.value
        after = Pose((pose.centre[0] + dx, pose.centre[1] + dy), pose.facing_deg)
        moved = [(left[0] + dx, left[1] + dy), (right[0] + dx, right[1] + dy)]
        sweep = Polygon([left, right, moved[1], moved[0]]) if step.value > 0 else Polygon()
        return Leg(step, pose, after, abs(step.value), sweep)
    angle = step.value
    pivot, outer = (left, right) if angle > 0 else (right, left)
    centre = rotate_about(pose.centre, pivot, angle)
    after = Pose(centre, pose.facing_deg + angle)
    cost = width_in * abs(math.sin(math.radians(angle)))
    return Leg(step, pose, after, cost, wheel_sweep(pivot, outer, angle))


def snake(unit: Unit, pivot_deg: float, steps: tuple[Step, ...]) -> Trajectory:
    """Pivot `unit` about its centre, then execute `steps` in order."""
    start = unit.pose
    pose = Pose(start.centre, start.facing_deg + pivot_deg)
    after_pivot = pose
    legs = []
    for step in steps:
        leg = advance_step(pose, step, unit.width_in, unit.depth_in)
        legs.append(leg)
        pose = leg.after
    return Trajectory(start, after_pivot, tuple(legs), unit.width_in, unit.depth_in)
