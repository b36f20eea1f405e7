"""Moves as values: the manoeuvre, its Pivot, its Snaking Forward steps, its end formation."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from constraints.core.jsonread import number, point, text, whole
from constraints.errors import InvalidInputError
from constraints.geometry.plane import Point
from constraints.rank_and_file.formation import MAX_MODELS, Slot, checked_assignment
from constraints.rank_and_file.steps import (
    MAX_FORWARD_IN,
    MAX_STEPS,
    MAX_WHEEL_DEG,
    Step,
    StepKind,
    checked_steps,
    forward,
    member,
    wheel,
)

__all__ = ["MANOEUVRES", "MAX_FORWARD_IN", "MAX_PIVOT_DEG", "MAX_STEPS", "MAX_WHEEL_DEG",
           "Manoeuvre", "MidPlacement", "Move", "Step", "StepKind", "forward", "wheel"]

MAX_PIVOT_DEG = 360.0
# A T9A move's steps: Snaking Forward Moves (a turn on the spot is Warhammer's).
T9A_STEPS = (StepKind.FORWARD, StepKind.WHEEL)


class Manoeuvre(StrEnum):
    """The Move Manoeuvres; each member is its JSON spelling."""

    ADVANCE = "advance"
    MARCH = "march"
    REFORM = "reform"
    # Not a Move Manoeuvre: the Pivot a unit with No More Foes may make (RULES §2.11.6).
    POST_COMBAT_PIVOT = "post_combat_pivot"

    @property
    def snaking(self) -> bool:
        """Advance and March: Snaking Forward Moves (steps, or an end pose to reach)."""
        return self in (Manoeuvre.ADVANCE, Manoeuvre.MARCH)

    @property
    def pivots(self) -> bool:
        """An Advance starts with a Pivot; a Post-Combat Pivot is one."""
        return self in (Manoeuvre.ADVANCE, Manoeuvre.POST_COMBAT_PIVOT)

    @property
    def pivot_only(self) -> bool:
        """A Pivot and nothing else: no steps, no end pose, no Reorder."""
        return self is Manoeuvre.POST_COMBAT_PIVOT


MANOEUVRES = tuple(m.value for m in Manoeuvre)


@dataclass(frozen=True)
class MidPlacement:
    """Where a Reform places the unit mid-move (seed 000, "Mid-Reform Move Actions"): its
    centre, facing and files (None: the files it starts with)."""

    centre: Point
    facing_deg: float
    files: int | None = None

    def __post_init__(self) -> None:
        object.__setattr__(self, "centre", point(self.centre, "mid.centre"))
        object.__setattr__(self, "facing_deg", number(self.facing_deg, "mid.facing"))
        if self.files is not None:
            object.__setattr__(self, "files", whole(self.files, "mid.files", minimum=1,
                                                    maximum=MAX_MODELS))

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"centre": list(self.centre), "facing": self.facing_deg}
        if self.files is not None:
            out["files"] = self.files
        return out


@dataclass(frozen=True)
class Move:
    """A proposed Move Manoeuvre of one unit (docs/formats.md "Move").

    `steps` and `pivot_deg` describe Advance and March; `centre`, `facing_deg` and `files`
    describe a Reform's end position (and `files` the Reorder of an Advance or March).
    `assignment` optionally fixes the end slot of each model (model id -> slot).  `mid`
    states where a Reform places the unit mid-move (Dangerous Terrain, docs/rules.md §5.6).
    """

    unit: str
    manoeuvre: Manoeuvre
    steps: tuple[Step, ...] = ()
    pivot_deg: float = 0.0
    files: int | None = None
    centre: Point | None = None
    facing_deg: float | None = None
    assignment: tuple[tuple[str, Slot], ...] | None = None
    mid: MidPlacement | None = None

    def __post_init__(self) -> None:
        manoeuvre = member(Manoeuvre, self.manoeuvre, "manoeuvre", "manoeuvre")
        fixed = {"manoeuvre": manoeuvre, "unit": text(self.unit, "unit"),
                 "steps": checked_steps(self.steps, T9A_STEPS, "T9A"),
                 "pivot_deg": number(self.pivot_deg, "pivot_deg", minimum=-MAX_PIVOT_DEG,
                                     maximum=MAX_PIVOT_DEG),
                 "files": None if self.files is None else
                 whole(self.files, "files", minimum=1, maximum=MAX_MODELS),
                 "centre": None if self.centre is None else point(self.centre, "centre"),
                 "facing_deg": None if self.facing_deg is None else
                 number(self.facing_deg, "facing_deg"),
                 "assignment": None if self.assignment is None else
                 checked_assignment(self.assignment),
                 "mid": None if self.mid is None else _mid(self.mid)}
        for name, value in fixed.items():
            object.__setattr__(self, name, value)
        _check_shape(self)

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
        if self.mid is not None:
            out["mid"] = self.mid.to_json()
        return out


def _mid(mid: Any) -> MidPlacement:
    if not isinstance(mid, MidPlacement):
        raise InvalidInputError(f"expected a MidPlacement, got {type(mid).__name__}",
                                path="mid")
    return mid


def _check_shape(move: Move) -> None:
    """What a manoeuvre takes (docs/formats.md "Move"): only an Advance pivots, a Reform has
    no steps, an Advance or March gives steps or a whole end pose."""
    manoeuvre = move.manoeuvre
    if move.pivot_deg and not manoeuvre.pivots:
        raise InvalidInputError("only an Advance Move starts with a Pivot", path="pivot_deg")
    if manoeuvre.pivot_only:
        for name, given in (("steps", move.steps), ("files", move.files is not None),
                            ("centre", move.centre is not None),
                            ("facing_deg", move.facing_deg is not None)):
            if given:
                raise InvalidInputError("a Post-Combat Pivot gives only its pivot (degrees)",
                                        path=name)
        return
    if move.mid is not None and manoeuvre is not Manoeuvre.REFORM:
        raise InvalidInputError("only a Reform places the unit mid-move", path="mid")
    if not manoeuvre.snaking and move.steps:
        raise InvalidInputError("a Reform Move has no steps: give centre, facing and files",
                                path="steps")
    if manoeuvre.snaking and move.steps and (move.centre is not None
                                             or move.facing_deg is not None):
        raise InvalidInputError("give either steps or an end pose (centre, facing), not both",
                                path="steps")
    if manoeuvre.snaking and (move.centre is None) != (move.facing_deg is None):
        raise InvalidInputError("an end pose needs both centre and facing",
                                path="centre" if move.centre is not None else "facing_deg")
