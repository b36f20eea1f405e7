"""Scenarios and moves for the referee comparison: builders, and seeded random ones.

Random scenarios put one moving unit on a table with a few other units and rocks within
its reach (all more than 1" apart at the start, as a legal position is), then draw Advance,
March and Reform moves of random steps whose size straddles each limit, so every clause
gets legal and illegal cases.
"""

from __future__ import annotations

import math

import numpy as np
import shapely
import shapely.affinity
from shapely.geometry import Polygon

from constraints.core.scenario import Battlefield, Pose, Scenario, Terrain
from constraints.rank_and_file.formation import Character, Formation
from constraints.rank_and_file.unit import Base, Unit
from constraints.t9a.moves import Manoeuvre, Move, Step, forward, wheel
from tests.referee.referee import unit_corners

INCH_MM = 25.4
BASES_MM = ((20.0, 20.0), (25.0, 25.0), (25.4, 25.4), (25.0, 50.0), (40.0, 40.0),
            (50.0, 50.0), (20.0, 40.0), (30.0, 30.0))
START_GAP_IN = 1.05  # more than the 1" of Unit Spacing between everything at the start


def make_unit(uid: str = "u", *, models: int = 10, files: int = 5,
              centre: tuple[float, float] = (36.0, 10.0), facing: float = 90.0,
              mobility: float = 4.0, base: tuple[float, float] = (INCH_MM, INCH_MM),
              player: str = "red", characters: tuple[Character, ...] = (),
              **extra: object) -> Unit:
    formation = Formation(files, models, characters)
    return Unit(uid, player, Base(*base), formation, Pose(centre, facing), mobility,
                **extra)  # type: ignore[arg-type]


def rock(tid: str, points: list[tuple[float, float]]) -> Terrain:
    return Terrain(tid, "impassable", tuple((float(x), float(y)) for x, y in points))


def box(tid: str, x0: float, y0: float, x1: float, y1: float) -> Terrain:
    return rock(tid, [(x0, y0), (x1, y0), (x1, y1), (x0, y1)])


def field(*units: Unit, terrain: tuple[Terrain, ...] = (), rules: str = "t9a",
          width: float = 72.0, depth: float = 48.0) -> Scenario:
    return Scenario(Battlefield(width, depth), units, terrain, rules)


# -- random scenarios ------------------------------------------------------------------------


def _polar(rng: np.random.Generator, centre: tuple[float, float], lo: float,
           hi: float) -> tuple[float, float]:
    r, a = rng.uniform(lo, hi), rng.uniform(0.0, 2 * math.pi)
    return (centre[0] + r * math.cos(a), centre[1] + r * math.sin(a))


def _on_table(shape: Polygon, width: float, depth: float) -> bool:
    minx, miny, maxx, maxy = shape.bounds
    return minx >= 0 and miny >= 0 and maxx <= width and maxy <= depth


