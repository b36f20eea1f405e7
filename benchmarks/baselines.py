"""Two baselines for the best single-unit move, over the solver's own move family.

Each returns (move or None, objective value by `optimizer.search.solve.objective_value` on the exact
checker's verdict, stats).  `brute_force`: a `grid`-inch grid of the family (March/Advance:
every option of constraints.options, legs a, b every `grid`"; Reform: every option, centres
on a `grid` lattice of the start frame in the travel disc); objectives of every pose in numpy,
poses in objective order through `BatchJudge.mask` (sound) in growing chunks, mask-legal ones
confirmed by `check_move`.  So it finds the best *mask-legal* grid pose, missing legal poses
the mask rejects (its sweep and Reform path bounds are conservative).
`per_heading_geometry`: per option (heading, wheel, files fixed) the region of end centres
left by the reach triangle (or travel disc), the table, Valid Final Position and Unit Spacing
as a shapely polygon, sound (inscribed discs, enlarged spacing buffers); its best point;
options in objective order confirmed by `check_move`.  The front's sweep, the Pivot and a
Reform's model paths are judged only at confirmation, dropping a failing option whole.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass
from typing import Any

import numpy as np
import shapely
from shapely.geometry import LineString, Point

from constraints.core.scenario import Scenario
from constraints.geometry.frame import Frame
from constraints.geometry.plane import angle_between_deg, normalise_deg, unit_vector
from constraints.rank_and_file.family_limits import family_limits
from constraints.rank_and_file.unit import Unit
from constraints.sat.lattice import Lattice
from constraints.sat.option import Option, front_offset
from constraints.t9a.checker import check_move
from constraints.t9a.moves import Move, Step
from optimizer.batch import BatchJudge
from optimizer.families.base import options_for
from optimizer.families.snaking import legs
from optimizer.search.objectives import BEHIND_PENALTY, Objective
from optimizer.search.regions import CentreRegions
from optimizer.search.solve import objective_value

Result = tuple[Move | None, float | None, dict[str, Any]]
MAX_CHECKS = 300          # confirmations by check_move before giving up


@dataclass
class _Family:
    """The options of one search and, per option, what the objective needs (frame inches)."""

    scenario: Scenario
    unit: Unit
    manoeuvre: str
    objective: Objective
    frame: Frame
    options: list[Option]

    def __post_init__(self) -> None:
        opts, point = self.options, self.objective.point
        self.target = np.array(self.frame.point(point) if point is not None else (0.0, 0.0))
        # per option: Front Facing centre offset, end right vector, the facing's cost part
        self.front = np.array([front_offset(o) for o in opts]).reshape(-1, 2)
        self.right = np.array([unit_vector(o.frame_facing_deg - 90.0) for o in opts])
        self.ways = [np.array([getattr(o, key) for o in opts]).reshape(-1, 2)
                     for key in ("wheel_shift", "first_dir", "end_dir")]  # (K, 2) each
        self.extra = np.zeros(len(opts))
        obj = self.objective
        if obj.name == "target_pose":
            assert obj.facing_deg is not None
            self.extra = np.array([0.1 * angle_between_deg(o.facing_deg, obj.facing_deg)
                                   for o in opts])
        elif obj.name == "face_point":
            bearing = math.degrees(math.atan2(self.target[1], self.target[0]))
            self.extra = BEHIND_PENALTY * np.array(
                [angle_between_deg(o.frame_facing_deg, bearing) > 90.0 for o in opts], float)

    @classmethod
    def build(cls, scenario: Scenario, unit_id: str, manoeuvre: str,
              objective: Objective) -> _Family:
        unit = scenario.unit(unit_id)
        options, _ = options_for(scenario, unit, manoeuvre, Lattice())
        frame = Frame(unit.pose.centre, unit.pose.facing_deg)
        return cls(scenario, unit, manoeuvre, objective, frame, options)

    def centre_reach(self) -> float:
        """How far a Reform's centre may travel (the clauses' limit, else 2 x Mob)."""
        clauses = self.scenario.profile.clauses(self.manoeuvre)
        return family_limits(clauses, self.unit).centre_reach_or(2.0 * self.unit.mobility_in)

    def costs(self, centres: np.ndarray, k: np.ndarray) -> np.ndarray:
        """What is minimised, for frame centres (N, 2) of options k (N,)."""
        name = self.objective.name
        if name == "forward":
            return -centres[:, 1]
        if name == "face_point":
            return np.abs(np.sum((self.target - centres) * self.right[k], axis=1)) + self.extra[k]
        if name == "front_target_distance":
            centres = centres + self.front[k]
        distance = np.hypot(*(centres - self.target).T)
        return np.hypot(distance, self.extra[k]) if name == "target_pose" else distance

    def world(self, centres: np.ndarray) -> np.ndarray:
        fx, fy = unit_vector(self.frame.heading_deg)
        return np.asarray(self.frame.origin) + centres[:, :1] * (fy, -fx) + \
            centres[:, 1:] * (fx, fy)

    def move(self, k: int, centre: np.ndarray) -> Move:
        """The move of option k to a frame end centre."""
        option, uid = self.options[k], self.unit.id
        if self.manoeuvre == "reform":
            x, y = self.frame.world((float(centre[0]), float(centre[1])))
            return Move(uid, "reform", files=option.files, centre=(x, y),
                        facing_deg=normalise_deg(option.facing_deg))
        a, b = (x if x > 1e-9 else 0.0 for x in legs(option, (float(centre[0]), float(centre[1]))))
        steps = [Step("forward", a), Step("wheel", option.wheel_deg), Step("forward", b)]
        return Move(uid, self.manoeuvre, steps=tuple(s for s in steps if s.value != 0.0),
                    pivot_deg=option.pivot_deg)

    def confirm(self, moves: Any, stats: dict[str, Any]) -> Result:
        """The first legal move of an iterable of moves (check_move), or None."""
        for move in moves:
            if stats["checked"] >= MAX_CHECKS:
                break
            stats["checked"] += 1
            verdict = check_move(self.scenario, move)
            if verdict.legal:
                return move, objective_value(self.objective, self.scenario, verdict), stats
        return None, None, stats


# -- brute force over a fine grid ----------------------------------------------------------

def brute_force(scenario: Scenario, unit_id: str, manoeuvre: str, objective: Objective,
                grid: float = 0.05) -> Result:
    """The best mask-legal pose of a `grid`-inch grid over the family, confirmed."""
    started = time.perf_counter()
    fam = _Family.build(scenario, unit_id, manoeuvre, objective)
    params = _grid(fam, grid)
    blocks = max(1, len(fam.options) * len(params) // 2_000_000)
    cost = np.concatenate([_block_costs(fam, params, ks)
                           for ks in np.array_split(np.arange(len(fam.options)), blocks)])
    judge = BatchJudge(scenario, unit_id, manoeuvre)
    stats: dict[str, Any] = {"poses": int(np.isfinite(cost).sum()), "masked": 0,
                             "mask_legal": 0, "checked": 0, "grid_in": grid}
    chunk = 1 << 14
    result: Result = (None, None, stats)
    while result[0] is None and stats["checked"] < MAX_CHECKS:
        idx = _next_best(cost, chunk)
        if idx.size == 0:
            break
        k, p = np.divmod(idx, len(params))
        centres = _centres(fam, k, params[p])
        ok = _mask(fam, judge, centres, k)
        stats["masked"] += idx.size
        stats["mask_legal"] += int(ok.sum())
        result = fam.confirm((fam.move(int(k[n]), centres[n]) for n in np.flatnonzero(ok)), stats)
        cost[idx] = np.inf
        chunk *= 2
    stats["elapsed_s"] = time.perf_counter() - started
    return result


def _grid(fam: _Family, step: float) -> np.ndarray:
    """(P, 2): legs (a, b) for March and Advance, frame centres for Reform."""
    reform = fam.manoeuvre == "reform"
    reach = fam.centre_reach() if reform else \
        max(o.spare_in for o in fam.options)
    n = int(math.floor(reach / step + 1e-9))
    ticks = np.arange(-n if reform else 0, n + 1)
    pts = np.stack(np.meshgrid(ticks, ticks), -1).reshape(-1, 2) * step
    return pts[(np.hypot(*pts.T) if reform else pts.sum(axis=1)) <= reach + 1e-9]


def _centres(fam: _Family, k: np.ndarray, params: np.ndarray) -> np.ndarray:
    if fam.manoeuvre == "reform":
        return params
    w, fp, fe = fam.ways
    return w[k] + params[:, :1] * fp[k] + params[:, 1:] * fe[k]


def _block_costs(fam: _Family, params: np.ndarray, ks: np.ndarray) -> np.ndarray:
    """Costs of every (option in ks) x (grid point), inf where the grid point is not a pose."""
    k = np.repeat(ks, len(params))
    pars = np.tile(params, (len(ks), 1))
    cost = fam.costs(_centres(fam, k, pars), k)
    if fam.manoeuvre != "reform":
        opts = [fam.options[i] for i in ks]
        spare = np.repeat([o.spare_in for o in opts],
                          len(params))
        straight = np.repeat([o.wheel_deg == 0 for o in opts], len(params))
        bad = (pars.sum(axis=1) > spare + 1e-9) | (straight & (pars[:, 1] > 0))
        cost[bad] = np.inf
    return cost


def _next_best(cost: np.ndarray, chunk: int) -> np.ndarray:
    """Indices of the `chunk` smallest finite costs, in cost order."""
    m = min(chunk, int(np.isfinite(cost).sum()))
    if m == 0:
        return np.zeros(0, dtype=int)
    idx = np.argpartition(cost, m - 1)[:m]
    return idx[np.argsort(cost[idx], kind="stable")]


def _mask(fam: _Family, judge: BatchJudge, centres: np.ndarray, k: np.ndarray) -> np.ndarray:
    facings, opts = np.array([o.facing_deg for o in fam.options])[k], fam.options
    if fam.manoeuvre == "reform":
        return judge.mask(fam.world(centres), facings, files=np.array([o.files for o in opts])[k])
    return judge.mask(fam.world(centres), facings, pivots=np.array([o.pivot_deg for o in opts])[k])


# -- per-heading exact geometry --------------------------------------------------------------

def per_heading_geometry(scenario: Scenario, unit_id: str, manoeuvre: str,
                         objective: Objective) -> Result:
    """Per option, the best point of its region of end centres; the best options confirmed."""
    started = time.perf_counter()
    fam = _Family.build(scenario, unit_id, manoeuvre, objective)
    regions, found = CentreRegions(scenario, fam.unit, manoeuvre, outer=False), []
    for k in range(len(fam.options)):
        region = regions.of(fam.options[k])
        if not region.is_empty:
            point = _best_point(fam, k, region)
            found.append((float(fam.costs(point[None], np.array([k]))[0]), k, point))
    found.sort(key=lambda item: (item[0], item[1]))
    stats: dict[str, Any] = {"options": len(fam.options), "regions": len(found), "checked": 0,
                             "regions_s": time.perf_counter() - started}
    result = fam.confirm((fam.move(k, point) for _, k, point in found), stats)
    stats["elapsed_s"] = time.perf_counter() - started
    return result


def _best_point(fam: _Family, k: int, region: shapely.Geometry) -> np.ndarray:
    """The region's best end centre for the objective (with the option's facing fixed)."""
    name, coords = fam.objective.name, shapely.get_coordinates(region)
    if name == "forward":
        return coords[np.argmax(coords[:, 1])]
    if name == "face_point":
        f = np.array(unit_vector(fam.options[k].frame_facing_deg))
        line = LineString([fam.target - 1000.0 * f, fam.target + 1000.0 * f])
        hit = shapely.get_coordinates(region.intersection(line))
        if len(hit):
            return hit[0]
        return coords[np.argmin(np.abs((fam.target - coords) @ fam.right[k]))]
    goal = fam.target - fam.front[k] if name == "front_target_distance" else fam.target
    return shapely.get_coordinates(shapely.shortest_line(region, Point(goal)))[0]
