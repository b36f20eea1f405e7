"""Baseline for route queries: extremitypathfinder 2.1.0 (pure-Python visibility graph, MIT).

It is not a dependency of manoeuvre: install it in a separate venv and run this file there,
either on its own (a hand-checked demo) or as a subprocess worker for the benchmark:

    python3 -m venv /tmp/epfv
    /tmp/epfv/bin/pip install numpy==2.4.6 shapely==2.2.0 extremitypathfinder==2.1.0
    /tmp/epfv/bin/python benchmarks/epf_baseline.py                      # demo
    /tmp/epfv/bin/python benchmarks/epf_baseline.py --worker IN.json OUT.json

IN.json: {"boundary": [[x, y], ...], "holes": [[[x, y], ...], ...],
          "queries": [[sx, sy, gx, gy], ...], "repeats": k}
OUT.json: {"prepare_s": s, "epf_prepare_s": s, "query_s": [median of k per query],
           "lengths": [length or null], "errors": [message or null], "vertices": n,
           "components": m}

`prepare(boundary, holes)` takes the free space as the table outline and the obstacles already
grown by the trooper's radius (shapely polygons or coordinate lists, any orientation, closed
or not).  extremitypathfinder 2.1.0 wants one simple boundary ring counter-clockwise and
simple hole rings clockwise, without the closing point or repeated consecutive points; it
lets a path run between two holes that share an edge, so the holes are merged first: the
free space is `boundary - union(holes)` (shapely), and each connected component gets its own
`PolygonEnvironment` (exterior + interior rings).  `shortest(env, start, goal)` finds the
start's component with shapely and returns (length, path), (inf, []) when the goal is
elsewhere or unreachable; a start or goal off the free space raises ValueError.  Only this
module's functions import extremitypathfinder, so it imports without it.
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
import sys
import time
from dataclasses import dataclass, field
from typing import Any

import shapely
from shapely.geometry import Point, Polygon

XY = tuple[float, float]
TOL = 1e-9  # points closer than this are one point; a query this close to free space is in it


@dataclass
class Env:
    """One extremitypathfinder environment per connected component of the free space."""

    parts: list[tuple[Polygon, Any]] = field(default_factory=list)
    vertices: int = 0
    normalise_s: float = 0.0
    epf_prepare_s: float = 0.0


def _polygon(geom: Any) -> list[Polygon]:
    if hasattr(geom, "geoms"):
        return [p for g in geom.geoms for p in _polygon(g)]
    if isinstance(geom, Polygon):
        return [geom]
    return [Polygon(geom)]


def _ring(coords: Any, ccw: bool) -> list[XY]:
    """Open ring, no repeated consecutive points, counter-clockwise if `ccw` else clockwise."""
    pts: list[XY] = []
    for x, y in coords:
        p = (float(x), float(y))
        if not pts or math.dist(p, pts[-1]) > TOL:
            pts.append(p)
    while len(pts) > 1 and math.dist(pts[0], pts[-1]) <= TOL:
        pts.pop()
    area2 = sum(x0 * y1 - x1 * y0
                for (x0, y0), (x1, y1) in zip(pts, pts[1:] + pts[:1], strict=True))
    return pts if (area2 > 0) == ccw else pts[::-1]


def free_space(boundary: Any, holes: list[Any]) -> list[Polygon]:
    """The connected components of `boundary` minus the union of `holes`."""
    outer = shapely.union_all(_polygon(boundary))
    blocked = [p for h in holes for p in _polygon(h)]
    free = outer.difference(shapely.union_all(blocked)) if blocked else outer
    return [p for p in _polygon(free) if p.area > TOL]


def prepare(boundary: Any, holes: list[Any]) -> Env:
    """Build and prepare the extremitypathfinder environments of the free space."""
    from extremitypathfinder import PolygonEnvironment

    t0 = time.perf_counter()
    parts = free_space(boundary, holes)
    rings = [(_ring(p.exterior.coords, True), [_ring(i.coords, False) for i in p.interiors])
             for p in parts]
    env = Env(normalise_s=time.perf_counter() - t0)
    t1 = time.perf_counter()
    for part, (outer, inner) in zip(parts, rings, strict=True):
        epf = PolygonEnvironment()
        epf.store(outer, [r for r in inner if len(r) >= 3], validate=False)
        epf.prepare()
        env.parts.append((part, epf))
        env.vertices += len(outer) + sum(len(r) for r in inner)
    env.epf_prepare_s = time.perf_counter() - t1
    return env


def _component(env: Env, p: XY) -> int:
    pt = Point(p)
    for k, (part, _) in enumerate(env.parts):
        if part.distance(pt) <= TOL:
            return k
    raise ValueError(f"{p} is not in the free space")


def shortest(env: Env, start: XY, goal: XY) -> tuple[float, list[XY]]:
    """Shortest path length and points from start to goal; (inf, []) when there is none."""
    s = (float(start[0]), float(start[1]))
    g = (float(goal[0]), float(goal[1]))
    k = _component(env, s)
    if _component(env, g) != k:
        return math.inf, []
    # verify=False: the point location above is ours (2.1.0's own test is a Python loop
    # over every hole and rejects nothing we accept); tuples, since it compares start == goal.
    path, length = env.parts[k][1].find_shortest_path(s, g, verify=False)
    if length is None:
        return math.inf, []
    return float(length), [(float(x), float(y)) for x, y in path]


def run_worker(src: str, dst: str) -> None:
    with open(src) as f:
        data = json.load(f)
    t0 = time.perf_counter()
    env = prepare(data["boundary"], data["holes"])
    out: dict[str, Any] = {"prepare_s": time.perf_counter() - t0,
                           "epf_prepare_s": env.epf_prepare_s, "query_s": [], "lengths": [],
                           "errors": [], "vertices": env.vertices, "components": len(env.parts)}
    for sx, sy, gx, gy in data["queries"]:
        times, length, error = [], None, None
        for _ in range(max(1, int(data.get("repeats", 1)))):
            t = time.perf_counter()
            try:
                found, _path = shortest(env, (sx, sy), (gx, gy))
                length = found if math.isfinite(found) else None
            except ValueError as exc:
                error = str(exc)
            times.append(time.perf_counter() - t)
        out["query_s"].append(statistics.median(times))
        out["lengths"].append(length)
        out["errors"].append(error)
    with open(dst, "w") as f:
        json.dump(out, f)


def _square(x0: float, y0: float, x1: float, y1: float) -> list[XY]:
    return [(x0, y0), (x1, y0), (x1, y1), (x0, y1)]


def demo() -> None:
    """Hand-checked: a 10 x 10 table, a 2 x 6 block [4, 6] x [2, 8] between (2, 5) and (8, 5).
    Around a corner: (2, 5) -> (4, 8) -> (6, 8) -> (8, 5) (or the mirror through y = 2),
    2 * sqrt(2^2 + 3^2) + 2 = 9.2111.  The same block as two squares touching along y = 5
    (raw 2.1.0 walks between them: 6.0) must give the same; a wall across the table: none."""
    table = _square(0, 0, 10, 10)
    expected = 2 * math.sqrt(13) + 2
    cases = [("one block", [_square(4, 2, 6, 8)], expected),
             ("two touching blocks", [_square(4, 2, 6, 5), _square(4, 5, 6, 8)], expected),
             ("wall across the table", [_square(4, -1, 6, 11)], math.inf)]
    for name, holes, want in cases:
        length, path = shortest(prepare(table, holes), (2, 5), (8, 5))
        ok = length == want or math.isclose(length, want, rel_tol=1e-12)
        print(f"{name}: length {length:.4f} (by hand {want:.4f}) {'ok' if ok else 'WRONG'}"
              f" path {[(round(x, 3), round(y, 3)) for x, y in path]}")
        if not ok:
            raise SystemExit(1)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--worker", nargs=2, metavar=("IN_JSON", "OUT_JSON"))
    args = parser.parse_args(argv)
    if args.worker:
        run_worker(*args.worker)
    else:
        demo()


if __name__ == "__main__":
    main(sys.argv[1:])
