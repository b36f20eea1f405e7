"""A slow reference referee for Warhammer 7th moves and marches (profile `whfb7`).

It reads the scenario and move JSON dicts (docs/formats.md "Warhammer Fantasy Battle 7th")
and judges a move or a march of steps from the rule text (RULES §4 items 2-5, 8-9; seed
003; the decisions of docs/rules.md §14) with plain math, numpy and shapely: nothing of
constraints.whfb7 or of the rank-and-file kinematics, sweeps, turns or geometry.

- Distance: forward steps by their length, wheels by the outer front corner's arc
  (frontage x |angle| in radians), a turn M/4 whatever its angle; within M (move) or 2 M
  (march), inclusive.
- A march may not turn, and may not start with a non-fleeing enemy within 8" (inclusive).
- The 1" rule and the table edge: the unit's rectangle is sampled at many poses along every
  forward and wheel step; a turn samples every model's base rotating on the spot, and the
  unit before and after (with the hull between them, where the leftovers step round); every
  sample must be more than 1" from other units and impassable terrain, and on the table.

Sampling misses slivers between samples, so the referee's clearance is slightly too large
and its overhang slightly too small (by at most SAMPLE_IN / 2); the test skips cases within
a small margin of a limit.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import shapely
from shapely.geometry import MultiPoint, Polygon

from tests.referee.rulebook import more_than, within

MM_PER_INCH = 25.4
Json = dict[str, Any]

# The rule numbers of docs/rules.md §14.1, typed in again (not read from the profile).
MOVE_MOB, MARCH_MOB, TURN_MOB = 1.0, 2.0, 0.25
SPACING_IN, MARCH_BLOCK_IN = 1.0, 8.0

# Between two samples no point of the unit (or of a turning base) moves more than SAMPLE_IN,
# so every point of the true area lies within SAMPLE_IN / 2 of a sample: the sampled
# clearance overstates the true one, and the overhang understates it, by at most that.
SAMPLE_IN = 0.005
LEAST_SAMPLES = 200  # rectangles per step, at least


# -- rectangles ------------------------------------------------------------------------------


def axes(facing_deg: float) -> tuple[np.ndarray, np.ndarray]:
    """The unit's forward and right-hand directions (facing counter-clockwise from +x)."""
    h = math.radians(facing_deg)
    return np.array([math.cos(h), math.sin(h)]), np.array([math.sin(h), -math.cos(h)])


def rectangle(centre: np.ndarray, facing_deg: float, width: float, depth: float) -> np.ndarray:
    """Front-left, front-right, rear-right, rear-left corners."""
    fwd, right = axes(facing_deg)
    hw, hd = right * width / 2, fwd * depth / 2
    return np.array([centre - hw + hd, centre + hw + hd, centre + hw - hd, centre - hw - hd])


def rotate(points: np.ndarray, about: np.ndarray, angles_rad: np.ndarray) -> np.ndarray:
    """`points` (n, 2) turned about `about` by each angle: shape (len(angles), n, 2)."""
    c, s = np.cos(angles_rad)[:, None], np.sin(angles_rad)[:, None]
    x, y = (points - about).T
    return np.stack([c * x - s * y, s * x + c * y], axis=-1) + about


# -- the unit as the referee sees it ---------------------------------------------------------


