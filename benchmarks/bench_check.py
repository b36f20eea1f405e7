"""Single-move exact checks per second with `constraints.checker.check_move`.

    .venv/bin/python benchmarks/bench_check.py [--seconds S] [--runs N] [--json OUT]
                                               [--profile CASE]

Every case is one move on `benchmarks/scenarios/battle.json` (72x48", 7 units, 4 impassable
terrain pieces and a marsh).  Each case gets one warm-up call, then `--runs` timed runs of
about `--seconds` of wall time each; the table shows min / median / max checks per second over
the runs, so the machine's noise is visible.  The per-clause breakdown times each clause of the
Reform-around-the-wall case on its own, with a fresh `MoveContext` per call (the context caches
the end unit and the obstacles, so each clause pays for the shared values it touches).
`--profile CASE` prints the cProfile hot spots of one case instead.
"""

from __future__ import annotations

import argparse
import cProfile
import datetime
import json
import os
import platform
import pstats
import statistics
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from constraints.core.scenario import Scenario
from constraints.core.scenario_io import load_scenario
from constraints.t9a.checker import check_move
from constraints.t9a.context import MoveContext
from constraints.t9a.move_io import move_from_json
from constraints.t9a.moves import Move

SCENARIO = Path(__file__).resolve().parent / "scenarios" / "battle.json"
CLAUSE_CASE = "reform-wall"

CASES: dict[str, tuple[str, dict[str, Any]]] = {
    "march": ("March, 20 models: forward, wheel, forward, wheel, forward, past the rocks",
              {"unit": "guard", "manoeuvre": "march",
               "steps": [{"forward": 1.5}, {"wheel": -20.0}, {"forward": 1.5},
                         {"wheel": 20.0}, {"forward": 2.0}]}),
    "advance": ("Advance, 20 models in 10 files: Pivot 30 deg, forward, wheel, forward",
                {"unit": "archers", "manoeuvre": "advance", "pivot": 30.0,
                 "steps": [{"forward": 1.0}, {"wheel": -15.0}, {"forward": 0.8}]}),
    "reform-wall": ("Reform 5 -> 8 files facing east; a wall blocks some models' straight lines",
                    {"unit": "spears", "manoeuvre": "reform", "files": 8,
                     "centre": [37.5, 11.0], "facing": 0.0}),
    "reform-open": ("Reform 5 -> 8 files, turning 30 deg, no terrain within 8\"",
                    {"unit": "halberds", "manoeuvre": "reform", "files": 8,
                     "centre": [14.5, 26.5], "facing": 60.0}),
    "march-illegal": ("March too far, wheeling 120 deg into the rocks (5 violations)",
                      {"unit": "guard", "manoeuvre": "march",
                       "steps": [{"forward": 4.0}, {"wheel": -60.0}, {"forward": 3.0},
                                 {"wheel": -60.0}, {"forward": 2.0}]}),
}


def time_calls(call: Callable[[], object], seconds: float) -> tuple[int, float]:
    """Call `call` until about `seconds` of wall time have passed: (calls, elapsed s)."""
    calls, start = 0, time.perf_counter()
    while True:
        call()
        calls += 1
        elapsed = time.perf_counter() - start
        if elapsed >= seconds:
            return calls, elapsed


def repeated(call: Callable[[], object], seconds: float, runs: int) -> dict[str, float]:
    """Rates (calls/s) of `runs` timed runs after one warm-up call, and the mean ms per call."""
    call()
    timed = [time_calls(call, seconds) for _ in range(runs)]
    rates = [calls / elapsed for calls, elapsed in timed]
    total_calls, total_s = sum(c for c, _ in timed), sum(e for _, e in timed)
    return {"min": min(rates), "median": statistics.median(rates), "max": max(rates),
            "mean_ms": 1000.0 * total_s / total_calls, "calls": total_calls}


def bench_cases(scenario: Scenario, seconds: float, runs: int) -> list[dict[str, Any]]:
    rows = []
    for name, (_, data) in CASES.items():
        move = move_from_json(data)
        verdict = check_move(scenario, move)
        stats = repeated(lambda move=move: check_move(scenario, move), seconds, runs)
        rows.append({"case": name, **stats, "legal": verdict.legal,
                     "violations": len(verdict.violations),
                     "clauses": [v.clause for v in verdict.violations]})
    return rows


