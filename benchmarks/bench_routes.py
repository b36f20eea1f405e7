"""Infinity route queries against extremitypathfinder, and reachable areas against routes.

Flat maps (`infinity_maps.flat_town`): one free space, the same grown polygons given to
both (the table shrunk by the base's radius, the pieces grown by it with shapely's round
buffer, `quad_segs` 2), random start and goal pairs in it.  Ours: `PathFinder.around`, one
`lengths_from` per query (a new source each time, so no remembered Dijkstra helps); theirs:
`extremitypathfinder.PolygonEnvironment` 2.1.0 (`benchmarks/epf_baseline.py`).  Reported:
preparation and median query times, their ratio, and the largest length difference.  Each
pair lies in one connected part of the free space (`pairs`).

Town maps (`infinity_maps.ruined_town`, with levels, ladders and troopers): whole
`shortest_route` queries (both free spaces, the bound, the exact re-check), the first query
per trooper (preparation) apart, and `reachable_area` of the first trooper in units of the
median query (the target: at most 20).

Skills (`--skills`, on the town maps): every skill's `shortest_route` (Move, Move + Move,
Dodge, Jump, Climb) and the chosen skill (`route_to`) on the same targets, on free ground
and on roofs near the trooper, median times beside the Move's (the baseline, same run);
then each skill's `reachable_area` of the first trooper, in Move areas.

    .venv/bin/pip install -e '.[bench]'
    .venv/bin/python benchmarks/bench_routes.py            # 30, 60, 100 pieces; ~3 min
    .venv/bin/python benchmarks/bench_routes.py --quick    # 30 pieces
    .venv/bin/python benchmarks/bench_routes.py --sizes 30,200 --queries 40 --json out.json
    .venv/bin/python benchmarks/bench_routes.py --skills --no-epf --sizes 30,60   # skills only
    .venv/bin/python benchmarks/bench_routes.py --exposure --no-epf --queries 8  # + exposure

Exposure (`--exposure`, on the town maps with their red troopers replaced by 5 red S2s facing
random ways, `infinity_queries.with_enemies`): up to 8 legal shortest Move + Move routes of blue
troopers per map; the exposure's time beside the route query's (same run), the safest
route's (`--time-limit` each), and the enemies able to ARO and the exposed length of the
shortest against the safest.
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np
import shapely
from shapely.ops import nearest_points

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks import epf_baseline  # noqa: E402
from benchmarks.infinity_maps import flat_town, ruined_town  # noqa: E402
from benchmarks.infinity_queries import queries, with_enemies  # noqa: E402
from constraints.core.scenario_io import scenario_from_json  # noqa: E402
from constraints.geometry.paths import PathFinder  # noqa: E402
from constraints.infinity.surfaces import table_of  # noqa: E402
from optimizer.routes import reachable_area, route_to, shortest_route  # noqa: E402
from optimizer.routes.safest import safest_route  # noqa: E402
from optimizer.routes.sight import route_exposure  # noqa: E402

SKILLS = ("move", "move_move", "dodge", "jump", "climb")

RADIUS_IN = 25 / 25.4 / 2
QUAD_SEGS = 2
FRAME_IN = 10.0


def grown_polygons(data: dict[str, Any]) -> tuple[shapely.Geometry, list[shapely.Geometry]]:
    """The free space's outline (table shrunk by r) and the pieces grown by r."""
    scenario = scenario_from_json(data)
    table = table_of(scenario)
    holes = [shapely.Polygon(t["polygon"]).buffer(RADIUS_IN, quad_segs=QUAD_SEGS)
             for t in data["terrain"]]
    return table.buffer(-RADIUS_IN, join_style="mitre"), holes


def pairs(free: shapely.Geometry, n: int, seed: int) -> np.ndarray:
    """n (start, goal) pairs in one connected part of the free space each: a crowded town
    falls apart into dozens of parts, and a query across two is answered by either side
    without a search (extremitypathfinder by its part lookup, ours by Dijkstra)."""
    rng = np.random.default_rng(seed)
    parts = [p for p in getattr(free, "geoms", [free]) if p.area > 1.0]
    weights = np.asarray([p.area for p in parts]) / sum(p.area for p in parts)
    found: list[np.ndarray] = []
    while len(found) < n:
        part = parts[int(rng.choice(len(parts), p=weights))]
        minx, miny, maxx, maxy = part.bounds
        two = rng.uniform((minx, miny), (maxx, maxy), (2, 2))
        if all(part.contains(shapely.Point(q)) for q in two):
            found.append(two)
    return np.asarray(found)


