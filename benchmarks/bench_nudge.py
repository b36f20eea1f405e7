"""Nudges after a round of combat (seed 001): `optimizer.nudge.resolve` against a baseline.

    .venv/bin/python benchmarks/bench_nudge.py [--quick] [--repeats N] [--json OUT]
                                               [--scenes NAME,...] [--profile NAME]

Scenes are generated here (1" bases, so every contact is exact): flank charges (an enemy in
the flank touching only the rear rank, which the casualties remove), lines of units front to
front whose single ranks shrink, and chains of two-against-two that casualties split, of 2 to
8 units.  Each is (scenario, losses).  Per scene, in this one process: the solver
(`resolve(scenario, losses)`, its order search and exact least nudges) and the baseline
(`nudge_baselines.exhaustive`: every order, a 0.05" grid of shifts per nudge), each
`--repeats` times (default 3; the baseline only once when its first run took more than
`LONG_S`).  The table: units, units to nudge, the baseline's orders, the solver's median / min
time, its least-nudge solves and status (OPTIMAL: the order is proved best), the baseline's
median time, the ratio baseline / solver, units in combat and the nudges' total |s| + |f|
(solver / baseline), and whether the solver is the same or better (more units in combat, or
as many and a total distance no longer, within `SAME_IN`).  `--quick` runs three small scenes
once.  The full run ends with the cProfile hot spots of the solver's slowest scene.
"""

from __future__ import annotations

import argparse
import cProfile
import datetime
import io
import json
import os
import platform
import pstats
import statistics
import subprocess
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from bench_args import choose
from nudge_baselines import exhaustive
from nudge_scenes import SCENES
from scene_checks import check_placed

import optimizer.nudge.least as least_module
import optimizer.nudge.order as order_module
from constraints.core.scenario import Scenario
from constraints.rank_and_file.combats import combats
from optimizer.nudge import Loss, resolve

SAME_IN = 1e-6       # distances this close are the same (bisection ends within 1e-14")
LONG_S = 60.0        # a baseline run longer than this is not repeated
QUICK = ("flank-2", "line-2", "flank-3")
ROOT = Path(__file__).resolve().parent.parent


def validate(scenario: Scenario) -> None:
    """Units on the table, overlapping neither each other nor impassable terrain."""
    check_placed(scenario)


# -- one scene -------------------------------------------------------------------------------

def _timed(run: Callable[[], Any], repeats: int, cap_s: float | None = None
           ) -> tuple[list[float], Any]:
    times, out = [], None
    for _ in range(repeats):
        started = time.perf_counter()
        out = run()
        times.append(time.perf_counter() - started)
        if cap_s is not None and times[-1] > cap_s:
            break
    return times, out


def bench_scene(name: str, repeats: int) -> dict[str, Any]:
    scenario, losses = SCENES[name][0]()
    validate(scenario)
    solver_t, result = _timed(lambda: resolve(scenario, losses), repeats)
    base_t, answer = _timed(lambda: exhaustive(scenario, losses), repeats, LONG_S)
    s_dist = sum(n.distance_in for n in result.nudges)
    due = sum(len(side) for side in answer.sides)
    better = result.in_combat > answer.in_combat or (
        result.in_combat == answer.in_combat and s_dist <= answer.distance_in + SAME_IN)
    return {
        "scene": name, "what": SCENES[name][1], "units": len(scenario.units), "due": due,
        "combats_before": combats(scenario.units),
        "solver": {"times_s": solver_t, "min_s": min(solver_t),
                   "median_s": statistics.median(solver_t), "status": result.status,
                   "solves": result.solves, "in_combat": result.in_combat,
                   "distance_in": s_dist, "order": result.order,
                   "order_size": len(result.order), "combats": result.combats,
                   "nudges": [_nudge_json(n.unit, n.legs, n.distance_in, n.touched)
                              for n in result.nudges],
                   "no_more_foes": [u for u, _ in result.no_more_foes]},
        "baseline": {"times_s": base_t, "min_s": min(base_t),
                     "median_s": statistics.median(base_t), "in_combat": answer.in_combat,
                     "distance_in": answer.distance_in, "order": answer.order,
                     "orders": answer.orders, "best_orders": answer.best_orders,
                     "grid_nudges": answer.grid_nudges, "judged": answer.judged,
                     "nudges": [_nudge_json(n.unit, n.legs, n.distance_in, n.touched)
                                for n in answer.nudges]},
        "ratio": statistics.median(base_t) / statistics.median(solver_t),
        "same_or_better": better,
        "distance_gap_in": answer.distance_in - s_dist,
    }


