"""Characters keep their contact.  Seed 002: "Characters that were in base contact with an
enemy must still be after the Combat Reform.  This applies to both enemy and friendly
Characters.  A Character may end up in base contact with different enemy models than it was
before the Combat Reform."  RULES §2.12 (A) 3.3: "every Attachable model (either side) that
touched an enemy before still does", judged after all of a player's Combat Reforms (A 4).

Base contact between models includes contact across gaps (RULES §2.6.2).  Every Character of
every unit in the combats of the reformed units counts.  Measured: how many lost contact.
"""

from __future__ import annotations

from constraints.core.verdict import ClauseResult
from constraints.t9a.clauses.combat_reform.base import CombatReformClause, ReformExample
from constraints.t9a.clauses.combat_reform.context import ReformContext
from constraints.t9a.clauses.combat_reform.examples import at, foe, line, reform, scene

# u's Character "cap" at the middle of its front (x 35.5-36.5) facing e, 2 wide (x 35-37).
_LED = (line(models=9, characters=[{"id": "cap", "slot": [0, 2]}]), foe(0.0, files=2))
# e's Character "boss" at e's file 0 (x 36-37); u is 5 wide (x 33.5-38.5).
_BOSS = (line(), foe(0.0, files=2, models=1, characters=[{"id": "boss", "slot": [0, 0]}]))


def lost_characters(ctx: ReformContext) -> list[str]:
    """The Characters touching an enemy model before that touch none after."""
    before, after = ctx.contacts_before, ctx.contacts_after
    return [c for c in ctx.characters() if before.touching(c) and not after.touching(c)]


def _judge(clause: CombatReformClause, ctx: ReformContext) -> ClauseResult:
    lost = lost_characters(ctx)
    return clause.result("lost", float(len(lost)), 0.0, not lost,
                         f"Characters {', '.join(lost)} touched an enemy before and no "
                         "longer do", dimension="models")


class Characters(CombatReformClause):
    id = "combat_reform.characters"
    examples = (
        ReformExample("A Character may end up in base contact with different enemy models",
                      scene(*_LED), (reform(models=(at("cap", 0, 3),)),), False,
                      ("lost", 0.0)),
        ReformExample("Characters that were in base contact with an enemy must still be",
                      scene(*_LED), (reform(models=(at("cap", 0, 0),)),), True, ("lost", 1.0)),
        ReformExample("This applies to enemy Characters: u slides 3\" left, off e's Character",
                      scene(*_BOSS), (reform(x=33.0),), True, ("lost", 1.0)),
        ReformExample("an enemy Character touched at a corner is still in contact",
                      scene(*_BOSS), (reform(x=33.5),), False, ("lost", 0.0)),
    )

    def check(self, ctx: ReformContext) -> ClauseResult:
        return _judge(self, ctx)


class CharactersAfterAll(CombatReformClause):
    """Variant A: judged once, after all of the player's Combat Reforms (RULES §2.12 (A) 4)."""

    id = "combat_reform.characters"
    deferred = True
    examples = (
        ReformExample("every Attachable model (either side) that touched an enemy before "
                      "still does", scene(*_BOSS, rules="t9a-2025"), (reform(x=33.0),), True,
                      ("lost", 1.0)),
        ReformExample("touching another enemy model is enough",
                      scene(*_LED, rules="t9a-2025"), (reform(models=(at("cap", 0, 3),)),),
                      False, ("lost", 0.0)),
    )

    def check(self, ctx: ReformContext) -> ClauseResult:
        return _judge(self, ctx)
