"""The best Combat Reform of one unit (seed 002): who may reform, its candidate placements on
every flush line searched best first (`search.py`; CP-SAT only as the fallback past the
search's budget, `fallback.py`), the status under the rules, and the exact checker's word
on the answer (docs/rules.md §12)."""

from __future__ import annotations

from dataclasses import replace

from constraints.core.scenario import Scenario
from constraints.errors import EncodingMismatchError, InvalidInputError
from constraints.rank_and_file.combats import combats, engagements
from constraints.rank_and_file.contact import LINE_IN
from constraints.rank_and_file.unit import Unit
from constraints.t9a.clauses.combat_reform.checker import check_combat_reform
from optimizer.combat_reform.answer import EFFORT, ReformAnswer, placed_answer, proposal
from optimizer.combat_reform.fallback import solve_line
from optimizer.combat_reform.outside import Bounded, certify, unit_classes
from optimizer.combat_reform.placement import engaged_lines
from optimizer.combat_reform.prepare import (
    Asks,
    Prepared,
    allowed_files,
    line_models,
    prepare,
    previous_enemies,
    rules_bound,
)
from optimizer.combat_reform.search import Outcome, best_first

__all__ = ["EFFORT", "Asks", "ReformAnswer", "best_reform", "rules_bound"]

# The search's budget: least-cost assignments per unit of effort (CP-SAT's deterministic time
# for the fallback).  One takes ~50 us, so the default effort (5) allows ~2.5 s of them, far
# past what the bench's 20-model units need (benchmarks/README.md).
ASSIGNMENTS_PER_EFFORT = 10_000


def best_reform(scenario: Scenario, unit_id: str, effort: float = EFFORT,
                asks: Asks | None = None) -> ReformAnswer:
    """The reform of `unit_id` with the most of its models in base contact with enemy
    models, then the most enemy models touched (after the widest frontage, when asked),
    then the least total displacement, placed with a Facing flush against an enemy Facing
    it touched before; judged by the exact checker before it is returned."""
    if not isinstance(unit_id, str) or not scenario.has_unit(unit_id):
        raise InvalidInputError(f"unknown unit {unit_id!r}", path="unit")
    unit = scenario.unit(unit_id)
    asks = Asks() if asks is None else asks
    previous = previous_enemies(scenario, unit)
    if not previous:
        raise InvalidInputError(f"{unit_id} is not Engaged in a combat: it has no Combat "
                                "Reform", path="unit")
    _check_asks(unit, previous, asks)
    own_facings = set(engagements(scenario.units)[unit_id].values())
    if len(own_facings) > 1:
        return ReformAnswer("INFEASIBLE", unit_id, reason="Engaged on more than one Facing "
                            f"({', '.join(sorted(own_facings))}): no Combat Reform")
    combat = next(frozenset(c) for c in combats(scenario.units) if unit.id in c)
    lines = [prepare(scenario, unit, previous, line, asks, combat)
             for line in engaged_lines(scenario, previous)]
    outcome = best_first(lines, int(effort * ASSIGNMENTS_PER_EFFORT))
    if outcome.found is None and not outcome.proved:
        best = _fallback(unit, lines, effort, asks)
    else:
        best = _answer(unit, lines, outcome)
    widest = max(allowed_files(scenario, unit)) if asks.widest else None
    classes = unit_classes(scenario, unit, previous, lines, combat,
                           int(effort * ASSIGNMENTS_PER_EFFORT), widest)
    return _checked(scenario, _under_the_rules(best, everything(scenario, unit, previous),
                                               widest, classes))


def everything(scenario: Scenario, unit: Unit, previous: dict[str, str]) -> tuple[int, int]:
    """A bound over every placement: the rules' bound on own models in contact, and every
    enemy model any placement can touch (those along the enemy Facings touched before)."""
    lines = engaged_lines(scenario, previous)
    return (rules_bound(scenario, unit, previous),
            sum(len(line_models(scenario, line, LINE_IN)) for line in lines))


