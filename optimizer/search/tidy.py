"""The answer as written: no float noise and no steps that do nothing (docs/formats.md,
"Search result").

A search's move comes from float geometry: legs of 1.3e-15", a wheel of 1e-13 deg between two
forward legs.  The answer returned is the same move with legs cut down to a millionth of an
inch and angles rounded to a millionth of a degree, legs shorter than that dropped, forward legs
that then follow each other joined, and wheels the same way round that follow each other
joined (they turn about the same corner).  It ends where the unrounded move ends, to a
millionth.

The tidied move is judged again by the exact checker, and it replaces the search's move only
when it is legal, its value is not worse by more than ROUNDING_COST, and an OPTIMAL answer's
value stays within the tolerance of its bound: tidying never makes an answer illegal and
never costs a proof.
"""

from __future__ import annotations

import math
from dataclasses import replace
from typing import Any

from constraints.core.system import find_system
from constraints.rank_and_file.steps import Step, StepKind
from optimizer.search.request import SearchRequest
from optimizer.search.result import SearchResult, Status

PLACES = 6            # legs to 1e-6", angles to 1e-6 deg
SHORTEST = 10.0 ** -PLACES
# How much worse the tidied value may be (each rounding moves the end by at most 5e-7).
ROUNDING_COST = 1e-5


def tidy_steps(steps: tuple[Step, ...]) -> tuple[Step, ...]:
    """Rounded, no leg shorter than a millionth, neighbours of one kind joined."""
    out: list[Step] = []
    for step in steps:
        value = _rounded(step)
        if step.kind is not StepKind.TURN and abs(value) < SHORTEST:
            continue
        last = out[-1] if out else None
        if last is not None and last.kind is step.kind and _joins(step.kind, last.value, value):
            value = round(last.value + value, PLACES)
            out.pop()
            if abs(value) < SHORTEST:
                continue
        out.append(Step(step.kind, value))
    return tuple(out)


def _rounded(step: Step) -> float:
    """A forward leg cut down to a millionth (so the move never gets longer: a March run to
    its limit stays within it); an angle to the nearest millionth of a degree."""
    if step.kind is StepKind.FORWARD:
        return math.trunc(step.value * 10**PLACES + 1e-6) / 10**PLACES
    return round(step.value, PLACES) + 0.0


def _joins(kind: StepKind, a: float, b: float) -> bool:
    """Two neighbouring steps make one: forward legs always; wheels turning the same way
    (about the same front corner); turns never (each is a quarter or half turn)."""
    if kind is StepKind.FORWARD:
        return True
    return kind is StepKind.WHEEL and (a > 0) == (b > 0)


def tidy_move(move: Any) -> Any:
    """The move with its steps tidied and its numbers rounded (a T9A or whfb7 move)."""
    changes: dict[str, Any] = {}
    if getattr(move, "steps", ()):
        changes["steps"] = tidy_steps(move.steps)
    if getattr(move, "pivot_deg", None):
        changes["pivot_deg"] = round(move.pivot_deg, PLACES) + 0.0
    if getattr(move, "centre", None) is not None:
        changes["centre"] = tuple(round(v, PLACES) + 0.0 for v in move.centre)
    if getattr(move, "facing_deg", None) is not None:
        changes["facing_deg"] = round(move.facing_deg, PLACES) + 0.0
    return replace(move, **changes) if changes else move


def tidied(request: SearchRequest, result: SearchResult) -> SearchResult:
    """`result` with its move tidied, when the checker passes the tidied move and nothing
    proved is lost; else `result` as it was."""
    if result.move is None or result.value is None:
        return result
    move = tidy_move(result.move)
    if move == result.move:
        return result
    verdict = find_system(request.scenario.rules).check(request.scenario, move)
    if not verdict.legal:
        return result
    value = request.goal.exact(verdict)
    if request.goal.better(result.value, value) and abs(value - result.value) > ROUNDING_COST:
        return result
    if result.status == Status.OPTIMAL and result.bound is not None \
            and result.tolerance is not None and abs(value - result.bound) > result.tolerance:
        return result
    return replace(result, move=move, verdict=verdict, value=value)