def _nudge_json(unit: str, legs: Any, distance: float, touched: Any) -> dict[str, Any]:
    return {"unit": unit, "legs": [leg.to_json() for leg in legs],
            "distance_in": round(distance, 9), "touched": list(touched)}


# -- report ----------------------------------------------------------------------------------

HEADER = (f"{'scene':<8} {'units':>5} {'nudge':>5} {'orders':>6} {'solver ms':>13} "
          f"{'solves':>6} {'status':>8} {'base s':>7} {'ratio':>6} {'in combat':>9} "
          f"{'distance s / b':>15} {'same+':>5}")


def print_row(r: dict[str, Any]) -> None:
    s, b = r["solver"], r["baseline"]
    times = f"{s['median_s'] * 1e3:.1f} / {s['min_s'] * 1e3:.1f}"
    print(f"{r['scene']:<8} {r['units']:>5} {r['due']:>5} {b['orders']:>6} {times:>13} "
          f"{s['solves']:>6} {s['status']:>8} {b['median_s']:>7.2f} {r['ratio']:>6.1f} "
          f"{s['in_combat']:>4} / {b['in_combat']:<2} "
          f"{s['distance_in']:>6.3f} / {b['distance_in']:<6.3f} "
          f"{'yes' if r['same_or_better'] else 'NO':>5}")
    moved = ", ".join(f"{n['unit']} " + " ".join(f"{k} {v:g}" for leg in n["legs"]
                                                 for k, v in leg.items())
                      for n in s["nudges"]) or "none"
    print(f"{'':<8} solver: {moved}; combats {s['combats']}"
          + (f"; no more foes {', '.join(s['no_more_foes'])}" if s["no_more_foes"] else ""))
    if not r["same_or_better"] or s["order"] != b["order"]:
        print(f"{'':<8} baseline order {b['order']}, solver order {s['order']}; baseline "
              f"nudges {b['nudges']}")


def summarise(results: list[dict[str, Any]]) -> dict[str, Any]:
    solver = [r["solver"]["median_s"] for r in results]
    ratios = [r["ratio"] for r in results]
    worse = [r["scene"] for r in results if not r["same_or_better"]]
    nudged = sum(bool(r["solver"]["nudges"]) for r in results)
    out: dict[str, Any] = {
        "median_solver_s": statistics.median(solver), "max_solver_s": max(solver),
        "median_ratio": statistics.median(ratios), "min_ratio": min(ratios),
        "same_or_better": len(results) - len(worse), "worse": worse,
        "optimal": sum(r["solver"]["status"] == "OPTIMAL" for r in results),
        "scenes_with_nudges": nudged, "scenes": len(results), "by_size": {}}
    print(f"\nsummary over {len(results)} scenes ({nudged} with at least one nudge):")
    print(f"  solver median time {out['median_solver_s'] * 1e3:.1f} ms (max "
          f"{out['max_solver_s'] * 1e3:.1f} ms; target <= 50 ms: "
          f"{'met' if out['median_solver_s'] <= 0.05 else 'MISSED'}); OPTIMAL "
          f"{out['optimal']}/{len(results)}")
    print(f"  ratio baseline / solver: median {out['median_ratio']:.1f}, min "
          f"{out['min_ratio']:.1f}")
    print("  by size (medians over the scenes of that size):")
    for size in sorted({r["units"] for r in results}):
        rows = [r for r in results if r["units"] == size]
        row = {"scenes": len(rows),
               "solver_s": statistics.median(r["solver"]["median_s"] for r in rows),
               "baseline_s": statistics.median(r["baseline"]["median_s"] for r in rows),
               "orders": [r["baseline"]["orders"] for r in rows],
               "solves": [r["solver"]["solves"] for r in rows]}
        out["by_size"][size] = row
        print(f"    {size} units ({row['scenes']} scenes): solver {row['solver_s'] * 1e3:.1f} "
              f"ms (solves {row['solves']}), baseline {row['baseline_s']:.2f} s (orders "
              f"{row['orders']})")
    print(f"  solver the same or better on {out['same_or_better']}/{len(results)} scenes"
          + (f"; WORSE on {', '.join(worse)}" if worse else ""))
    return out


