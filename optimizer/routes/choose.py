"""Which skill takes a trooper to a spot (docs/rules.md §13.9): a Move where one is legal,
else Move + Move, else the shorter legal Jump or Climb (a Jump on a tie).  The answer is the
chosen skill's own search result (its status is about that skill), with `tried`: every
skill asked, its search's status and whether its route is legal (a Move's shortest route may
be OPTIMAL and too long).  When none is legal the answer is the Move + Move's, with an
`idle` proof only when every skill's search proved it has no legal way.
"""

from __future__ import annotations

from dataclasses import replace

from constraints.core.scenario import Scenario
from constraints.core.status import Status
from optimizer.routes.shortest import RouteResult, shortest_route

ORDER = ("move", "move_move", "jump", "climb")


def route_to(scenario: Scenario, unit: str, target: tuple[float, ...],
             prone: bool | None = None, tolerance_in: float = 0.01) -> RouteResult:
    """The route `manoeuvre route --to` answers without `--skill` (see the module's text)."""
    results: dict[str, RouteResult] = {}
    for skill in ORDER:
        results[skill] = shortest_route(scenario, unit, target, skill, prone, tolerance_in)
        if skill in ("move", "move_move") and results[skill].legal:
            break
    tried = {skill: {"status": str(r.status), "legal": r.legal} for skill, r in results.items()}
    for skill in ("move", "move_move"):
        if results[skill].legal:
            return _chosen(results[skill], tried, f"a {_name(skill)} reaches it")
    air = [results[s] for s in ("jump", "climb") if results[s].legal]
    if air:
        best = min(air, key=lambda r: r.length_in)
        return _chosen(best, tried, f"no Move reaches it; a {_name(best.skill)} does "
                       f"({best.length_in:.3f} in)")
    proved = all(r.idle for r in results.values())
    last = results["move_move"]
    reason = ("no Move, Move + Move, Jump or Climb reaches it: Idle" if proved else
              "no legal Move, Move + Move, Jump or Climb was found; not all are ruled out")
    status = Status.INFEASIBLE if proved else Status.NOT_FOUND
    return replace(last, status=status, reason=reason,
                   extra={**last.extra, "tried": tried})


def _chosen(result: RouteResult, tried: dict[str, dict[str, object]], why: str) -> RouteResult:
    return replace(result, extra={**result.extra, "tried": tried, "chosen": why})


def _name(skill: str) -> str:
    return {"move": "Move", "move_move": "Move + Move", "jump": "Jump", "climb": "Climb"}[skill]
