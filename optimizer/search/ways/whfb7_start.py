"""A whfb7 move or march search's starting answer by exact geometry, and the options that might
still beat it (the whfb7 counterpart of optimizer.search.prefilter, docs/techniques.md §8).

Per option (optimizer.search.ways.whfb7_regions): its reach's bound, its relaxed region's bound
(every legal end centre of the option lies in that region), and its sound region's best
point, judged by the checker.  Best first and lazily, each key bounding the next: an option
moves on a stage only when its key is the best left, and a point is judged only when its
value is.  The first legal point is the answer (an `Incumbent` with its check); the options
kept for the model are those whose relaxed region might beat it by more than a lattice step
(none, usually: the answer is then OPTIMAL over the family without a model).

Without a legal point (every best point refused, or none), the options whose relaxed region
is empty have no legal move and are left out: the model searches the rest.

The work is counted (regions and checks), not timed, but for the clock's share: the answer
does not depend on the machine.
"""

from __future__ import annotations

import heapq

import numpy as np
import shapely

from constraints.core.system import find_system
from constraints.sat.option import Option
from optimizer.search.clock import Clock
from optimizer.search.geometric import Checked
from optimizer.search.incumbent import PREFILTER_SHARE, Incumbent
from optimizer.search.request import SearchRequest
from optimizer.search.ways.whfb7_regions import WayRegions, way_regions

MAX_CHECKS = 64      # moves judged by the checker, at most
# An option's stages: its reach, its relaxed region without the wheel's cells (cheap), with
# them, and its sound region's best point.
REACH, LOOSE, RELAXED, POINT = range(4)


def geometric_start(request: SearchRequest, options: list[Option], reach: list,
                    clock: Clock | None = None
                    ) -> tuple[Incumbent | None, list[int], dict[int, shapely.Geometry]]:
    """The starting answer (None: none found), the options the model must still search, and
    the relaxed regions computed (by option index)."""
    goal, tick = request.goal, request.lattice.inch
    regions = way_regions(request.scenario, request.unit_id, request.manoeuvre, request.frame)
    sign = -1.0 if goal.maximise else 1.0
    bounds = np.array(goal.bounds(options, reach), dtype=float)
    relaxed: dict[int, shapely.Geometry] = {}
    queue: list[tuple[float, int, int, tuple[float, float] | None]] = [
        (_key(sign, b), k, REACH, None) for k, b in enumerate(bounds)]
    heapq.heapify(queue)
    system = find_system(request.scenario.rules)
    checks = 0
    answer: Checked | None = None
    while queue and checks < MAX_CHECKS:
        if clock is not None and clock.expired(PREFILTER_SHARE):
            break
        _, k, stage, point = heapq.heappop(queue)
        option = options[k]
        if stage in (REACH, LOOSE):
            region = regions.of(option, outer=True, cells=stage == LOOSE)
            if region.is_empty:
                bounds[k] = sign * np.inf  # the worst: no legal end centre
                relaxed.pop(k, None)
                continue
            relaxed[k] = region
            bounds[k] = goal.bounds([option], [region])[0]
            heapq.heappush(queue, (_key(sign, bounds[k]), k, stage + 1, None))
        elif stage == RELAXED:
            sound = regions.of(option, outer=False)
            best = None if sound.is_empty else goal.best_point(option, sound)
            if best is None:
                continue
            value = float(goal.values(option, np.asarray(best)[None])[0])
            heapq.heappush(queue, (sign * value, k, POINT, (float(best[0]), float(best[1]))))
        else:
            assert point is not None
            move = request.family.move(request.unit_id, request.frame, option, point)
            verdict = system.check(request.scenario, move)
            checks += 1
            if verdict.legal:
                value = float(goal.values(option, np.array([point]))[0])
                answer = Checked(k, point, value, move, verdict)
                break
    late = clock is not None and clock.expired(PREFILTER_SHARE)
    if answer is None:
        # Past the clock's share the options are all kept, as they are (no region made).
        kept = list(range(len(options))) if late else _possible(regions, options, relaxed)
        return None, kept, relaxed
    incumbent = Incumbent(answer.option, answer.centre, answer.value, checked=answer)
    return incumbent, _beating(request, regions, options, bounds, relaxed, answer.value,
                               tick, late), relaxed


def _key(sign: float, bound: float) -> float:
    """The queue's key ("lower is better"); an unknown bound (NaN) first."""
    return -np.inf if np.isnan(bound) else sign * float(bound)


def _beating(request: SearchRequest, regions: WayRegions, options: list[Option],
             bounds: np.ndarray, relaxed: dict[int, shapely.Geometry], value: float,
             tick: float, late: bool = False) -> list[int]:
    """The options whose relaxed region's bound beats `value` by more than `tick` (their
    regions made again, the loose one first, then with the wheel's cells: the cache keeps
    the ones made before; NaN: unknown, kept); `late` (past the clock's share): by the
    bounds known, no region made."""
    goal = request.goal
    keep = []
    for k, option in enumerate(options):
        if not _beats(goal.maximise, bounds[k], value, tick):
            continue
        if late:
            keep.append(k)
            continue
        for cells in (False, True):
            region = regions.of(option, outer=True, cells=cells)
            if region.is_empty:
                relaxed.pop(k, None)
                break
            relaxed[k] = region
            bounds[k] = goal.bounds([option], [region])[0]
            if not _beats(goal.maximise, bounds[k], value, tick):
                break
        else:
            keep.append(k)
    return keep


def _beats(maximise: bool, bound: float, value: float, tick: float) -> bool:
    if np.isnan(bound):
        return True
    return bool(bound > value + tick) if maximise else bool(bound < value - tick)


def _possible(regions: WayRegions, options: list[Option],
              relaxed: dict[int, shapely.Geometry]) -> list[int]:
    """No answer: the options whose relaxed region is not empty (every other has no legal
    end centre)."""
    keep = []
    for k, option in enumerate(options):
        region = regions.of(option, outer=True)
        if region.is_empty:
            relaxed.pop(k, None)
            continue
        relaxed[k] = region
        keep.append(k)
    return keep
