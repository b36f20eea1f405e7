"""A legal answer by exact geometry before any model (docs/techniques.md §8): per option, the
sound region of its end centres (optimizer.search.regions, `outer=False`: every point passes
the end-position rules), the region's best point for the goal, and the checker's verdict on
that move (it alone judges the front's sweep and the Pivot).

Best first and lazily, in three stages per option, each bounding the next: its reach's bound
(every clause but the budget ignored), then its relaxed region's (`outer=True`: every legal
end centre stays in it), then its sound region's best point.  An option moves on a stage only
when its key is the best left, and a point is judged only when its value is: the first legal
one is the best of every sound region's best point but those refused before it (the
per-heading peer's answer, without cutting the regions that cannot beat it).  An option whose
best point the checker refuses is passed by; its relaxed bound, kept, lets the pruning after
this (optimizer.search.prefilter) hand it to the model if it could still beat the answer.
The work is counted (regions and checks), not timed: the answer does not depend on the
machine.
"""

from __future__ import annotations

import heapq
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import shapely

from constraints.core.system import find_system
from constraints.core.verdict import Verdict
from constraints.sat.option import Option
from optimizer.search.clock import Clock
from optimizer.search.incumbent import PREFILTER_SHARE
from optimizer.search.regions import CentreRegions
from optimizer.search.request import SearchRequest

MAX_REGIONS = 400  # regions cut (relaxed and sound), at most
MAX_CHECKS = 24    # moves judged by the checker, at most
REACH, RELAXED, SOUND = 0, 1, 2  # the stage an option's key comes from


@dataclass(frozen=True)
class Checked:
    """A legal answer: its option, end centre (start frame), value in the goal's own terms
    (Goal.values), and the move with the checker's verdict."""

    option: int
    centre: tuple[float, float]
    value: float
    move: Any
    verdict: Verdict


@dataclass
class Learned:
    """What the search found: the answer (None: none), and per option the best bound known
    (its reach's, or its relaxed region's where cut: +-inf when empty) with the relaxed
    regions cut."""

    answer: Checked | None
    bounds: np.ndarray
    relaxed: dict[int, shapely.Geometry] = field(default_factory=dict)


def geometric_answer(request: SearchRequest, options: list[Option], bounds: np.ndarray,
                     clock: Clock | None = None) -> Learned:
    """The legal move at the best of the options' sound regions' best points, best first by
    the stages' keys (the module docstring); no answer when the family or goal does not say
    how, or no point judged is legal."""
    goal, family = request.goal, request.family
    learned = Learned(None, np.array(bounds, dtype=float))
    if not family.answers_by_geometry:
        return learned
    sign = -1.0 if goal.maximise else 1.0
    queue: list[tuple[float, int, int, tuple[float, float] | None]] = [
        (sign * float(b), k, REACH, None) for k, b in enumerate(bounds) if np.isfinite(b)]
    heapq.heapify(queue)
    relaxed = CentreRegions(request.scenario, request.unit, request.manoeuvre, outer=True)
    sound = CentreRegions(request.scenario, request.unit, request.manoeuvre, outer=False)
    system = find_system(request.scenario.rules)
    regions = checks = 0
    while queue and checks < MAX_CHECKS and regions < MAX_REGIONS:
        if clock is not None and clock.expired(PREFILTER_SHARE):
            return learned
        _, k, stage, point = heapq.heappop(queue)
        option = options[k]
        if stage == REACH:  # its relaxed region: a bound of its sound region's best
            regions += 1
            region = relaxed.of(option)
            if region.is_empty:  # no legal end centre: the worst bound
                learned.bounds[k] = sign * np.inf
                continue
            learned.relaxed[k] = region
            learned.bounds[k] = goal.bounds([option], [region])[0]
            heapq.heappush(queue, (sign * learned.bounds[k], k, RELAXED, None))
        elif stage == RELAXED:  # its sound region's best point
            regions += 1
            region = sound.of(option)
            best = None if region.is_empty else goal.best_point(option, region)
            if best is not None:
                value = float(goal.values(option, best[None])[0])
                heapq.heappush(queue, (sign * value, k, SOUND, (float(best[0]), float(best[1]))))
        else:
            assert point is not None
            move = family.move(request.unit_id, request.frame, option, point)
            verdict = system.check(request.scenario, move)
            checks += 1
            if verdict.legal:
                value = float(goal.values(option, np.array([point]))[0])
                learned.answer = Checked(k, point, value, move, verdict)
                return learned
    return learned
