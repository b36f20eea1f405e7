"""Ways with legs of 0 (a Pivot and a wheel alone) as an answer, when exact geometry finds
none (optimizer.search.geometric) and they beat what the model found.

An option's end centres are wheel_shift + a first_dir + b end_dir (frame): with a = b = 0 its
end centre is a point off the lattice, so the model never holds it.  A unit that starts close
to something ahead (A20: its limit there is its start distance) may have no legal forward
leg at all, yet wheel clear of it: then these ways are its only moves but standing still.
Every option's is judged by the batch mask at once, and the best the mask passes, up to
MAX_CHECKS, by the checker: the work is counted, not timed.  Such an answer is off the
lattice, so it is FEASIBLE whatever the model claimed; the certificate decides the rest.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import numpy as np

from constraints.core.system import find_system
from constraints.core.verdict import Verdict
from constraints.sat.option import Option
from optimizer.batch import BatchJudge
from optimizer.search.clock import Clock
from optimizer.search.request import SearchRequest
from optimizer.search.result import SearchResult

MAX_CHECKS = 4  # moves judged by the checker, at most
MASK_CHUNK = 256  # options masked between looks at the clock (about 0.2 s of front-sweep
# judging on bench_random 196; 1,024 took 1 s, 2 s under load: it ran 0.9 s past the limit)


ZeroLegs = tuple[int, tuple[float, float], float, Any, Verdict]


def zero_leg_answer(request: SearchRequest, options: list[Option],
                    clock: Clock | None = None) -> ZeroLegs | None:
    """The best legal way of the options with legs of 0 (a Pivot and a wheel, or standing
    still): its option, end centre, value, move and verdict; None when the mask passes none
    the checker confirms.  The mask goes MASK_CHUNK options at a time with a look at the
    `clock` between (its front-sweep judge can take seconds over thousands of options):
    once the clock has run out, only the options masked so far are ranked."""
    # A family with its own starting search (whfb7's: ways.whfb7_start) and judge is left to
    # it: the batch judge here is the prefiltering families'.
    family, goal = request.family, request.goal
    if not options or not family.answers_by_geometry or not family.prefilters:
        return None
    centres = np.array([o.wheel_shift for o in options], dtype=float)
    judge = BatchJudge(request.scenario, request.unit_id, request.manoeuvre)
    world = request.frame.world_array(centres)
    legal = np.zeros(len(options), dtype=bool)
    for start in range(0, len(options), MASK_CHUNK):
        if start and clock is not None and clock.expired():
            break
        part = np.arange(start, min(start + MASK_CHUNK, len(options)))
        legal[part] = family.mask(judge, world[part], [options[k] for k in part],
                                  np.arange(len(part)))
    rows = np.flatnonzero(legal)
    values = np.array([goal.values(options[k], centres[k:k + 1])[0] for k in rows])
    best_first = np.argsort(-values if goal.maximise else values, kind="stable")
    system = find_system(request.scenario.rules)
    for n in best_first[:MAX_CHECKS]:
        if clock is not None and clock.expired():
            break
        k = rows[n]
        option, centre = options[k], (float(centres[k][0]), float(centres[k][1]))
        move = family.move(request.unit_id, request.frame, option, centre)
        verdict = system.check(request.scenario, move)
        if verdict.legal:
            return option.index, centre, float(values[n]), move, verdict
    return None


def beside_zero_legs(request: SearchRequest, options: list[Option],
                     result: SearchResult, clock: Clock | None = None) -> SearchResult:
    """`result`, or the best zero-leg way where it does better (FEASIBLE: the model's claim
    spoke of the lattice, which does not hold it); within the `clock`."""
    found = zero_leg_answer(request, options, clock)
    if found is None:
        return result
    _, _, _, move, verdict = found
    goal = request.goal
    if result.verdict is not None and result.verdict.legal and \
            not goal.better(goal.ranked(verdict), goal.ranked(result.verdict)):
        return result
    return replace(result.proved(bound=None), value=goal.exact(verdict), move=move,
                   verdict=verdict)