def bench_clauses(scenario: Scenario, move: Move, seconds: float,
                  runs: int) -> list[dict[str, Any]]:
    """Each clause of `move` on its own, a fresh context per call; plus the shared values."""
    rows = []
    for spec in scenario.profile.clauses_for(move.manoeuvre):
        clause = spec.bound_to(scenario.profile)
        stats = repeated(lambda c=clause: c.check(MoveContext(scenario, move)), seconds, runs)
        rows.append({"clause": spec.id, **stats})
    shared = repeated(lambda: shared_values(MoveContext(scenario, move)), seconds, runs)
    rows.append({"clause": "(context: end_unit + obstacles only)", **shared})
    return rows


def shared_values(ctx: MoveContext) -> None:
    """Touch the context values several clauses share (timed to separate them out)."""
    _ = ctx.end_unit, ctx.obstacles


def print_cases(rows: list[dict[str, Any]], runs: int) -> None:
    print(f"\nsingle-move checks (check_move), {runs} runs per case")
    print(f"{'case':<15} {'checks/s min':>12} {'median':>8} {'max':>8} {'mean ms':>8} "
          f"{'legal':>6} {'violations':>10}")
    for r in rows:
        print(f"{r['case']:<15} {r['min']:>12.1f} {r['median']:>8.1f} {r['max']:>8.1f} "
              f"{r['mean_ms']:>8.3f} {str(r['legal']):>6} {r['violations']:>10}")


def print_clauses(rows: list[dict[str, Any]], check_ms: float) -> None:
    print(f"\nper clause, case {CLAUSE_CASE} (fresh MoveContext per call; whole check "
          f"{check_ms:.3f} ms)")
    print(f"{'clause':<38} {'calls/s min':>11} {'median':>9} {'max':>9} {'mean ms':>8} "
          f"{'share':>6}")
    total = sum(r["mean_ms"] for r in rows if not r["clause"].startswith("("))
    for r in sorted(rows, key=lambda r: -r["mean_ms"]):
        share = "" if r["clause"].startswith("(") else f"{100 * r['mean_ms'] / total:5.1f}%"
        print(f"{r['clause']:<38} {r['min']:>11.1f} {r['median']:>9.1f} {r['max']:>9.1f} "
              f"{r['mean_ms']:>8.3f} {share:>6}")


def machine() -> dict[str, Any]:
    load = os.getloadavg() if hasattr(os, "getloadavg") else None
    return {"date": datetime.datetime.now().astimezone().isoformat(timespec="seconds"),
            "python": platform.python_version(), "platform": platform.platform(),
            "cpus": os.cpu_count(), "loadavg_before": load}


def profile_case(scenario: Scenario, name: str, seconds: float) -> None:
    """cProfile `check_move` on one case for about `seconds`; print the top entries."""
    move = move_from_json(CASES[name][1])
    check_move(scenario, move)
    profiler = cProfile.Profile()
    profiler.enable()
    calls, _ = time_calls(lambda: check_move(scenario, move), seconds)
    profiler.disable()
    print(f"cProfile of {name}: {calls} checks")
    stats = pstats.Stats(profiler).strip_dirs()
    stats.sort_stats("cumulative").print_stats(25)
    stats.sort_stats("tottime").print_stats(15)


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=2.0,
                        help="wall time per timed run (default 2)")
    parser.add_argument("--runs", type=int, default=3, help="timed runs per case (default 3)")
    parser.add_argument("--json", type=Path, help="also write the figures to this file")
    parser.add_argument("--profile", choices=sorted(CASES),
                        help="print cProfile hot spots of one case instead of the tables")
    args = parser.parse_args(argv)
    if args.seconds <= 0 or args.runs < 1:
        parser.error("--seconds must be > 0 and --runs >= 1")
    return args


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    scenario = load_scenario(SCENARIO)
    if args.profile:
        profile_case(scenario, args.profile, args.seconds)
        return 0
    info = machine()
    print(f"{info['date']}  Python {info['python']}  {info['cpus']} CPUs  "
          f"load {info['loadavg_before']}")
    for name, (what, _) in CASES.items():
        print(f"  {name:<15} {what}")
    cases = bench_cases(scenario, args.seconds, args.runs)
    print_cases(cases, args.runs)
    clause_move = move_from_json(CASES[CLAUSE_CASE][1])
    clauses = bench_clauses(scenario, clause_move, args.seconds / 2, args.runs)
    check_ms = next(r["mean_ms"] for r in cases if r["case"] == CLAUSE_CASE)
    print_clauses(clauses, check_ms)
    if args.json:
        out = {**info, "seconds": args.seconds, "runs": args.runs, "scenario": str(SCENARIO),
               "cases": cases, "clauses_case": CLAUSE_CASE, "clauses": clauses}
        args.json.write_text(json.dumps(out, indent=2) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
