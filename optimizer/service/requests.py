"""The service's request bodies as pydantic models (docs/formats.md "HTTP service"): they
decide which keys a body may hold and what each holds, and their JSON Schemas are what the
OpenAPI document shows (optimizer/service/endpoints.py).

A body is closed (an unknown key is refused) and strict, as a file is; an optional key may
be null (the default).  The files a body carries (`scenario`, `move`, `result`,
`casualties`) are read by their own readers through their own models, so that an error names
its path inside the file (`$.move.steps[0]`); the document refers to their schemas
(optimizer/service/openapi.py).  What needs the scenario (a unit that exists, a manoeuvre its
system knows) is the handlers'.  Errors are the files' one-line errors at the body's JSON
path (`constraints.schema.errors`), answered 422."""

from __future__ import annotations

from typing import Annotated, Any, Literal, TypeVar, get_args

from pydantic import BaseModel, ConfigDict, Field

from constraints.core.jsonread import MAX_COUNT, MAX_MAGNITUDE
from constraints.core.referee import MAX_REFEREE_IN
from constraints.schema.common import Files, Lax, Number, Point, Text

ObjectiveName = Literal["target_distance", "front_target_distance", "target_pose",
                        "face_point", "forward"]
OBJECTIVES: tuple[str, ...] = get_args(ObjectiveName)
MAX_LIST = 10_000  # optimizer.cli.search.MAX_LIST (a test keeps them equal)

Positive = Annotated[float, Field(gt=0, le=MAX_MAGNITUDE, allow_inf_nan=False)]
NotNegative = Annotated[float, Field(ge=0, le=MAX_MAGNITUDE, allow_inf_nan=False)]
Seconds = Annotated[Positive | None, Field(description="seconds, at most the server's "
                                           "--max-time-limit")]
Row = Annotated[tuple[float, float, float, float], Lax]
"""A pose of the batch mask: x, y, facing (degrees), files."""
Body = TypeVar("Body", bound="Request")


class Request(BaseModel):
    """A body: one of `scenario` (inline) and `scenario_id` (registered)."""

    model_config = ConfigDict(extra="forbid", strict=True, allow_inf_nan=False, frozen=True,
                              populate_by_name=True)

    scenario: Any = Field(default=None, description="a scenario (format manoeuvre/1)")
    scenario_id: Any = Field(default=None, description="the id POST /v1/scenarios gave")


class UnitManoeuvre(Request):
    unit: Text
    manoeuvre: Text


class Check(Request):
    move: Any = Field(description="a move, a route, a `solve`/`route` result, nudges or a "
                      "Combat Reform proposal")
    referee: Annotated[float, Field(ge=0, le=MAX_REFEREE_IN)] | None = Field(
        default=None, description="referee mode: the tolerance in inches")
    result: Any = Field(default=None, description="the combat result (Combat Reform)")
    casualties: Any = Field(default=None, description="the casualties (nudges)")


class Objective(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True, allow_inf_nan=False, frozen=True)

    name: ObjectiveName
    point: Point | None = None
    facing: Number | None = None


class Solve(UnitManoeuvre):
    objective: Objective
    time_limit: Seconds = None
    effort: Seconds = None
    max_wheels: Annotated[int, Field(le=MAX_COUNT)] | None = None
    tolerance: Number | None = None
    avoid: Literal["dangerous"] | None = None


class Moves(UnitManoeuvre):
    limit: Annotated[int, Field(ge=1, le=MAX_LIST)] | None = None


class Mask(UnitManoeuvre):
    poses: list[Row] = Field(description="[x, y, facing, files] each")


class Region(UnitManoeuvre):
    facing: Number
    files: Files | None = None


class WhyNot(Request):
    move: Any = Field(description="a move")
    time_limit: Seconds = None


class NearestLegal(UnitManoeuvre):
    centre: Point
    facing: Number
    time_limit: Seconds = None


class Nudge(Request):
    casualties: Any = Field(default=None, description="the casualties")


class CombatReform(Request):
    unit: list[Text] | None = Field(default=None, description="the units to reform "
                                    "(default: every one in combat)")
    player: Text | None = None
    result: Any = Field(default=None, description="the combat result")
    effort: Seconds = None
    widest: bool | None = None
    keep: list[Text] | None = None
    joint: bool | None = None


class Route(Request):
    unit: Text
    to: list[Number] = Field(min_length=2, max_length=3, description="[x, y] or "
                             "[x, y, level]")
    skill: Text | None = Field(default=None, description="auto, or a skill")
    prone: bool | None = None
    tolerance: NotNegative | None = None
    exposure: bool | None = None
    safest: bool | None = None
    spacing: Positive | None = None
    time_limit: Seconds = None


class Reach(Request):
    unit: Text
    skill: Text | None = Field(default=None, description="auto, or a skill")
    mov: Positive | None = None
    prone: bool | None = None


class LineOfFire(Request):
    from_: Text = Field(alias="from")
    to: Text
    min_visible_mm: NotNegative | None = None


def read(model: type[Body], body: Any) -> Body:
    """`body` read as `model`: InvalidInputError (the JSON path, the problem) if not.  The
    files a body carries are kept as sent (`file`), not as the model copied them."""
    from constraints.schema.errors import read_as

    found: Body = read_as(model, body)
    return found


# Each route's body (POST /v1/scenarios: the scenario itself, optimizer/service/openapi.py).
BODIES: dict[str, type[Request]] = {
    "/v1/check": Check, "/v1/solve": Solve, "/v1/solve/stream": Solve, "/v1/moves": Moves,
    "/v1/mask": Mask, "/v1/region": Region, "/v1/why-not": WhyNot,
    "/v1/nearest-legal": NearestLegal, "/v1/nudge": Nudge, "/v1/combat-reform": CombatReform,
    "/v1/route": Route, "/v1/route/reach": Reach, "/v1/lof": LineOfFire,
}


def body_schema(model: type[Request]) -> dict[str, Any]:
    """The JSON Schema of a body, its nested models written in place (an OpenAPI operation
    has no `$defs` of its own)."""
    schema = model.model_json_schema(mode="validation")
    defs = schema.pop("$defs", {})

    def inlined(node: Any) -> Any:
        if isinstance(node, dict):
            ref = node.get("$ref", "")
            if ref.startswith("#/$defs/"):
                return inlined({**defs[ref.removeprefix("#/$defs/")],
                                **{k: v for k, v in node.items() if k != "$ref"}})
            return {k: inlined(v) for k, v in node.items()}
        if isinstance(node, list):
            return [inlined(v) for v in node]
        return node

    found: dict[str, Any] = inlined(schema)
    return found
