"""No overlap.  Seed 002 places the unit "in a legal formation (following the Unit Spacing
rule, etc.)", and no Unit Boundary may lie inside another (RULES §2.1.5); RULES §2.12 (A) 3.4:
"Unit Spacing may be ignored, but no new enemy contacts and no overlap".  This holds towards
units of the same Combat too, which Unit Spacing otherwise lets the unit touch.

Measured: the deepest overlap with another unit's boundary or a piece of Impassable Terrain
(the least shift that would separate them, 0 when apart or touching); touching, within the
contact tolerance, is not overlapping.
"""

from __future__ import annotations

import numpy as np

from constraints.core.verdict import ClauseResult
from constraints.geometry.overlap import convex_parts, penetration
from constraints.t9a.clauses.combat_reform.base import CombatReformClause, ReformExample
from constraints.t9a.clauses.combat_reform.context import ReformContext
from constraints.t9a.clauses.combat_reform.examples import block, foe, line, reform, scene

# e 8 wide (x 32-40); f (red) fights it too, 1" right of u: both in the same Combat.
_SAME_COMBAT = (line(), foe(0.0, files=8), line("f", models=2, files=2, x=40.5, y=10.5))


class Overlap(CombatReformClause):
    id = "combat_reform.overlap"
    examples = (
        ReformExample("touching a friend of the same Combat is no overlap",
                      scene(*_SAME_COMBAT), (reform(x=37.0),), False, ("overlap", 0.0)),
        ReformExample("0.5\" into a friend of the same Combat is an overlap",
                      scene(*_SAME_COMBAT), (reform(x=37.5),), True, ("overlap", 0.5)),
        ReformExample("Unit Spacing may be ignored, but no overlap (variant A)",
                      scene(*_SAME_COMBAT, rules="t9a-2025"), (reform(x=37.5),), True,
                      ("overlap", 0.5)),
        ReformExample("0.25\" into Impassable Terrain",
                      scene(line(), foe(0.0), terrain=(block("rock", 39.0, 8.0, 40.0, 10.0),)),
                      (reform(x=36.75),), True, ("overlap", 0.25)),
    )

    def check(self, ctx: ReformContext) -> ClauseResult:
        mine = np.asarray(ctx.end_unit.corners())
        shapes = [(f"unit {u.id}", np.asarray(u.corners()))
                  for u in ctx.before.others(ctx.unit_id)]
        shapes += [(f"Impassable Terrain {t.id}", part) for t in ctx.before.impassable()
                   for part in convex_parts(t.shape)]
        worst, label = 0.0, ""
        for name, vertices in shapes:
            depth = penetration(mine, vertices)
            if depth > worst:
                worst, label = depth, name
        return self.result("overlap", worst, ctx.contact_in, worst <= ctx.contact_in,
                           f"{ctx.unit_id} is placed {worst:.4f}\" into {label}")