@dataclass
class Block:
    """A unit of `models` models in `files` files on bases `base_w` x `base_d` inches."""

    centre: np.ndarray
    facing: float
    files: int
    models: int
    base_w: float
    base_d: float
    command: int = 0  # command models, who must stand in the front rank

    @property
    def ranks(self) -> int:
        return -(-self.models // self.files)

    @property
    def width(self) -> float:
        return self.files * self.base_w

    @property
    def depth(self) -> float:
        return self.ranks * self.base_d

    def corners(self) -> np.ndarray:
        return rectangle(self.centre, self.facing, self.width, self.depth)

    def model_centres(self) -> np.ndarray:
        """Base centres: full ranks front to back, the incomplete rear rank centred (an odd
        gap to the right, RULES §4 item 1)."""
        fwd, right = axes(self.facing)
        slots = [(r, f) for r in range(self.ranks - 1) for f in range(self.files)]
        rear = self.models - (self.ranks - 1) * self.files
        left = (self.files - rear) // 2
        slots += [(self.ranks - 1, f) for f in range(left, left + rear)]
        return np.array([self.centre + right * ((f + 0.5) * self.base_w - self.width / 2)
                         + fwd * (self.depth / 2 - (r + 0.5) * self.base_d)
                         for r, f in slots])


def block_of(unit: Json) -> Block:
    if unit.get("characters") or unit.get("empty"):
        raise NotImplementedError("the whfb7 referee knows plain blocks of models only")
    w, d = (v / MM_PER_INCH for v in unit["base"])
    return Block(np.array(unit["centre"], dtype=float), float(unit["facing"]),
                 int(unit["files"]), int(unit["models"]), w, d, len(unit.get("command", ())))


def turned(block: Block, angle: float) -> Block:
    """The unit re-formed by a turn on the spot (docs/rules.md §14.2): the block of full
    ranks keeps its centre; after a quarter turn its old ranks are the new files, after a
    half turn the files stay; the leftovers of an incomplete rear rank go behind it."""
    full = block.models // block.files
    fwd, _ = axes(block.facing)
    # The full ranks are the front of the unit: their centre is forward of the unit's by half
    # the depth of the ranks behind them.
    block_centre = block.centre + fwd * (block.ranks - full) * block.base_d / 2
    half = abs(angle) == 180
    files = block.files if half else full
    block_ranks = full if half else block.files
    out = Block(block_centre, block.facing + angle, files, block.models, block.base_w,
                block.base_d, block.command)
    # The leftovers make the new unit deeper behind the block.
    new_fwd, _ = axes(out.facing)
    out.centre = block_centre - new_fwd * (out.ranks - block_ranks) * block.base_d / 2
    return out


# -- the way: sampled shapes -----------------------------------------------------------------


@dataclass
class Way:
    """The unit walked through its steps: its cost per step, and sampled shapes."""

    block: Block
    costs: list[float] = field(default_factory=list)
    turns: int = 0
    shapes: list[np.ndarray] = field(default_factory=list)  # (k, 4, 2) arrays of polygons
    hulls: list[Polygon] = field(default_factory=list)
    turned_reach: float = 0.0  # the largest half diagonal of a base turned on the spot
    front_short: int = 0  # the most command models a turn's new front rank cannot hold


def samples(travel: float) -> int:
    """How many poses (ends included) keep each step of the fastest point within SAMPLE_IN
    when it travels `travel` inches."""
    return max(LEAST_SAMPLES, math.ceil(travel / SAMPLE_IN)) + 1


def step_forward(way: Way, distance: float) -> None:
    b = way.block
    fwd, _ = axes(b.facing)
    start = b.corners()
    t = np.linspace(0.0, distance, samples(distance))
    # Copies slid along the unit's own axis overlap (steps of well under a base depth), so
    # their union is the whole leg.
    way.shapes.append(start[None] + t[:, None, None] * fwd)
    b.centre = b.centre + fwd * distance
    way.costs.append(distance)


def step_wheel(way: Way, angle: float) -> None:
    """About the front-left corner for a left (positive) wheel, else the front-right."""
    b = way.block
    start = b.corners()
    pivot = start[0] if angle > 0 else start[1]
    far = max(np.hypot(*(start - pivot).T))  # the corner that moves furthest
    a = np.radians(np.linspace(0.0, angle, samples(far * math.radians(abs(angle)))))
    way.shapes.append(rotate(start, pivot, a))
    b.centre = rotate(b.centre[None], pivot, a[-1:])[0, 0]
    b.facing += angle
    way.costs.append(b.width * abs(math.radians(angle)))


def step_turn(way: Way, angle: float, mobility: float) -> None:
    """Every model turns on the spot, then the unit stands re-formed (seed 003)."""
    b = way.block
    before = b.corners()
    half_diagonal = math.hypot(b.base_w, b.base_d) / 2
    a = np.radians(np.linspace(0.0, angle, samples(half_diagonal * math.radians(abs(angle)))))
    base = rectangle(np.zeros(2), b.facing, b.base_w, b.base_d)
    spun = rotate(base, np.zeros(2), a)  # (k, 4, 2) about the base's own centre
    for centre in b.model_centres():
        way.shapes.append(spun + centre)
    after = turned(b, angle)
    way.block = after
    # Seed 003: the command group steps into the new front rank, so it must hold them.
    way.front_short = max(way.front_short, b.command - after.files)
    # The command group and the leftovers step round between the unit before and after
    # (docs/rules.md §14.4: the hull of both).
    way.hulls.append(MultiPoint(np.vstack([before, after.corners()])).convex_hull)
    way.shapes.append(after.corners()[None])
    way.turned_reach = max(way.turned_reach, half_diagonal)
    way.costs.append(TURN_MOB * mobility)
    way.turns += 1


def walk(block: Block, steps: list[Json], mobility: float) -> Way:
    way = Way(block, shapes=[block.corners()[None]])
    for step in steps:
        (kind, value), = step.items()
        if kind == "forward":
            step_forward(way, float(value))
        elif kind == "wheel":
            step_wheel(way, float(value))
        elif kind == "turn":
            step_turn(way, 180.0 if value == -180 else float(value), mobility)
        else:
            raise ValueError(f"unknown step {kind!r}")
    return way


# -- measures --------------------------------------------------------------------------------


@dataclass(frozen=True)
class Measure:
    value: float
    limit: float
    strict: bool  # "more than" the limit (True), or "within" it (False)

    @property
    def broken(self) -> bool:
        return not (more_than(self.value, self.limit) if self.strict
                    else within(self.value, self.limit))


def obstacles(scenario: Json, unit_id: str) -> list[Polygon]:
    """Other units, friend or foe, and impassable terrain (RULES §4 item 9)."""
    found = [Polygon(block_of(u).corners()) for u in scenario["units"] if u["id"] != unit_id]
    return found + [Polygon(t["polygon"]) for t in scenario.get("terrain", ())
                    if t["kind"] == "impassable"]


def sampled_polygons(way: Way) -> np.ndarray:
    rings = np.concatenate(way.shapes)
    return shapely.polygons(rings)


def clearance(way: Way, near: list[Polygon]) -> float:
    shapes = np.concatenate([sampled_polygons(way), np.array(way.hulls, dtype=object)])
    return min(float(shapely.distance(shapes, o).min()) for o in near)


def overhang(way: Way, table: Json) -> float:
    """How far any sample reaches past an edge; negative when all stay inside."""
    pts = np.concatenate([np.concatenate(way.shapes).reshape(-1, 2)]
                         + [np.asarray(h.exterior.coords) for h in way.hulls])
    x, y = pts[:, 0], pts[:, 1]
    return max(float(-x.min()), float(-y.min()), float(x.max() - table["width"]),
               float(y.max() - table["depth"]))


def enemy_gap(scenario: Json, unit: Json) -> float | None:
    """Least distance at the start to a non-fleeing enemy unit; None with none on the table."""
    start = Polygon(block_of(unit).corners())
    gaps = [start.distance(Polygon(block_of(u).corners())) for u in scenario["units"]
            if u["player"] != unit["player"] and u.get("state") != "fleeing"]
    return min(gaps, default=None)


@dataclass(frozen=True)
class Ruling:
    measures: dict[str, Measure]
    slack: float  # the sampling's bound on the clearance / overhang error
    turned_reach: float  # the largest half diagonal of a base turned on the spot (0: none)

    def broken(self) -> set[str]:
        return {c for c, m in self.measures.items() if m.broken}


def rule(scenario: Json, move: Json) -> Ruling:
    """Judge a move or a march (docs/rules.md §14.2-14.4), clause by clause."""
    if scenario.get("rule_options"):
        raise NotImplementedError("the whfb7 referee knows the profile's own numbers")
    unit = next(u for u in scenario["units"] if u["id"] == move["unit"])
    march = move["manoeuvre"] == "march"
    if move["manoeuvre"] not in ("move", "march"):
        raise NotImplementedError("the whfb7 referee judges moves and marches")
    mobility = float(unit["movement"])
    way = walk(block_of(unit), move["steps"], mobility)
    name = "march" if march else "move"
    measures = {f"whfb7.{name}.distance":
                Measure(math.fsum(way.costs), (MARCH_MOB if march else MOVE_MOB) * mobility,
                        False)}
    if not march:
        measures["whfb7.move.turn_front_rank"] = Measure(float(way.front_short), 0.0, False)
    if march:
        measures["whfb7.march.no_turn"] = Measure(float(way.turns), 0.0, False)
        gap = enemy_gap(scenario, unit)
        if gap is not None:
            measures["whfb7.march.blocked"] = Measure(gap, MARCH_BLOCK_IN, True)
    near = obstacles(scenario, unit["id"])
    if near:
        measures["whfb7.spacing"] = Measure(clearance(way, near), SPACING_IN, True)
    measures["whfb7.table_edge"] = Measure(overhang(way, scenario["battlefield"]), 0.0, False)
    return Ruling(measures, SAMPLE_IN / 2, way.turned_reach)
