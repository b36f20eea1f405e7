"""Moves as values: the manoeuvre, its Pivot, its Snaking Forward steps, its end formation."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from constraints.errors import InvalidInputError
from constraints.geometry.plane import Point
from constraints.rank_and_file.formation import Slot


class Manoeuvre(StrEnum):
    """The Move Manoeuvres; each member is its JSON spelling."""

    ADVANCE = "advance"
    MARCH = "march"
    REFORM = "reform"

    @property
    def snaking(self) -> bool:
        """Advance and March: Snaking Forward Moves (steps, or an end pose to reach)."""
        return self is not Manoeuvre.REFORM

    @property
    def pivots(self) -> bool:
        """Only an Advance starts with a Pivot."""
        return self is Manoeuvre.ADVANCE


MANOEUVRES = tuple(m.value for m in Manoeuvre)


class StepKind(StrEnum):
    FORWARD = "forward"
    WHEEL = "wheel"


def _member(enum: type[StrEnum], value: Any, what: str, path: str) -> Any:
    try:
        return enum(value)
    except ValueError:
        known = ", ".join(m.value for m in enum)
        raise InvalidInputError(f"unknown {what} {value!r} (known: {known})", path=path) from None


@dataclass(frozen=True)
class Step:
    """One step of Snaking Forward Moves: `forward` inches, or a signed `wheel` in degrees.

    A positive wheel turns left about the left front corner; a negative one turns right about
    the right front corner.
    """

    kind: StepKind
    value: float

    def __post_init__(self) -> None:
        object.__setattr__(self, "kind", _member(StepKind, self.kind, "step kind", "steps"))

    def to_json(self) -> dict[str, float]:
        return {str(self.kind): self.value}


def forward(distance_in: float) -> Step:
    return Step(StepKind.FORWARD, distance_in)


def wheel(angle_deg: float) -> Step:
    return Step(StepKind.WHEEL, angle_deg)


@dataclass(frozen=True)
class Move:
    """A proposed Move Manoeuvre of one unit (docs/formats.md "Move").

    `steps` and `pivot_deg` describe Advance and March; `centre`, `facing_deg` and `files`
    describe a Reform's end position (and `files` the Reorder of an Advance or March).
    `assignment` optionally fixes the end slot of each model (model id -> slot).
    """

    unit: str
    manoeuvre: Manoeuvre
    steps: tuple[Step, ...] = ()
    pivot_deg: float = 0.0
    files: int | None = None
    centre: Point | None = None
    facing_deg: float | None = None
    assignment: tuple[tuple[str, Slot], ...] | None = None

    def __post_init__(self) -> None:
        object.__setattr__(self, "manoeuvre",
                           _member(Manoeuvre, self.manoeuvre, "manoeuvre", "manoeuvre"))

    @property
    def is_end_pose(self) -> bool:
        """An Advance or March given by its end pose: the checker must find a way there."""
        return self.manoeuvre.snaking and self.centre is not None

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"unit": self.unit, "manoeuvre": str(self.manoeuvre)}
        if self.manoeuvre.pivots and self.pivot_deg:
            out["pivot"] = self.pivot_deg
        if self.manoeuvre.snaking and self.centre is None:
            out["steps"] = [s.to_json() for s in self.steps]
        if self.files is not None:
            out["files"] = self.files
        if self.centre is not None:
            out["centre"] = list(self.centre)
        if self.facing_deg is not None:
            out["facing"] = self.facing_deg
        if self.assignment is not None:
            out["assignment"] = {k: list(v) for k, v in self.assignment}
        return out
