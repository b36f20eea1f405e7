"""A quick legal answer before the search, and the per-option bounds that let it shrink the
model (docs/techniques.md §8: per-heading geometry as a pre-filter and hint for CP-SAT).

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
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np
import shapely

from constraints.sat.option import Option
from optimizer.batch import BatchJudge
from optimizer.search.clock import PREFILTER_SHARE, Clock
from optimizer.search.request import SearchRequest

if TYPE_CHECKING:
    from optimizer.search.geometric import Checked

COARSE_TICKS = 10       # candidates every 10 lattice steps
OPTIONS_TRIED = 16      # options judged together, best-bounded first
OPTIONS_SCANNED = 1000  # options looked at in all before giving up on an incumbent
POINTS_PER_OPTION = 64  # of each option's coarse points, the best for the objective
MAX_POINTS = 4000       # coarse points looked at per option


@dataclass(frozen=True)
class Incumbent:
    option: int
    centre: tuple[float, float]  # frame inches, on the lattice (unless `checked`)
    value: float                 # in the goal's own terms (Goal.values)
    # Judged legal by the checker, off the lattice (optimizer.search.geometric): an answer
    # in its own right, not necessarily a solution of the model.
    checked: Checked | None = None


def find_incumbent(request: SearchRequest, judge: BatchJudge, options: list[Option],
                   regions: list, bounds: np.ndarray,
                   clock: Clock | None = None) -> Incumbent | None:
    """The best mask-legal coarse lattice point among the best-bounded options, judged in
    chunks of options with one batch-mask call each (at most OPTIONS_SCANNED options: counted
    work, not time; none once the clock's prefilter share has run out)."""
    if np.isnan(bounds).all():
        return None
    # Best bound first; among equals, the smallest change of files and facing.
    change = np.array([abs(o.files - judge.unit.files) * 1000 + abs(o.frame_facing_deg - 90.0)
                       for o in options])
    maximise = request.goal.maximise
    order = np.lexsort((change, -bounds if maximise else bounds))[:OPTIONS_SCANNED]
    for lo in range(0, len(order), OPTIONS_TRIED):
        if clock is not None and clock.expired(PREFILTER_SHARE):
            return None
        found = _best_in(request, judge, options, regions, order[lo:lo + OPTIONS_TRIED])
        if found is not None:
            return found
    return None


def _best_in(request: SearchRequest, judge: BatchJudge, options: list[Option], regions: list,
             chunk: np.ndarray) -> Incumbent | None:
    goal, tick = request.goal, request.lattice.inch
    owners, pts = [], []
    for k in chunk:
        grid = _coarse_points(regions[k], tick)
        near = None if regions[k].is_empty else goal.near_target(options[k], tick)
        if near is not None:
            grid = np.vstack([near, grid])
        values = goal.values(options[k], grid)
        best_first = np.argsort(-values if goal.maximise else values, kind="stable")
        grid = grid[best_first[:POINTS_PER_OPTION]]
        owners.append(np.full(len(grid), k))
        pts.append(grid)
    if not pts or not sum(len(p) for p in pts):
        return None
    owner, centres = np.concatenate(owners), np.vstack(pts)
    used, inverse = np.unique(owner, return_inverse=True)  # only the options judged here
    legal = request.family.mask(judge, request.frame.world_array(centres),
                                [options[k] for k in used], inverse)
    best: Incumbent | None = None
    for k in np.unique(owner[legal]):
        mine = centres[legal & (owner == k)]
        values = goal.values(options[k], mine)
        j = int(np.argmax(values) if goal.maximise else np.argmin(values))
        if best is None or goal.better(float(values[j]), best.value):
            best = Incumbent(int(k), (float(mine[j][0]), float(mine[j][1])), float(values[j]))
    return best


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
