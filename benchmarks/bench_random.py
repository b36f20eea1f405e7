"""Random requests solved at the default limits, every answer judged by the reference referee.

    .venv/bin/python benchmarks/bench_random.py                 # 200 requests
    .venv/bin/python benchmarks/bench_random.py --count 500 --json out.json
    .venv/bin/python benchmarks/bench_random.py --objective face_point --manoeuvre march

The requests come from `random_requests.py` (seeded: walls, rocks, L/U shapes, friends and
enemies; Advance, March, Reform; all five objectives; a fifth of them with a wall 0.2-0.9"
from the unit).  Each is solved by `best_move` at the default effort, lattice and tolerance
under `--time-limit`; its answer is judged again by the independent reference referee of
tests/referee (a clause it finds broken outside its tolerance band is a refusal: target 0).

Reported: the proved rate (OPTIMAL, or INFEASIBLE with its proof) overall, per manoeuvre and
per objective; the gap (|value - bound|) of the answers that are not proved; median and p90
time; overruns (a search past its time limit by more than 0.5 s: target 0).  Figures, not
tests: nothing here asserts.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import Counter, defaultdict
from dataclasses import replace
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.random_requests import RandomRequest, random_requests  # noqa: E402
from optimizer.search.solve import best_move  # noqa: E402
from tests.referee.referee import rule  # noqa: E402

PROVED = ("OPTIMAL", "INFEASIBLE")
NOT_REFEREED = "not refereed: "  # the referee's own limit (say, terrain that is not convex)
OVERRUN_S = 0.5
HULL_CLEAR_IN = 1.01  # more than the Unit Spacing limit (1") and its contact tolerance


def referee_refuses(request: RandomRequest, move) -> list[str]:
    """The clauses the reference referee finds broken outside its tolerance band.  Where it
    does not judge the table (terrain that is not convex: it grows convex obstacles only), it
    judges the move on the table with each piece of terrain replaced by its convex hull:
    stricter (every distance to a hull is at most that to its piece, every path round it at
    least as long), so a move it passes there is legal here; one it refuses is reported as
    not refereed."""
    if move is None:
        return []
    try:
        ruling = rule(request.scenario, move)
    except NotImplementedError as why:  # an assignment the referee does not judge
        hulled = _hulled(request.scenario, request.unit)
        if hulled is None:
            return [f"{NOT_REFEREED}{why}"]
        try:
            ruling = rule(hulled, move)
        except NotImplementedError:
            return [f"{NOT_REFEREED}{why}"]
        broken = [c for c, m in ruling.measures.items() if m.broken and m.settled]
        return [f"{NOT_REFEREED}{why}; refused among convex hulls: {broken}"] if broken else []
    return [c for c, m in ruling.measures.items() if m.broken and m.settled]


def _hulled(scenario, unit_id: str):
    """The scenario with every piece of terrain replaced by its convex hull; None where the
    unit starts within the Unit Spacing limit of a hull that is not its piece (its start
    distances, A20, would then differ, and the hulls' limits would be more lenient)."""
    start = scenario.unit(unit_id).boundary()
    hulls = [t.shape.convex_hull for t in scenario.terrain]
    if any(not hull.equals(t.shape) and hull.distance(start) <= HULL_CLEAR_IN
           for t, hull in zip(scenario.terrain, hulls, strict=True)):
        return None
    terrain = tuple(replace(t, polygon=tuple(
        (float(x), float(y)) for x, y in list(hull.exterior.coords)[:-1]))
        for t, hull in zip(scenario.terrain, hulls, strict=True))
    return replace(scenario, terrain=terrain)


def run_one(request: RandomRequest, time_limit_s: float) -> dict:
    start = time.perf_counter()
    result = best_move(request.scenario, request.unit, request.manoeuvre, request.objective,
                       time_limit_s=time_limit_s)
    elapsed = time.perf_counter() - start
    refused = referee_refuses(request, result.move)
    return {"label": request.label, "manoeuvre": request.manoeuvre,
            "objective": request.objective.name, "close": request.close,
            "status": result.status.value if hasattr(result.status, "value")
            else str(result.status),
            "value": result.value, "bound": result.bound, "elapsed_s": elapsed,
            "stopped_by": result.stopped_by, "refused": refused,
            "family_status": None if result.family_status is None
            else str(result.family_status),
            "stats": {k: v for k, v in result.stats.items() if k in DIAGNOSTICS}}


# Stats kept in --json: why an answer was not proved (the certificate, the model's status).
DIAGNOSTICS = ("certificate_reached", "certificate_closed", "certificate_boxes",
               "options_status", "options_value", "inexact", "geometric", "ways_status",
               "ways_templates", "ways_templates_skipped", "ways_candidate")


def _rate(rows: list[dict]) -> str:
    proved = sum(r["status"] in PROVED for r in rows)
    return f"{proved}/{len(rows)} ({100 * proved / max(1, len(rows)):.0f}%)"


def report(rows: list[dict], time_limit_s: float) -> str:
    lines = [f"requests: {len(rows)}; proved (OPTIMAL or INFEASIBLE): {_rate(rows)}"]
    lines.append("statuses: " + ", ".join(f"{s} {n}" for s, n in
                                          sorted(Counter(r['status'] for r in rows).items())))
    for key in ("manoeuvre", "objective", "close"):
        groups: dict[str, list[dict]] = defaultdict(list)
        for r in rows:
            groups[str(r[key])].append(r)
        lines.append(f"proved by {key}: " + "; ".join(f"{k} {_rate(v)}"
                                                     for k, v in sorted(groups.items())))
    gaps = [abs(r["value"] - r["bound"]) for r in rows if r["status"] not in PROVED
            and r["value"] is not None and r["bound"] is not None]
    if gaps:
        q = np.quantile(gaps, [0.5, 0.9, 1.0])
        lines.append(f"gap of the {len(gaps)} unproved answers with a bound: median "
                     f"{q[0]:.4f}, p90 {q[1]:.4f}, max {q[2]:.4f}")
    times = np.array([r["elapsed_s"] for r in rows])
    lines.append(f"time: median {np.median(times):.2f} s, p90 {np.quantile(times, 0.9):.2f} s, "
                 f"max {times.max():.2f} s")
    over = [r for r in rows if r["elapsed_s"] > time_limit_s + OVERRUN_S]
    lines.append(f"overruns (> limit {time_limit_s} s + {OVERRUN_S} s): {len(over)} "
                 + " ".join(f"{r['label']}={r['elapsed_s']:.1f}s" for r in over))
    lines.append("stopped by: " + ", ".join(f"{s} {n}" for s, n in
                                            Counter(r['stopped_by'] for r in rows).items()))
    unjudged = [r for r in rows if r["refused"] and all(
        c.startswith(NOT_REFEREED) for c in r["refused"])]
    refused = [r for r in rows if r["refused"] and r not in unjudged]
    lines.append(f"answers refused by the reference referee: {len(refused)} "
                 + " ".join(f"{r['label']}:{r['refused']}" for r in refused))
    lines.append(f"answers the reference referee does not judge: {len(unjudged)} "
                 + " ".join(f"{r['label']}:{r['refused']}" for r in unjudged))
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=200, help="requests run (from --start)")
    parser.add_argument("--start", type=int, default=0,
                        help="the first request run (a later slice of the same list)")
    parser.add_argument("--seed", type=int, default=20261201)
    parser.add_argument("--time-limit", type=float, default=10.0)
    parser.add_argument("--json", type=Path)
    parser.add_argument("--objective", help="only requests of these objectives (comma list)")
    parser.add_argument("--manoeuvre", help="only requests of these manoeuvres (comma list)")
    args = parser.parse_args(argv)
    rows = []
    for request in random_requests(args.start + args.count, args.seed)[args.start:]:
        if not _wanted(request, args.objective, args.manoeuvre):
            continue
        rows.append(run_one(request, args.time_limit))
        r = rows[-1]
        print(f"{r['label']:40s} {r['status']:10s} {r['elapsed_s']:6.2f}s "
              f"value={r['value']} bound={r['bound']} {r['refused'] or ''}", flush=True)
    print(report(rows, args.time_limit))
    if args.json:
        args.json.write_text(json.dumps(rows, indent=1))


def _wanted(request: RandomRequest, objectives: str | None, manoeuvres: str | None) -> bool:
    """Whether the request is of a wanted objective and manoeuvre (None: any)."""
    return (objectives is None or request.objective.name in objectives.split(",")) and \
        (manoeuvres is None or request.manoeuvre in manoeuvres.split(","))


if __name__ == "__main__":
    main()
