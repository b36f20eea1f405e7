"""Scenes for the Combat Reform clauses' rule examples, on 1" bases so the geometry is exact.

`line()` is the reforming unit "u" (red): 5 files x 2 ranks at (36, 10) facing +y, Mobility 4
(March Rate 8"), its front edge from (33.5, 11) to (38.5, 11); its file 0 is on the left
(x = 34).  `foe(dx)` is a blue unit facing it, one rank deep by default, its front on y = 11
and its centre `dx` to the right of u's; a unit facing -y has its file 0 on the right (at the
largest x).  `foe(0)` stands exactly opposite u: each of u's front models touches the model
facing it along their edges and its neighbours at a corner.
"""

from __future__ import annotations

import math
from typing import Any

from constraints.t9a.examples import field, unit, wall

Json = dict[str, Any]


def line(uid: str = "u", *, models: int = 10, files: int = 5, x: float = 36.0,
         y: float = 10.0, **extra: Any) -> Json:
    return unit(uid, models=models, files=files, centre=(x, y), **extra)


def foe(dx: float = 0.0, uid: str = "e", *, files: int = 5, models: int | None = None,
        player: str = "blue", **extra: Any) -> Json:
    """A unit facing u, its front on y = 11 (one rank per `files` models)."""
    count = files if models is None else models
    ranks = math.ceil((count + len(extra.get("characters", ()))) / files)
    return unit(uid, models=count, files=files, centre=(36.0 + dx, 11.0 + ranks / 2.0),
                facing=270.0, player=player, **extra)


def flanker(uid: str = "g", *, player: str = "blue") -> Json:
    """Two models facing -x, their front against u's right flank (x = 38.5, y 9 to 11)."""
    return unit(uid, models=2, files=2, centre=(39.0, 10.0), facing=180.0, player=player)


def scene(*units: Json, rules: str = "t9a", terrain: tuple[Json, ...] = ()) -> Json:
    return field(*units, terrain=terrain, rules=rules)


def block(tid: str, x0: float, y0: float, x1: float, y1: float) -> Json:
    return wall(tid, x0, y0, x1, y1)


def reform(uid: str = "u", *, files: int = 5, x: float = 36.0, y: float = 10.0,
           facing: float = 90.0, models: tuple[Json, ...] = ()) -> Json:
    """A proposal entry: u by default exactly where it stands."""
    return {"unit": uid, "files": files, "centre": [x, y], "facing": facing,
            "models": list(models)}


def at(model: str, rank: int, file: int) -> Json:
    return {"id": model, "slot": [rank, file]}


def tilted(angle_deg: float, *, files: int = 5, ranks: int = 2, x: float = 36.0) -> Json:
    """u turned `angle_deg` to the left, its highest corner (front-right) on y = 11: it
    touches a foe's front at that single point."""
    a = math.radians(angle_deg)
    y = 11.0 - math.cos(a) * ranks / 2.0 - math.sin(a) * files / 2.0
    return reform(files=files, x=x, y=y, facing=90.0 + angle_deg)
