"""Steps of a rank-and-file move as values: forward, wheel about a front corner, turn on the
spot.  Shared by the systems whose units move in ranks and files; each system says which
steps its moves take (T9A: forward and wheel; Warhammer: all three)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from constraints.core.jsonread import MAX_MAGNITUDE, number
from constraints.core.limits import FLOAT_NOISE
from constraints.errors import InvalidInputError

MAX_STEPS = 100
# Any two centres within bounds are less than 2 sqrt(2) x MAX_MAGNITUDE apart, and the
# checker's own ways to an end pose have legs about that long at most: they fit.
MAX_FORWARD_IN = 4 * MAX_MAGNITUDE
MAX_WHEEL_DEG = 90.0
# A turn on the spot is a quarter turn either way or a half turn (Warhammer, seed 003);
# -180 is the same half turn and is written 180.
TURNS_DEG = (90.0, -90.0, 180.0)


class StepKind(StrEnum):
    FORWARD = "forward"
    WHEEL = "wheel"
    TURN = "turn"


def member(enum: type[StrEnum], value: Any, what: str, path: str) -> Any:
    """`value` as a member of `enum`, or InvalidInputError naming the known ones."""
    try:
        return enum(value)
    except ValueError:
        known = ", ".join(m.value for m in enum)
        raise InvalidInputError(f"unknown {what} {value!r} (known: {known})", path=path) from None


@dataclass(frozen=True)
class Step:
    """One step: `forward` inches, a signed `wheel` in degrees, or a `turn` on the spot.

    A positive wheel turns left about the left front corner; a negative one turns right about
    the right front corner.  A turn is 90 (left), -90 (right) or 180 degrees.
    """

    kind: StepKind
    value: float

    def __post_init__(self) -> None:
        kind = member(StepKind, self.kind, "step kind", "kind")
        object.__setattr__(self, "kind", kind)
        object.__setattr__(self, "value", _checked_value(kind, self.value))

    def to_json(self) -> dict[str, float]:
        return {str(self.kind): self.value}


def _checked_value(kind: StepKind, value: Any) -> float:
    if kind is StepKind.FORWARD:
        return number(value, "forward", minimum=0.0, maximum=MAX_FORWARD_IN)
    if kind is StepKind.TURN:
        angle = number(value, "turn")
        angle = 180.0 if angle == -180.0 else angle
        if angle not in TURNS_DEG:
            raise InvalidInputError(f"expected a turn of 90, -90 or 180 degrees, got {value}",
                                    path="turn")
        return angle
    # Float noise past 90 comes from the checker's own ways (t1 + t2 fixed).
    angle = number(value, "wheel")
    if abs(angle) > MAX_WHEEL_DEG + FLOAT_NOISE:
        raise InvalidInputError(f"expected a wheel within +-{MAX_WHEEL_DEG:g} degrees, "
                                f"got {angle}", path="wheel")
    return angle


def forward(distance_in: float) -> Step:
    return Step(StepKind.FORWARD, distance_in)


def wheel(angle_deg: float) -> Step:
    return Step(StepKind.WHEEL, angle_deg)


def turn(angle_deg: float) -> Step:
    return Step(StepKind.TURN, angle_deg)


def steps_from_model(steps: Any) -> tuple[Step, ...]:
    """The steps of a validated move model (`constraints.schema.move`: each a Forward, Wheel
    or Turn model of one key, the kinds its system allows; None: no steps)."""
    found = []
    for step in steps or ():
        (name, value), = vars(step).items()  # its one key (no serializer to build)
        found.append(Step(StepKind(name), value))
    return tuple(found)


def checked_steps(steps: Any, kinds: tuple[StepKind, ...], system: str) -> tuple[Step, ...]:
    """The steps of a move built in Python, as a tuple of `Step` of the system's `kinds`
    (anything else would be judged as the wrong step): bad input otherwise."""
    names = ", ".join(k.value for k in kinds)
    if isinstance(steps, str | bytes | Mapping) or not hasattr(steps, "__len__"):
        raise InvalidInputError(f"expected a sequence of steps ({names})", path="steps")
    if len(steps) > MAX_STEPS:
        raise InvalidInputError(f"expected at most {MAX_STEPS} steps, got {len(steps)}",
                                path="steps")
    found = tuple(steps)
    for i, step in enumerate(found):
        if not isinstance(step, Step):
            raise InvalidInputError(f"expected a Step ({names}), got {type(step).__name__}",
                                    path=f"steps[{i}]")
        if step.kind not in kinds:
            raise InvalidInputError(f"a {system} move has no {step.kind} step ({names} only)",
                                    path=f"steps[{i}]")
    return found
