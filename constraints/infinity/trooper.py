"""Troopers and markers: single models (or markers) on round bases (docs/formats.md,
"Infinity N4").

A trooper stands with its base's centre at `centre`, on the surface at height `level`
(inches).  Its MOV values are the most the first and the second Move of an Order may cover;
Prone halves both (docs/rules.md §13.1, decision A15) and lowers the Silhouette to the base.

A marker (`"kind": "marker"`: camouflage, a deployable...) is read as a `Trooper` that
never moves (`marker` true, MOV 0-0, Silhouette 2 unless given): the route clauses treat it
as seed 004 says of "Models, Markers, and Tokens" (docs/rules.md §13.7).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

import shapely
from shapely.geometry import Polygon

from constraints.infinity.silhouettes import MM_PER_IN, height_in

MAX_MOV_IN = 24.0
MAX_LEVEL_IN = 100.0
DISC_SEGMENTS = 16  # quadrant segments of the drawn / placement disc


@dataclass(frozen=True)
class Trooper:
    id: str
    player: str
    base_mm: float
    silhouette: int
    mov_in: tuple[float, float]
    centre: tuple[float, float]
    level_in: float = 0.0
    prone: bool = False
    marker: bool = False
    facing_deg: float | None = None  # where its front 180° looks (LoF); None: not given

    @property
    def kind(self) -> str:
        return "marker" if self.marker else "trooper"

    @property
    def radius_in(self) -> float:
        return self.base_mm / MM_PER_IN / 2.0

    @property
    def height_in(self) -> float:
        """The Silhouette's height (heights, not S numbers, are compared)."""
        return height_in(self.silhouette, self.prone)

    def move_allowance_in(self, which: int) -> float:
        """The first (0) or second (1) MOV value, halved when prone."""
        return self.mov_in[which] / (2.0 if self.prone else 1.0)

    def boundary(self) -> Polygon:
        """The base as a polygon (drawing and shared code; the rules measure the disc)."""
        return shapely.Point(self.centre).buffer(self.radius_in, quad_segs=DISC_SEGMENTS)

    def at(self, centre: tuple[float, float], level_in: float) -> Trooper:
        return replace(self, centre=centre, level_in=level_in)

    def with_prone(self, prone: bool) -> Trooper:
        return replace(self, prone=prone)


MARKER_SILHOUETTE = 2  # a marker's Silhouette when the file gives none (the default)


def read_trooper(model: Any, path: str) -> Trooper:
    """A trooper or a marker from its validated model (`constraints.schema.units.Trooper`,
    `Marker`: bases, Silhouettes and bounds are the model's to check)."""
    if model.kind == "marker":
        return Trooper(model.id, model.player, model.base, model.silhouette, (0.0, 0.0),
                       tuple(model.centre), model.level, False, marker=True)
    facing = None if model.facing is None else model.facing % 360.0  # read into [0, 360)
    return Trooper(model.id, model.player, model.base, model.silhouette, tuple(model.mov),
                   tuple(model.centre), model.level, model.prone, facing_deg=facing)


def trooper_to_json(t: Trooper) -> dict[str, Any]:
    if t.marker:
        return {"id": t.id, "player": t.player, "kind": "marker", "base": t.base_mm,
                "silhouette": t.silhouette, "centre": list(t.centre), "level": t.level_in}
    out = {"id": t.id, "player": t.player, "kind": "trooper", "base": t.base_mm,
           "silhouette": t.silhouette, "mov": list(t.mov_in), "centre": list(t.centre),
           "level": t.level_in, "prone": t.prone}
    if t.facing_deg is not None:
        out["facing"] = t.facing_deg
    return out


def named_ids(t: Trooper) -> list[tuple[str, str]]:
    return [(".id", t.id)]
