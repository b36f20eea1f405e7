"""Unit Spacing of a Combat Reform (seed 002, profile `t9a`): "The unit must be placed in a
legal formation (following the Unit Spacing rule, etc.).  The unit is allowed to come within
0.5" of units Engaged in the same Combat, but it cannot move into base contact with enemy
units that it was not in base contact with before the Combat Reform."

Unit Spacing (RULES §2.3.2): the unit ends more than 1" (`end_spacing_in`) from other units
and from Impassable Terrain.  Decisions:

* Units Engaged in the same Combat (friend or foe) set no distance at all.  "Within 0.5""
  reaches down to touching, and the rule names new enemy contact as the one contact it still
  forbids (`combat_reform.new_enemy`), so a friend of the same Combat may be touched (two
  units fighting one enemy side by side).  Overlap is never allowed
  (`combat_reform.overlap`).
* A unit or piece of Impassable Terrain the unit stood within 1" of before the reform may
  stay within 1": "Lifting a unit off and putting it back (e.g. a Reform) does not count as
  moving away unless it is actually placed more than 1" away" (RULES §2.3.2.4).  It may not
  touch it (§2.3.2.5: contact only where a rule allows it).

Measured: the least distance to a unit outside the combat or to Impassable Terrain
(`distance`), and, for information, to a unit of the same Combat (`combat_distance`).
"""

from __future__ import annotations

import math

from shapely.geometry.base import BaseGeometry

from constraints.core.verdict import ClauseResult, Violation
from constraints.geometry.plane import closest_points
from constraints.t9a.clauses.combat_reform.base import CombatReformClause, ReformExample, Role
from constraints.t9a.clauses.combat_reform.context import ReformContext
from constraints.t9a.clauses.combat_reform.examples import block, foe, line, reform, scene

_FRIEND = line("f", models=1, files=1, x=41.5, y=10.0)  # 3" right of u, outside the combat
# e 8 wide (x 32-40); f (red) fights it too, 1" right of u: both in the same Combat.
_SAME_COMBAT = scene(line(), foe(0.0, files=8), line("f", models=2, files=2, x=40.5, y=10.5))


class Spacing(CombatReformClause):
    id = "combat_reform.spacing"
    role = Role.SPACING
    examples = (
        ReformExample("more than 1\" from a friend outside the combat: 1.5\"",
                      scene(line(), foe(0.0), _FRIEND), (reform(x=37.0),), False,
                      ("distance", 1.5)),
        ReformExample("0.75\" from a friend outside the combat is within 1\"",
                      scene(line(), foe(0.0), _FRIEND), (reform(x=37.75),), True,
                      ("distance", 0.75)),
        ReformExample("allowed to come within 0.5\" of units Engaged in the same Combat: "
                      "touching a friend fighting the same enemy", _SAME_COMBAT,
                      (reform(x=37.0),), False, ("combat_distance", 0.0)),
        ReformExample("Impassable Terrain 0.5\" away is within 1\"",
                      scene(line(), foe(0.0), terrain=(block("rock", 40.0, 8.0, 41.0, 10.0),)),
                      (reform(x=37.0),), True, ("distance", 0.5)),
        ReformExample("placed back 0.5\" from terrain it stood 0.5\" from may stay there",
                      scene(line(), foe(0.0), terrain=(block("rock", 39.0, 8.0, 40.0, 10.0),)),
                      (reform(),), False, ("distance", 0.5)),
        ReformExample("but it may not touch it",
                      scene(line(), foe(0.0), terrain=(block("rock", 39.0, 8.0, 40.0, 10.0),)),
                      (reform(x=36.5),), True, ("distance", 0.0)),
    )

    def check(self, ctx: ReformContext) -> ClauseResult:
        start, end = ctx.unit.boundary(), ctx.end_unit.boundary()
        spacing = float(ctx.param("end_spacing_in"))
        nearest, combat_nearest = math.inf, math.inf
        violations = []
        for label, shape, same_combat in _obstacles(ctx):
            gap = float(end.distance(shape))
            if same_combat:
                combat_nearest = min(combat_nearest, gap)
                continue
            nearest = min(nearest, gap)
            near_before = start.distance(shape) <= spacing
            limit = ctx.contact_in if near_before else spacing
            if gap <= limit:
                rule = "it may stay within 1\" of it but not touch it" if near_before else \
                    f"it must end more than {spacing:g}\" away"
                violations.append(Violation(self.id, gap, limit, "in",
                                            f"{ctx.unit_id} ends {gap:.4f}\" from {label}: "
                                            f"{rule}", closest_points(end, shape)))
        return ClauseResult({"distance": nearest, "combat_distance": combat_nearest},
                            tuple(violations))


def _obstacles(ctx: ReformContext) -> list[tuple[str, BaseGeometry, bool]]:
    """(label, shape, whether it is a unit of the same Combat) of everything Unit Spacing
    measures the unit against."""
    found = [(f"unit {u.id}", u.boundary(), u.id in ctx.combat_before)
             for u in ctx.before.others(ctx.unit_id)]
    found += [(f"Impassable Terrain {t.id}", t.shape, False) for t in ctx.before.impassable()]
    return found
