"""The CP-SAT model of one unit's reform, as the fallback of the best-first search when its
budget of assignments runs out before a proof (docs/rules.md §12.2): a deterministic effort,
the formations whose value could be best built first, more only when the answer does not
reach the next bound."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
from ortools.sat.python import cp_model

from constraints.rank_and_file.unit import Unit
from optimizer.combat_reform.answer import ReformAnswer, answer_of, solve
from optimizer.combat_reform.model import Layout, build
from optimizer.combat_reform.prepare import Prepared
from optimizer.combat_reform.search import values


def solve_line(unit: Unit, ready: Prepared, effort: float) -> ReformAnswer:
    """The best reform flush on `ready.line` by CP-SAT within `effort` (deterministic)."""
    if ready.demands.widest:  # files first: every formation competes
        rm = build(ready.layouts, ready.ids, ready.characters, ready.demands)
        return answer_of(rm, unit, ready.line, solve(rm, effort), ready.demands)
    return _deepening(unit, ready, effort)


def _deepening(unit: Unit, ready: Prepared, effort: float) -> ReformAnswer:
    """The model over the formations whose score could be best first, then more.

    A formation's score (its models in contact, then enemy models touched) depends on the
    offset alone, so its highest over the offsets the unit may take bounds it (`scores`).
    The model is built over the formations reaching the highest bound; when it proves an
    answer at least as good as every formation left out could be, that answer is the best of
    all; otherwise the next formations are added.  Formations that cannot keep as many of
    its models in contact as before are never built."""
    line = ready.line
    weight = 1 + max(1, len(ready.layouts[0].enemy) if ready.layouts else 1)
    floor = ready.demands.own_before * weight
    bounds = [int(scores(lay, weight).max()) if len(lay.xs) else -1 for lay in ready.layouts]
    levels = sorted({b for b in bounds if b >= floor}, reverse=True)
    answer = ReformAnswer("NOT_FOUND", unit.id, contacts_before=ready.demands.own_before,
                          family={"own_facing": "any",
                                  "flush_against": [line.enemy, line.facing]},
                          reason=f"no legal reform flush against {line.enemy}'s {line.facing}")
    budget, proved, found = 3.0 * effort, True, None
    for i, level in enumerate(levels):
        if budget <= 0.0:
            break
        chosen = [lay for lay, b in zip(ready.layouts, bounds, strict=True) if b >= level]
        rm = build(chosen, ready.ids, ready.characters, ready.demands)
        solved = solve(rm, min(effort, budget))
        budget -= solved[0].deterministic_time
        answer = answer_of(rm, unit, line, solved, ready.demands)
        proved &= solved[1] in (cp_model.OPTIMAL, cp_model.INFEASIBLE)
        rest = levels[i + 1] if i + 1 < len(levels) else -1
        if answer.reformed is not None and (found is None or answer.value > found.value):
            found = answer
        if found is not None and found.value[0] * weight + found.value[1] >= rest:
            break  # nothing left out can do better
    if found is None:
        return answer if proved else replace(answer, status="TIMEOUT")
    return found if proved and found.status == "OPTIMAL" else replace(found, status="FEASIBLE")


def scores(lay: Layout, weight: int) -> np.ndarray:
    """The most a formation's score can be at each of its offsets (-1 where the unit may
    not stand): its lanes touching an enemy edge, then the enemy models over its extent."""
    own, enemy = values(lay)
    return np.where(lay.allowed, own * weight + enemy, -1)
