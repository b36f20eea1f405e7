"""The area the whole unit covers while it moves (Warhammer's 1" rule, docs/rules.md §14: the
whole unit, not only its front, keeps away from other units throughout the move).

- A forward leg: the rectangle slid along a segment, the convex hull of start and end.
- A wheel about a front corner: the rectangle at the start and at the end, and what each of
  its edges sweeps turning about that corner.  A point of a rotating convex shape that is in
  neither the first nor the last copy crossed an edge on the way, so these parts are the
  sweep exactly; arcs are drawn circumscribed (outer) or by chords (inner), so the polygon
  holds the true area and exceeds it by at most ARC_STEP_DEG's overshoot.
- A turn on the spot: every model turns where it stands (a disc of its half diagonal), then
  the command group and leftovers step round inside the hull of the unit before and after
  (decision: their paths are not drawn one by one).
"""

from __future__ import annotations

import math

import numpy as np
import shapely
from shapely.geometry import MultiPoint, Polygon

from constraints.core.scenario import Pose
from constraints.geometry.parts import holding_union
from constraints.geometry.plane import Point, rotate_about
from constraints.geometry.wheel import ARC_STEP_DEG
from constraints.rank_and_file.kinematics import advance_step
from constraints.rank_and_file.steps import Step, StepKind
from constraints.rank_and_file.turns import turned
from constraints.rank_and_file.unit import Unit

QUAD_SEGS = 8  # arc segments per quarter circle of a model's turning disc
SPLIT_IN = 1e-9  # a segment is split at the foot of the perpendicular only this far in


def unit_sweep(unit: Unit, steps: tuple[Step, ...]) -> shapely.Geometry:
    """Everything the unit's boundary covers from its pose through `steps` (circumscribed):
    the union of `unit_sweep_parts` checked to hold each (for masks, encodings, pictures);
    checkers measure the parts."""
    return holding_union(unit_sweep_parts(unit, steps))


def unit_sweep_parts(unit: Unit, steps: tuple[Step, ...]) -> list[shapely.Geometry]:
    """The parts whose union is `unit_sweep`, never overlaid: GEOS's union can drop a piece
    of a part, so a checker measures each (constraints.geometry.parts)."""
    parts: list[shapely.Geometry] = [unit.boundary()]
    moving = unit
    for step in steps:
        area, moving = step_parts(moving, step)
        parts.extend(area)
    return parts


def step_sweep(unit: Unit, step: Step) -> tuple[shapely.Geometry, Unit]:
    """The area one step covers, and the unit after it."""
    parts, after = step_parts(unit, step)
    return (parts[0] if len(parts) == 1 else holding_union(parts)), after


def step_parts(unit: Unit, step: Step) -> tuple[list[shapely.Geometry], Unit]:
    """The parts of the area one step covers, and the unit after it."""
    if step.kind is StepKind.TURN:
        after = turned(unit, step.value)
        return turn_parts(unit, after), after
    corners = unit.corners()
    if step.kind is StepKind.FORWARD:
        leg = advance_step(unit.pose, step, unit.width_in, unit.depth_in)
        after = unit.with_pose(leg.after)
        return [MultiPoint(corners + after.corners()).convex_hull], after
    pivot = corners[0] if step.value > 0 else corners[1]
    return wheel_parts(corners, pivot, step.value), _wheeled(unit, pivot, step.value)


def _wheeled(unit: Unit, pivot: Point, angle_deg: float) -> Unit:
    centre = rotate_about(unit.pose.centre, pivot, angle_deg)
    return unit.with_pose(Pose(centre, unit.pose.facing_deg + angle_deg))


def wheel_area(corners: tuple[Point, ...], pivot: Point, angle_deg: float) -> shapely.Geometry:
    """A convex polygon (`corners`) turned by `angle_deg` about `pivot`, everything between."""
    return holding_union(wheel_parts(corners, pivot, angle_deg))


def wheel_parts(corners: tuple[Point, ...], pivot: Point,
                angle_deg: float) -> list[shapely.Geometry]:
    """The parts of `wheel_area`: the polygon before and after, and what each edge sweeps."""
    if angle_deg == 0:
        return [Polygon(corners)]
    last = Polygon([rotate_about(c, pivot, angle_deg) for c in corners])
    parts: list[shapely.Geometry] = [Polygon(corners), last]
    for a, b in zip(corners, corners[1:] + corners[:1], strict=True):
        parts.extend(segment_sweep(a, b, pivot, angle_deg))
    return parts


