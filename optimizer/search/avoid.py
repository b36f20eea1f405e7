"""`solve --avoid dangerous`: the best move that takes no Dangerous Terrain test.

The search is run on the scenario with every Dangerous Terrain feature counted as Impassable
Terrain, so Unit Spacing keeps the unit away from it: the Front Facing's sweep (and an
Advance's Pivot, a Reform's walking models) more than 0.5" while moving, the whole unit more
than 1" at the end.  Its answer therefore never touches Dangerous Terrain (the checker, on the
real scenario, confirms it: no test).  What it proves is about those moves only: no move
keeping those distances does better (OPTIMAL there) or none exists (INFEASIBLE there).  A
move that passes within 0.5" of the terrain without touching it is not among them, so the
answer's own status says no more than FEASIBLE (with no bound: the one proved holds only for
the moves kept away) or NOT_FOUND; `avoid.status` keeps the status proved for the moves
kept away (docs/formats.md, "Search result").
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from constraints.core.scenario import Scenario, Terrain
from constraints.core.status import Status
from constraints.core.system import find_system
from optimizer.search.result import SearchResult

AVOIDABLE = ("dangerous",)


def kept_away(scenario: Scenario) -> Scenario:
    """The scenario with each Dangerous Terrain feature counted as Impassable Terrain."""
    terrain = tuple(_impassable(t) if t.kind == "dangerous" else t for t in scenario.terrain)
    return replace(scenario, terrain=terrain)


def _impassable(feature: Any) -> Terrain:
    return Terrain(feature.id, "impassable", feature.polygon, feature.test)


def avoiding(search: Any, scenario: Scenario, *args: Any, **kwargs: Any) -> SearchResult:
    """`search(scenario, *args, **kwargs)` (best_move's signature) kept away from Dangerous
    Terrain; the answer re-checked on `scenario` itself."""
    result: SearchResult = search(kept_away(scenario), *args, **kwargs)
    avoided = [t.id for t in scenario.terrain if t.kind == "dangerous"]
    family = {**result.family, "avoid": {"dangerous": avoided, "status": str(result.status)}}
    if not avoided:  # nothing to avoid: the search was the plain one
        return result.proved(family=family)
    verdict = result.verdict
    if result.move is not None:
        verdict = find_system(scenario.rules).check(scenario, result.move)
        if not verdict.legal or verdict.dangerous_terrain:
            raise AssertionError(f"--avoid dangerous answered a move the checker refuses or "
                                 f"that takes a test: {verdict.to_json()}")
    # The bound was proved on the scenario with the terrain impassable: it need not hold for
    # the moves that pass nearer without touching, so none is claimed.
    # What was proved speaks for the moves kept away alone (OPTIMAL there is FEASIBLE here,
    # INFEASIBLE there NOT_FOUND here).
    proof = result.proof.within_family(family)
    if proof.refused:  # refused with the terrain impassable: none there, not none at all
        proof = replace(proof, refused=False, claim=Status.INFEASIBLE)
    return replace(result, verdict=verdict, proof=proof)
