"""Requests about the seeded Infinity towns of benchmarks/infinity_maps.py: `queries(scenario, n,
seed)`, (trooper id, (x, y, 0.0)) targets where the trooper's base fits on free ground, by
default only where it can walk on the ground (`ground_region`); `surface(scenario, level)`,
the walkable surface at a height, as shapely geometry; `with_enemies`, a town whose troopers
face enemies."""

from __future__ import annotations

import math
import random
from typing import Any

import shapely
from shapely.geometry import Point, Polygon, box
from shapely.geometry.base import BaseGeometry

from benchmarks.infinity_maps import (
    MM_PER_INCH,
    TRIES,
    free_spot,
)


def _table(scenario: dict[str, Any]) -> Polygon:
    return box(0.0, 0.0, scenario["battlefield"]["width"], scenario["battlefield"]["depth"])


def footprints(scenario: dict[str, Any], level: float | None = None) -> list[Polygon]:
    """Footprints of the buildings and obstacles (standing at `level` if given)."""
    return [Polygon(p["polygon"]) for p in scenario["terrain"] if "polygon" in p
            and (level is None or math.isclose(p.get("level", 0.0), level, abs_tol=1e-6))]


def surface(scenario: dict[str, Any], level: float) -> BaseGeometry:
    """Where a base can stand at `level`: the table (level 0) or the roofs topping out at
    `level`, minus the footprints of the pieces standing on it."""
    under: BaseGeometry = _table(scenario)
    if not math.isclose(level, 0.0, abs_tol=1e-6):
        under = shapely.union_all([Polygon(p["polygon"]) for p in scenario["terrain"]
                                   if p["kind"] == "building" and math.isclose(
                                       p.get("level", 0.0) + p["height"], level, abs_tol=1e-6)])
    on = footprints(scenario, level)
    return under.difference(shapely.union_all(on)) if on else under


def ground_region(scenario: dict[str, Any], unit: dict[str, Any]) -> BaseGeometry:
    """The centres the trooper can reach on the ground alone: the part of (table shrunk and
    ground footprints grown by its base radius + 0.005") holding its centre.  The polygonised
    round corners lie less than 0.0005" inside the true ones, so this is a subset of the truly
    reachable centres: a gap joins it only if it is 0.009" or more wider than the base."""
    radius = unit["base"] / 2 / MM_PER_INCH + 0.005
    free = _table(scenario).buffer(-radius, join_style="mitre")
    grown = [p.buffer(radius, quad_segs=32) for p in footprints(scenario, 0.0)]
    if grown:
        free = free.difference(shapely.union_all(grown))
    centre = Point(unit["centre"])
    parts = getattr(free, "geoms", [free])
    part = min(parts, key=lambda g: g.distance(centre))
    shapely.prepare(part)
    return part


def queries(scenario: dict[str, Any], n: int, seed: int,
            reachable: bool = True) -> list[tuple[str, tuple[float, float, float]]]:
    """`n` (trooper id, (x, y, 0.0)) targets: the trooper's base fits there on free ground, off
    the other troopers' bases; about half within the trooper's two MOV values of it.  With
    `reachable`, only in its `ground_region` (so a route on the ground exists, if the other
    troopers are ignored); otherwise anywhere, often cut off on a crowded table."""
    rng, table = random.Random(seed), _table(scenario)
    blocked: list[BaseGeometry] = list(footprints(scenario, 0.0))
    troopers = [u for u in scenario["units"] if u["kind"] == "trooper"]
    regions = {u["id"]: ground_region(scenario, u) for u in troopers} if reachable else {}
    out: list[tuple[str, tuple[float, float, float]]] = []
    for _ in range(n):
        u = rng.choice(troopers)
        radius = u["base"] / 2 / MM_PER_INCH
        others = [(*v["centre"], v["base"] / 2 / MM_PER_INCH) for v in troopers
                  if v["id"] != u["id"]]
        near = (*u["centre"], float(sum(u["mov"]))) if rng.random() < 0.5 else None
        x, y = free_spot(rng, table, blocked, others, radius, near, regions.get(u["id"]))
        out.append((u["id"], (x, y, 0.0)))
    return out


def with_enemies(scenario: dict[str, Any], n: int, seed: int) -> dict[str, Any]:
    """The town with its red troopers replaced by `n` red S2 troopers on free ground, each
    facing a random way (so some face away), for Line of Fire and exposure benchmarks."""
    rng = random.Random(seed)
    out = {**scenario, "units": [u for u in scenario["units"] if u["player"] != "red"]}
    radius = 25 / 2 / MM_PER_INCH
    free = surface(scenario, 0.0).buffer(-radius)
    bases = [Point(u["centre"]).buffer(u["base"] / 2 / MM_PER_INCH + radius + 0.1)
             for u in out["units"]]
    x0, y0, x1, y1 = free.bounds
    added = 0
    for _ in range(TRIES * n):
        if added == n:
            break
        p = Point(round(rng.uniform(x0, x1), 2), round(rng.uniform(y0, y1), 2))
        if not free.contains(p) or any(b.contains(p) for b in bases):
            continue
        added += 1
        out["units"].append({"id": f"red{added}", "player": "red", "kind": "trooper",
                             "base": 25.0, "silhouette": 2, "mov": [4, 4],
                             "centre": [p.x, p.y], "level": 0.0, "prone": False,
                             "facing": round(rng.uniform(0, 360), 1)})
        bases.append(p.buffer(2 * radius + 0.1))
    return out
