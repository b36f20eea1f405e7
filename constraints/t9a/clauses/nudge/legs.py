"""Straight legs only (seed 001): "Move the unit in straight lines, either directly forwards,
backwards, sideways, or a combination of two of these directions."

Decision (docs/rules.md §11, A11): at most two legs, one along the unit's forward axis and one
sideways, in either order; no rotation (the legs are translations by construction).
"""

from __future__ import annotations

from constraints.core.verdict import ClauseResult
from constraints.t9a.clauses.nudge.base import NudgeClause, NudgeExample
from constraints.t9a.clauses.nudge.context import NudgeContext
from constraints.t9a.clauses.nudge.examples import foe, line, scene

_SCENE = scene(line(), foe(5.5))
_BEFORE = {"e": "front"}


class NudgeLegs(NudgeClause):
    id = "nudge.legs"
    examples = (
        NudgeExample("one leg sideways", _SCENE, "u", _BEFORE, ({"sideways": 0.5},), False,
                     ("legs", 1.0)),
        NudgeExample("forward then sideways: a combination of two directions", _SCENE, "u",
                     _BEFORE, ({"forward": -0.5}, {"sideways": 0.5}), False, ("legs", 2.0)),
        NudgeExample("three legs are more than two directions", _SCENE, "u", _BEFORE,
                     ({"forward": -0.5}, {"sideways": 0.5}, {"forward": 0.5}), True,
                     ("legs", 3.0)),
        NudgeExample("sideways twice is one direction used twice", _SCENE, "u", _BEFORE,
                     ({"sideways": 0.25}, {"sideways": 0.25}), True, ("legs", 2.0)),
    )

    def check(self, ctx: NudgeContext) -> ClauseResult:
        directions = [leg.direction for leg in ctx.legs]
        legal = len(directions) <= 2 and len(set(directions)) == len(directions)
        return self.result("legs", float(len(directions)), 2.0, legal,
                           f"{len(directions)} legs ({', '.join(directions)}): a nudge is "
                           "one straight leg forwards, backwards or sideways, or two of "
                           "different directions")