def flat_case(n_pieces: int, n_queries: int, seed: int) -> dict[str, Any]:
    data = flat_town(n_pieces, seed)
    boundary, holes = grown_polygons(data)
    t0 = time.perf_counter()
    frame = shapely.box(-FRAME_IN, -FRAME_IN, 48 + FRAME_IN, 48 + FRAME_IN).difference(boundary)
    finder = PathFinder.around(shapely.union_all([frame, *holes]))
    ours_prep = time.perf_counter() - t0
    t0 = time.perf_counter()
    env = epf_baseline.prepare(boundary, holes)
    theirs_prep = time.perf_counter() - t0
    free = boundary.difference(shapely.union_all(holes))
    ours_t, theirs_t, worst, matched = [], [], 0.0, 0
    for a, b in pairs(free, n_queries, seed + 1):
        t0 = time.perf_counter()
        ours = float(finder.lengths_from(tuple(a), b[None])[0])
        ours_t.append(time.perf_counter() - t0)
        t0 = time.perf_counter()
        theirs, _ = epf_baseline.shortest(env, tuple(a), tuple(b))
        theirs_t.append(time.perf_counter() - t0)
        if math.isfinite(ours) or math.isfinite(theirs):
            worst = max(worst, abs(ours - theirs))
        matched += abs(ours - theirs) <= 1e-6 or ours == theirs
    return {"pieces": n_pieces, "vertices": env.vertices, "queries": n_queries,
            "ours_prepare_s": ours_prep, "epf_prepare_s": theirs_prep,
            "ours_query_ms": 1e3 * statistics.median(ours_t),
            "epf_query_ms": 1e3 * statistics.median(theirs_t),
            "same_length": matched, "worst_diff_in": worst}


def town_case(n_pieces: int, n_queries: int, seed: int) -> dict[str, Any]:
    data = ruined_town(n_pieces, seed)
    scenario = scenario_from_json(data)
    t0 = time.perf_counter()
    for unit in data["units"]:  # preparation: each trooper's free spaces, built on first use
        shortest_route(scenario, unit["id"], (*unit["centre"], unit["level"]))
    prep = time.perf_counter() - t0
    times, statuses = [], {}
    for unit, target in queries(data, n_queries, seed + 2):
        t0 = time.perf_counter()
        result = shortest_route(scenario, unit, target, "move_move")
        times.append(time.perf_counter() - t0)
        statuses[str(result.status)] = statuses.get(str(result.status), 0) + 1
    first = data["units"][0]["id"]
    t0 = time.perf_counter()
    area = reachable_area(scenario, first)
    area_s = time.perf_counter() - t0
    median = statistics.median(times)
    return {"pieces": n_pieces, "queries": n_queries, "prepare_s": prep,
            "query_ms": 1e3 * median, "statuses": statuses, "area_ms": 1e3 * area_s,
            "area_in_queries": area_s / median, "area_in2": area.area_in2,
            "outer_area_in2": area.outer_area_in2}


def roof_targets(data: dict[str, Any], n: int, seed: int) -> list[tuple[str, tuple[float, ...]]]:
    """`n` (trooper, spot on a roof) targets: one of the three roofs nearest a random
    trooper (a Jump's or a Climb's query), a spot at least the base's radius inside its
    edge within 1 in of its point nearest the trooper."""
    rng = np.random.default_rng(seed)
    roofs = [t for t in data["terrain"] if t["kind"] == "building"]
    troopers = [u for u in data["units"] if u["kind"] == "trooper"]
    out: list[tuple[str, tuple[float, ...]]] = []
    while len(out) < n and roofs:
        u = troopers[int(rng.integers(len(troopers)))]
        near = sorted(roofs, key=lambda t: shapely.Polygon(t["polygon"]).distance(
            shapely.Point(u["centre"])))[int(rng.integers(min(3, len(roofs))))]
        inner = shapely.Polygon(near["polygon"]).buffer(-u["base"] / 25.4 / 2)
        if inner.is_empty:
            continue
        # Near the roof's point nearest the trooper: within reach of a Jump, often.
        spot = inner.intersection(shapely.Point(nearest_points(inner, shapely.Point(
            u["centre"]))[0]).buffer(1.0)).representative_point()
        if not spot.is_empty:
            out.append((u["id"], (spot.x, spot.y, near.get("level", 0.0) + near["height"])))
    return out


