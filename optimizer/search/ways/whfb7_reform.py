"""A whfb7 Reform's answer without a model (docs/techniques.md §8): the centre is kept, so an
option (files, facing on the lattice's degree) is one end pose, and the objective's value is
the option's alone.  The options are judged by the checker best first (ties: the unit's own
files, then the least change of facing); the first legal one is the best of the family, as
every option ranked before it was judged and refused.

The checks are counted (MAX_CHECKS) and watch the clock's share; past either, the options not
judged yet go to the model (the refused ones cannot be answers).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import shapely

from constraints.core.system import find_system
from constraints.sat.option import Option
from constraints.whfb7.ways import reform_move
from optimizer.search.clock import Clock
from optimizer.search.geometric import Checked
from optimizer.search.incumbent import PREFILTER_SHARE, Incumbent
from optimizer.search.request import SearchRequest

MAX_CHECKS = 2000  # reforms judged by the checker, at most (about 1 ms each, quiet machine)
CLOCK_EVERY = 32   # checks between looks at the clock


def reform_start(request: SearchRequest, options: list[Option], clock: Clock | None = None
                 ) -> tuple[Incumbent | None, list[int], dict[int, shapely.Geometry]]:
    """The best legal reform (None: none judged legal), and the options the model must still
    search: none when an answer is found, else those not judged."""
    goal, unit = request.goal, request.unit
    centre = np.zeros((1, 2))
    values = np.array([float(goal.values(o, centre)[0]) for o in options])
    sign = -1.0 if goal.maximise else 1.0
    order = sorted(range(len(options)), key=lambda k: (
        sign * values[k], abs(options[k].files - unit.files),
        abs(((options[k].frame_facing_deg - 90.0) + 180.0) % 360.0 - 180.0), k))
    system = find_system(request.scenario.rules)
    judged = 0
    for judged, k in enumerate(order[:MAX_CHECKS], start=1):
        if clock is not None and judged % CLOCK_EVERY == 0 and clock.expired(PREFILTER_SHARE):
            judged -= 1
            break
        move: Any = reform_move(request.unit_id, options[k])
        verdict = system.check(request.scenario, move)
        if verdict.legal:
            answer = Checked(k, (0.0, 0.0), float(values[k]), move, verdict)
            return Incumbent(k, (0.0, 0.0), float(values[k]), checked=answer), [], {}
    rest = order[judged:]
    # Every option refused: the model of one of them proves nothing is left (it is illegal).
    return None, rest or order[-1:], {}
