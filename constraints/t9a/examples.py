"""Builders for the rule-example tables of T9A clauses (`Clause.examples`): scenario and
move JSON (docs/formats.md) in a line each.  Units stand on 1" (25.4 mm) bases by default, so
geometry is exact: the default unit is 5 files x 2 ranks (5" x 2"), Mobility 4, centred at
(36, 10) facing +y, so its front edge runs from (33.5, 11) to (38.5, 11)."""

from __future__ import annotations

import math
from typing import Any

INCH = (25.4, 25.4)
Json = dict[str, Any]


def unit(uid: str = "u", *, models: int = 10, files: int = 5,
         centre: tuple[float, float] = (36.0, 10.0), facing: float = 90.0,
         mobility: float = 4.0, base: tuple[float, float] = INCH, player: str = "red",
         **extra: Any) -> Json:
    return {"id": uid, "player": player, "base": list(base), "models": models, "files": files,
            "centre": list(centre), "facing": facing, "mobility": mobility, **extra}


def wall(tid: str, x0: float, y0: float, x1: float, y1: float,
         kind: str = "impassable") -> Json:
    return {"id": tid, "kind": kind, "polygon": [[x0, y0], [x1, y0], [x1, y1], [x0, y1]]}


def rock(tid: str, tip: tuple[float, float], apex_deg: float, pointing_deg: float,
         length: float = 2.0) -> Json:
    """Impassable terrain shaped as a triangle `apex_deg` wide at its tip, the tip at `tip`
    pointing towards `pointing_deg` (counter-clockwise from +x), `length` deep."""
    back = math.radians(pointing_deg + 180.0)
    half = length * math.tan(math.radians(apex_deg) / 2.0)
    bx, by = tip[0] + length * math.cos(back), tip[1] + length * math.sin(back)
    sx, sy = -math.sin(back) * half, math.cos(back) * half
    return {"id": tid, "kind": "impassable",
            "polygon": [list(tip), [bx + sx, by + sy], [bx - sx, by - sy]]}


def gap_wall(x: float, y0: float, y1: float, gap: float, reach: float = 30.0) -> tuple[Json, Json]:
    """An impassable wall from y0 to y1 across the table, `reach` either side of x, with a
    gap `gap` wide centred on x (two pieces)."""
    return (wall("wall-left", x - reach, y0, x - gap / 2.0, y1),
            wall("wall-right", x + gap / 2.0, y0, x + reach, y1))


def field(*units: Json, terrain: tuple[Json, ...] = (), rules: str = "t9a",
          width: float = 72.0, depth: float = 48.0, **options: Any) -> Json:
    return {"format": "manoeuvre/1", "rules": rules, "rule_options": options,
            "battlefield": {"width": width, "depth": depth}, "terrain": list(terrain),
            "units": list(units) or [unit()]}


def fw(distance_in: float) -> Json:
    return {"forward": distance_in}


def wh(angle_deg: float) -> Json:
    return {"wheel": angle_deg}


def march(*steps: Json, uid: str = "u", **extra: Any) -> Json:
    return {"unit": uid, "manoeuvre": "march", "steps": list(steps), **extra}


def advance(*steps: Json, pivot: float = 0.0, uid: str = "u", **extra: Any) -> Json:
    return {"unit": uid, "manoeuvre": "advance", "pivot": pivot, "steps": list(steps), **extra}


def reform(uid: str = "u", **end: Any) -> Json:
    """A Reform to `centre` (x, y), `facing` and `files`, where given."""
    out: Json = {"unit": uid, "manoeuvre": "reform"}
    out.update({k: list(v) if isinstance(v, tuple) else v for k, v in end.items()})
    return out
