"""Seeded random search requests: tables with walls, rocks, L- and U-shaped terrain, friends
and enemies, and a request of every manoeuvre and objective (bench_random.py runs them).

A request is one unit's Advance, March or Reform towards one of the five objectives.  The
moving unit stands more than 1" from everything, as a legal position does, except where a
case is drawn "close" (`close=True`): then one piece of terrain or one friend stands 0.2-0.9"
from it, as after a combat or a nudge (docs/rules.md, units that start close).  The same seed
gives the same requests on every machine.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import shapely
import shapely.affinity
import shapely.ops
from shapely.geometry import Polygon

from constraints.core.scenario import Battlefield, Pose, Scenario, Terrain
from constraints.rank_and_file.formation import Formation
from constraints.rank_and_file.unit import Base, Unit
from optimizer.search.objectives import Objective

MANOEUVRES = ("advance", "march", "reform")
OBJECTIVES = ("target_distance", "front_target_distance", "target_pose", "forward",
              "face_point")
BASES_MM = ((20.0, 20.0), (25.0, 25.0), (25.0, 50.0), (40.0, 40.0), (50.0, 50.0),
            (20.0, 40.0))
START_GAP_IN = 1.05


@dataclass(frozen=True)
class RandomRequest:
    """One request: the scenario, the unit, its manoeuvre and objective, and its seed."""

    seed: int
    scenario: Scenario
    unit: str
    manoeuvre: str
    objective: Objective
    close: bool

    @property
    def label(self) -> str:
        return f"{self.seed}:{self.manoeuvre}:{self.objective.name}" + (":close" * self.close)


def _unit_shape(unit: Unit) -> Polygon:
    return unit.boundary()


def _unit(rng: np.random.Generator, uid: str, player: str, centre: tuple[float, float],
          facing: float, mobility: float | None = None) -> Unit:
    base = BASES_MM[int(rng.integers(len(BASES_MM)))]
    files = int(rng.integers(2, 8))
    models = int(rng.integers(files, 4 * files + 1))
    mob = float(mobility if mobility is not None else round(rng.uniform(3.0, 8.0), 1))
    return Unit(uid, player, Base(*base), Formation(files, models), Pose(centre, facing), mob,
                int(rng.integers(1, 4)))


def _wall(rng: np.random.Generator, at: np.ndarray) -> Polygon:
    length, angle = rng.uniform(4.0, 10.0), rng.uniform(0.0, 180.0)
    wall = shapely.box(-length / 2, -0.25, length / 2, 0.25)
    return shapely.affinity.translate(shapely.affinity.rotate(wall, angle), *at)


def _rock(rng: np.random.Generator, at: np.ndarray) -> Polygon:
    count = int(rng.integers(3, 8))
    angles = np.sort(rng.uniform(0.0, 2 * math.pi, count))
    radii = rng.uniform(0.8, 2.5, count)
    hull = shapely.MultiPoint(list(zip(at[0] + radii * np.cos(angles),
                                       at[1] + radii * np.sin(angles), strict=True))).convex_hull
    return hull if isinstance(hull, Polygon) else shapely.box(*at, *(at + 1.0))


def _l_or_u(rng: np.random.Generator, at: np.ndarray, u_shape: bool) -> Polygon:
    arm, thick = rng.uniform(3.0, 7.0), rng.uniform(0.5, 1.5)
    pieces = [shapely.box(0, 0, arm, thick), shapely.box(0, 0, thick, arm)]
    if u_shape:
        pieces.append(shapely.box(arm - thick, 0, arm, arm))
    shape = shapely.union_all(pieces)
    shape = shapely.affinity.rotate(shape, rng.uniform(0.0, 360.0), origin=(0, 0))
    return shapely.affinity.translate(shape, *at)


def _terrain_piece(rng: np.random.Generator, at: np.ndarray) -> Polygon:
    kind = rng.random()
    if kind < 0.3:
        return _wall(rng, at)
    if kind < 0.6:
        return _rock(rng, at)
    return _l_or_u(rng, at, u_shape=kind > 0.8)


def _around(rng: np.random.Generator, centre: np.ndarray, lo: float, hi: float) -> np.ndarray:
    r, a = rng.uniform(lo, hi), rng.uniform(0.0, 2 * math.pi)
    return centre + r * np.array([math.cos(a), math.sin(a)])


def _fits(shape: Polygon, placed: list[Polygon], table: Polygon, gap: float) -> bool:
    return table.contains(shape) and all(shape.distance(p) > gap for p in placed)


def random_scenario(rng: np.random.Generator, close: bool) -> tuple[Scenario, str]:
    """A table round one moving unit `mover`: 0-3 terrain pieces, 0-2 friends, 0-2 enemies."""
    width, depth = 72.0, 48.0
    table = shapely.box(0, 0, width, depth)
    facing = float(rng.choice([90.0 * rng.integers(4), rng.uniform(0, 360)]))
    mover = _unit(rng, "mover", "red", (0.0, 0.0), facing)
    for _ in range(100):
        centre = (float(rng.uniform(8, width - 8)), float(rng.uniform(8, depth - 8)))
        mover = mover.with_pose(Pose(centre, facing))
        if table.contains(_unit_shape(mover)):
            break
    placed = [_unit_shape(mover)]
    centre, reach = np.array(mover.pose.centre), 2 * mover.mobility_in + 4.0
    terrain: list[Terrain] = []
    units = [mover]
    gap = START_GAP_IN
    for k in range(int(rng.integers(0, 4))):
        for _ in range(40):
            shape = _terrain_piece(rng, _around(rng, centre, 2.0, reach))
            if _fits(shape, placed, table, gap):
                terrain.append(Terrain(f"t{k}", "impassable",
                                       tuple((float(x), float(y))
                                             for x, y in shape.exterior.coords[:-1])))
                placed.append(shape)
                break
    for k, player in enumerate(rng.choice(["red", "blue"], int(rng.integers(0, 5)))):
        for _ in range(40):
            other = _unit(rng, f"{player}{k}", str(player),
                          tuple(_around(rng, centre, 3.0, reach)),  # type: ignore[arg-type]
                          float(rng.uniform(0, 360)), 4.0)
            if _fits(_unit_shape(other), placed, table, gap):
                units.append(other)
                placed.append(_unit_shape(other))
                break
    if close:
        _place_close(rng, mover, placed, table, terrain)
    return Scenario(Battlefield(width, depth), tuple(units), tuple(terrain), "t9a"), mover.id


def _place_close(rng: np.random.Generator, mover: Unit, placed: list[Polygon],
                 table: Polygon, terrain: list[Terrain]) -> None:
    """A wall 0.2-0.9" from one side of the mover, if it fits (after a combat, say)."""
    body = placed[0]
    for _ in range(40):
        side = rng.uniform(0, 2 * math.pi)
        far = body.exterior.distance(shapely.Point(body.centroid)) + 30.0
        probe = np.array(body.centroid.coords[0]) + far * np.array([math.cos(side),
                                                                   math.sin(side)])
        near_pt = shapely.ops.nearest_points(body, shapely.Point(probe))[0]
        direction = (probe - np.array(near_pt.coords[0]))
        direction /= np.linalg.norm(direction)
        at = np.array(near_pt.coords[0]) + direction * (rng.uniform(0.2, 0.9) + 0.25)
        wall = shapely.affinity.translate(
            shapely.affinity.rotate(shapely.box(-2.5, -0.25, 2.5, 0.25),
                                    math.degrees(side) + 90.0), *at)
        gap = wall.distance(body)
        if 0.1 < gap < 1.0 and _fits(wall, placed[1:], table, START_GAP_IN):
            terrain.append(Terrain("close_wall", "impassable",
                                   tuple((float(x), float(y))
                                         for x, y in wall.exterior.coords[:-1])))
            placed.append(wall)
            return


