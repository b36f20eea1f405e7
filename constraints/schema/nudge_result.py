"""The nudge result (`manoeuvre nudge --json`; docs/formats.md "Nudge result").  It is also
what `check SCENARIO NUDGE.json` judges: a player's nudges."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from constraints.schema.casualties import Casualties
from constraints.schema.common import XY, ResultModel
from constraints.schema.verdict import Leg


class StandingUnit(ResultModel):
    """A unit whose formation or position changed, as it now stands."""

    id: str
    models: int
    files: int
    centre: XY
    facing: float


class Nudge(ResultModel):
    unit: str
    legs: list[Leg] = Field(min_length=1, max_length=2)
    distance: float = Field(description="the sum of the legs' lengths")
    touches: list[str] = Field(description="enemies touched before that it touches again")


class NoMoreFoes(ResultModel):
    unit: str
    options: list[str]


class NudgeResult(ResultModel):
    status: Literal["OPTIMAL", "FEASIBLE"]
    units: list[StandingUnit]
    nudges: list[Nudge]
    order: list[str]
    alternative_orders: list[list[str]]
    combats: list[list[str]]
    no_more_foes: list[NoMoreFoes]
    removed: list[str]
    in_combat: int
    solves: int
    casualties: Casualties
    warnings: list[str] | None = None