def _random_formation(rng: np.random.Generator, most: int) -> Formation:
    if rng.random() < 0.35:
        # A long line: a Pivot swings its ends far (docs/rules.md §4.1).
        files = int(rng.integers(6, 11))
        count = int(rng.integers(files, min(most, files + files // 2) + 1))
    else:
        files = int(rng.integers(1, 7))
        count = int(rng.integers(files, min(most, 4 * files) + 1))
    characters: tuple[Character, ...] = ()
    if count >= 2 and rng.random() < 0.2:
        # A character in the front rank: it must stay there (docs/rules.md §8.11).
        characters = (Character("hero", (0, int(rng.integers(0, files)))),)
    empty: tuple[tuple[int, int], ...] = ()
    if count > files + 1 and rng.random() < 0.1:
        # A declared gap at the rear: the boundary keeps its slot (§2.3), a Pivot moves round it.
        empty = (Formation(files, count).all_slots()[-1],)
    return Formation(files, count - len(characters) - len(empty), characters, empty)


def random_mover(rng: np.random.Generator, width: float, depth: float) -> Unit:
    base = BASES_MM[int(rng.integers(len(BASES_MM)))]
    formation = _random_formation(rng, 14)
    facing = float(rng.choice([rng.uniform(0.0, 360.0), 90.0 * rng.integers(4)]))
    # A long line's quarter-turn Pivot moves some model about a third of its frontage (the
    # best reordering): Mobility of 0.08-0.22 frontages puts that either side of 2 x Mob.
    frontage = formation.files * base[0] / INCH_MM
    mobility = max(1.0, rng.uniform(0.08, 0.22) * frontage) if formation.files >= 6 \
        else rng.uniform(2.0, 8.0)
    unit = Unit("u", "red", Base(*base), formation, Pose((0.0, 0.0), facing),
                round(float(mobility), 2), int(rng.integers(0, 6)),
                bool(rng.random() < 0.3), bool(rng.random() < 0.25))
    for _ in range(100):
        # A third of the time within 3-6" of an edge (so the table edge comes into play),
        # else within 6-23" of one: rejection sampling on the nearest edge's distance.
        margin = rng.uniform(0.0, 3.0) if rng.random() < 0.35 else rng.uniform(3.0, 20.0)
        centre = (float(rng.uniform(0.0, width)), float(rng.uniform(0.0, depth)))
        placed = unit.with_pose(Pose(centre, facing))
        shape = Polygon(unit_corners(placed))
        if _on_table(shape, width, depth) and _edge_gap(shape, width, depth) <= margin + 3.0:
            return placed
    return unit.with_pose(Pose((width / 2, depth / 2), facing))


def _edge_gap(shape: Polygon, width: float, depth: float) -> float:
    minx, miny, maxx, maxy = shape.bounds
    return min(minx, miny, width - maxx, depth - maxy)


def _random_other(rng: np.random.Generator, uid: str, mover: Unit) -> Unit:
    base = BASES_MM[int(rng.integers(len(BASES_MM)))]
    formation = _random_formation(rng, 12)
    reach = 2 * mover.mobility_in + 6.0
    return Unit(uid, "blue", Base(*base), formation,
                Pose(_polar(rng, mover.pose.centre, 2.0, reach), float(rng.uniform(0, 360))),
                4.0)


def _random_rock(rng: np.random.Generator, tid: str, mover: Unit) -> Terrain:
    cx, cy = _polar(rng, mover.pose.centre, 0.5, 2 * mover.mobility_in + 4.0)
    if rng.random() < 0.5:
        w, h, a = rng.uniform(0.3, 3.0), rng.uniform(0.3, 3.0), rng.uniform(0, 180)
        shape = shapely.affinity.rotate(shapely.box(-w / 2, -h / 2, w / 2, h / 2), a)
        points = [(cx + x, cy + y) for x, y in list(shape.exterior.coords)[:-1]]
    else:
        size = rng.uniform(0.4, 1.8)
        cloud = shapely.MultiPoint(rng.uniform(-size, size, (int(rng.integers(3, 7)), 2)))
        hull = cloud.convex_hull
        if not isinstance(hull, Polygon) or hull.area < 0.05:
            hull = shapely.box(-size, -size / 2, size, size / 2)
        points = [(cx + x, cy + y) for x, y in list(hull.exterior.coords)[:-1]]
    return rock(tid, points)


def random_scenario(rng: np.random.Generator) -> Scenario:
    width, depth = float(rng.choice([48.0, 60.0, 72.0])), float(rng.choice([36.0, 48.0]))
    mover = random_mover(rng, width, depth)
    units, terrain = [mover], []
    shapes = [Polygon(unit_corners(mover))]
    for k in range(int(rng.integers(0, 4))):
        for _ in range(50):
            other = _random_other(rng, f"foe{k}", mover)
            if _fits(Polygon(unit_corners(other)), shapes, width, depth):
                units.append(other)
                shapes.append(Polygon(unit_corners(other)))
                break
    for k in range(int(rng.integers(0, 4))):
        for _ in range(50):
            stone = _random_rock(rng, f"rock{k}", mover)
            if _fits(Polygon(stone.polygon), shapes, width, depth):
                terrain.append(stone)
                shapes.append(Polygon(stone.polygon))
                break
    if rng.random() < 0.3:
        # Dangerous Terrain has no effect on movement (docs/rules.md §10), even underfoot.
        marsh = _random_rock(rng, "marsh", mover)
        terrain.append(Terrain("marsh", "dangerous", marsh.polygon))
    rules = str(rng.choice(["t9a", "t9a-2025"]))
    return Scenario(Battlefield(width, depth), tuple(units), tuple(terrain), rules)


def _fits(shape: Polygon, placed: list[Polygon], width: float, depth: float) -> bool:
    return _on_table(shape, width, depth) and \
        all(shape.distance(p) > START_GAP_IN for p in placed)


# -- random moves ----------------------------------------------------------------------------


def _random_wheel(rng: np.random.Generator) -> float:
    if rng.random() < 0.25:
        return float(rng.choice([90.0, -90.0, 45.0, -45.0, 30.0, -30.0]))
    return round(float(rng.uniform(-90.0, 90.0)), 3)


def random_steps(rng: np.random.Generator, width: float, budget: float) -> tuple[Step, ...]:
    """Forward, wheel, forward, wheel, ... whose total cost is around the budget (half to
    a quarter over), so distance limits are met and broken."""
    wheels = [_random_wheel(rng) for _ in range(int(rng.choice([0, 1, 2, 3],
                                                               p=[0.15, 0.4, 0.3, 0.15])))]
    spent = sum(width * abs(math.sin(math.radians(t))) for t in wheels)
    rest = budget * rng.uniform(0.5, 1.25) - spent
    shares = rng.dirichlet(np.ones(len(wheels) + 1)) * max(rest, rng.uniform(0.0, 1.0))
    steps: list[Step] = []
    for k, share in enumerate(shares):
        if rng.random() < 0.8:
            steps.append(forward(round(float(share), 3)))
        if k < len(wheels):
            steps.append(wheel(wheels[k]))
    return tuple(steps)


def random_move(rng: np.random.Generator, unit: Unit) -> Move:
    kind = str(rng.choice(["march", "advance", "reform"], p=[0.35, 0.3, 0.35]))
    if kind == "reform":
        return random_reform(rng, unit)
    width = unit.formation.files * unit.base.frontage_mm / INCH_MM
    files = None
    if rng.random() < 0.15:
        files = max(1, unit.formation.files + int(rng.choice([0, 0, 1, -1])))
    if kind == "march":
        steps = random_steps(rng, width, 2 * unit.mobility_in)
        return Move(unit.id, Manoeuvre.MARCH, steps, files=files)
    pivot = float(rng.choice([0.0, 90.0, -90.0, 180.0, round(rng.uniform(-180, 180), 2),
                              round(rng.uniform(-180, 180), 2)]))
    steps = random_steps(rng, width, unit.mobility_in)
    return Move(unit.id, Manoeuvre.ADVANCE, steps, pivot_deg=pivot, files=files)


def random_reform(rng: np.random.Generator, unit: Unit) -> Move:
    reach = (2.0 if unit.light_troops else 0.5) * unit.mobility_in
    x, y = _polar(rng, unit.pose.centre, 0.0, 1.3 * reach)
    turn = float(rng.choice([0.0, 90.0, -90.0, 180.0, rng.uniform(-180, 180),
                             rng.uniform(-20, 20)]))
    files = None if rng.random() < 0.2 else \
        max(1, unit.formation.files + int(rng.integers(-5, 6)))
    return Move(unit.id, Manoeuvre.REFORM, files=files, centre=(round(x, 3), round(y, 3)),
                facing_deg=round(unit.pose.facing_deg + turn, 3))
