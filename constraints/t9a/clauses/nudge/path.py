"""No passing through (seed 001): "The unit cannot move through other units or Impassable
Terrain."

Measured: the deepest overlap of the area a leg sweeps with another unit's boundary or a
piece of Impassable Terrain (the least shift that would separate them).  Touching, within the
contact tolerance, is not moving through: a unit may slide along a friend's flank.
"""

from __future__ import annotations

from constraints.core.verdict import ClauseResult
from constraints.geometry.overlap import penetration
from constraints.t9a.clauses.nudge.base import NudgeClause, NudgeExample
from constraints.t9a.clauses.nudge.context import NudgeContext
from constraints.t9a.clauses.nudge.examples import block, foe, line, scene
from constraints.t9a.examples import unit

_BEFORE = {"e": "front"}
_FRIEND = unit("f", models=2, files=2, centre=(39.5, 10.0))  # touching u's right flank


class NudgePath(NudgeClause):
    id = "nudge.path"
    examples = (
        NudgeExample("sliding sideways 0.5\" in the open", scene(line(), foe(5.5)), "u",
                     _BEFORE, ({"sideways": 0.5},), False),
        NudgeExample("a friend on the right flank blocks a slide to the right",
                     scene(line(), foe(5.5), _FRIEND), "u", _BEFORE, ({"sideways": 0.5},),
                     True, ("overlap", 0.5)),
        NudgeExample("impassable terrain 0.25\" to the right is passed through",
                     scene(line(), foe(5.5), terrain=(block(38.75, 9.0, 40.0, 10.0),)), "u",
                     _BEFORE, ({"sideways": 0.5},), True, ("overlap", 0.25)),
        NudgeExample("backwards then sideways passes behind a friend that blocks the slide",
                     scene(line(), foe(5.5), unit("f", models=1, files=1, centre=(39.0, 10.0))),
                     "u", _BEFORE, ({"forward": -1.0}, {"sideways": 0.5}), False,
                     ("overlap", 0.0)),
    )

    def check(self, ctx: NudgeContext) -> ClauseResult:
        worst, label = 0.0, ""
        for hull in ctx.sweeps():
            for name, part in ctx.blockers:
                depth = penetration(hull, part)
                if depth > worst:
                    worst, label = depth, name
        return self.result("overlap", worst, ctx.contact_in, worst <= ctx.contact_in,
                           f"the nudge passes {worst:.4f}\" into {label}")
