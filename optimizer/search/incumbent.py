"""A quick legal answer before the search, and the per-option bounds that let it shrink the
model (TECHNIQUES.md: per-heading geometry as a pre-filter and hint for CP-SAT).

Each option's reach (ignoring every clause but the family and the distance) bounds the
objective from below (or, for `forward`, above).  A legal lattice point found by the batch
mask on a coarse sub-lattice of the best options is an incumbent.  The options it leaves are
bounded again from their relaxed regions of end centres (optimizer.regions: the end-position
rules as regions, clipped to where the incumbent could be beaten), which drops most of them,
and a better incumbent is looked for inside those regions.  Options whose bound cannot beat
the incumbent are left out of the CP-SAT model, which is sound for optimality: what CP-SAT
proves optimal over the rest is optimal over all.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass

import numpy as np
import shapely

from constraints.geometry.frame import Frame
from constraints.geometry.plane import angle_between_deg, unit_vector
from constraints.sat.option import Option, front_offset
from optimizer.batch import BatchJudge
from optimizer.search.objectives import (
    BEHIND_PENALTY,
    DEGREE_WEIGHT_TICKS,
    NORM_SIDES,
    Objective,
    lateral_gaps,
)

COARSE_TICKS = 10       # candidates every 10 lattice steps
OPTIONS_TRIED = 16      # options judged together, best-bounded first
OPTIONS_SCANNED = 1000  # options looked at in all before giving up on an incumbent
POINTS_PER_OPTION = 64  # of each option's coarse points, the best for the objective
MAX_POINTS = 4000       # coarse points looked at per option
SHRINK = math.cos(math.pi / NORM_SIDES)
DISTANCES = ("target_distance", "front_target_distance", "target_pose")


@dataclass(frozen=True)
class Incumbent:
    option: int
    centre: tuple[float, float]  # frame inches, on the lattice
    value: float                 # in the units of `option_bounds`


def _target_shift(option: Option, objective: Objective) -> tuple[float, float]:
    if objective.name != "front_target_distance":
        return (0.0, 0.0)
    return front_offset(option)


def _angle_cost(option: Option, objective: Objective, frame_facing: float | None) -> float:
    if objective.name != "target_pose" or frame_facing is None:
        return 0.0
    return 0.01 * DEGREE_WEIGHT_TICKS * angle_between_deg(option.frame_facing_deg, frame_facing)


def option_bounds(objective: Objective, options: list[Option], regions: list,
                  point: tuple[float, float] | None, frame_facing: float | None) -> np.ndarray:
    """Per option, a bound on the objective (inches; lower for minimising, upper for
    `forward`); NaN where no bound is known."""
    if objective.name == "forward":
        return shapely.bounds(np.asarray(regions, dtype=object))[:, 3]
    if point is None:
        return np.full(len(options), np.nan)
    if objective.name == "face_point":
        return _lateral_bounds(options, regions, point)
    if objective.name == "front_target_distance":
        shifts = np.array([_target_shift(o, objective) for o in options]).reshape(-1, 2)
        targets = shapely.points(np.asarray(point) - shifts)
    else:
        targets = shapely.Point(point)
    gaps = shapely.distance(np.asarray(regions, dtype=object), targets)
    if objective.name != "target_pose":
        return SHRINK * gaps
    return SHRINK * gaps + np.array([_angle_cost(o, objective, frame_facing) for o in options])


def _lateral_bounds(options: list[Option], regions: list,
                    point: tuple[float, float]) -> np.ndarray:
    """Per option, the least distance of the point from the unit's centre line over its
    region, plus the penalty for facing away (as optimizer.objectives posts it)."""
    return lateral_gaps(options, regions, point) + \
        np.array([_away_penalty(o, point) for o in options])


def _right(option: Option) -> np.ndarray:
    fx, fy = unit_vector(option.frame_facing_deg)
    return np.array([fy, -fx])


def _away_penalty(option: Option, point: tuple[float, float]) -> float:
    bearing = math.degrees(math.atan2(point[1], point[0]))
    away = angle_between_deg(option.frame_facing_deg, bearing) > 90.0
    return BEHIND_PENALTY * 0.01 if away else 0.0  # the objective's ticks, in inches


def value_of(objective: Objective, option: Option, centres: np.ndarray,
             point: tuple[float, float] | None, frame_facing: float | None) -> np.ndarray:
    """The objective (as bounded above) at frame centres of one option."""
    if objective.name == "forward":
        return centres[:, 1]
    assert point is not None
    if objective.name == "face_point":
        lateral = np.abs((np.asarray(point) - centres) @ _right(option))
        return lateral + _away_penalty(option, point)
    sx, sy = _target_shift(option, objective)
    d = centres + [sx, sy] - np.asarray(point)
    # The regular NORM_SIDES-gon norm, max over its directions u_k of d . u_k, is attained at
    # the direction nearest to d's: |d| cos(angle to it).  O(N), not O(N x sides).
    step = 2 * np.pi / NORM_SIDES
    theta = np.arctan2(d[:, 1], d[:, 0])
    poly = np.hypot(d[:, 0], d[:, 1]) * np.cos(theta - step * np.round(theta / step))
    return poly + _angle_cost(option, objective, frame_facing)


def find_incumbent(judge: BatchJudge, frame: Frame, objective: Objective, options: list[Option],
                   regions: list, bounds: np.ndarray, tick: float,
                   point: tuple[float, float] | None,
                   frame_facing: float | None, deadline: float | None = None) -> Incumbent | None:
    """The best mask-legal coarse lattice point among the best-bounded options, judged in
    chunks of options with one batch-mask call each (none once `deadline` has passed)."""
    if np.isnan(bounds).all():
        return None
    # Best bound first; among equals, the smallest change of files and facing.
    change = np.array([abs(o.files - judge.unit.files) * 1000 + abs(o.frame_facing_deg - 90.0)
                       for o in options])
    order = np.lexsort((change, -bounds if objective.maximise else bounds))[:OPTIONS_SCANNED]
    for lo in range(0, len(order), OPTIONS_TRIED):
        if deadline is not None and time.perf_counter() > deadline:
            return None
        found = _best_in(judge, frame, objective, options, regions, order[lo:lo + OPTIONS_TRIED],
                         tick, point, frame_facing)
        if found is not None:
            return found
    return None


def _best_in(judge: BatchJudge, frame: Frame, objective: Objective, options: list[Option],
             regions: list, chunk: np.ndarray, tick: float, point: tuple[float, float] | None,
             frame_facing: float | None) -> Incumbent | None:
    owners, pts = [], []
    for k in chunk:
        grid = _coarse_points(regions[k], tick)
        if objective.name in DISTANCES and point is not None and not regions[k].is_empty:
            grid = np.vstack([_near_target(options[k], objective, point, tick), grid])
        values = value_of(objective, options[k], grid, point, frame_facing)
        best_first = np.argsort(-values if objective.maximise else values, kind="stable")
        grid = grid[best_first[:POINTS_PER_OPTION]]
        owners.append(np.full(len(grid), k))
        pts.append(grid)
    if not pts or not sum(len(p) for p in pts):
        return None
    owner, centres = np.concatenate(owners), np.vstack(pts)
    legal = _legal(judge, frame, options, owner, centres)
    best: Incumbent | None = None
    for k in np.unique(owner[legal]):
        mine = centres[legal & (owner == k)]
        values = value_of(objective, options[k], mine, point, frame_facing)
        j = int(np.argmax(values) if objective.maximise else np.argmin(values))
        if best is None or better(objective, float(values[j]), best.value):
            best = Incumbent(int(k), (float(mine[j][0]), float(mine[j][1])), float(values[j]))
    return best


NEAR_TICKS = 2  # lattice points this many ticks either way of a target are tried first


def _near_target(option: Option, objective: Objective, point: tuple[float, float],
                 tick: float) -> np.ndarray:
    """The lattice points nearest the option's target (a distance objective's best centres
    on the lattice, if legal; the coarse grid would pass them by)."""
    sx, sy = _target_shift(option, objective)
    cx, cy = round((point[0] - sx) / tick), round((point[1] - sy) / tick)
    steps = np.arange(-NEAR_TICKS, NEAR_TICKS + 1)
    grid = np.stack(np.meshgrid(cx + steps, cy + steps, indexing="ij"), -1).reshape(-1, 2)
    return grid * tick


def better(objective: Objective, value: float, than: float) -> bool:
    return value > than if objective.maximise else value < than


def _coarse_points(region: shapely.Geometry, tick: float) -> np.ndarray:
    if region.is_empty:
        return np.zeros((0, 2))
    minx, miny, maxx, maxy = region.bounds
    step = COARSE_TICKS * tick
    # Coarser on large regions, so one option never costs more than ~MAX_POINTS points.
    while (maxx - minx) * (maxy - miny) / step ** 2 > MAX_POINTS:
        step *= 2
    xs = np.arange(math.floor(minx / step), math.ceil(maxx / step) + 1) * step
    ys = np.arange(math.floor(miny / step), math.ceil(maxy / step) + 1) * step
    grid = np.stack(np.meshgrid(xs, ys, indexing="ij"), axis=-1).reshape(-1, 2)
    if region.geom_type in ("Polygon", "MultiPolygon"):
        shapely.prepare(region)  # boundary points count: intersects, not contains
        return grid[shapely.intersects_xy(region, grid[:, 0], grid[:, 1])]
    return grid[shapely.dwithin(region, shapely.points(grid), 1e-9)]  # a segment


def _legal(judge: BatchJudge, frame: Frame, options: list[Option], owner: np.ndarray,
           pts: np.ndarray) -> np.ndarray:
    world = frame.world_array(pts)
    used, inverse = np.unique(owner, return_inverse=True)  # only the options judged here
    chosen = [options[k] for k in used]
    facings = np.array([o.facing_deg for o in chosen])[inverse]
    if judge.manoeuvre == "reform":
        return judge.mask(world, facings, files=np.array([o.files for o in chosen])[inverse])
    return judge.mask(world, facings, pivots=np.array([o.pivot_deg for o in chosen])[inverse])
