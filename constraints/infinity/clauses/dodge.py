"""route.dodge: a Dodge moves the trooper up to 2" (docs/rules.md §13.8).

Rule (docs/rules.md §13.8): "A successful Dodge lets the trooper leave contact, moving up to 2"";
the current text also lets a Dodge reach Silhouette contact.  A Dodge walks like a Move (the
walk clauses judge its path: surfaces, scenery, troopers, where it ends), only its distance
differs; leaving the contact it starts in is allowed (`route.enemy_contact` ignores contact
the trooper starts in), reaching an enemy ends it there.  Decision (A15, "MOV values and
movement bonuses halved"): Prone halves the 2" to 1".
"""

from __future__ import annotations

from constraints.core.verdict import ClauseResult
from constraints.infinity.clauses.base import CLEAR_TOL_IN, Kept, RouteClause, RouteExample, merged
from constraints.infinity.clauses.context import RouteContext
from constraints.infinity.clauses.examples import skill, town, trooper
from constraints.infinity.route import DODGE_IN

_ENGAGED = town(troopers=(trooper("zhanshi", 4 + 25 / 25.4, 12, player="red"),))


def dodge_allowance_in(prone: bool) -> float:
    return DODGE_IN / (2.0 if prone else 1.0)


class Dodge(RouteClause):
    id = "route.dodge"
    kept = Kept.BUDGET
    skills = frozenset({"dodge"})

    def check(self, ctx: RouteContext) -> ClauseResult:
        length = sum(ctx.move_lengths())
        limit = dodge_allowance_in(ctx.trooper.prone)
        found = self.result("dodge_length", length, limit, length <= limit + CLEAR_TOL_IN,
                            f"the Dodge covers {length:.3f} in, more than {limit:g} in")
        return merged([found, ClauseResult({"length": length})])

    examples = (
        RouteExample("a Dodge of 2 in", town(), skill("dodge", (4, 12, 0), (6, 12, 0)), False,
                     ("dodge_length", 2.0)),
        RouteExample("a Dodge of 2.5 in is too far", town(),
                     skill("dodge", (4, 12, 0), (6.5, 12, 0)), True, ("dodge_length", 2.5)),
        RouteExample("leaving Silhouette contact with an enemy, 1.5 in away", _ENGAGED,
                     skill("dodge", (4, 12, 0), (2.5, 12, 0)), False, ("dodge_length", 1.5)),
        RouteExample("round a corner: 1 + 1.2 in is measured whole", town(),
                     skill("dodge", (4, 12, 0), (4, 13, 0), (5.2, 13, 0)), True,
                     ("dodge_length", 2.2)),
        RouteExample("Prone halves the 2 in: 1.5 in is too far", town(),
                     skill("dodge", (4, 12, 0), (5.5, 12, 0), prone=True), True,
                     ("dodge_length", 1.5)),
    )
