"""The reference referee's geometry (tests/referee/referee.py): rectangles built from a pose,
plain shapely clearances and overhangs, and the front edge snaked forward and wheeled in
small increments (SAMPLE_IN, SAMPLE_DEG), every sampled position kept."""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import shapely
from shapely.geometry import Polygon

from constraints.core.scenario import Scenario
from constraints.rank_and_file.formation import Formation
from constraints.rank_and_file.unit import Unit
from constraints.t9a.moves import Step, StepKind

MM_PER_INCH = 25.4

# Discretisation of the sweep: between two sampled positions no point of the front edge moves
# more than SAMPLE_IN, so every point of the true sweep is within SAMPLE_IN / 2 of a sampled
# segment.  Sampled clearance >= true >= sampled - SAMPLE_IN / 2 (overhang: the mirror).
SAMPLE_IN = 0.01
SAMPLE_DEG = 0.05


# -- rectangles ------------------------------------------------------------------------------


def base_in(unit: Unit) -> tuple[float, float]:
    return unit.base.frontage_mm / MM_PER_INCH, unit.base.depth_mm / MM_PER_INCH


def boundary_size(unit: Unit, formation: Formation) -> tuple[float, float]:
    """Unit Boundary (docs/rules.md §2.3): files x base frontage, ranks x base depth, where
    the ranks hold every slot (models, characters, declared empty slots)."""
    width, depth = base_in(unit)
    slots = formation.models + len(formation.characters) + len(formation.empty)
    ranks = max(1, -(-slots // formation.files))
    return formation.files * width, ranks * depth


def corners(centre: tuple[float, float], heading_deg: float, width: float,
            depth: float) -> np.ndarray:
    """Front-left, front-right, rear-right, rear-left (docs/rules.md §1.1: heading
    counter-clockwise from +x, so the right-hand side is the heading turned 90 deg back)."""
    h = math.radians(heading_deg)
    forward = np.array([math.cos(h), math.sin(h)])
    right = np.array([math.sin(h), -math.cos(h)])
    c = np.asarray(centre, dtype=float)
    return np.array([c - right * width / 2 + forward * depth / 2,
                     c + right * width / 2 + forward * depth / 2,
                     c + right * width / 2 - forward * depth / 2,
                     c - right * width / 2 - forward * depth / 2])


def unit_corners(unit: Unit) -> np.ndarray:
    return corners(unit.pose.centre, unit.pose.facing_deg, *boundary_size(unit, unit.formation))


def rotated(points: np.ndarray, about: np.ndarray, angle_deg: float) -> np.ndarray:
    a = math.radians(angle_deg)
    turn = np.array([[math.cos(a), -math.sin(a)], [math.sin(a), math.cos(a)]])
    return (points - about) @ turn.T + about


def obstacles(scenario: Scenario, unit_id: str) -> list[Polygon]:
    """Other units' boundaries and Impassable Terrain (docs/rules.md §3.1)."""
    found = [Polygon(unit_corners(u)) for u in scenario.units if u.id != unit_id]
    return found + [Polygon(t.polygon) for t in scenario.terrain if t.kind == "impassable"]


def clearance(shapes: shapely.Geometry | np.ndarray, obstacles: list[Polygon]) -> float:
    """Least distance from any of `shapes` to any obstacle (inf when there is none)."""
    shapes = np.atleast_1d(np.asarray(shapes, dtype=object))
    return min((float(shapely.distance(shapes, o).min()) for o in obstacles), default=math.inf)


def overhang(points: np.ndarray, scenario: Scenario) -> float:
    """How far the points reach past a table edge (§3.4), signed: negative when all are on
    the table, by how far the nearest stays inside.  The checker reports max(0, this); the
    sign keeps a clearly legal case out of the tolerance band round the limit 0."""
    x, y = points[:, 0], points[:, 1]
    field = scenario.battlefield
    return max(float(-x.min()), float(-y.min()), float(x.max() - field.width_in),
               float(y.max() - field.depth_in))


def final_reach(start: np.ndarray, end: np.ndarray) -> float:
    """Valid Final Position (§6): the farthest end corner from its nearest start corner."""
    return max(min(math.dist(e, s) for s in start) for e in end)


# -- kinematics ------------------------------------------------------------------------------


@dataclass
class Snake:
    """The Snaking Forward Moves as simulated: sampled front segments, cost, turning."""

    corners: np.ndarray  # the Unit Boundary now
    fronts: list[np.ndarray]  # every sampled front segment (2 x 2)
    costs: list[float]
    worst_turn: float = 0.0  # largest |heading - reference| at any increment
    turn: float = 0.0  # heading now - reference heading


def forward_of(c: np.ndarray) -> np.ndarray:
    """The unit's forward direction, read off its rectangle (rear-left to front-left)."""
    v = c[0] - c[3]
    return v / math.hypot(*v)


def step_forward(snake: Snake, distance: float) -> None:
    if distance < 0:
        raise ValueError("forward steps go ahead, never back (docs/rules.md §4.2)")
    if distance == 0:
        return
    start, way = snake.corners, forward_of(snake.corners) * distance
    n = max(1, math.ceil(distance / SAMPLE_IN))
    snake.fronts.extend(start[None, :2] + way * (np.arange(1, n + 1) / n)[:, None, None])
    snake.corners = start + way
    snake.costs.append(distance)


def step_wheel(snake: Snake, angle: float) -> None:
    """Turn about the inner front corner: the left one for a positive angle (§4.2)."""
    if angle == 0:
        return
    start = snake.corners
    inner, outer = (0, 1) if angle > 0 else (1, 0)
    width = math.dist(start[0], start[1])
    n = max(1, math.ceil(abs(angle) / SAMPLE_DEG),
            math.ceil(width * math.radians(abs(angle)) / SAMPLE_IN))
    # Each increment turned from the wheel's start pose (no drift builds up over the steps),
    # all increments at once.
    turns = angle * np.arange(1, n + 1) / n
    a = np.radians(turns)[:, None]
    front = start[:2] - start[inner]
    snake.fronts.extend(np.stack([np.cos(a) * front[:, 0] - np.sin(a) * front[:, 1],
                                  np.sin(a) * front[:, 0] + np.cos(a) * front[:, 1]],
                                 axis=-1) + start[inner])
    snake.worst_turn = max(snake.worst_turn, float(np.abs(snake.turn + turns).max()))
    now = rotated(start, start[inner], angle)
    snake.turn += angle
    snake.corners = now
    advance = now[outer] - start[outer]
    snake.costs.append(float(advance @ forward_of(start)))


def snake(start: np.ndarray, steps: tuple[Step, ...]) -> Snake:
    out = Snake(start, [start[:2]], [])
    for step in steps:
        if step.kind == StepKind.FORWARD:
            step_forward(out, step.value)
        else:
            step_wheel(out, step.value)
    return out
