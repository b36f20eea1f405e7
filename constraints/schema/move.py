"""Move files (docs/formats.md "Move", "Move (Warhammer Fantasy Battle 7th)"): a T9A Move
Manoeuvre or a Warhammer move, written as steps or as an end pose.

A step is an object of exactly one key: `forward` (inches, >= 0), `wheel` (signed degrees,
|angle| <= 90) or, Warhammer only, `turn` (90, -90 or 180; -180 is the same half turn).
Which keys go with which manoeuvre is checked after reading, as the move readers do.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import AfterValidator, Field, model_validator

from constraints.schema.checks import a_turn, t9a_move_keys, whfb7_move_keys
from constraints.schema.common import Angle, FileModel, Files, Point, Slot, Text

MAX_STEPS = 100
MAX_FORWARD_IN = 4e6   # constraints/rank_and_file/steps.py
MAX_WHEEL_DEG = 90.0
MAX_PIVOT_DEG = 360.0
TURNS_DEG = (90.0, -90.0, 180.0, -180.0)


class Forward(FileModel):
    """Straight ahead, inches."""

    forward: Annotated[float, Field(ge=0.0, le=MAX_FORWARD_IN, allow_inf_nan=False)]


class Wheel(FileModel):
    """Signed degrees: positive turns left about the left front corner, negative right about
    the right front corner."""

    wheel: Annotated[float, Field(ge=-MAX_WHEEL_DEG, le=MAX_WHEEL_DEG, allow_inf_nan=False)]


class Turn(FileModel):
    """A turn on the spot (Warhammer): a quarter turn either way or a half turn."""

    turn: Annotated[float, Field(allow_inf_nan=False, json_schema_extra={"enum": [90, -90, 180,
                                                                                  -180]}),
                    AfterValidator(a_turn)]


Assignment = dict[Text, Slot]
"""Where each model ends: model id -> [rank, file]."""


class Mid(FileModel):
    """Where a Reform places the unit mid-move (seed 000, "Mid-Reform Move Actions"), as
    when it enters Dangerous Terrain: its centre, facing and files (default: the files it
    starts with)."""

    centre: Point
    facing: Angle
    files: Files | None = None


class T9AMove(FileModel):
    """A T9A Move Manoeuvre: an Advance or March (steps, or an end pose to reach), a Reform
    (files, centre, facing) or a Post-Combat Pivot (pivot only)."""

    unit: Text
    manoeuvre: Literal["advance", "march", "reform", "post_combat_pivot"]
    steps: list[Forward | Wheel] | None = Field(default=None, max_length=MAX_STEPS)
    pivot: Annotated[float, Field(ge=-MAX_PIVOT_DEG, le=MAX_PIVOT_DEG,
                                  allow_inf_nan=False)] | None = None
    files: Files | None = None
    centre: Point | None = None
    facing: Angle | None = None
    assignment: Assignment | None = None
    mid: Mid | None = None

    @model_validator(mode="after")
    def _keys_of_the_manoeuvre(self) -> T9AMove:
        return t9a_move_keys(self)

    @classmethod
    def finish_schema(cls, schema: dict[str, Any]) -> None:
        schema["allOf"] = [
            when_manoeuvre(["post_combat_pivot"], forbidden(["steps", "files", "centre",
                                                             "facing"])),
            when_manoeuvre(["march", "reform"], forbidden(["pivot"])),
            when_manoeuvre(["advance", "march", "post_combat_pivot"], forbidden(["mid"])),
            when_manoeuvre(["reform"], forbidden(["steps"])),
            when_manoeuvre(["advance", "march"], {
                "dependentRequired": {"centre": ["facing"], "facing": ["centre"]},
                "not": {"required": ["steps"], "anyOf": [{"required": ["centre"]},
                                                         {"required": ["facing"]}]}}),
        ]


def when_manoeuvre(names: list[str], then: dict[str, Any]) -> dict[str, Any]:
    """JSON Schema: `then` holds when the manoeuvre is one of `names`."""
    return {"if": {"required": ["manoeuvre"], "properties": {"manoeuvre": {"enum": names}}},
            "then": then}


def forbidden(keys: list[str]) -> dict[str, Any]:
    """JSON Schema: none of `keys` is given."""
    return {"not": {"anyOf": [{"required": [k]} for k in keys]}}


class Whfb7Move(FileModel):
    """A Warhammer move or march (steps) or reform (files and facing; the centre is kept)."""

    unit: Text
    manoeuvre: Literal["move", "march", "reform"]
    steps: list[Forward | Wheel | Turn] | None = Field(default=None, max_length=MAX_STEPS)
    files: Files | None = None
    facing: Angle | None = None
    assignment: Assignment | None = None

    @model_validator(mode="after")
    def _keys_of_the_manoeuvre(self) -> Whfb7Move:
        return whfb7_move_keys(self)

    @classmethod
    def finish_schema(cls, schema: dict[str, Any]) -> None:
        schema["allOf"] = [
            when_manoeuvre(["move", "march"], forbidden(["files", "facing", "assignment"])),
            when_manoeuvre(["reform"], {"required": ["files", "facing"],
                                        **forbidden(["steps"])}),
        ]


Move = T9AMove | Whfb7Move
"""A move file of either rank-and-flank system (the scenario's rules say which)."""
