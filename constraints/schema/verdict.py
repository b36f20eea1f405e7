"""Verdicts (`manoeuvre check --json`; docs/formats.md "Verdict", "Judging nudges", "Infinity
N4"): the exact checker's judgement of a move, a Combat Reform, a route or a player's
nudges."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field

from constraints.schema.common import XY, XYZ, ResultModel

Legal = bool | None
"""true, false, or null when neither is proved (an end pose no way was found to)."""

Measure = Annotated[float | None, Field(description="null where it is not finite (a "
                                        "distance to nothing): JSON has no infinity")]


class Violation(ResultModel):
    """One broken rule clause: its measurement against its limit."""

    clause: str
    measured: Measure
    limit: Measure
    dimension: str = Field(description="what the measure counts: in, deg, models, ...")
    message: str
    unit: str | None = Field(default=None, description="nudges: the unit it concerns "
                             "(\"order\" for nudge.order)")
    witness: list[list[float]] | None = Field(
        default=None, description="the deciding geometry, what `render` draws in red: a "
        "segment [[x, y], [x, y]], a polyline or a polygon ring (inches)")


class CloseCall(ResultModel):
    clause: str
    measured: Measure
    limit: Measure
    margin: Measure = Field(description="signed: positive = inside the limit; null where "
                            "it is not finite")


class RefereeCall(ResultModel):
    """Referee mode (`check --referee T`, RULES A21)."""

    tolerance: float
    verdict: Literal["legal", "illegal", "within_tolerance", "not_proved"]
    close_calls: list[CloseCall]


class Placed(ResultModel):
    """A pose: a centre (inches) and a facing (degrees)."""

    centre: XY
    facing: float


class End(ResultModel):
    """Where the unit ends; corners front-left, front-right, rear-right, rear-left."""

    centre: XY
    facing: float
    files: int
    corners: list[XY] = Field(min_length=4, max_length=4)
    models: dict[str, Placed] | None = Field(
        default=None, description="where each model's base ends: model id -> its centre "
        "and facing (characters by id; rank-and-file `UNIT.INDEX`, a place in the end "
        "formation's layout)")


class DangerousTest(ResultModel):
    """A Dangerous Terrain test the move triggers (T9A)."""

    terrain: str
    dice: int
    test: int | None


class MoveVerdict(ResultModel):
    """The verdict on a rank-and-flank move (T9A, Warhammer), a Combat Reform or a nudge."""

    legal: Legal
    unit: str
    manoeuvre: str
    end: End
    violations: list[Violation]
    measurements: dict[str, Measure]
    steps: list[dict[str, float]] | None = Field(
        default=None, description="how an end-pose move was reached")
    poses: list[Placed] | None = Field(
        default=None, description="the unit's pose after the Pivot (the start, where the "
        "rules have none) and after each step: a move with steps, for animation")
    not_proved: str | None = None
    referee: RefereeCall | None = None
    dangerous_terrain: list[DangerousTest] | None = None
    notes: list[str] | None = Field(
        default=None, description="what the checker did not judge (a T9A Light Troops "
        "Reform beyond Mob that states no placement mid-move: Dangerous Terrain judged at "
        "its end only)")
    warnings: list[str] | None = None


class EnemyExposure(ResultModel):
    """An enemy's stretches of a route (RULES §5.12): where it has Line of Fire to the
    trooper, and where it senses it in its Zone of Control only (inches along the route)."""

    enemy: str
    lof: list[tuple[float, float]]
    zoc: list[tuple[float, float]]
    all_around: bool | None = None


class RouteVerdict(ResultModel):
    """The verdict on an Infinity route."""

    legal: bool
    unit: str
    skill: str
    length: float
    moves: list[float] = Field(description="each Move's length")
    end: XYZ
    violations: list[Violation]
    measurements: dict[str, Measure]
    cut_at: XYZ | None = Field(default=None, description="A22: where the route first met an "
                               "enemy's base short of its end; the Move ends there")
    path: list[XYZ] | None = Field(default=None, description="with `cut_at`: the route as "
                                   "executed, up to the contact")
    contact: list[str] | None = Field(default=None, description="with `cut_at`: the enemies "
                                      "touched there")
    referee: RefereeCall | None = None
    # `check --exposure`: the route's exposure to the enemies' AROs (as `route --exposure`).
    exposure: list[EnemyExposure] | None = Field(
        default=None, description="--exposure: each enemy's stretches (RULES §5.12)")
    aro_by: list[str] | None = Field(default=None, description="enemies with LoF somewhere")
    zoc_by: list[str] | None = Field(default=None, description="enemies sensing it in their "
                                     "Zone of Control only")
    exposed: float | None = Field(default=None, description="inches of the route in some "
                                  "enemy's LoF")
    sampled: float | None = Field(default=None, description="LoF sampled this far apart")
    min_visible_mm: float | None = None
    warnings: list[str] | None = None


Leg = Annotated[dict[Literal["forward", "sideways"], float], Field(min_length=1, max_length=1)]
"""One straight leg in the unit's own frame: `forward` (negative: backwards) or `sideways`
(positive: to the unit's right), inches."""


class JudgedNudge(ResultModel):
    unit: str
    legs: list[Leg] = Field(description="the player's legs as given (none: the unit stayed "
                            "where it stands; more than two break nudge.legs)")
    distance: float
    least: float | None = Field(description="the least legal nudge where the unit stood")
    verdict: MoveVerdict


class NudgeVerdict(ResultModel):
    """The verdict on a player's nudges (`check SCENARIO NUDGE.json`)."""

    legal: bool
    manoeuvre: Literal["nudge"]
    order: list[str]
    in_combat: int
    best_in_combat: int
    best_proved: bool
    nudges: list[JudgedNudge]
    violations: list[Violation]
    warnings: list[str] | None = None


Verdict = MoveVerdict | RouteVerdict | NudgeVerdict
"""What `manoeuvre check --json` prints."""

__all__ = ["MoveVerdict", "NudgeVerdict", "RouteVerdict", "Verdict", "Violation"]
