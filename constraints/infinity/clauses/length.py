"""route.length: each Move covers at most its MOV value (docs/rules.md §13.4).

Rule (seed 004; docs/rules.md §13.1, §13.2): "MOV values indicate the maximum distance";
"measure the complete route (including ... any detour)"; the first Move of an Order up to the
first value, a second Move up to the second; vertical movement over scenery no higher than
the Silhouette "is not taken into account"; ladders and stairs are measured along them;
Prone halves both values (decision A15).
"""

from __future__ import annotations

from constraints.core.verdict import ClauseResult
from constraints.infinity.clauses.base import CLEAR_TOL_IN, Kept, RouteClause, RouteExample, merged
from constraints.infinity.clauses.context import RouteContext
from constraints.infinity.clauses.examples import ladder, rect, town, walk

ORDINALS = ("first", "second")


class Length(RouteClause):
    id = "route.length"
    skills = frozenset({"move", "move_move"})
    kept = Kept.BUDGET

    def check(self, ctx: RouteContext) -> ClauseResult:
        found = []
        for k, length in enumerate(ctx.move_lengths()):
            limit = ctx.trooper.move_allowance_in(k)
            found.append(self.result(
                f"move_{k + 1}_length", length, limit, length <= limit + CLEAR_TOL_IN,
                f"the {ORDINALS[k]} Move covers {length:.3f} in, more than its MOV value "
                f"{limit:g} in"))
        total = sum(ctx.move_lengths())
        return merged([*found, ClauseResult({"length": total})])

    examples = (
        RouteExample("MOV 4: a 4 in Move", town(), walk((4, 12, 0), (8, 12, 0)), False,
                     ("move_1_length", 4.0)),
        RouteExample("MOV 4: a 4.5 in Move is too long", town(),
                     walk((4, 12, 0), (8.5, 12, 0)), True, ("move_1_length", 4.5)),
        RouteExample("the detour counts: 3 + 3 in round a corner", town(),
                     walk((4, 12, 0), (4, 15, 0), (7, 15, 0)), True, ("move_1_length", 6.0)),
        RouteExample("a low wall's height is not counted",
                     town(rect("wall", 6, 8, 6.3, 16, 0.8, kind="obstacle")),
                     walk((4, 12, 0), (8, 12, 0)), False, ("move_1_length", 4.0)),
        RouteExample("a ladder is measured along it (0.6 across, 3 up: 3.059 in)",
                     town(rect("house", 6, 10, 10, 14, 3.0),
                          ladder("l", (5.4, 12, 0), (6.0, 12, 3)), at=(5.4, 12, 0)),
                     walk((5.4, 12, 0), (6.0, 12, 3), (6.6, 12, 3)), False,
                     ("move_1_length", (0.36 + 9) ** 0.5 + 0.6)),
        RouteExample("Prone halves MOV 4 to 2 in", town(),
                     walk((4, 12, 0), (6.5, 12, 0), prone=True), True, ("move_1_length", 2.5)),
        RouteExample("Move + Move (4-4): 8 in in two Moves of 4", town(),
                     walk((4, 12, 0), (8, 12, 0), (12, 12, 0), mid=(8, 12, 0)), False,
                     ("move_2_length", 4.0)),
        RouteExample("Move + Move: 5 then 3 breaks the first MOV value", town(),
                     walk((4, 12, 0), (9, 12, 0), (12, 12, 0), mid=(9, 12, 0)), True,
                     ("move_1_length", 5.0)),
    )
