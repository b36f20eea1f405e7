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

from constraints.core.jsonread import Node
from constraints.infinity.silhouettes import BASES_MM, MM_PER_IN, SILHOUETTES_MM, height_in

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


_REQUIRED = ("id", "player", "kind", "base", "silhouette", "mov", "centre")
_OPTIONAL = ("level", "prone", "facing")
_MARKER_REQUIRED = ("id", "player", "kind", "base", "centre")
_MARKER_OPTIONAL = ("silhouette", "level")
MARKER_SILHOUETTE = 2  # a marker's Silhouette when the file gives none (the default)


def read_trooper(node: Node) -> Trooper:
    kind = node.fields(("kind",), _REQUIRED + _OPTIONAL)["kind"]
    if kind.string() not in ("trooper", "marker"):
        raise kind.fail(f"unknown unit kind {kind.value!r} (known: trooper, marker)")
    if kind.string() == "marker":
        return _read_marker(node)
    f = node.fields(_REQUIRED, _OPTIONAL)
    base, silhouette = _base(f["base"]), _silhouette(f["silhouette"])
    first, second = f["mov"].items(length=2)
    mov = (first.number(minimum=0.0, maximum=MAX_MOV_IN),
           second.number(minimum=0.0, maximum=MAX_MOV_IN))
    return Trooper(f["id"].string(), f["player"].string(), base, silhouette, mov,
                   f["centre"].point(), f["level"].number(minimum=0.0, maximum=MAX_LEVEL_IN)
                   if "level" in f else 0.0,
                   f["prone"].boolean() if "prone" in f else False,
                   facing_deg=_facing(f["facing"]) if "facing" in f else None)


def _read_marker(node: Node) -> Trooper:
    f = node.fields(_MARKER_REQUIRED, _MARKER_OPTIONAL)
    silhouette = _silhouette(f["silhouette"]) if "silhouette" in f else MARKER_SILHOUETTE
    level = f["level"].number(minimum=0.0, maximum=MAX_LEVEL_IN) if "level" in f else 0.0
    return Trooper(f["id"].string(), f["player"].string(), _base(f["base"]), silhouette,
                   (0.0, 0.0), f["centre"].point(), level, False, marker=True)


def _facing(node: Node) -> float:
    """Degrees counter-clockwise from +x, read into [0, 360)."""
    return node.number(minimum=-360.0, maximum=360.0) % 360.0


def _base(node: Node) -> float:
    base = node.number(positive=True)
    if base not in BASES_MM:
        raise node.fail(f"base {base:g} mm is not one of "
                        f"{', '.join(f'{b:g}' for b in BASES_MM)} mm")
    return base


def _silhouette(node: Node) -> int:
    silhouette = node.integer(minimum=0)
    if silhouette not in SILHOUETTES_MM:
        raise node.fail(f"unknown silhouette S{silhouette} (known: S1 to S8)")
    return silhouette


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
