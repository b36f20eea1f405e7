"""What a picture shows of one move, whatever the game: the unit at the start and the end,
the area it swept (and what that area is), the path of its centre, the arcs its wheels'
outer corners ran along and where it turned on the spot; and the parts each system's
sketcher (optimizer.pictures.sketchers) builds one from, so the drawing code never reads a
system's moves itself."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import shapely

from constraints.core.scenario import Pose
from constraints.geometry.plane import Point, rectangle_corners
from constraints.rank_and_file.kinematics import Trajectory, advance_step
from constraints.rank_and_file.steps import Step, StepKind

WHEEL_SAMPLES = 16  # points per wheel on a drawn path


@dataclass(frozen=True)
class MoveSketch:
    """One move as drawn (world inches; corners front-left, front-right, rear-right,
    rear-left)."""

    unit: str
    start: tuple[Point, ...]
    end: tuple[Point, ...]
    end_files: int
    swept: shapely.Geometry | None = None
    swept_label: str = ""
    centre_path: list[Point] = field(default_factory=list)  # empty: no path measured
    arcs: list[list[Point]] = field(default_factory=list)
    turns: list[tuple[Point, float]] = field(default_factory=list)
    steps: list[tuple[Point, str]] = field(default_factory=list)  # where each step ends


def step_marks(trajectory: Trajectory) -> list[tuple[Point, str]]:
    """Where the centre is after each step, and the step, numbered from 1 ("2 wheel -45°")."""
    marks = []
    for number, leg in enumerate(trajectory.legs, start=1):
        value = leg.step.value
        what = f'{value:.2f}"' if leg.step.kind is StepKind.FORWARD else f"{value:+g}°"
        marks.append((leg.after.centre, f"{number} {leg.step.kind.value} {what}"))
    return marks


def centre_path(trajectory: Trajectory) -> list[Point]:
    """The centre of the Unit Boundary through the steps: straight forwards, wheels as arcs
    (sampled), turns as the jump they make."""
    path: list[Point] = [trajectory.after_pivot.centre]
    for leg in trajectory.legs:
        if leg.step.kind is StepKind.WHEEL:
            for part in np.linspace(0.0, 1.0, WHEEL_SAMPLES + 1)[1:-1]:
                step = Step(StepKind.WHEEL, float(leg.step.value * part))
                path.append(advance_step(leg.before, step, leg.width_in,
                                         leg.depth_in).after.centre)
        path.append(leg.after.centre)
    return path


def outer_arcs(trajectory: Trajectory) -> list[list[Point]]:
    """Per wheel, the path of its outer front corner (what a Warhammer wheel costs)."""
    arcs = []
    for leg in trajectory.legs:
        if leg.step.kind is StepKind.WHEEL:
            width, depth = leg.width_in, leg.depth_in
            arc = []
            for part in np.linspace(0.0, 1.0, WHEEL_SAMPLES + 1):
                step = Step(StepKind.WHEEL, float(leg.step.value * part))
                after = advance_step(leg.before, step, width, depth).after
                arc.append(_outer_corner(after, width, depth, leg.step.value))
            arcs.append(arc)
    return arcs


def _outer_corner(pose: Pose, width: float, depth: float, angle: float) -> Point:
    left, right = rectangle_corners(pose.centre, pose.facing_deg, width, depth)[:2]
    return right if angle > 0 else left
