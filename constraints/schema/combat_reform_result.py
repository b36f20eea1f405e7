"""The Combat Reform result (`manoeuvre combat-reform --json`; docs/formats.md "Combat
Reform proposal and result").  It is itself a proposal `check` judges."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import Field

from constraints.schema.common import XY, Lax, ResultModel
from constraints.schema.verdict import MoveVerdict, Violation

Status = Literal["OPTIMAL", "FEASIBLE", "INFEASIBLE", "NOT_FOUND", "TIMEOUT"]
Levels = list[float | None]


class Objective(ResultModel):
    name: Literal["lexicographic"]
    levels: list[str]
    value: Levels
    bound: Levels


class PlacedModel(ResultModel):
    """A model's slot (rank-and-file `UNIT.INDEX` as before the reform, characters by id)
    and where it stands."""

    id: str
    slot: Annotated[tuple[int, int], Lax]
    position: XY


class Reform(ResultModel):
    unit: str
    files: int
    centre: XY
    facing: float
    models: list[PlacedModel]
    contacts_before: int
    contacts_after: int
    status: Status
    value: Levels
    bound: Levels
    family: dict[str, Any] = Field(description="the placements searched")


class Refused(ResultModel):
    unit: str
    violations: list[Violation]


class NotFound(ResultModel):
    unit: str
    status: Status
    reason: str


class CombatReformResult(ResultModel):
    manoeuvre: Literal["combat_reform"]
    status: Status
    player: str
    objective: Objective
    reforms: list[Reform]
    refused: list[Refused]
    not_found: list[NotFound]
    verdict: MoveVerdict | None
    notes: list[str] | None = None
    warnings: list[str] | None = None