def random_objective(rng: np.random.Generator, name: str, scenario: Scenario,
                     unit_id: str) -> Objective:
    unit = scenario.unit(unit_id)
    centre = np.array(unit.pose.centre)
    point = _around(rng, centre, 1.0, 3 * unit.mobility_in)
    point = np.clip(point, 0.0, [scenario.battlefield.width_in, scenario.battlefield.depth_in])
    if name == "forward":
        return Objective(name)
    if name == "target_pose":
        return Objective(name, (float(point[0]), float(point[1])),
                         float(rng.choice([unit.pose.facing_deg, rng.uniform(0, 360)])))
    return Objective(name, (float(point[0]), float(point[1])))


def random_requests(count: int, seed: int = 20261201,
                    close_share: float = 0.2) -> list[RandomRequest]:
    """`count` requests cycling through every manoeuvre x objective pair."""
    pairs = [(m, o) for m in MANOEUVRES for o in OBJECTIVES]
    out = []
    for i in range(count):
        rng = np.random.default_rng([seed, i])
        manoeuvre, name = pairs[i % len(pairs)]
        close = bool(rng.random() < close_share)
        scenario, unit_id = random_scenario(rng, close)
        objective = random_objective(rng, name, scenario, unit_id)
        out.append(RandomRequest(i, scenario, unit_id, manoeuvre, objective, close))
    return out
