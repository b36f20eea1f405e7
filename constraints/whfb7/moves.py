"""Warhammer moves as values (seed 003; docs/formats.md "Move (Warhammer Fantasy Battle
7th)"): a move or a march of forward steps, wheels and turns, or a reform about the centre."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from constraints.core.jsonread import number, text, whole
from constraints.errors import InvalidInputError
from constraints.rank_and_file.formation import MAX_MODELS, Slot, checked_assignment
from constraints.rank_and_file.steps import Step, StepKind, checked_steps, member

__all__ = ["MANOEUVRES", "WARHAMMER_STEPS", "Manoeuvre", "WarhammerMove"]

# A Warhammer move's steps: forward, wheel about a front corner, turn on the spot.
WARHAMMER_STEPS = (StepKind.FORWARD, StepKind.WHEEL, StepKind.TURN)


class Manoeuvre(StrEnum):
    """What a unit does in its Movement phase; each member is its JSON spelling."""

    MOVE = "move"      # up to M: forward, wheels, turns
    MARCH = "march"    # up to 2 M: forward and wheels (a turn is a violation, not bad input)
    REFORM = "reform"  # the whole move: a new formation and facing about the centre

    @property
    def steps(self) -> bool:
        """A move and a march are written as steps; a reform as its end formation."""
        return self is not Manoeuvre.REFORM


MANOEUVRES = tuple(m.value for m in Manoeuvre)


@dataclass(frozen=True)
class WarhammerMove:
    """A proposed move of one unit.

    `steps` describe a move or a march; `files` and `facing_deg` a reform (its centre is
    kept).  `assignment` optionally fixes the slot each model of a reform ends in (model id
    -> (rank, file); ids as `constraints.whfb7.unit_io.model_ids`).
    """

    unit: str
    manoeuvre: Manoeuvre
    steps: tuple[Step, ...] = ()
    files: int | None = None
    facing_deg: float | None = None
    assignment: tuple[tuple[str, Slot], ...] | None = None

    def __post_init__(self) -> None:
        fixed = {"manoeuvre": member(Manoeuvre, self.manoeuvre, "manoeuvre", "manoeuvre"),
                 "unit": text(self.unit, "unit"),
                 "steps": checked_steps(self.steps, tuple(StepKind), "whfb7"),
                 "files": None if self.files is None else
                 whole(self.files, "files", minimum=1, maximum=MAX_MODELS),
                 "facing_deg": None if self.facing_deg is None else
                 number(self.facing_deg, "facing_deg"),
                 "assignment": None if self.assignment is None else
                 _assignment(self.assignment)}
        for name, value in fixed.items():
            object.__setattr__(self, name, value)
        _check_shape(self)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"unit": self.unit, "manoeuvre": str(self.manoeuvre)}
        if self.manoeuvre.steps:
            out["steps"] = [s.to_json() for s in self.steps]
        else:
            out["files"], out["facing"] = self.files, self.facing_deg
        if self.assignment is not None:
            out["assignment"] = {k: list(v) for k, v in self.assignment}
        return out


def _check_shape(move: WarhammerMove) -> None:
    """A reform gives files and facing and no steps; a move or march gives steps only."""
    if move.manoeuvre.steps:
        for name, value in (("files", move.files), ("facing_deg", move.facing_deg),
                            ("assignment", move.assignment)):
            if value is not None:
                raise InvalidInputError(f"a {move.manoeuvre} gives steps only, not {name}",
                                        path=name)
        return
    if move.steps:
        raise InvalidInputError("a reform has no steps: give files and facing (the centre "
                                "is kept)", path="steps")
    for name, value in (("files", move.files), ("facing_deg", move.facing_deg)):
        if value is None:
            raise InvalidInputError(f"a reform gives {name}", path=name)


def _assignment(pairs: Any) -> tuple[tuple[str, Slot], ...]:
    """The shared pairs, each model once (a reform never changes the model count)."""
    found = checked_assignment(pairs)
    if len({model for model, _ in found}) != len(found):
        raise InvalidInputError("a model is assigned twice", path="assignment")
    return found
