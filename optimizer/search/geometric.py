"""A legal answer by exact geometry before any model (docs/techniques.md §8): per option, best
bound first, the sound region of its end centres (optimizer.search.regions, `outer=False`:
every point passes the end-position rules), the region's best point for the goal, and the
checker's verdict on that move (it alone judges the front's sweep and the Pivot).

Lazily: an option's region is cut only when its bound (from its reach, every clause but
the budget ignored) is the best left.  An option whose best point the checker refuses is
passed by; the pruning
after this (optimizer.search.prefilter) keeps it if its relaxed region could still beat the
answer, so nothing is lost, only left to the model.  The work is counted (regions and
checks), not timed, so the answer does not depend on the machine.
"""

from __future__ import annotations

import heapq
from dataclasses import dataclass
from typing import Any

import numpy as np

from constraints.core.system import find_system
from constraints.core.verdict import Verdict
from constraints.sat.option import Option
from optimizer.search.clock import Clock
from optimizer.search.incumbent import PREFILTER_SHARE
from optimizer.search.regions import CentreRegions
from optimizer.search.request import SearchRequest

MAX_REGIONS = 400  # options whose sound region is cut, at most
MAX_CHECKS = 24    # moves judged by the checker, at most


@dataclass(frozen=True)
class Checked:
    """A legal answer: its option, end centre (start frame), value in the goal's own terms
    (Goal.values), and the move with the checker's verdict."""

    option: int
    centre: tuple[float, float]
    value: float
    move: Any
    verdict: Verdict


def geometric_answer(request: SearchRequest, options: list[Option], bounds: np.ndarray,
                     clock: Clock | None = None) -> Checked | None:
    """The legal move at the best of the options' sound regions' best points (None when the
    family or goal does not say how, or no point judged is legal).

    Best first, lazily: an option's bound (from its reach) bounds its region's best value,
    so a region is cut only when its option's bound is the best left, and a point is judged
    only when its value is; the first legal one is the best of every region's best point
    but those refused before it (as benchmarks/baselines.py's per-heading peer, which cuts
    every region)."""
    goal, family = request.goal, request.family
    if not family.answers_by_geometry:
        return None
    sign = -1.0 if goal.maximise else 1.0
    queue: list[tuple[float, int, tuple[float, float] | None]] = [
        (sign * float(b), k, None) for k, b in enumerate(bounds) if np.isfinite(b)]
    heapq.heapify(queue)
    sound = CentreRegions(request.scenario, request.unit, request.manoeuvre, outer=False)
    system = find_system(request.scenario.rules)
    regions = checks = 0
    while queue and checks < MAX_CHECKS and regions < MAX_REGIONS:
        if clock is not None and clock.expired(PREFILTER_SHARE):
            return None
        _, k, point = heapq.heappop(queue)
        option = options[k]
        if point is None:  # its bound was the best left: cut its region
            regions += 1
            region = sound.of(option)
            best = None if region.is_empty else goal.best_point(option, region)
            if best is not None:
                value = float(goal.values(option, best[None])[0])
                heapq.heappush(queue, (sign * value, k, (float(best[0]), float(best[1]))))
            continue
        move = family.move(request.unit_id, request.frame, option, point)
        verdict = system.check(request.scenario, move)
        checks += 1
        if verdict.legal:
            return Checked(k, point, float(goal.values(option, np.array([point]))[0]), move,
                           verdict)
    return None
