"""The search result (`manoeuvre solve --json`; docs/formats.md "Search result")."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import ConfigDict, Field

from constraints.schema.common import XY, ResultModel
from constraints.schema.move import T9AMove, Whfb7Move
from constraints.schema.verdict import DangerousTest, MoveVerdict

Status = Literal["OPTIMAL", "FEASIBLE", "INFEASIBLE", "NOT_FOUND", "TIMEOUT"]


class Objective(ResultModel):
    name: str
    value: float | None
    bound: float | None
    bound_covers: str | None = Field(default=None, description="\"any_wheels\": the bound "
                                     "holds for every way the rules allow")
    tolerance: float | None = None
    gap: float | None = None
    point: XY | None = Field(default=None, description="the target asked for")
    facing: float | None = None


class Lattice(ResultModel):
    inch: float
    degree: float
    advance_wheel_deg: float | None = None


class Family(ResultModel):
    """What was searched and how it ended (Advance, March, Warhammer moves)."""

    # Further keys describe the search (e.g. `avoid`); clients read the documented ones.
    model_config = ConfigDict(extra="allow")

    max_wheels: int | None = Field(default=None, description="ways of up to this many wheels")
    status: str = Field(description="the solver's status within the family (a search "
                        "of the whole family, as a Post-Combat Pivot's: the answer's status)")
    ways: str | None = None
    avoid: dict[str, Any] | None = None


class SearchResult(ResultModel):
    """What `solve` found: a status that speaks of every move the rules allow, the objective
    and its bound, the lattice and family searched, and the move with its verdict."""

    status: Status
    objective: Objective
    lattice: Lattice
    elapsed_s: float
    move: T9AMove | Whfb7Move | None
    verdict: MoveVerdict | None
    stopped_by: Literal["deterministic_time", "wall_clock", "cancelled"] | None
    family: Family | None = None
    blocking: list[str] | None = None
    dangerous_terrain: list[DangerousTest] | None = None
    warnings: list[str] | None = None
