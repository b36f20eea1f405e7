"""Which lattice should be the default?  best_move on the bench_solve cases, lattice by lattice.

    .venv/bin/python benchmarks/bench_lattice.py [--cases NAME,...] [--lattices I:D,...]
                                                 [--limit S] [--json OUT]

For each lattice (centre step I inches, heading step D degrees; an Advance's wheel stays on
15 deg) and each case of `bench_solve.CASES` (a freshly loaded scenario per solve), one
`best_move` with time limit `--limit` (default 10 s), one worker.  Per lattice: the median
and max wall time, how many cases end OPTIMAL, and the objective against the best any lattice
reached on that case (0 = the best; positive = worse, inches).  Interleaved: every case runs
all lattices before the next case, so machine noise falls on all of them alike.

The brief bounds the default at no coarser than 0.01" and 1 deg; the coarser lattices are
measured to show what the bound costs.
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import statistics
import time
from typing import Any

from bench_solve import CASES, SCENARIOS

from constraints.core.scenario_io import load_scenario
from constraints.sat.lattice import Lattice
from optimizer.search.solve import best_move

LATTICES = ((0.02, 2.0), (0.01, 1.0), (0.005, 1.0), (0.01, 0.5), (0.005, 0.5))


def solve_case(name: str, lattice: Lattice, limit: float) -> dict[str, Any]:
    file, unit, manoeuvre, objective, _ = CASES[name]
    scenario = load_scenario(SCENARIOS / file)
    started = time.perf_counter()
    result = best_move(scenario, unit, manoeuvre, objective, time_limit_s=limit,
                       lattice=lattice, workers=1)
    return {"status": result.status, "value": result.value,
            "time_s": time.perf_counter() - started}


def run(cases: list[str], lattices: list[Lattice], limit: float) -> dict[str, Any]:
    runs: dict[str, dict[str, Any]] = {}
    for name in cases:
        runs[name] = {}
        for lattice in lattices:
            key = label(lattice)
            runs[name][key] = solve_case(name, lattice, limit)
            r = runs[name][key]
            value = "-" if r["value"] is None else f"{r['value']:.4f}"
            print(f"{name:<16} {key:<12} {r['status']:<9} {value:>9} {r['time_s']:7.2f} s",
                  flush=True)
    return runs


def label(lattice: Lattice) -> str:
    return f"{lattice.inch:g}\"/{lattice.degree:g}deg"


def summarise(runs: dict[str, Any], lattices: list[Lattice]) -> dict[str, Any]:
    """Per lattice: times, OPTIMAL count, and objective behind the best lattice per case."""
    out: dict[str, Any] = {}
    for lattice in lattices:
        key = label(lattice)
        times, behind, optimal = [], [], 0
        for name, per in runs.items():
            maximise = CASES[name][3].maximise
            known = [r["value"] for r in per.values() if r["value"] is not None]
            best = (max(known) if maximise else min(known)) if known else None
            r = per[key]
            times.append(r["time_s"])
            optimal += r["status"] == "OPTIMAL"
            if best is not None and r["value"] is not None:
                behind.append(best - r["value"] if maximise else r["value"] - best)
        out[key] = {"median_s": statistics.median(times), "max_s": max(times),
                    "optimal": optimal, "cases": len(times),
                    "behind_mean_in": statistics.mean(behind) if behind else None,
                    "behind_max_in": max(behind) if behind else None}
    return out


def print_summary(summary: dict[str, Any]) -> None:
    print(f"\n{'lattice':<12} {'median s':>9} {'max s':>7} {'OPTIMAL':>8} "
          f"{'behind best: mean':>18} {'max':>7}")
    for key, row in summary.items():
        mean = "-" if row["behind_mean_in"] is None else f"{row['behind_mean_in']:.4f}"
        worst = "-" if row["behind_max_in"] is None else f"{row['behind_max_in']:.4f}"
        print(f"{key:<12} {row['median_s']:>9.3f} {row['max_s']:>7.2f} "
              f"{row['optimal']:>4}/{row['cases']:<3} {mean:>18} {worst:>7}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cases", help="comma-separated case names (default: all)")
    parser.add_argument("--lattices", help="comma-separated INCH:DEGREE pairs")
    parser.add_argument("--limit", type=float, default=10.0, help="time limit per solve, s")
    parser.add_argument("--json", help="write every figure to this file")
    args = parser.parse_args(argv)
    names = args.cases.split(",") if args.cases else list(CASES)
    unknown = [n for n in names if n not in CASES]
    if unknown:
        parser.error(f"unknown case(s) {', '.join(unknown)}")
    pairs = [tuple(float(x) for x in p.split(":")) for p in args.lattices.split(",")] \
        if args.lattices else LATTICES
    lattices = [Lattice(inch=i, degree=d) for i, d in pairs]
    runs = run(names, lattices, args.limit)
    summary = summarise(runs, lattices)
    print_summary(summary)
    if args.json:
        with open(args.json, "w") as fh:
            json.dump({"date": datetime.datetime.now(datetime.UTC).isoformat(),
                       "load_average": os.getloadavg(), "runs": runs, "summary": summary},
                      fh, indent=1)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
