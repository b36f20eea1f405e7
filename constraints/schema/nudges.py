"""A player's nudges (`manoeuvre check SCENARIO NUDGE.json`; docs/formats.md "Judging
nudges"): a `nudge --json` result, or the same with the player's own `nudges` legs or `order`
edited.

Each nudge is a unit and its legs, each leg one number forward or sideways in the unit's own
frame.  The keys `nudge --json` writes besides (and those of the nudges' verdict, `check
--json`, so that a verdict is itself a proposal) are read past; `casualties` is the
casualties file it echoes, read as that format.  Whether a unit exists, is wiped out, or is
nudged or listed twice is the scenario's to say (optimizer/nudge/judge.py)."""

from __future__ import annotations

from typing import Any

from pydantic import Field, model_validator

from constraints.core.jsonread import MAX_COUNT
from constraints.schema.checks import one_leg
from constraints.schema.common import FileModel, Number, Text


class PlayerLeg(FileModel):
    """One straight leg: exactly one of `forward` and `sideways` (inches; negative: back or
    left)."""

    @model_validator(mode="before")
    @classmethod
    def _one_direction(cls, data: Any) -> Any:
        return one_leg(data)

    forward: Number | None = None
    sideways: Number | None = None

    @classmethod
    def finish_schema(cls, schema: dict[str, Any]) -> None:
        schema["minProperties"] = schema["maxProperties"] = 1


class PlayerNudge(FileModel):
    unit: Text
    legs: list[PlayerLeg] = Field(max_length=MAX_COUNT, description="in the order made; "
                                  "none: the unit stays where it stands")
    distance: Any = Field(default=None, description="read past")
    touches: Any = Field(default=None, description="read past")
    least: Any = Field(default=None, description="read past")
    verdict: Any = Field(default=None, description="read past")


class PlayerNudges(FileModel):
    nudges: list[PlayerNudge] = Field(max_length=MAX_COUNT)
    order: list[Text] | None = Field(default=None, description="the order the units move "
                                     "in; units it leaves out follow")
    casualties: Any = Field(default=None, description="the casualties file echoed (the "
                            "casualties format), read when --casualties is not given")
    # Read past: the rest of a `nudge --json` result and of the nudges' verdict.
    status: Any = None
    units: Any = None
    alternative_orders: Any = None
    combats: Any = None
    no_more_foes: Any = None
    removed: Any = None
    in_combat: Any = None
    solves: Any = None
    warnings: Any = None
    legal: Any = None
    manoeuvre: Any = None
    best_in_combat: Any = None
    best_proved: Any = None
    violations: Any = None
