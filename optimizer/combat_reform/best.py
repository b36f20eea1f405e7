"""The best Combat Reform of one unit (seed 002): who may reform, its candidate placements on
every flush line searched best first (`search.py`; CP-SAT only as the fallback past the
search's budget, `fallback.py`), the status under the rules, and the exact checker's word
on the answer (docs/rules.md §12)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from constraints.core.scenario import Scenario
from constraints.errors import EncodingMismatchError, InvalidInputError
from constraints.rank_and_file.combats import combats, engagements
from constraints.rank_and_file.contact import (
    LINE_IN,
    contact_tolerance,
    gap_blockers,
    model_contacts,
)
from constraints.rank_and_file.unit import Unit
from constraints.t9a.clauses.combat_reform.checker import check_combat_reform
from constraints.t9a.combat_reform import placed
from optimizer.combat_reform.answer import EFFORT, ReformAnswer, placed_answer, proposal
from optimizer.combat_reform.fallback import solve_line
from optimizer.combat_reform.lines_bound import lines_bound, square_lines, unalignable
from optimizer.combat_reform.outside import Bounded, certify, unit_classes
from optimizer.combat_reform.placement import engaged_lines, flush_line
from optimizer.combat_reform.prepare import (
    Asks,
    Prepared,
    allowed_files,
    line_models,
    prepare,
    previous_enemies,
    rules_bound,
)
from optimizer.combat_reform.roles import placement_breaks
from optimizer.combat_reform.search import Found, Outcome, best_first
from optimizer.dispatch import require

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
    require(scenario, "best_reform")
    if not isinstance(unit_id, str) or not scenario.has_unit(unit_id):
        raise InvalidInputError(f"unknown unit {unit_id!r}", path="unit")
    unit = scenario.unit(unit_id)
    asks = Asks() if asks is None else asks
    previous = previous_enemies(scenario, unit)
    if not previous:
        raise InvalidInputError(f"{unit_id} is not Engaged in a combat: it has no Combat "
                                "Reform", path="unit")
    _check_asks(unit, previous, asks)
    own_facings = set(engagements(scenario.units, contact_tolerance(scenario))[unit_id].values())
    if len(own_facings) > 1:
        return ReformAnswer("INFEASIBLE", unit_id, reason="Engaged on more than one Facing "
                            f"({', '.join(sorted(own_facings))}): no Combat Reform")
    if unalignable(scenario, previous):
        return ReformAnswer("INFEASIBLE", unit_id, reason="its enemies' Facings lie on lines "
                            "neither parallel nor at right angles: no reform can end aligned "
                            "with every one of them (combat_reform.aligned) while touching "
                            "each (combat_reform.same_enemies)")
    combat = next(frozenset(c) for c in combats(scenario.units, contact_tolerance(scenario))
                  if unit.id in c)
    lines = [prepare(scenario, unit, previous, line, asks, combat)
             for line in engaged_lines(scenario, previous)]
    searched, accept = lines, None
    if len(lines) > 1:
        searched, accept = _several_lines(scenario, unit, lines)
    outcome = best_first(searched, int(effort * ASSIGNMENTS_PER_EFFORT), accept=accept)
    if outcome.found is None and not outcome.proved and not outcome.refused:
        best = _fallback(unit, lines, effort, asks)
    else:
        best = _answer(unit, lines, outcome)
    widest = max(allowed_files(scenario, unit)) if asks.widest else None
    classes = unit_classes(scenario, unit, previous, lines, combat,
                           int(effort * ASSIGNMENTS_PER_EFFORT), widest)
    bound = everything(scenario, unit, previous)
    if len(lines) == 1:
        return _checked(scenario, _under_the_rules(best, bound, widest, classes))
    # The family counts one line's contacts: count them all, and bound every placement.
    best = _every_contact(scenario, best)
    several = lines_bound(scenario, unit, previous)
    bound = bound if several is None else min(bound, several)
    best = _under_the_rules(best, bound, widest, classes)
    if best.status == "FEASIBLE" and best.reformed is not None:
        best = replace(best, bound=max(best.value, bound))  # the pair over every placement
    return _checked(scenario, best)


def everything(scenario: Scenario, unit: Unit, previous: dict[str, str]) -> tuple[int, int]:
    """A bound over every placement: the rules' bound on own models in contact, and every
    enemy model any placement can touch (those along the enemy Facings touched before)."""
    lines = engaged_lines(scenario, previous)
    return (rules_bound(scenario, unit, previous),
            sum(len(line_models(scenario, line, LINE_IN)) for line in lines))


def _several_lines(scenario: Scenario, unit: Unit, lines: list[Prepared]
                   ) -> tuple[list[Prepared], Callable[[Found], bool]]:
    """A unit whose enemies' Facings lie on several lines: each line's family values its
    candidates by that line's contacts, so the demand of as many models in contact as before
    is lowered by what the enemies off the line can add (two at a point, every model where
    the unit may lie flush on that Facing's line too), and every candidate assigned is
    judged by the exact checker before it is taken (the contacts off the line, which Facing
    of those enemies a corner touches); one refused is passed over, and the family's value
    is then not proved (`_answer`)."""
    relaxed = []
    n = unit.formation.model_count
    for ready in lines:
        off = [flush_line(scenario.unit(e), f) for other in lines if other is not ready
               for e, f, _ in other.line.spans]
        more = sum(n if square_lines(ready.line, o) else 2 for o in off)
        own_before = max(0, ready.demands.own_before - more)
        relaxed.append(replace(ready, demands=replace(ready.demands, own_before=own_before)))

    def accept(found: Found) -> bool:
        answer = _answer(unit, lines, Outcome(found, True, True, None, 0, 0))
        reform = proposal(answer)
        assert reform is not None
        verdict = check_combat_reform(scenario, [reform], player_done=False)
        return not placement_breaks(scenario, verdict)

    return relaxed, accept


def _every_contact(scenario: Scenario, answer: ReformAnswer) -> ReformAnswer:
    """A unit whose enemies lie on several lines: the answer's value counted as the checker
    counts it on the placed unit, every enemy included (the family's value counts the line
    searched; it is kept in `family["line_value"]`).  Only a higher count replaces it (a
    lower one is `reforms._counted`'s: the model's miscount, FEASIBLE)."""
    reform = proposal(answer)
    if reform is None:
        return answer
    after = placed(scenario, [reform])
    unit = after.unit(answer.unit)
    pairs = {p for e in after.units if e.player != unit.player
             for p in model_contacts(unit, e, gap_blockers(after, unit.id, e.id))}
    exact = (len({a for a, _ in pairs}), len({b for _, b in pairs}))
    if exact <= answer.value:
        return answer
    return replace(answer, value=exact, family=dict(answer.family,
                                                    line_value=list(answer.value)))


def _answer(unit: Unit, lines: list[Prepared], outcome: Outcome) -> ReformAnswer:
    """The search's best candidate as an answer: OPTIMAL within the family (the search
    proved it), or NOT_FOUND when no candidate of any line can be assigned."""
    search: dict[str, object] = {"candidates": outcome.candidates,
                                  "assignments": outcome.assignments,
                                  "least_moves": outcome.least}
    found = outcome.found
    if outcome.refused:
        search["refused"] = outcome.refused
    if found is None:
        first = lines[0].line
        where = ", ".join(f"{r.line.enemy}'s {r.line.facing}" for r in lines)
        return ReformAnswer("NOT_FOUND", unit.id, contacts_before=lines[0].demands.own_before,
                            family={"own_facing": "any",
                                    "flush_against": [first.enemy, first.facing]},
                            reason=f"no legal reform flush against {where}" + (
                                f" ({outcome.refused} candidates refused by the checker: "
                                "not proved)" if outcome.refused else ""), search=search)
    ready = lines[found.line]
    lay = ready.layouts[found.k]
    slots = lay.option.slots()
    placed = tuple((ready.ids[m], slots[s]) for m, s in enumerate(found.slots))
    # A candidate refused by the checker (enemies on several lines) stood for its whole
    # cell: the family's optimum is then not proved.
    answer = placed_answer("FEASIBLE" if outcome.refused else "OPTIMAL", unit, ready.line,
                           lay.option,
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
    judged by the caller, with the combat result: the eligibility clause is not this
    search's)."""
    reform = proposal(answer)
    if reform is None:
        return answer
    verdict = check_combat_reform(scenario, [reform], player_done=False)
    broken = placement_breaks(scenario, verdict)
    if broken:
        raise EncodingMismatchError(f"the reform found for {answer.unit} breaks "
                                    f"{', '.join(broken)}")
    return answer
