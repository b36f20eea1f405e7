"""The answer as written: no float noise and no steps that do nothing (docs/formats.md,
"Search result").

A search's move comes from float geometry: legs of 1.3e-15", a wheel of 1e-13 deg between two
forward legs.  The answer returned is the same move with legs cut down to a millionth of an
inch and angles rounded to a millionth of a degree, legs shorter than that dropped, forward legs
that then follow each other joined, and wheels the same way round that follow each other
joined (they turn about the same corner).  It ends where the unrounded move ends, to a
millionth.

The tidied move is judged again by the exact checker, and it replaces the search's move only
when it is legal, its value is no worse (beyond float noise, SAME), and an OPTIMAL answer's
value stays within the tolerance of its bound; when rounding costs value (a leg cut down
ends a millionth short of the target), only the noise legs are dropped and neighbours
joined, values unrounded.  Tidying never makes an answer illegal, never makes it worse and
never costs a proof.
"""

from __future__ import annotations

import math
from dataclasses import replace
from typing import Any

from constraints.core.limits import FLOAT_NOISE
from constraints.core.system import find_system
from constraints.rank_and_file.steps import MAX_WHEEL_DEG, Step, StepKind
from optimizer.search.request import SearchRequest
from optimizer.search.result import SearchResult, Status

PLACES = 6            # legs to 1e-6", angles to 1e-6 deg
SHORTEST = 10.0 ** -PLACES
# How much worse a tidied answer's value may be: float noise only.  Rounding a leg moves the
# end by up to 5e-7", which may cost that much: then only the noise legs are dropped.
SAME = 1e-12


def tidy_steps(steps: tuple[Step, ...], rounding: bool = True) -> tuple[Step, ...]:
    """Rounded (unless `rounding` is false), no leg shorter than a millionth, neighbours of
    one kind joined."""
    out: list[Step] = []
    for step in steps:
        value = _rounded(step) if rounding else step.value
        if step.kind is not StepKind.TURN and abs(value) < SHORTEST:
            continue
        last = out[-1] if out else None
        if last is not None and last.kind is step.kind and _joins(step.kind, last.value, value):
            value = round(last.value + value, PLACES) if rounding else last.value + value
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
    (about the same front corner) while one wheel can turn that far (at most 90 deg: -45
    then -54 stay two wheels); turns never (each is a quarter or half turn)."""
    if kind is StepKind.FORWARD:
        return True
    return kind is StepKind.WHEEL and (a > 0) == (b > 0) and \
        abs(a + b) <= MAX_WHEEL_DEG + FLOAT_NOISE


def tidy_move(move: Any, rounding: bool = True) -> Any:
    """The move with its steps tidied and (with `rounding`) its numbers rounded."""
    changes: dict[str, Any] = {}
    if getattr(move, "steps", ()):
        changes["steps"] = tidy_steps(move.steps, rounding)
    if rounding and getattr(move, "pivot_deg", None):
        changes["pivot_deg"] = round(move.pivot_deg, PLACES) + 0.0
    if rounding and getattr(move, "centre", None) is not None:
        changes["centre"] = tuple(round(v, PLACES) + 0.0 for v in move.centre)
    if rounding and getattr(move, "facing_deg", None) is not None:
        changes["facing_deg"] = round(move.facing_deg, PLACES) + 0.0
    return replace(move, **changes) if changes else move


def tidied(request: SearchRequest, result: SearchResult) -> SearchResult:
    """`result` with its move tidied: rounded if the checker passes it and its value is no
    worse (beyond float noise), else with only its noise legs dropped on the same terms,
    else as it was.  An OPTIMAL answer must also stay within the tolerance of its bound."""
    if result.move is None or result.value is None:
        return result
    for rounding in (True, False):
        move = tidy_move(result.move, rounding)
        if move == result.move:
            return result
        verdict = find_system(request.scenario.rules).check(request.scenario, move)
        if not verdict.legal:
            continue
        value = request.goal.exact(verdict)
        # (ranked: face_point's tidied move must not turn away from the point)
        ranked = request.goal.ranked(verdict)
        was = result.value if result.verdict is None else request.goal.ranked(result.verdict)
        if request.goal.better(was, ranked) and abs(ranked - was) > SAME:
            continue
        if result.status == Status.OPTIMAL and result.bound is not None \
                and result.tolerance is not None and abs(value - result.bound) > result.tolerance:
            continue
        return replace(result, move=move, verdict=verdict, value=value)
    return result
