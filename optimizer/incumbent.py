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

from constraints.encoding import Frame, Option, corner_offset
from constraints.geometry import angle_between_deg, unit_vector
from optimizer.batch import BatchJudge
from optimizer.objectives import BEHIND_PENALTY, DEGREE_WEIGHT_TICKS, NORM_SIDES, Objective
from optimizer.regions import CentreRegions

COARSE_TICKS = 10       # candidates every 10 lattice steps
OPTIONS_TRIED = 16      # options judged together, best-bounded first
OPTIONS_SCANNED = 1000  # options looked at in all before giving up on an incumbent
POINTS_PER_OPTION = 64  # of each option's coarse points, the best for the objective
MAX_POINTS = 4000       # coarse points looked at per option
SHRINK = math.cos(math.pi / NORM_SIDES)


@dataclass(frozen=True)
class Incumbent:
    option: int
    centre: tuple[float, float]  # frame inches, on the lattice
    value: float                 # in the units of `option_bounds`


def _target_shift(option: Option, objective: Objective) -> tuple[float, float]:
    if objective.name != "front_target_distance":
        return (0.0, 0.0)
    fl, fr = corner_offset(option, 0), corner_offset(option, 1)
    return ((fl[0] + fr[0]) / 2, (fl[1] + fr[1]) / 2)


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
    rights = np.array([_right(o) for o in options]).reshape(-1, 2)
    coords, owner = shapely.get_coordinates(np.asarray(regions, dtype=object),
                                            return_index=True)
    proj = np.sum(coords * rights[owner], axis=1)
    hi = np.full(len(options), -np.inf)
    lo = np.full(len(options), np.inf)
    np.maximum.at(hi, owner, proj)
    np.minimum.at(lo, owner, proj)
    target = rights @ np.asarray(point, dtype=float)
    gap = np.maximum(0.0, np.maximum(target - hi, lo - target))
    gap[np.isinf(hi)] = np.nan  # an empty region: no bound
    return gap + np.array([_away_penalty(o, point) for o in options])


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


def kept_options(objective: Objective, bounds: np.ndarray, incumbent: Incumbent | None,
                 tick: float = 0.01) -> list:
    """Indexes of the options that might beat the incumbent (all, without one)."""
    if incumbent is None:
        return list(range(len(bounds)))
    slack = _slack(incumbent.value, tick)
    with np.errstate(invalid="ignore"):
        beats = bounds >= incumbent.value - slack if objective.maximise else \
            bounds <= incumbent.value + slack
    keep = np.isnan(bounds) | beats
    keep[incumbent.option] = True
    return list(np.nonzero(keep)[0])


def _slack(value: float, tick: float) -> float:
    """How much better than the incumbent an option's bound must be to drop it.  The search's
    norm has integer directions (7e-4 relative, optimizer.objectives): twice that, so no
    option that could win in the search's terms is dropped; and a straight option's band lets
    the search's centre stray up to ~0.7 tick off its line."""
    return tick + 2e-3 * abs(value)


def refined_bounds(relaxed: CentreRegions, objective: Objective, options: list[Option],
                   keep: list, point: tuple[float, float] | None, frame_facing: float | None,
                   incumbent: Incumbent | None, tick: float,
                   deadline: float | None = None) -> tuple[np.ndarray, dict[int, shapely.Geometry]]:
    """Bounds of the kept options from their relaxed regions of end centres (every legal end
    centre lies in one, optimizer.regions), and those regions; an option with an empty
    region has no legal move (bound +-inf).  Options not reached before `deadline` keep
    NaN (the caller keeps them).

    With an incumbent, each region is first clipped to where the objective could beat it
    (a disc about the target, a half-plane, a strip): the shapes stay small and cheap, and
    the bound is unchanged for every option that might beat the incumbent."""
    bounds = np.full(len(options), np.nan)
    regions: dict[int, shapely.Geometry] = {}
    for k in keep:
        if deadline is not None and time.perf_counter() > deadline:
            break
        clip = None if incumbent is None else \
            _clip(objective, options[k], incumbent.value + _slack(incumbent.value, tick) *
                  (-1 if objective.maximise else 1), point, frame_facing)
        region = relaxed.of(options[k], clip)
        if region.is_empty:
            bounds[k] = -np.inf if objective.maximise else np.inf
            continue
        regions[k] = region
        bounds[k] = option_bounds(objective, [options[k]], [region], point, frame_facing)[0]
    return bounds, regions


FAR_IN = 10_000.0  # "unbounded" for the clips' half-planes and strips


