"""The same enemies, on the same Facings.  Seed 002: "The unit must be placed in base contact
with all the enemy units it was in base contact with before the Combat Reform, and in the
same Facing of the enemy unit(s)"; RULES §2.12 (A) 3.5: "stay in contact with the same enemy
units on the same Facings of those enemies".

The enemy's Facing is the one the reformed unit touches (`engaged_facing`: at a single
corner point, the Facing whose Arc holds the unit's centre, docs/rules.md §11.1), before and
after.  Measured: the distance to the farthest enemy touched before (0 when all are touched).
"""

from __future__ import annotations

from constraints.core.verdict import ClauseResult, Violation
from constraints.rank_and_file.contact import engaged_facing
from constraints.t9a.clauses.combat_reform.base import CombatReformClause, ReformExample, Role
from constraints.t9a.clauses.combat_reform.context import ReformContext
from constraints.t9a.clauses.combat_reform.examples import foe, line, reform, scene

_SCENE = scene(line(), foe(0.0))


class SameEnemies(CombatReformClause):
    id = "combat_reform.same_enemies"
    role = Role.SAME_ENEMIES
    examples = (
        ReformExample("sliding 2\" along the enemy's Front keeps it in contact", _SCENE,
                      (reform(x=38.0),), False, ("distance", 0.0)),
        ReformExample("must be placed in base contact with all the enemy units it was in "
                      "base contact with before: 0.5\" back", _SCENE, (reform(y=9.5),), True,
                      ("distance", 0.5)),
        ReformExample("and in the same Facing of the enemy unit: moved to its Flank", _SCENE,
                      (reform(x=39.5, y=11.5, facing=180.0),), True, ("distance", 0.0)),
        ReformExample("same enemy units on the same Facings (variant A)",
                      scene(line(), foe(0.0), rules="t9a-2025"),
                      (reform(x=39.5, y=11.5, facing=180.0),), True, ("distance", 0.0)),
    )

    def check(self, ctx: ReformContext) -> ClauseResult:
        start, end = ctx.unit, ctx.end_unit
        farthest = 0.0
        problems = []
        for enemy in ctx.enemies_touched_before(ctx.unit_id):
            gap = float(end.boundary().distance(enemy.boundary()))
            farthest = max(farthest, gap)
            if gap > ctx.contact_in:
                problems.append(f"{enemy.id} is no longer touched ({gap:.4f}\" away)")
                continue
            was, now = engaged_facing(enemy, start, ctx.contact_in), \
                engaged_facing(enemy, end, ctx.contact_in)
            if was != now:
                problems.append(f"{enemy.id} is touched in its {now} Facing, not its {was}")
        violations = tuple(Violation(self.id, farthest, ctx.contact_in, "in",
                                     f"{ctx.unit_id}: {problem}") for problem in problems)
        return ClauseResult({"distance": farthest}, violations)
