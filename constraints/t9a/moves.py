"""Moves as values: the manoeuvre, its Pivot, its Snaking Forward steps, its end formation."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from constraints.geometry.plane import Point
from constraints.rank_and_file.formation import Slot

MANOEUVRES = ("advance", "march", "reform")


@dataclass(frozen=True)
class Step:
    """One step of Snaking Forward Moves: `forward` inches, or a signed `wheel` in degrees.

    A positive wheel turns left about the left front corner; a negative one turns right about
    the right front corner.
    """

    kind: str
    value: float

    def to_json(self) -> dict[str, float]:
        return {self.kind: self.value}


def forward(distance_in: float) -> Step:
    return Step("forward", distance_in)


def wheel(angle_deg: float) -> Step:
    return Step("wheel", angle_deg)


@dataclass(frozen=True)
class Move:
    """A proposed Move Manoeuvre of one unit (FORMAT.md "Move").

    `steps` and `pivot_deg` describe Advance and March; `centre`, `facing_deg` and `files`
    describe a Reform's end position (and `files` the Reorder of an Advance or March).
    `assignment` optionally fixes the end slot of each model (model id -> slot).
    """

    unit: str
    manoeuvre: str
    steps: tuple[Step, ...] = ()
    pivot_deg: float = 0.0
    files: int | None = None
    centre: Point | None = None
    facing_deg: float | None = None
    assignment: tuple[tuple[str, Slot], ...] | None = None

    @property
    def is_end_pose(self) -> bool:
        """An Advance or March given by its end pose: the checker must find a way there."""
        return self.manoeuvre != "reform" and self.centre is not None

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"unit": self.unit, "manoeuvre": self.manoeuvre}
        if self.manoeuvre == "advance" and self.pivot_deg:
            out["pivot"] = self.pivot_deg
        if self.manoeuvre != "reform" and self.centre is None:
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
