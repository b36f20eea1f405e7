"""Where a unit goes: Pivot, forward steps, wheels and turns, and the area its front sweeps.

Shared by the rank-and-file systems, which differ in what a wheel and a turn cost (`Costs`):
T9A counts a wheel as the front's projection, W sin(angle); Warhammer as the outer corner's
arc, W x angle (or its chord), and a turn as a quarter of the Move.  The front's swept area
is what T9A's Unit Spacing and table edge look at during Snaking Forward Moves
(docs/rules.md §3.3-3.4, §4.2): the front segment swept along straight legs (a
parallelogram) and wheels (a circumscribed sector, see `geometry.wheel_sweep`).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cached_property

import shapely
from shapely.geometry import LineString, Polygon

from constraints.core.scenario import Pose
from constraints.geometry.parts import holding_union
from constraints.geometry.plane import rectangle_corners, rotate_about, unit_vector
from constraints.geometry.wheel import wheel_sweep
from constraints.rank_and_file.formation import Formation
from constraints.rank_and_file.steps import Step, StepKind
from constraints.rank_and_file.turns import turned
from constraints.rank_and_file.unit import Unit

# What a wheel costs for a frontage (inches) and an angle (degrees, either sign).
WheelCost = Callable[[float, float], float]


def projected(width_in: float, angle_deg: float) -> float:
    """The front's projection on the old facing: W |sin angle| (T9A)."""
    return width_in * abs(math.sin(math.radians(angle_deg)))


def arc(width_in: float, angle_deg: float) -> float:
    """The outer front corner's arc: W |angle| in radians (Warhammer)."""
    return width_in * abs(math.radians(angle_deg))


def chord(width_in: float, angle_deg: float) -> float:
    """The outer front corner's straight displacement: 2 W sin(|angle| / 2)."""
    return 2.0 * width_in * math.sin(abs(math.radians(angle_deg)) / 2.0)


@dataclass(frozen=True)
class Costs:
    """What a system charges for a wheel, and for a turn on the spot (inches)."""

    wheel: WheelCost = projected
    turn_in: float = 0.0


@dataclass(frozen=True)
class Leg:
    """One executed step: its cost against the Snaking allowance and what its front swept."""

    step: Step
    before: Pose
    after: Pose
    cost_in: float
    sweep: shapely.Geometry
    width_in: float   # the unit's frontage and depth through the leg (after it, for a turn)
    depth_in: float


@dataclass(frozen=True)
class Trajectory:
    """An Advance or March as executed: start, after the Pivot, each leg, the end."""

    start: Pose
    after_pivot: Pose
    legs: tuple[Leg, ...]
    width_in: float
    depth_in: float
    # The formation after the steps (a turn changes it; None: the start's).
    formation: Formation | None = field(default=None, compare=False)

    @property
    def end(self) -> Pose:
        return self.legs[-1].after if self.legs else self.after_pivot

    @property
    def poses(self) -> tuple[Pose, ...]:
        """The pose after the Pivot and after each leg: what a verdict's `poses` says."""
        return (self.after_pivot, *(leg.after for leg in self.legs))

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
    def front_sweep_parts(self) -> tuple[shapely.Geometry, ...]:
        """Everything the Front Facing covers from the end of the Pivot to the end, as parts:
        the front after the Pivot, then each leg's sweep.  Checkers measure these one by one
        (constraints.geometry.parts): GEOS's union of them can drop a piece of a leg."""
        parts = [front_segment(self.after_pivot, self.width_in, self.depth_in)]
        return tuple(parts + [leg.sweep for leg in self.legs if not leg.sweep.is_empty])

    @cached_property
    def front_sweep(self) -> shapely.Geometry:
        """The union of `front_sweep_parts` (checked to hold each), for drawing only: never
        measure it."""
        return holding_union(self.front_sweep_parts)


def front_segment(pose: Pose, width_in: float, depth_in: float) -> LineString:
    left, right = rectangle_corners(pose.centre, pose.facing_deg, width_in, depth_in)[:2]
    return LineString([left, right])


def advance_step(pose: Pose, step: Step, width_in: float, depth_in: float,
                 wheel_cost: WheelCost = projected) -> Leg:
    """Execute one forward or wheel step from `pose` (a turn needs the unit: `turn_leg`)."""
    left, right = rectangle_corners(pose.centre, pose.facing_deg, width_in, depth_in)[:2]
    if step.kind == StepKind.FORWARD:
        fx, fy = unit_vector(pose.facing_deg)
        dx, dy = fx * step.value, fy * step.value
        after = Pose((pose.centre[0] + dx, pose.centre[1] + dy), pose.facing_deg)
        moved = [(left[0] + dx, left[1] + dy), (right[0] + dx, right[1] + dy)]
        sweep = Polygon([left, right, moved[1], moved[0]]) if step.value > 0 else Polygon()
        return Leg(step, pose, after, abs(step.value), sweep, width_in, depth_in)
    angle = step.value
    pivot, outer = (left, right) if angle > 0 else (right, left)
    centre = rotate_about(pose.centre, pivot, angle)
    after = Pose(centre, pose.facing_deg + angle)
    return Leg(step, pose, after, wheel_cost(width_in, angle), wheel_sweep(pivot, outer, angle),
               width_in, depth_in)


def turn_leg(unit: Unit, step: Step, cost_in: float) -> tuple[Leg, Unit]:
    """Execute a turn on the spot (constraints.rank_and_file.turns); the front sweeps
    nothing a forward move would (the models turn where they stand)."""
    after = turned(unit, step.value)
    return Leg(step, unit.pose, after.pose, cost_in, Polygon(), after.width_in,
               after.depth_in), after


def snake(unit: Unit, pivot_deg: float, steps: tuple[Step, ...],
          costs: Costs = Costs()) -> Trajectory:
    """Pivot `unit` about its centre, then execute `steps` in order."""
    start = unit.pose
    after_pivot = Pose(start.centre, start.facing_deg + pivot_deg)
    moving = unit.with_pose(after_pivot)
    legs = []
    for step in steps:
        if step.kind == StepKind.TURN:
            leg, moving = turn_leg(moving, step, costs.turn_in)
        else:
            leg = advance_step(moving.pose, step, moving.width_in, moving.depth_in, costs.wheel)
            moving = moving.with_pose(leg.after)
        legs.append(leg)
    turns = any(step.kind == StepKind.TURN for step in steps)
    return Trajectory(start, after_pivot, tuple(legs), unit.width_in, unit.depth_in,
                      moving.formation if turns else None)
