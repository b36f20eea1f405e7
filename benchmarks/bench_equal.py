"""Solver against the brute force at equal objective: refine the brute force's grid until it
matches the solver.

    .venv/bin/python benchmarks/bench_equal.py RESULTS.json [--grids 0.025,0.0125] [--json OUT]

RESULTS.json is what `bench_solve.py --json` wrote.  Where the brute force (0.05" grid)
ended worse than the solver by more than one lattice step, it runs again on each finer grid
in turn (a freshly loaded scenario, one run) until its value is within one lattice step of
the solver's; the ratio is then that run's time over the solver's median time from
RESULTS.json.  Where no grid matches, the ratio shown is a lower bound ("> r": the finest
grid's time).  Where the brute force already matched at 0.05", the ratio is bench_solve's.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from pathlib import Path
from typing import Any

from baselines import brute_force
from bench_solve import CASES, SCENARIOS, STEP_IN

from constraints.core.scenario_io import load_scenario


def matched(solver: float, brute: float | None, maximise: bool) -> bool:
    if brute is None:
        return False
    return brute >= solver - STEP_IN if maximise else brute <= solver + STEP_IN


def equal_objective(case: dict[str, Any], grids: list[float]) -> dict[str, Any]:
    name, rows = case["case"], case["methods"]
    file, unit, manoeuvre, objective, _ = CASES[name]
    solver_s = rows["cp-sat"]["time_median_s"]
    solver_value = rows["cp-sat"]["worst"]
    found = {"case": name, "solver_s": solver_s, "grid": 0.05,
             "brute_s": rows["brute"]["time_median_s"], "matched": True,
             "brute_value": rows["brute"]["worst"]}
    if matched(solver_value, found["brute_value"], objective.maximise):
        return {**found, "ratio": found["brute_s"] / solver_s}
    for grid in grids:
        started = time.perf_counter()
        _, value, _ = brute_force(load_scenario(SCENARIOS / file), unit, manoeuvre, objective,
                                  grid=grid)
        elapsed = time.perf_counter() - started
        found = {**found, "grid": grid, "brute_s": elapsed, "brute_value": value,
                 "matched": matched(solver_value, value, objective.maximise)}
        print(f"  {name}: grid {grid} value {value} in {elapsed:.2f} s "
              f"({'matches' if found['matched'] else 'still worse than'} {solver_value:.4f})",
              flush=True)
        if found["matched"]:
            break
    return {**found, "ratio": found["brute_s"] / solver_s}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("results", type=Path, help="bench_solve.py --json output")
    parser.add_argument("--grids", default="0.025,0.0125", help="finer grids to try, inches")
    parser.add_argument("--json", type=Path, help="also write the figures here")
    args = parser.parse_args(argv)
    data = json.loads(args.results.read_text(encoding="utf-8"))
    grids = [float(g) for g in args.grids.split(",")]
    rows = [equal_objective(case, grids) for case in data["cases"]]
    print(f"\n{'case':<16} {'grid':>7} {'brute s':>8} {'solver s':>9} {'ratio':>8}")
    for r in rows:
        ratio = f"{r['ratio']:.1f}" if r["matched"] else f"> {r['ratio']:.1f}"
        print(f"{r['case']:<16} {r['grid']:>7} {r['brute_s']:>8.2f} {r['solver_s']:>9.3f} "
              f"{ratio:>8}")
    median = statistics.median(r["ratio"] for r in rows)
    print(f"median ratio at equal objective {'>= ' if any(not r['matched'] for r in rows) else ''}"
          f"{median:.1f} ({sum(r['ratio'] >= 10 for r in rows)} of {len(rows)} cases >= 10)")
    if args.json:
        args.json.write_text(json.dumps({"source": str(args.results), "rows": rows,
                                         "median_ratio": median}, indent=1) + "\n",
                             encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
