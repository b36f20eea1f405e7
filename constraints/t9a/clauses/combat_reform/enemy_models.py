"""Enemy models keep their contact.  Seed 002: "Furthermore, after a player has completed all
their Combat Reforms, all enemy models that were in base contact with opposing models before
the Combat Reform must still be in base contact after the Combat Reform, but they may be
Engaged with different models or units."

Judged once over all of the player's reforms (deferred): every model of the other players'
units in the combats of the reformed units that touched an opposing model before the first
reform touches one after the last.  Base contact includes contact across gaps (RULES
§2.6.2).  Measured: how many enemy models lost contact.
"""

from __future__ import annotations

from constraints.core.verdict import ClauseResult
from constraints.t9a.clauses.combat_reform.base import CombatReformClause, ReformExample
from constraints.t9a.clauses.combat_reform.context import ReformContext
from constraints.t9a.clauses.combat_reform.examples import foe, line, reform, scene

_SCENE = scene(line(), foe(0.0))
# u and v (red, one rank each) side by side against e, 8 wide (x 32-40).
_PAIR = scene(line(models=5, x=33.5, y=10.5), line("v", models=5, x=38.5, y=10.5),
              foe(0.0, files=8))
_V_AWAY = reform("v", files=3, x=40.0, y=10.0)  # v 3 wide at x 38.5-41.5: e's x 37-38 lost
_U_BACK = reform(x=35.0, y=10.5)  # u 1.5" right, x 32.5-37.5: touches it again


class EnemyModels(CombatReformClause):
    id = "combat_reform.enemy_models"
    deferred = True
    examples = (
        ReformExample("they may be Engaged with different models: 1\" along", _SCENE,
                      (reform(x=37.0),), False, ("lost", 0.0)),
        ReformExample("all enemy models in base contact before must still be: 2\" along "
                      "loses e's leftmost model", _SCENE, (reform(x=38.0),), True,
                      ("lost", 1.0)),
        ReformExample("after a player has completed all their Combat Reforms: v loses one",
                      _PAIR, (_V_AWAY,), True, ("lost", 1.0)),
        ReformExample("or units: u's reform after v's touches it again", _PAIR,
                      (_V_AWAY, _U_BACK), False, ("lost", 0.0)),
    )

    def check(self, ctx: ReformContext) -> ClauseResult:
        before, after = ctx.contacts_before, ctx.contacts_after
        enemy = {u.id for u in ctx.before.units if u.player != ctx.player}
        lost = [m for m, owner in before.owner.items()
                if owner in enemy and before.touching(m) and not after.touching(m)]
        return self.result("lost", float(len(lost)), 0.0, not lost,
                           f"enemy models {', '.join(lost)} touched opposing models before "
                           f"{ctx.player}'s Combat Reforms and no longer do",
                           dimension="models")
