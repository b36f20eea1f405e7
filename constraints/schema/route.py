"""Declared routes (docs/formats.md "Infinity N4"): a trooper's Move, two Moves with the
point where the first ends, a Dodge, a Jump or a Climb, as points [x, y, level]."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import Field, model_validator

from constraints.schema.checks import route_skill_keys
from constraints.schema.common import FileModel, Point3, Text

MAX_POINTS = 10_000
Skill = Literal["move", "move_move", "dodge", "jump", "climb"]


class Route(FileModel):
    """A declared route (`manoeuvre check SCENARIO ROUTE.json`)."""

    unit: Text
    skill: Skill = "move"
    path: list[Point3] = Field(min_length=1, max_length=MAX_POINTS)
    midpoint: Point3 | None = Field(default=None, description="move_move: where the first "
                                    "Move ends, one of the path's points")
    prone: bool | None = Field(default=None, description="enter (true) or leave (false) "
                               "Prone at the start")
    manoeuvre: Text | None = Field(default=None, description="the skill again (optional)")

    @model_validator(mode="after")
    def _skill_keys(self) -> Route:
        return route_skill_keys(self)

    @classmethod
    def finish_schema(cls, schema: dict[str, Any]) -> None:
        def skill_is(names: list[str]) -> dict[str, Any]:
            return {"required": ["skill"], "properties": {"skill": {"enum": names}}}

        schema["allOf"] = [
            {"if": skill_is(["jump", "climb"]),
             "then": {"properties": {"path": {"minItems": 2}}}},
            {"if": skill_is(["move_move"]), "then": {"required": ["midpoint"]},
             "else": {"not": {"required": ["midpoint"]}}},
        ]
