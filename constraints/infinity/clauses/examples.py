"""Builders for the route clauses' rule examples: small scenarios as the files write them."""

from __future__ import annotations

from typing import Any

Json = dict[str, Any]


def town(*terrain: Json, troopers: tuple[Json, ...] = (),
         at: tuple[float, float, float] = (4.0, 12.0, 0.0), base: float = 25.0,
         silhouette: int = 2, width: float = 24.0, depth: float = 24.0) -> Json:
    """A scenario: the fusilier (by default S2, 25 mm, MOV 4-4) at `at` (x, y, level), plus
    `troopers`."""
    units = [trooper("fusilier", at[0], at[1], level=at[2], base=base, silhouette=silhouette),
             *troopers]
    return {"format": "manoeuvre/1", "rules": "infinity-n4",
            "battlefield": {"width": width, "depth": depth},
            "terrain": list(terrain), "units": units}


def trooper(ident: str, x: float, y: float, *, player: str = "blue", base: float = 25.0,
            silhouette: int = 2, level: float = 0.0, mov: tuple[float, float] = (4.0, 4.0),
            prone: bool = False) -> Json:
    return {"id": ident, "player": player, "kind": "trooper", "base": base,
            "silhouette": silhouette, "mov": list(mov), "centre": [x, y], "level": level,
            "prone": prone}


def marker(ident: str, x: float, y: float, *, player: str = "blue", base: float = 25.0,
           silhouette: int | None = None, level: float = 0.0) -> Json:
    """A marker (camouflage, a deployable): Silhouette 2 unless given."""
    out: Json = {"id": ident, "player": player, "kind": "marker", "base": base,
                 "centre": [x, y], "level": level}
    if silhouette is not None:
        out["silhouette"] = silhouette
    return out


def rect(ident: str, x0: float, y0: float, x1: float, y1: float, height: float, *,
         kind: str = "building", level: float = 0.0) -> Json:
    return {"id": ident, "kind": kind, "polygon": [[x0, y0], [x1, y0], [x1, y1], [x0, y1]],
            "height": height, "level": level}


def ladder(ident: str, start: tuple[float, float, float], end: tuple[float, float, float],
           kind: str = "ladder") -> Json:
    return {"id": ident, "kind": kind, "from": list(start), "to": list(end)}


def walk(*points: tuple[float, float, float], mid: tuple[float, float, float] | None = None,
         unit: str = "fusilier", prone: bool | None = None) -> Json:
    """A declared route through `points` (from the fusilier's spot unless given)."""
    path = [list(p) for p in points]
    out: Json = {"unit": unit, "skill": "move" if mid is None else "move_move", "path": path}
    if mid is not None:
        out["midpoint"] = list(mid)
    if prone is not None:
        out["prone"] = prone
    return out


def skill(name: str, *points: tuple[float, float, float], unit: str = "fusilier",
          prone: bool | None = None) -> Json:
    """A declared Dodge, Jump or Climb through `points`."""
    out: Json = {"unit": unit, "skill": name, "path": [list(p) for p in points]}
    if prone is not None:
        out["prone"] = prone
    return out
