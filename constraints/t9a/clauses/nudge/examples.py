"""Scenes for the nudge clauses' rule examples, on 1" bases so the geometry is exact.

`line()` is a unit "u" (red) of 5 files x 1 rank at (36, 10) facing +y: its front edge runs
from (33.5, 10.5) to (38.5, 10.5).  `foe(dx)` is a blue 5 x 1 unit facing it, its front on
y = 10.5 and shifted `dx` to the right, so `foe(5)` touches u's front corner to corner.
"""

from __future__ import annotations

from typing import Any

from constraints.t9a.examples import field, unit, wall

Json = dict[str, Any]


def line(uid: str = "u", x: float = 36.0, **extra: Any) -> Json:
    return unit(uid, models=5, files=5, centre=(x, 10.0), **extra)


def foe(dx: float, uid: str = "e", dy: float = 0.0) -> Json:
    return unit(uid, models=5, files=5, centre=(36.0 + dx, 11.0 + dy), facing=270.0,
                player="blue")


def scene(*units: Json, terrain: tuple[Json, ...] = ()) -> Json:
    return field(*units, terrain=terrain)


def block(x0: float, y0: float, x1: float, y1: float) -> Json:
    return wall("rock", x0, y0, x1, y1)
