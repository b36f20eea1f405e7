"""Valid Final Position (seed 000; RULES.md 2.5.1).

"Each corner of the unit's end position must be within twice its Mobility value (2xMob
inches) of at least one corner's starting position."  So the measure is
max over end corners of min over start corners of the distance, and it must be <= 2 x Mob.
"""

from __future__ import annotations

import math

from constraints.clauses.base import Clause
from constraints.context import MoveContext
from constraints.geometry import Point
from constraints.limits import within
from constraints.verdict import ClauseResult

CORNER_NAMES = ("front-left", "front-right", "rear-right", "rear-left")


def farthest_corner(start: tuple[Point, ...], end: tuple[Point, ...]) -> tuple[int, int, float]:
    """(end corner, its nearest start corner, their distance) for the worst end corner."""
    best = (0, 0, -1.0)
    for e, corner in enumerate(end):
        s = min(range(len(start)), key=lambda k: math.dist(corner, start[k]))
        reach = math.dist(corner, start[s])
        if reach > best[2]:
            best = (e, s, reach)
    return best


class ValidFinalPosition(Clause):
    kind = "valid_final_position"

    def check(self, ctx: MoveContext) -> ClauseResult:
        start, end = ctx.unit.corners(), ctx.end_unit.corners()
        e, s, reach = farthest_corner(start, end)
        limit = self.params["mob_factor"] * ctx.mobility_in
        message = (f"{CORNER_NAMES[e]} corner ends {reach:.3f}\" from the nearest start corner "
                   f"({CORNER_NAMES[s]}), limit {limit:.3f}\"")
        return self.result("valid_final_position", reach, limit, within(reach, limit), message,
                           (end[e], start[s]))
