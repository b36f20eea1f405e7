"""Builders for small scenarios in tests: units on 1" (25.4 mm) bases keep geometry exact."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from constraints.core.scenario import Battlefield, Pose, Scenario, Terrain
from constraints.rank_and_file.formation import Formation
from constraints.rank_and_file.unit import Base, Unit

ROOT = Path(__file__).resolve().parent.parent  # the project folder
SCENARIOS = ROOT / "benchmarks" / "scenarios"
INCH_BASE = Base(25.4, 25.4)


def unit(uid: str = "u", *, models: int = 10, files: int = 5, centre=(36.0, 10.0),
         facing: float = 90.0, mobility: float = 4.0, base: Base = INCH_BASE,
         player: str = "red", **kw) -> Unit:
    formation = Formation(files, models, kw.pop("characters", ()), kw.pop("empty", ()))
    return Unit(uid, player, base, formation, Pose(tuple(centre), facing), mobility, **kw)


def wall(tid: str, x0: float, y0: float, x1: float, y1: float,
         kind: str = "impassable") -> Terrain:
    return Terrain(tid, kind, ((x0, y0), (x1, y0), (x1, y1), (x0, y1)))


def scenario(*units: Unit, terrain: tuple[Terrain, ...] = (), rules: str = "t9a",
             width: float = 72.0, depth: float = 48.0, **options) -> Scenario:
    return Scenario(Battlefield(width, depth), units, terrain, rules, tuple(options.items()))


def moved(u: Unit, **changes) -> Unit:
    return replace(u, **changes)