def _clip(objective: Objective, option: Option, worst: float, point: tuple[float, float] | None,
          frame_facing: float | None) -> shapely.Geometry:
    """The frame centres where the option's objective (as option_bounds bounds it) is no
    worse than `worst`: every centre outside it is worse (a relaxation: circumscribed)."""
    if objective.name == "forward":
        return shapely.box(-FAR_IN, worst, FAR_IN, FAR_IN)
    assert point is not None
    if objective.name == "face_point":
        width = worst - _away_penalty(option, point)
        if width < 0:
            return shapely.Polygon()
        f = np.array(unit_vector(option.frame_facing_deg))
        r = np.array([f[1], -f[0]])
        p = np.asarray(point, dtype=float)
        return shapely.Polygon([p + FAR_IN * f + width * r, p - FAR_IN * f + width * r,
                                p - FAR_IN * f - width * r, p + FAR_IN * f - width * r])
    radius = (worst - _angle_cost(option, objective, frame_facing)) / SHRINK
    if radius < 0:
        return shapely.Polygon()
    sx, sy = _target_shift(option, objective)
    sides = 32
    return shapely.Point(point[0] - sx, point[1] - sy).buffer(
        radius / math.cos(math.pi / sides), quad_segs=sides // 4)


DISTANCES = ("target_distance", "front_target_distance", "target_pose")


def screened(judge: BatchJudge, frame: Frame, objective: Objective, options: list[Option],
             keep: list, reach: list, point: tuple[float, float] | None,
             frame_facing: float | None, incumbent: Incumbent | None, tick: float) -> list:
    """The kept options that may still beat the incumbent, by a vectorised test of one point
    each (distance objectives only; others pass as they are).

    To beat it, an option's centre must lie within rho of its target point c (rho from the
    incumbent's value, as `_clip`).  Moving the centre by rho changes every end-position
    measure by at most rho, so if c itself fails those rules with every limit rho more
    lenient, or lies more than rho outside the option's reach, no centre of the option can
    beat the incumbent."""
    if incumbent is None or objective.name not in DISTANCES or not keep:
        return keep
    opts = [options[k] for k in keep]
    centres, rho = _target_discs(objective, opts, point, frame_facing, incumbent, tick)
    ok = rho >= 0
    near = shapely.distance(np.asarray([reach[k] for k in keep], dtype=object),
                            shapely.points(centres))
    ok &= near <= rho
    todo = np.flatnonzero(ok)
    if len(todo):
        ok[todo] = judge.end_positions(
            frame.world_array(centres[todo]), np.array([opts[n].facing_deg for n in todo]),
            np.array([opts[n].width_in for n in todo]),
            np.array([opts[n].depth_in for n in todo]), float(rho[todo].max()))
    ok[keep.index(incumbent.option)] = True
    return [k for k, good in zip(keep, ok, strict=True) if good]


def _target_discs(objective: Objective, opts: list[Option], point: tuple[float, float] | None,
                  frame_facing: float | None, incumbent: Incumbent,
                  tick: float) -> tuple[np.ndarray, np.ndarray]:
    """Per option, the disc (frame centre, radius; negative: none) holding every centre
    where its distance objective could beat the incumbent (circumscribing `_clip`)."""
    assert point is not None
    worst = incumbent.value + _slack(incumbent.value, tick)
    shifts = np.array([_target_shift(o, objective) for o in opts]).reshape(-1, 2)
    angles = np.array([_angle_cost(o, objective, frame_facing) for o in opts])
    # Circumscribed like the clip, and a hair more for float noise.
    rho = (worst - angles) / SHRINK / math.cos(math.pi / 32) + 1e-9
    return np.asarray(point, dtype=float) - shifts, rho


def focus_discs(objective: Objective, options: list[Option], keep: list,
                point: tuple[float, float] | None, frame_facing: float | None,
                incumbent: Incumbent | None, tick: float) -> dict[int, tuple[tuple[float, float],
                                                                           float]]:
    """Per kept option, the disc of centres the search still needs (distance objectives
    with an incumbent; empty otherwise): see constraints.encode_context.EncodeContext.focus."""
    if incumbent is None or objective.name not in DISTANCES or not keep:
        return {}
    centres, rho = _target_discs(objective, [options[k] for k in keep], point, frame_facing,
                                 incumbent, tick)
    return {int(k): ((float(c[0]), float(c[1])), float(r))
            for k, c, r in zip(keep, centres, rho, strict=True) if r >= 0}
