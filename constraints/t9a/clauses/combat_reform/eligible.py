"""Who may Combat Reform, in both versions.

Seed 002 (profile `t9a`): "each unit remaining Engaged in this Combat now performs a Combat
Reform.  Units on the losing side of the combat must pass a Discipline Test in order to do so
[...] Units Engaged in more than one Facing can never perform any Combat Reforms [...] Each
player may choose not to Combat Reform one or more of their units."

RULES §2.12 (A) 1 (profile `t9a-2025`): "Units Engaged on more than one of their Facings may
never Combat Reform.  Units on the losing side, and units engaged in their Flank or Rear,
must pass a Command Test (2D6 <= Dis) to do it."

The Facings a unit is Engaged in are its own Facings touched by an enemy Unit Boundary
(RULES §2.6.4), one per enemy (`engagements`: a contact at a single corner point is in the
Facing whose Arc holds the enemy's centre, docs/rules.md §11.1).  Who passed is the combat
result's `passed`; a unit in its `skip` was not to reform.  Measured: how many of its Facings
the unit is Engaged in (it must be exactly 1: 0 is a unit no longer Engaged).
"""

from __future__ import annotations

from constraints.core.verdict import ClauseResult
from constraints.t9a.clauses.combat_reform.base import CombatReformClause, ReformExample, Role
from constraints.t9a.clauses.combat_reform.context import ReformContext
from constraints.t9a.clauses.combat_reform.examples import flanker, foe, line, reform, scene
from constraints.t9a.examples import unit

_FRONT = scene(line(), foe(0.0))
_TWO_FACINGS = scene(line(), foe(0.0), flanker())
_APART = scene(line(), unit("e", models=5, files=5, centre=(36.0, 20.0), facing=270.0,
                            player="blue"))
_FRONT_2025 = scene(line(), foe(0.0), rules="t9a-2025")
_FLANK_2025 = scene(line(), flanker(), rules="t9a-2025")
_STAY = (reform(),)
FLANK_OR_REAR = frozenset({"left", "right", "rear"})


def _common(ctx: ReformContext, needs_test: bool, test: str) -> list[str]:
    """What keeps the unit from reforming under either version, in words."""
    unit, facings = ctx.unit, sorted(set(ctx.engaged_before.values()))
    why = []
    if not facings:
        why.append(f"{unit.id} is not Engaged in a combat")
    elif len(facings) > 1:
        why.append(f"{unit.id} is Engaged in {len(facings)} of its Facings "
                   f"({', '.join(facings)}) and can never Combat Reform")
    if needs_test and unit.id not in ctx.result.passed:
        why.append(f"{unit.id} must pass a {test} to Combat Reform and has not")
    if unit.id in ctx.result.skip:
        why.append(f"{unit.id}'s owner chose not to Combat Reform it")
    return why


def _judge(clause: CombatReformClause, ctx: ReformContext, why: list[str]) -> ClauseResult:
    facings = float(len(set(ctx.engaged_before.values())))
    return clause.result("facings", facings, 1.0, not why, "; ".join(why), dimension="facings")


class Eligible(CombatReformClause):
    """Seed 002: Engaged in exactly one Facing; a loser only after a passed Discipline Test;
    not a unit its owner chose not to reform."""

    id = "combat_reform.eligible"
    role = Role.ELIGIBILITY
    examples = (
        ReformExample("each unit remaining Engaged performs a Combat Reform: u is Engaged "
                      "in its Front", _FRONT, _STAY, False, ("facings", 1.0)),
        ReformExample("Units Engaged in more than one Facing can never perform any Combat "
                      "Reforms (Front and right Flank)", _TWO_FACINGS, _STAY, True,
                      ("facings", 2.0)),
        ReformExample("a unit no longer Engaged does not Combat Reform", _APART, _STAY, True,
                      ("facings", 0.0)),
        ReformExample("Units on the losing side must pass a Discipline Test: not passed",
                      _FRONT, _STAY, True, ("facings", 1.0), {"loser": "red"}),
        ReformExample("Units on the losing side must pass a Discipline Test: passed", _FRONT,
                      _STAY, False, ("facings", 1.0), {"loser": "red", "passed": ["u"]}),
        ReformExample("the winners need no test", _FRONT, _STAY, False, ("facings", 1.0),
                      {"loser": "blue"}),
        ReformExample("Each player may choose not to Combat Reform one or more of their "
                      "units: u was not to reform", _FRONT, _STAY, True, None, {"skip": ["u"]}),
    )

    def check(self, ctx: ReformContext) -> ClauseResult:
        loser = ctx.result.loser == ctx.player
        return _judge(self, ctx, _common(ctx, loser, "Discipline Test"))


class EligibleCommand(CombatReformClause):
    """RULES §2.12 (A) 1: never when Engaged in more than one Facing; losers and units
    Engaged in their Flank or Rear only after a passed Command Test."""

    id = "combat_reform.eligible"
    role = Role.ELIGIBILITY
    examples = (
        ReformExample("a winner Engaged in its Front needs no test", _FRONT_2025, _STAY, False,
                      ("facings", 1.0)),
        ReformExample("Units Engaged on more than one of their Facings may never Combat "
                      "Reform", scene(line(), foe(0.0), flanker(), rules="t9a-2025"), _STAY,
                      True, ("facings", 2.0), {"passed": ["u"]}),
        ReformExample("units engaged in their Flank must pass a Command Test: not passed",
                      _FLANK_2025, _STAY, True, ("facings", 1.0)),
        ReformExample("units engaged in their Flank must pass a Command Test: passed",
                      _FLANK_2025, _STAY, False, ("facings", 1.0), {"passed": ["u"]}),
        ReformExample("Units on the losing side must pass a Command Test", _FRONT_2025, _STAY,
                      True, ("facings", 1.0), {"loser": "red"}),
    )

    def check(self, ctx: ReformContext) -> ClauseResult:
        flank = bool(FLANK_OR_REAR & set(ctx.engaged_before.values()))
        needs = flank or ctx.result.loser == ctx.player
        return _judge(self, ctx, _common(ctx, needs, "Command Test"))