def _answer(unit: Unit, lines: list[Prepared], outcome: Outcome) -> ReformAnswer:
    """The search's best candidate as an answer: OPTIMAL within the family (the search
    proved it), or NOT_FOUND when no candidate of any line can be assigned."""
    search: dict[str, object] = {"candidates": outcome.candidates,
                                  "assignments": outcome.assignments,
                                  "least_moves": outcome.least}
    found = outcome.found
    if found is None:
        first = lines[0].line
        where = ", ".join(f"{r.line.enemy}'s {r.line.facing}" for r in lines)
        return ReformAnswer("NOT_FOUND", unit.id, contacts_before=lines[0].demands.own_before,
                            family={"own_facing": "any",
                                    "flush_against": [first.enemy, first.facing]},
                            reason=f"no legal reform flush against {where}", search=search)
    ready = lines[found.line]
    lay = ready.layouts[found.k]
    slots = lay.option.slots()
    placed = tuple((ready.ids[m], slots[s]) for m, s in enumerate(found.slots))
    answer = placed_answer("OPTIMAL", unit, ready.line, lay.option,
                           float(lay.xs[found.index]), placed, found.value, found.value,
                           ready.demands.own_before)
    return replace(answer, search=search)


def _fallback(unit: Unit, lines: list[Prepared], effort: float, asks: Asks) -> ReformAnswer:
    """CP-SAT on each line within `effort`, the best of them (the search ran out of its
    budget before any candidate was assigned)."""
    best: ReformAnswer | None = None
    for ready in lines:
        found = solve_line(unit, ready, effort)
        if best is None or _rank(found, asks) > _rank(best, asks):
            best = found
    assert best is not None
    return replace(best, search={"fallback": "CP-SAT: the budget of assignments was spent"})


def _rank(answer: ReformAnswer, asks: Asks) -> tuple:
    found = answer.reformed is not None
    return (found, answer.files if asks.widest else 0, answer.value,
            answer.status == "OPTIMAL")


def _check_asks(unit: Unit, previous: dict[str, str], asks: Asks) -> None:
    chars = {c.id for c in unit.formation.characters}
    for char, enemy in asks.character_with:
        if char not in chars:
            raise InvalidInputError(f"{char!r} is not a character of {unit.id} (characters: "
                                    f"{', '.join(sorted(chars)) or 'none'})", path="keep")
        if enemy not in previous:
            raise InvalidInputError(f"{enemy!r} is not an enemy {unit.id} touches "
                                    f"(enemies: {', '.join(sorted(previous))})", path="keep")


def _under_the_rules(answer: ReformAnswer, bound: tuple[int, int], widest: int | None,
                     classes: list[Bounded] | None) -> ReformAnswer:
    """OPTIMAL speaks of every legal placement (`outside.certify`): when the answer reaches
    the bound over every placement, or the family's proved optimum is not beaten by what the
    placements outside it can reach (the widest allowed files first, when asked); the
    family's own status is kept in `family`, the classes' bounds in `family["outside"]`."""
    family = dict(answer.family, status=answer.status)
    if answer.reformed is None:
        return replace(answer, family=family)
    if widest is not None and answer.files < widest:
        status = "FEASIBLE" if answer.status == "OPTIMAL" else answer.status
        return replace(answer, status=status, family=family)
    proved = answer.status == "OPTIMAL"
    found = certify(answer.value, bound, classes if proved else None)
    if found.classes:
        family["outside"] = found.classes
    if found.optimal:
        return replace(answer, status="OPTIMAL", family=family, bound=answer.value)
    if not proved:
        return replace(answer, family=family)
    return replace(answer, status="FEASIBLE", family=family,
                   bound=(found.bound, answer.bound[1]))


def _checked(scenario: Scenario, answer: ReformAnswer) -> ReformAnswer:
    """The answer, once the exact checker accepts its placement (who may reform at all is
    judged by the caller, with the combat result: `combat_reform.eligible` is not this
    search's)."""
    reform = proposal(answer)
    if reform is None:
        return answer
    verdict = check_combat_reform(scenario, [reform], player_done=False)
    broken = [c for c in verdict.clauses() if c != "combat_reform.eligible"]
    if broken:
        raise EncodingMismatchError(f"the reform found for {answer.unit} breaks "
                                    f"{', '.join(broken)}")
    return answer
