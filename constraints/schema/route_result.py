"""Route answers (`manoeuvre route --json`; docs/formats.md "Infinity N4"): a route to a
point (`--to`) or the reachable area (`--reach`)."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from constraints.schema.common import XY, XYZ, ResultModel
from constraints.schema.verdict import EnemyExposure, Violation

Status = Literal["OPTIMAL", "FEASIBLE", "INFEASIBLE", "NOT_FOUND", "TIMEOUT"]
Skill = Literal["move", "move_move", "dodge", "jump", "climb"]


class Tried(ResultModel):
    status: Status
    legal: bool


class RouteAnswer(ResultModel):
    """The shortest legal route found to a point, and what it proves."""

    status: Status
    unit: str
    skill: Skill
    legal: bool
    idle: bool = Field(description="no legal Move reaches the target, proved")
    length: float | None
    bound: float | None
    tolerance: float
    path: list[XYZ]
    violations: list[Violation]
    midpoint: XYZ | None = None
    prone: bool | None = None
    reason: str | None = None
    chosen: str | None = Field(default=None, description="--skill auto: why this skill")
    tried: dict[Skill, Tried] | None = None
    exposure: list[EnemyExposure] | None = Field(
        default=None, description="--exposure, --safest: each enemy's stretches (RULES §5.12)")
    aro_by: list[str] | None = Field(default=None, description="enemies with LoF somewhere")
    zoc_by: list[str] | None = Field(default=None,
                                     description="enemies sensing it in their Zone of Control only")
    exposed: float | None = None
    sampled: float | None = Field(default=None, description="LoF sampled this far apart")
    min_visible_mm: float | None = None
    shortest_exposed: float | None = None
    warnings: list[str] | None = None


class Level(ResultModel):
    level: float
    area: float
    polygons: list[list[list[XY]]] = Field(description="polygons, each its rings (exterior "
                                           "first) of [x, y] points")


class ReachableArea(ResultModel):
    """Where the trooper may end a Move (or the skill) of at most `mov`."""

    status: Literal["FEASIBLE", "INFEASIBLE"]
    unit: str
    skill: Skill
    mov: float
    area: float
    outer_area: float
    levels: list[Level]
    warnings: list[str] | None = None


RouteResult = RouteAnswer | ReachableArea
