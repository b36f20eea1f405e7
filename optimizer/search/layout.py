"""A way as a vector of free parameters, for the polish (optimizer.search.polish) and its
slide (optimizer.search.slide): the Pivot and the step values, and the way opened so that
every run of it is a parameter."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from constraints.rank_and_file.steps import MAX_WHEEL_DEG, Step, StepKind


@dataclass(frozen=True)
class Layout:
    """A way as a vector of free parameters: the Pivot (when the move has one), then the
    step values in order; turns on the spot (Warhammer) stay as they are."""

    move: Any
    kinds: tuple[StepKind, ...]
    pivots: bool

    def start(self, steps: tuple[Step, ...]) -> list[float]:
        return ([float(self.move.pivot_deg)] if self.pivots else []) + \
            [float(s.value) for s in steps]

    def move_at(self, x: list[float]) -> Any:
        """The move of parameters `x` (legs at least 0, wheels within a wheel's limit)."""
        values = x[1:] if self.pivots else x
        steps = tuple(Step(kind, _clipped(kind, v)) for kind, v in
                      zip(self.kinds, values, strict=True))
        changes: dict[str, Any] = {"steps": steps}
        if self.pivots:
            changes["pivot_deg"] = x[0]
        return replace(self.move, **changes)

    def clipped(self, x: list[float]) -> list[float]:
        """`x` with its legs and wheels within their limits (the same move)."""
        head = x[:1] if self.pivots else []
        values = x[1:] if self.pivots else x
        return head + [_clipped(kind, v) for kind, v in zip(self.kinds, values, strict=True)]

    def turns(self) -> list[int]:
        """The parameters that turn the unit, in order: the Pivot and the wheels."""
        return ([0] if self.pivots else []) + \
            [i + self.pivots for i, kind in enumerate(self.kinds) if kind is StepKind.WHEEL]

    def leg(self, i: int) -> bool:
        """Whether parameter `i` is a leg."""
        return not (self.pivots and i == 0) and self.kinds[i - self.pivots] is StepKind.FORWARD

    def free(self, i: int) -> bool:
        """Whether parameter `i` moves (a turn on the spot does not)."""
        if self.pivots and i == 0:
            return True
        return self.kinds[i - self.pivots] is not StepKind.TURN


def _clipped(kind: StepKind, value: float) -> float:
    if kind is StepKind.FORWARD:
        return max(0.0, value)
    if kind is StepKind.WHEEL:
        return min(MAX_WHEEL_DEG, max(-MAX_WHEEL_DEG, value))
    return value


def opened(steps: tuple[Step, ...], max_wheels: int, lead: bool = False) -> tuple[Step, ...]:
    """The steps with a leg of no length wherever two non-leg steps meet or the way starts
    or ends on one; while the way has fewer than `max_wheels` wheels (the request's: a
    polished way never wheels more often), a wheel and a leg of no length at the end, and
    with `lead` (the slide's) then a wheel of no length at the start where the way starts
    with a leg (bench_random 80: a wheel of 1.7 deg before the first leg).  The same way (the
    checker's end pose is the same), each of its runs now a parameter."""
    out: list[Step] = []
    for step in steps:
        if step.kind is not StepKind.FORWARD and (not out or out[-1].kind is not StepKind.FORWARD):
            out.append(Step(StepKind.FORWARD, 0.0))
        out.append(step)
    if out and out[-1].kind is not StepKind.FORWARD:
        out.append(Step(StepKind.FORWARD, 0.0))
    if _wheels(out) < max_wheels:
        out += [Step(StepKind.WHEEL, 0.0), Step(StepKind.FORWARD, 0.0)]
    if lead and _wheels(out) < max_wheels and out[0].kind is StepKind.FORWARD and \
            out[0].value > 0.0:
        out.insert(0, Step(StepKind.WHEEL, 0.0))
    return tuple(out)


def _wheels(steps: list[Step]) -> int:
    return sum(s.kind is StepKind.WHEEL for s in steps)
