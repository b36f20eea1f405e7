"""The scenario file, `manoeuvre/1` (docs/formats.md "Scenario"): the envelope (rules, their
options, the battlefield, the active player), the terrain and the units of its system.

Which units and terrain a scenario holds follows from `rules`: T9A units (`t9a`,
`t9a-2025`, the default), Warhammer units (`whfb7`), Infinity troopers, markers and scenery
(`infinity-n4`).  The JSON Schema says so with `if`/`then`/`else`; the model checks it after
reading.  What needs geometry (a polygon that is simple, units that do not overlap, a slot
inside its formation, ids that do not repeat) is the readers' and the checker's, not the
schema's.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Annotated, Any, Literal

from pydantic import (
    Field,
    ValidationInfo,
    ValidatorFunctionWrapHandler,
    field_validator,
    model_validator,
)

from constraints.schema.checks import (
    RULE_OPTIONS,
    in_the_profiles_words,
    one_system,
    options_of_the_rules,
    scenario_model_name,
)
from constraints.schema.checks import (
    SYSTEM_OF as SYSTEM_OF,
)
from constraints.schema.common import FileModel, Lax, Text
from constraints.schema.units import (
    Connector,
    Marker,
    Prism,
    T9AUnit,
    Terrain,
    Trooper,
    Whfb7Unit,
)

FORMAT = "manoeuvre/1"
RULES = ("t9a", "t9a-2025", "whfb7", "infinity-n4")
# Each system's units and terrain, by the rules profiles that read them.
UNITS = {"t9a": (T9AUnit,), "whfb7": (Whfb7Unit,), "infinity": (Trooper, Marker)}
TERRAIN = {"t9a": (Terrain,), "whfb7": (Terrain,), "infinity": (Prism, Connector)}

Mob = Annotated[float, Field(ge=0.0, le=10.0, allow_inf_nan=False,
                             description="a multiple of the unit's Mob (or M)")]
Degrees = Annotated[float, Field(ge=0.0, le=180.0, allow_inf_nan=False)]
Inches = Annotated[float, Field(ge=0.0, le=24.0, allow_inf_nan=False)]
FileChange = Annotated[int, Field(ge=0, le=1000)]
RankWidth = Annotated[int, Field(ge=1, le=1000)]


class RuleOptions(FileModel):
    """Overrides of the profile's named parameters (docs/formats.md "Rules parameters").
    Every key is optional; which keys a profile knows is checked against `rules`."""

    advance_mob: Mob | None = None
    march_mob: Mob | None = None
    final_position_mob: Mob | None = None
    model_move_mob: Mob | None = None
    reform_centre_mob: Mob | None = None
    light_troops_reform_centre_mob: Mob | None = None
    heading_window_deg: Degrees | None = None
    end_spacing_in: Inches | None = None
    mid_move_spacing_in: Inches | None = None
    max_file_change: FileChange | None = None
    max_file_change_musician: FileChange | None = None
    proper_rank_width: Annotated[tuple[RankWidth, RankWidth, RankWidth, RankWidth, RankWidth,
                                       RankWidth], Lax] | None = None
    move_mob: Mob | None = None
    turn_mob: Mob | None = None
    wheel_chord: bool | None = None
    spacing_in: Inches | None = None
    march_block_in: Inches | None = None
    reform_model_mob: Mob | None = None
    contact_tolerance: Annotated[float, Field(ge=0.0, le=1.0, allow_inf_nan=False)] | None \
        = None

    @field_validator("*", mode="wrap")
    @classmethod
    def _in_the_profiles_words(cls, value: Any, handler: ValidatorFunctionWrapHandler,
                               info: ValidationInfo) -> Any:
        return in_the_profiles_words(value, handler, info)


class Battlefield(FileModel):
    width: Annotated[float, Field(gt=0.0, le=1e6, allow_inf_nan=False)]
    depth: Annotated[float, Field(gt=0.0, le=1e6, allow_inf_nan=False)]


def by_rules(schema: dict[str, Any]) -> None:
    """Each system's units and terrain, chosen by `rules` (T9A when it is absent): added to
    the generated JSON Schema (`constraints.schema.json_schema`)."""
    def holding(system: str) -> dict[str, Any]:
        def refs(models: tuple[type, ...]) -> dict[str, Any]:
            found = [{"$ref": f"#/$defs/{m.__name__}"} for m in models]
            return {"items": found[0] if len(found) == 1 else {"anyOf": found}}
        return {"properties": {"units": refs(UNITS[system]), "terrain": refs(TERRAIN[system]),
                               "rule_options": {"propertyNames": {
                                   "enum": list(RULE_OPTIONS[system])}}}}

    def rules_is(name: str) -> dict[str, Any]:
        return {"required": ["rules"], "properties": {"rules": {"const": name}}}

    schema["allOf"] = [{"if": rules_is("whfb7"), "then": holding("whfb7"),
                        "else": {"if": rules_is("infinity-n4"), "then": holding("infinity"),
                                 "else": holding("t9a")}}]


class Scenario(FileModel):
    """A scenario file (`manoeuvre/1`), of any system."""

    format: Literal["manoeuvre/1"]
    rules: Literal["t9a", "t9a-2025", "whfb7", "infinity-n4"] = "t9a"
    rule_options: RuleOptions = Field(default_factory=RuleOptions)
    battlefield: Battlefield
    active_player: Text | None = None
    terrain: Sequence[Terrain | Prism | Connector] = Field(default_factory=list)
    units: Sequence[T9AUnit | Whfb7Unit | Trooper | Marker] = Field(min_length=1)

    @model_validator(mode="before")
    @classmethod
    def _options_of_the_rules(cls, data: Any) -> Any:
        # The profile's keys first, as the reader (a value is judged only for a known key).
        return options_of_the_rules(data)

    @model_validator(mode="after")
    def _one_system(self) -> Scenario:
        return one_system(self)

    @classmethod
    def finish_schema(cls, schema: dict[str, Any]) -> None:
        by_rules(schema)


# One system's scenario: what the readers validate a file as, once its `rules` are known (a
# union of every system's units would report the problems of the wrong system's too).
class T9AScenario(Scenario):
    terrain: Sequence[Terrain] = Field(default_factory=list)
    units: Sequence[T9AUnit] = Field(min_length=1)


class Whfb7Scenario(Scenario):
    terrain: Sequence[Terrain] = Field(default_factory=list)
    units: Sequence[Whfb7Unit] = Field(min_length=1)


class InfinityScenario(Scenario):
    terrain: Sequence[Prism | Connector] = Field(default_factory=list)
    units: Sequence[Trooper | Marker] = Field(min_length=1)


def scenario_model(data: Any) -> type[Scenario]:
    """The model to read `data` as: its system's, or any system's when its rules are not
    known (the model then says so)."""
    found: type[Scenario] = globals()[scenario_model_name(data)]
    return found
