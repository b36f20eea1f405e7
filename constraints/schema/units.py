"""The units of a scenario, one kind per game system (docs/formats.md "Scenario", "Warhammer
Fantasy Battle 7th", "Infinity N4"): a T9A unit, a Warhammer unit, an Infinity trooper or
marker, and the terrain each system reads."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import AfterValidator, Field, model_validator

from constraints.core.jsonread import MAX_COUNT, MAX_MAGNITUDE
from constraints.schema.checks import (
    INFINITY_BASES_MM,
    a_base,
    a_silhouette,
    each_once,
    not_mobility,
)
from constraints.schema.common import (
    Angle,
    FileModel,
    Files,
    Lax,
    Point,
    Point3,
    Slot,
    Text,
)

# The bounds the readers apply (constraints/rank_and_file/unit.py, formation.py,
# constraints/infinity/): repeated here as numbers so that importing the models loads no
# geometry; tests/constraints/schema/test_models.py checks they agree.
MAX_BASE_MM = 1000.0
MAX_MOBILITY_IN = 20.0
MAX_MODELS = 1000
MAX_MOV_IN = 24.0
MAX_HEIGHT_IN = 100.0

BaseSide = Annotated[float, Field(gt=0.0, le=MAX_BASE_MM, allow_inf_nan=False)]
Mobility = Annotated[float, Field(gt=0.0, le=MAX_MOBILITY_IN, allow_inf_nan=False)]
Models = Annotated[int, Field(ge=0, le=MAX_MODELS)]
Height = Annotated[int, Field(ge=0, le=5)]
State = Literal["fleeing", "pursuing", "charging"]
Level = Annotated[float, Field(ge=0.0, le=MAX_HEIGHT_IN, allow_inf_nan=False)]
Mov = Annotated[float, Field(ge=0.0, le=MAX_MOV_IN, allow_inf_nan=False)]


# Read as the readers do (any whole number >= 0, any number > 0), then refused in their words;
# the schema says the values allowed.
Silhouette = Annotated[int, Field(ge=0, le=MAX_COUNT, json_schema_extra={"minimum": 1,
                                                                        "maximum": 8}),
                       AfterValidator(a_silhouette)]
InfinityBase = Annotated[float, Field(gt=0.0, le=MAX_MAGNITUDE, allow_inf_nan=False,
                                      json_schema_extra={"enum": list(INFINITY_BASES_MM)}),
                         AfterValidator(a_base)]


class Character(FileModel):
    """A character on a matching base, standing in the formation at `slot`."""

    id: Text
    slot: Slot


class RankAndFileUnit(FileModel):
    """What a T9A and a Warhammer unit share."""

    id: Text
    player: Text
    base: Annotated[tuple[BaseSide, BaseSide], Lax] = Field(description="frontage x depth, mm")
    models: Models = Field(description="rank-and-file models")
    files: Files
    centre: Point = Field(description="centre of the Unit Boundary, inches")
    facing: Angle = Field(description="where the Front Facing looks, degrees")
    height: Height = 1
    characters: list[Character] = Field(default_factory=list)
    empty: list[Slot] = Field(default_factory=list, description="slots left empty")
    state: State | None = None


class T9AUnit(RankAndFileUnit):
    """A unit of The Ninth Age (`rules`: t9a, t9a-2025)."""

    mobility: Mobility = Field(description="Mob, inches")
    musician: bool = False
    light_troops: bool = False


class Whfb7Unit(RankAndFileUnit):
    """A unit of Warhammer Fantasy Battle 7th (`rules`: whfb7)."""

    @model_validator(mode="before")
    @classmethod
    def _not_mobility(cls, data: Any) -> Any:
        return not_mobility(data)

    movement: Mobility = Field(description="M, the Move characteristic, inches")
    command: Annotated[list[Literal["champion", "standard", "musician"]],
                       AfterValidator(each_once)] = Field(
        default_factory=list, max_length=3, json_schema_extra={"uniqueItems": True},
        description="front-rank command models, each at most once")


class Trooper(FileModel):
    """An Infinity N4 trooper on a round base."""

    id: Text
    player: Text
    kind: Literal["trooper"]
    base: InfinityBase = Field(description="base diameter, mm")
    silhouette: Silhouette
    mov: Annotated[tuple[Mov, Mov], Lax] = Field(description="the two MOV values, inches")
    centre: Point
    level: Level = 0.0
    prone: bool = False
    facing: Annotated[float, Field(ge=-360.0, le=360.0)] | None = Field(
        default=None, description="degrees counter-clockwise from +x where its front 180° "
        "looks (Line of Fire); absent: it is treated as seeing all around")


class Marker(FileModel):
    """An Infinity N4 marker (camouflage, a deployable): never moves."""

    id: Text
    player: Text
    kind: Literal["marker"]
    base: InfinityBase
    centre: Point
    silhouette: Silhouette = 2
    level: Level = 0.0


class Terrain(FileModel):
    """T9A and Warhammer terrain: a simple polygon of non-zero area."""

    id: Text
    kind: Literal["impassable", "dangerous"]
    polygon: list[Point] = Field(min_length=3)
    test: Annotated[int, Field(ge=1, le=6)] | None = Field(
        default=None, description="Dangerous Terrain: the score each die must reach")


class Prism(FileModel):
    """Infinity scenery: a footprint rising `height` from the surface at `level`."""

    id: Text
    kind: Literal["building", "obstacle"]
    polygon: list[Point] = Field(min_length=3)
    height: Annotated[float, Field(gt=0.0, le=MAX_HEIGHT_IN, allow_inf_nan=False)]
    level: Level = 0.0


class Connector(FileModel):
    """An Infinity ladder or stairs joining two levels (base centres at each end)."""

    id: Text
    kind: Literal["ladder", "stairs"]
    from_: Point3 = Field(alias="from")
    to: Point3

