"""Who may make a Post-Combat Pivot (RULES §2.11.6, §2.8.6; seed 001, No More Foes): "When
a unit is unable to be Nudged back into contact with enemies ... such that it finds itself
no longer Engaged in Combat, the unit may perform a Post-combat Pivot".

Measured: the distance from the unit to the nearest enemy unit before the pivot; in base
contact (within 1e-6") it is still Engaged and may not pivot.  A unit about to flee or to
pursue (`state`) does not make it either.  That the unit was Engaged this round is the
player's claim (the scenario does not record it; `nudge` lists such units in `no_more_foes`).
"""

from __future__ import annotations

from typing import Any

from constraints.core.clause import Clause, Judges, RuleExample
from constraints.core.verdict import ClauseResult
from constraints.rank_and_file.contact import CONTACT_IN
from constraints.t9a.clauses.post_combat.examples import pcp
from constraints.t9a.context import MoveContext
from constraints.t9a.examples import field, unit


def _foe(y: float) -> dict:
    """An enemy 5 x 1 facing the default unit, its front edge on y."""
    return unit("e", models=5, files=5, centre=(36.0, y + 0.5), facing=270.0, player="blue")


def nearest_enemy(scenario: Any, own: Any) -> tuple[float, str]:
    here = own.boundary()
    found = [(here.distance(u.boundary()), u.id) for u in scenario.units
             if u.id != own.id and u.player != own.player]
    return min(found) if found else (float("inf"), "")


def why_not_eligible(scenario: Any, own: Any) -> str:
    gap, enemy = nearest_enemy(scenario, own)
    if gap <= CONTACT_IN:
        return f"{own.id} is in base contact with {enemy}: still Engaged in Combat"
    if own.state in ("fleeing", "pursuing"):
        return f"{own.id} is {own.state}: it does not make a Post-Combat Pivot"
    return ""


class PostCombatUnengaged(Clause):
    id = "t9a.post_combat_pivot.unengaged"
    judges = Judges.END_POSE

    examples = (
        RuleExample("no enemy left in contact: it may pivot", field(unit(), _foe(11.5)),
                    pcp(180.0), False, ("nearest_enemy", 0.5)),
        RuleExample("still in base contact: still Engaged, no Post-Combat Pivot",
                    field(unit(), _foe(11.0)), pcp(180.0), True, ("nearest_enemy", 0.0)),
        RuleExample("a unit about to flee does not pivot",
                    field(unit(state="fleeing"), _foe(13.0)), pcp(90.0), True),
        RuleExample("a unit about to pursue does not pivot",
                    field(unit(state="pursuing"), _foe(13.0)), pcp(90.0), True),
        RuleExample("its enemies removed, the unit may pivot", field(unit()), pcp(45.0), False),
    )

    def check(self, ctx: MoveContext) -> ClauseResult:
        gap, _ = nearest_enemy(ctx.scenario, ctx.unit)
        why = why_not_eligible(ctx.scenario, ctx.unit)
        return self.result("nearest_enemy", gap, CONTACT_IN, not why, why)

    def refuses_every_move(self, scenario: Any, unit: Any) -> bool:
        return bool(why_not_eligible(scenario, unit))
