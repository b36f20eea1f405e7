"""As many models in contact.  Seed 002: "After each Combat Reform, at least as many models of
the Combat Reforming unit must be in base contact with enemy models as there were before.
These don't have to be the same models."  RULES §2.12 (A) 3.2: "at least as many models of
the reforming unit and of every unit it touched before must be in contact with enemy models
as before (not necessarily the same models)", judged after all of a player's reforms (A 4).

Base contact between models includes contact across gaps (RULES §2.6.2).  Measured: seed 002,
the unit's models in contact after (the limit: before); variant A, the largest shortfall of
any of those units.
"""

from __future__ import annotations

from constraints.core.verdict import ClauseResult
from constraints.t9a.clauses.combat_reform.base import CombatReformClause, ReformExample, Role
from constraints.t9a.clauses.combat_reform.context import ReformContext
from constraints.t9a.clauses.combat_reform.examples import foe, line, reform, scene

_SCENE = scene(line(), foe(0.0))
# u 3 wide (x 34.5-37.5) against e 7 wide (x 32.5-39.5): e has 5 models in contact.
_NARROW = scene(line(models=3, files=3, y=10.5), foe(0.0, files=7), rules="t9a-2025")


class ContactCount(CombatReformClause):
    id = "combat_reform.contact_count"
    role = Role.CONTACT_COUNT
    examples = (
        ReformExample("These don't have to be the same models: 1\" along, still 5", _SCENE,
                      (reform(x=37.0),), False, ("models", 5.0)),
        ReformExample("at least as many models as before: 2\" along leaves 4 of 5", _SCENE,
                      (reform(x=38.0),), True, ("models", 4.0)),
    )

    def check(self, ctx: ReformContext) -> ClauseResult:
        was = ctx.contacts_before.count(ctx.unit_id)
        now = ctx.contacts_after.count(ctx.unit_id)
        return self.result("models", float(now), float(was), now >= was,
                           f"{now} models of {ctx.unit_id} touch enemy models, "
                           f"{was} did before", dimension="models")


class ContactCountAfterAll(CombatReformClause):
    """Variant A: the reformed units and every unit they touched before, judged once after
    all of the player's Combat Reforms."""

    id = "combat_reform.contact_count"
    role = Role.CONTACT_COUNT
    deferred = True
    examples = (
        ReformExample("1\" along: u keeps 3 and e keeps 5 models in contact", _NARROW,
                      (reform(x=37.0, y=10.5, files=3),), False, ("shortfall", 0.0)),
        ReformExample("and of every unit it touched before: 2\" along, e has 4 of 5",
                      _NARROW, (reform(x=38.0, y=10.5, files=3),), True, ("shortfall", 1.0)),
    )

    def check(self, ctx: ReformContext) -> ClauseResult:
        counted: dict[str, None] = {}
        for r in ctx.reforms:
            counted[r.unit] = None
            counted.update({e.id: None for e in ctx.enemies_touched_before(r.unit)})
        worst, problems = 0, []
        for uid in counted:
            was, now = ctx.contacts_before.count(uid), ctx.contacts_after.count(uid)
            if now < was:
                worst = max(worst, was - now)
                problems.append(f"{uid} has {now} models in contact, {was} before")
        return self.result("shortfall", float(worst), 0.0, not problems, "; ".join(problems),
                           dimension="models")
