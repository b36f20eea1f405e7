"""How much each extra wheel gains, and how often the bound closes: `best_move` with
max_wheels K = 1..4 on random requests about random scenarios (tests/solver_support.py's
generator: a unit near the middle of a 72" x 48" table, 1-3 units and 0-3 pieces of terrain
around it; a random objective within 12").

    .venv/bin/python benchmarks/bench_wheels.py [--requests N] [--json OUT]

Per K: the mean and largest gain over K = 1 (inches, or the objective's unit), how many
answers are strictly better than K = 1 (by more than 0.001), how many are OPTIMAL under the
rules (the bound over every way closes), and the median time ratio against K = 1, all in one
run (the K are solved one after the other for each request, so the machine's noise falls on
all alike).  Requests are Marches and Advances on the default lattice, one worker.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from optimizer.search.solve import best_move  # noqa: E402
from tests.solver_support import make_request, make_scenario  # noqa: E402

WHEELS = (1, 2, 3, 4)
TIME_LIMIT_S = 60.0
BETTER = 1e-3


def solve_all(count: int) -> list[dict[str, Any]]:
    rows = []
    for n in range(count):
        seed, manoeuvre = 500 + n // 2, ("march", "advance")[n % 2]
        request = make_request("random", seed, n, manoeuvre)
        row: dict[str, Any] = {"seed": seed, "manoeuvre": manoeuvre,
                               "objective": request.objective.name, "runs": {}}
        for k in WHEELS:
            started = time.perf_counter()
            result = best_move(make_scenario("random", seed), "u", manoeuvre,
                               request.objective, time_limit_s=TIME_LIMIT_S, workers=1,
                               max_wheels=k)
            sign = -1.0 if request.objective.maximise else 1.0
            row["runs"][k] = {"value": None if result.value is None else sign * result.value,
                              "status": str(result.status),
                              "time_s": time.perf_counter() - started}
        rows.append(row)
        print(f"{n:>3} seed {seed} {manoeuvre:<8} {row['objective']:<22} " + "  ".join(
            f"K{k} {_fmt(r['value'])} {r['status'][:4]} {r['time_s']:.1f}s"
            for k, r in row["runs"].items()), flush=True)
    return rows


def _fmt(value: float | None) -> str:
    return "-" if value is None else f"{value:8.4f}"


def summarise(rows: list[dict[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    base = [r["runs"][1] for r in rows]
    print(f"\n{len(rows)} requests (values as minimised: lower is better)")
    print(f"{'K':>2} {'mean gain':>10} {'max gain':>9} {'better':>7} {'OPTIMAL':>8} "
          f"{'median t ratio':>15}")
    for k in WHEELS:
        runs = [r["runs"][k] for r in rows]
        gains = [b["value"] - r["value"] for b, r in zip(base, runs, strict=True)
                 if b["value"] is not None and r["value"] is not None]
        better = sum(g > BETTER for g in gains)
        optimal = sum(r["status"] == "OPTIMAL" for r in runs)
        ratio = statistics.median(r["time_s"] / b["time_s"]
                                  for b, r in zip(base, runs, strict=True))
        out[k] = {"mean_gain": statistics.mean(gains) if gains else 0.0,
                  "max_gain": max(gains, default=0.0), "better": better,
                  "optimal": optimal, "median_time_ratio": ratio,
                  "median_time_s": statistics.median(r["time_s"] for r in runs)}
        print(f"{k:>2} {out[k]['mean_gain']:>10.4f} {out[k]['max_gain']:>9.4f} "
              f"{better:>4}/{len(rows):<2} {optimal:>5}/{len(rows):<2} {ratio:>15.2f}")
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--requests", type=int, default=20)
    parser.add_argument("--json", type=Path)
    args = parser.parse_args(argv)
    rows = solve_all(args.requests)
    summary = summarise(rows)
    if args.json:
        args.json.write_text(json.dumps({"rows": rows, "summary": summary}, indent=1,
                                        default=str) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
