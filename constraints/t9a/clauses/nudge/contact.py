"""Contact regained on the same Facing (seed 001): "Move the unit to maintain contact with the
unit(s) they were in contact with before updating Unit Boundaries" and "Nudging cannot change
the facing that is in contact with enemies."

Decision (docs/rules.md §11, A19): the nudge must end touching at least one enemy unit it
touched before, with the same Facing of its own that touched that enemy before.  Measured:
the distance to the nearest such enemy.
"""

from __future__ import annotations

from constraints.core.verdict import ClauseResult
from constraints.rank_and_file.contact import touched_facings
from constraints.t9a.clauses.nudge.base import NudgeClause, NudgeExample
from constraints.t9a.clauses.nudge.context import NudgeContext
from constraints.t9a.clauses.nudge.examples import foe, line, scene

_SCENE = scene(line(), foe(5.5))


class NudgeRegain(NudgeClause):
    id = "nudge.contact"
    regains_contact = True
    examples = (
        NudgeExample("0.5\" sideways closes a 0.5\" gap: corner to corner counts", _SCENE, "u",
                     {"e": "front"}, ({"sideways": 0.5},), False, ("distance", 0.0)),
        NudgeExample("0.4\" sideways leaves 0.1\" between the corners", _SCENE, "u",
                     {"e": "front"}, ({"sideways": 0.4},), True, ("distance", 0.1)),
        NudgeExample("1\" forwards sideways 5.5\": the flank touches, not the front",
                     _SCENE, "u", {"e": "front"}, ({"forward": 1.0}, {"sideways": 0.5}),
                     True),
    )

    def check(self, ctx: NudgeContext) -> ClauseResult:
        end = ctx.end_unit
        nearest = float("inf")
        touched: list[str] = []
        turned: list[str] = []
        for other in ctx.others:
            facing = ctx.previous.get(other.id)
            if facing is None or not ctx.is_enemy(other):
                continue
            gap = end.boundary().distance(other.boundary())
            nearest = min(nearest, gap)
            if gap <= ctx.contact_in:
                on_facing = facing in touched_facings(end, other.boundary(), ctx.contact_in)
                (touched if on_facing else turned).append(other.id)
        why = (f"the nudge touches {', '.join(turned)} with another Facing than before"
               if turned else f"the nudge ends {nearest:.4f}\" from the nearest enemy it "
               "touched before")
        return self.result("distance", nearest, ctx.contact_in, bool(touched), why)