def skills_case(n_pieces: int, n_queries: int, seed: int) -> dict[str, Any]:
    data = ruined_town(n_pieces, seed)
    scenario = scenario_from_json(data)
    for unit in data["units"]:  # preparation, as in town_case
        shortest_route(scenario, unit["id"], (*unit["centre"], unit["level"]))
    targets = {"ground": queries(data, n_queries, seed + 2),
               "roof": roof_targets(data, n_queries, seed + 3)}
    out: dict[str, Any] = {"pieces": n_pieces, "queries": n_queries, "skills": {}}
    for skill in (*SKILLS, "auto"):
        row: dict[str, Any] = {}
        for where, found in targets.items():
            times, statuses, legal = [], {}, 0
            for unit, target in found:
                t0 = time.perf_counter()
                result = route_to(scenario, unit, target) if skill == "auto" else \
                    shortest_route(scenario, unit, target, skill)
                times.append(time.perf_counter() - t0)
                statuses[str(result.status)] = statuses.get(str(result.status), 0) + 1
                legal += result.legal
            row[where] = {"query_ms": 1e3 * statistics.median(times), "statuses": statuses,
                          "legal": legal}
        out["skills"][skill] = row
    first = data["units"][0]["id"]
    areas = {}
    for skill in ("move", "dodge", "jump", "climb"):
        t0 = time.perf_counter()
        area = reachable_area(scenario, first, skill=skill)
        areas[skill] = {"ms": 1e3 * (time.perf_counter() - t0), "area_in2": area.area_in2,
                        "outer_area_in2": area.outer_area_in2}
    out["areas"] = areas
    return out


def exposure_case(n_pieces: int, n_queries: int, seed: int,
                  time_limit: float) -> dict[str, Any]:
    """The town with 5 enemies: the shortest Move + Move's exposure (its time against the
    route query's, same run), then the safest route (`time_limit` each) and what it saves."""
    data = with_enemies(ruined_town(n_pieces, seed), 5, seed + 7)
    scenario = scenario_from_json(data)
    blue = [u["id"] for u in data["units"] if u["player"] == "blue"]
    for unit in blue:  # preparation, as in town_case
        shortest_route(scenario, unit, (*scenario.unit(unit).centre, 0.0))
    rows = []
    for unit, target in queries(data, 4 * n_queries, seed + 5):
        if unit not in blue or len(rows) == n_queries:
            continue
        t0 = time.perf_counter()
        shortest = shortest_route(scenario, unit, target, "move_move")
        route_s = time.perf_counter() - t0
        if not shortest.legal:
            continue
        t0 = time.perf_counter()
        before = route_exposure(scenario, shortest.route())
        exposure_s = time.perf_counter() - t0
        t0 = time.perf_counter()
        _, after = safest_route(scenario, unit, target, "move_move", time_limit_s=time_limit)
        safest_s = time.perf_counter() - t0
        assert after is not None and after.key() <= before.key()
        rows.append({"route_ms": 1e3 * route_s, "exposure_ms": 1e3 * exposure_s,
                     "safest_s": safest_s, "length_in": before.length_in,
                     "aro_shortest": len(before.aro_by), "aro_safest": len(after.aro_by),
                     "exposed_shortest_in": before.exposed_in,
                     "exposed_safest_in": after.exposed_in,
                     "safest_length_in": after.length_in})
    return {"pieces": n_pieces, "enemies": 5, "routes": len(rows), "rows": rows}


