"""Builders for the rule-example tables of whfb7 clauses (`Clause.examples`): scenario and
move JSON (docs/formats.md) in a line each.  Units stand on 1" (25.4 mm) bases unless an
example says otherwise, so geometry is exact: the default unit is 5 files x 2 ranks (5" x 2"),
Move 4, centred at (36, 10) facing +y, so its front edge runs from (33.5, 11) to (38.5, 11)."""

from __future__ import annotations

from typing import Any

INCH = (25.4, 25.4)
Json = dict[str, Any]


def unit(uid: str = "u", *, models: int = 10, files: int = 5,
         centre: tuple[float, float] = (36.0, 10.0), facing: float = 90.0,
         movement: float = 4.0, base: tuple[float, float] = INCH, player: str = "red",
         **extra: Any) -> Json:
    return {"id": uid, "player": player, "base": list(base), "models": models, "files": files,
            "centre": list(centre), "facing": facing, "movement": movement, **extra}


def wall(tid: str, x0: float, y0: float, x1: float, y1: float,
         kind: str = "impassable") -> Json:
    return {"id": tid, "kind": kind, "polygon": [[x0, y0], [x1, y0], [x1, y1], [x0, y1]]}


def field(*units: Json, terrain: tuple[Json, ...] = (), width: float = 72.0,
          depth: float = 48.0, **options: Any) -> Json:
    return {"format": "manoeuvre/1", "rules": "whfb7", "rule_options": options,
            "battlefield": {"width": width, "depth": depth}, "terrain": list(terrain),
            "units": list(units) or [unit()]}


def fw(distance_in: float) -> Json:
    return {"forward": distance_in}


def wh(angle_deg: float) -> Json:
    return {"wheel": angle_deg}


def tn(angle_deg: float) -> Json:
    return {"turn": angle_deg}


def move(*steps: Json, uid: str = "u") -> Json:
    return {"unit": uid, "manoeuvre": "move", "steps": list(steps)}


def march(*steps: Json, uid: str = "u") -> Json:
    return {"unit": uid, "manoeuvre": "march", "steps": list(steps)}


def reform(files: int, facing: float, uid: str = "u", **extra: Any) -> Json:
    return {"unit": uid, "manoeuvre": "reform", "files": files, "facing": facing, **extra}