def profile_scene(name: str, top: int = 14) -> str:
    """cProfile of one `resolve` of the scene (after a warm-up run): the top entries by
    cumulative and by internal time; then, timed apart without the profiler, each
    least-nudge solve (`order.least_nudge`) with its exact-checker calls."""
    scenario, losses = SCENES[name][0]()
    resolve(scenario, losses)
    profiler = cProfile.Profile()
    profiler.enable()
    resolve(scenario, losses)
    profiler.disable()
    text = io.StringIO()
    stats = pstats.Stats(profiler, stream=text).strip_dirs()
    stats.sort_stats("cumulative").print_stats(top)
    stats.sort_stats("tottime").print_stats(top)
    lines = [line for line in text.getvalue().splitlines() if line.strip()]
    return "\n".join(lines + _solves(scenario, losses))


def _solves(scenario: Scenario, losses: tuple[Loss, ...]) -> list[str]:
    """Each least-nudge solve of one resolve: unit, answer, ms, check_nudge calls."""
    solve, check = order_module.least_nudge, least_module.check_nudge
    log: list[list[Any]] = []

    def counted(*args: Any, **kwargs: Any) -> Any:
        log[-1][3] += 1
        return check(*args, **kwargs)

    def timed(scn: Scenario, uid: str, previous: Any) -> Any:
        log.append([uid, None, 0.0, 0])
        started = time.perf_counter()
        found = solve(scn, uid, previous)
        log[-1][1:3] = [found, time.perf_counter() - started]
        return found

    order_module.least_nudge = timed  # type: ignore[assignment]
    least_module.check_nudge = counted
    try:
        started = time.perf_counter()
        resolve(scenario, losses)
        total = time.perf_counter() - started
    finally:
        order_module.least_nudge, least_module.check_nudge = solve, check
    none = [row for row in log if row[1] is None]
    out = [f"least-nudge solves: {len(log)} in {sum(r[2] for r in log) * 1e3:.1f} of "
           f"{total * 1e3:.1f} ms, {sum(r[3] for r in log)} check_nudge calls; "
           f"{len(none)} found no legal nudge: {sum(r[2] for r in none) * 1e3:.1f} ms, "
           f"{sum(r[3] for r in none)} calls"]
    out += [f"  {uid}: {'none' if found is None else f'{found.distance_in:.3f}'} "
            f"{seconds * 1e3:.1f} ms, {calls} calls" for uid, found, seconds, calls in log]
    return out


# -- main ------------------------------------------------------------------------------------

def machine() -> dict[str, Any]:
    try:
        commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, text=True,
                                capture_output=True, check=False).stdout.strip()
    except OSError:
        commit = ""
    return {"date": datetime.datetime.now().astimezone().isoformat(timespec="seconds"),
            "commit": commit, "python": platform.python_version(),
            "platform": platform.platform(), "cpus": os.cpu_count(),
            "loadavg_before": os.getloadavg()}


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--quick", action="store_true",
                        help=f"only {', '.join(QUICK)}, once")
    parser.add_argument("--repeats", type=int, help="runs per method (default 3, quick 1)")
    parser.add_argument("--scenes", help="comma-separated scene names (default: all)")
    parser.add_argument("--json", type=Path, help="also write every figure to this file")
    parser.add_argument("--profile", choices=sorted(SCENES),
                        help="only print the cProfile hot spots of the solver on one scene")
    args = parser.parse_args(argv)
    return choose(parser, args, args.scenes, list(SCENES), QUICK, "scene")


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    if args.profile:
        print(profile_scene(args.profile))
        return 0
    info = machine()
    print(f"{info['date']}  commit {info['commit']}  Python {info['python']}  "
          f"{info['cpus']} CPUs  load {tuple(round(x, 2) for x in info['loadavg_before'])}  "
          f"repeats {args.repeats}")
    print(HEADER)
    results = []
    for name in args.names:
        results.append(bench_scene(name, args.repeats))
        print_row(results[-1])
    summary = summarise(results)
    slowest = max(results, key=lambda r: r["solver"]["median_s"])["scene"]
    profile = ""
    if not args.quick:
        profile = profile_scene(slowest)
        print(f"\nwhere the solver's time goes on its slowest scene, {slowest}:\n{profile}")
    info["loadavg_after"] = os.getloadavg()
    print(f"load after {tuple(round(x, 2) for x in info['loadavg_after'])}")
    if args.json:
        out = {**info, "repeats": args.repeats, "scenes": results, "summary": summary,
               "slowest": slowest, "profile": profile}
        args.json.write_text(json.dumps(out, indent=1, default=str) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