def print_exposure(r: dict[str, Any]) -> None:
    rows = r["rows"]
    if not rows:
        print(f"exposure {r['pieces']} pieces: no legal route among the targets")
        return
    med = {k: statistics.median(x[k] for x in rows) for k in rows[0]}
    print(f"exposure {r['pieces']} pieces, 5 enemies, {len(rows)} legal Move + Move routes: "
          f"route {med['route_ms']:.0f} ms, exposure {med['exposure_ms']:.0f} ms "
          f"({med['exposure_ms'] / med['route_ms']:.1f}x the route), safest "
          f"{med['safest_s']:.1f} s (medians)")
    print(f"  enemies able to ARO, shortest -> safest: "
          f"{sum(x['aro_shortest'] for x in rows)} -> {sum(x['aro_safest'] for x in rows)}; "
          f"exposed length {sum(x['exposed_shortest_in'] for x in rows):.1f} -> "
          f"{sum(x['exposed_safest_in'] for x in rows):.1f} in; route length "
          f"{sum(x['length_in'] for x in rows):.1f} -> "
          f"{sum(x['safest_length_in'] for x in rows):.1f} in (sums)")


def print_skills(r: dict[str, Any]) -> None:
    base = {w: r["skills"]["move"][w]["query_ms"] for w in ("ground", "roof")}
    print(f"skills {r['pieces']} pieces, {r['queries']} targets on the ground and on roofs")
    print("  skill      | ground ms (x Move) legal | roof ms (x Move) legal | statuses (roof)")
    for skill, row in r["skills"].items():
        g, f = row["ground"], row["roof"]
        print(f"  {skill:10s} | {g['query_ms']:7.2f} ({g['query_ms'] / base['ground']:4.1f}) "
              f"{g['legal']:3d} | {f['query_ms']:7.2f} ({f['query_ms'] / base['roof']:4.1f}) "
              f"{f['legal']:3d} | {f['statuses']}")
    move = r["areas"]["move"]["ms"]
    print("  reachable area ms (x Move's): " + ", ".join(
        f"{k} {v['ms']:.1f} ({v['ms'] / move:.2f})" for k, v in r["areas"].items()))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="30,60,100", help="pieces per map, comma separated")
    parser.add_argument("--queries", type=int, default=30)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--quick", action="store_true", help="30 pieces, 10 queries")
    parser.add_argument("--no-epf", action="store_true", help="skip extremitypathfinder")
    parser.add_argument("--skills", action="store_true",
                        help="also time every skill's queries beside the Move's")
    parser.add_argument("--exposure", action="store_true",
                        help="also the exposure and the safest route with 5 enemies")
    parser.add_argument("--time-limit", type=float, default=10.0,
                        help="each safest-route search's time limit (s)")
    parser.add_argument("--json", metavar="FILE")
    args = parser.parse_args()
    sizes = [30] if args.quick else [int(s) for s in args.sizes.split(",")]
    n_queries = 10 if args.quick else args.queries
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True,
                            text=True, check=False).stdout.strip()
    print(f"commit {commit}; {n_queries} queries per map; seed {args.seed}")
    out: dict[str, Any] = {"commit": commit, "flat": [], "town": []}
    if not args.no_epf:
        print("flat  pieces vertices | prepare ours / epf (s) | query ours / epf (ms) ratio "
              "| same length  worst diff")
        for n in sizes:
            r = flat_case(n, n_queries, args.seed)
            out["flat"].append(r)
            print(f"      {n:6d} {r['vertices']:8d} | {r['ours_prepare_s']:6.3f} / "
                  f"{r['epf_prepare_s']:7.2f} | {r['ours_query_ms']:6.2f} / "
                  f"{r['epf_query_ms']:7.2f} {r['epf_query_ms'] / r['ours_query_ms']:6.1f}x"
                  f" | {r['same_length']:3d}/{n_queries}  {r['worst_diff_in']:.1e}")
    print("town  pieces | prepare (s) | route query median (ms) | reachable area (ms, in "
          "queries) | statuses")
    for n in sizes:
        r = town_case(n, n_queries, args.seed)
        out["town"].append(r)
        print(f"      {n:6d} | {r['prepare_s']:7.2f} | {r['query_ms']:8.2f} | "
              f"{r['area_ms']:8.1f} ({r['area_in_queries']:4.1f}) | {r['statuses']}")
    if args.skills:
        out["skills"] = []
        for n in sizes:
            r = skills_case(n, n_queries, args.seed)
            out["skills"].append(r)
            print_skills(r)
    if args.exposure:
        out["exposure"] = []
        for n in sizes:
            r = exposure_case(n, min(n_queries, 8), args.seed, args.time_limit)
            out["exposure"].append(r)
            print_exposure(r)
    if args.json:
        Path(args.json).write_text(json.dumps(out, indent=2) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