def segment_sweep(a: Point, b: Point, pivot: Point, angle_deg: float) -> list[Polygon]:
    """What segment a-b sweeps turning about `pivot`: one region per piece of it along which
    the distance from the pivot only grows (`monotone_pieces`)."""
    return [_monotone_sweep(near, far, pivot, angle_deg)
            for near, far in monotone_pieces(a, b, pivot)]


def monotone_pieces(a: Point, b: Point, pivot: Point,
                    least_in: float = 0.0) -> list[tuple[Point, Point]]:
    """The pieces of segment a-b, longer than `least_in`, along which the distance from the
    pivot only grows, (near, far) each: split at the foot of the perpendicular."""
    ax, ay, bx, by = a[0] - pivot[0], a[1] - pivot[1], b[0] - pivot[0], b[1] - pivot[1]
    dx, dy = bx - ax, by - ay
    length2 = dx * dx + dy * dy
    t = 0.0 if length2 == 0 else -(ax * dx + ay * dy) / length2
    foot = (pivot[0] + ax + t * dx, pivot[1] + ay + t * dy)
    # A foot within SPLIT_IN of an end is not split at: the piece it would cut off has no
    # length, and its sweep (a ring of two arcs of one point) crosses itself, which
    # make_valid mends at a thousand vertices' cost.  Unsplit, the distance along the piece
    # dips by at most SPLIT_IN (a rounding error) within SPLIT_IN of its near end.
    split = math.sqrt(length2) * min(t, 1.0 - t) > SPLIT_IN
    pieces = [(foot, a), (foot, b)] if split else \
        [(a, b) if math.dist(a, pivot) <= math.dist(b, pivot) else (b, a)]
    return [(near, far) for near, far in pieces if math.dist(near, far) > least_in]


def _monotone_sweep(near: Point, far: Point, pivot: Point, angle_deg: float) -> Polygon:
    """Between the piece at the start and at the end: the far end's arc drawn outside its
    circle, the near end's by chords inside its own (both only enlarge the region)."""
    steps = max(1, math.ceil(abs(angle_deg) / ARC_STEP_DEG))
    outer = arc_points(far, pivot, angle_deg, steps, circumscribed=True)
    inner = arc_points(near, pivot, angle_deg, steps, circumscribed=False)[::-1]
    ring = np.vstack([[near, far], outer, inner])
    sweep = shapely.polygons(ring)
    # make_valid returns a valid polygon unchanged, at a hundred times is_valid's cost.
    return sweep if shapely.is_valid(sweep) else shapely.make_valid(sweep)


def arc_points(point: Point, pivot: Point, angle_deg: float, steps: int,
         circumscribed: bool) -> np.ndarray:
    """Points along `point`'s arc about `pivot`, from just after it to its turned place."""
    radius = math.dist(point, pivot)
    start = math.atan2(point[1] - pivot[1], point[0] - pivot[0])
    step = math.radians(angle_deg) / steps
    if circumscribed:
        # Tangent edges: vertices at mid-angles pushed out so each chord clears the circle.
        grown = radius / math.cos(abs(step) / 2.0)
        angles = start + step * (np.arange(steps) + 0.5)
        pts = np.stack([pivot[0] + grown * np.cos(angles), pivot[1] + grown * np.sin(angles)],
                       axis=1)
    else:
        angles = start + step * np.arange(1, steps)
        pts = np.stack([pivot[0] + radius * np.cos(angles),
                        pivot[1] + radius * np.sin(angles)], axis=1).reshape(-1, 2)
    end = start + math.radians(angle_deg)
    return np.vstack([pts, [[pivot[0] + radius * math.cos(end),
                             pivot[1] + radius * math.sin(end)]]])


def turn_sweep(before: Unit, after: Unit) -> shapely.Geometry:
    """A turn on the spot: each model's disc of its half diagonal, and the hull of the unit
    before and after (the union of `turn_parts`)."""
    return holding_union(turn_parts(before, after))


def turn_parts(before: Unit, after: Unit) -> list[shapely.Geometry]:
    """The parts of `turn_sweep`: the hull, then each model's disc."""
    half_diagonal = math.hypot(before.base.width_in, before.base.depth_in) / 2.0
    # GEOS may round the segment count: this growth holds the disc all the same
    # (docs/techniques.md §6).
    grown = half_diagonal / math.cos(3.0 * math.pi / (8.0 * QUAD_SEGS))
    discs = shapely.buffer(shapely.points(before.model_positions()), grown,
                           quad_segs=QUAD_SEGS)
    hull = MultiPoint(before.corners() + after.corners()).convex_hull
    return [hull, *discs]
