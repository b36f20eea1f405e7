"""Best single-unit move: CP-SAT (`best_move`) against the baselines, plus batch-mask throughput.

    .venv/bin/python benchmarks/bench_solve.py [--quick] [--repeats N] [--json OUT]
                                               [--cases NAME,...] [--mask-only]

For each case (a scenario file in `benchmarks/scenarios/`, a unit, a manoeuvre, an objective)
the methods run in this one process, each on a freshly loaded scenario (so none inherits
another's cached path finders): `optimizer.search.solve.best_move` (CP-SAT, time limit 30 s, one
worker) at the default K (`cp-sat`) and with one wheel (`cp-sat-1`); the one-wheel baselines
`brute` (`baselines.brute_force`: 0.05" grid, batch mask, exact confirmation) and `geometry`
(`baselines.per_heading_geometry`: shapely regions per option); and, but for a Reform, the
baselines over ways of two wheels, `brute-2` (`baselines_wheels.brute_two_wheels`) and
`geometry-2` (`baselines_peer_wheels.geometry_two_wheels`: a polygon of end centres per
heading sequence).  Each method runs
`--repeats` times (default 3); CP-SAT's random seed is the repeat number (best_move fixes
seed 0, so the bench wraps `solver_for` to vary it).  The table shows the objective (as
`objective_value` computes it from the exact verdict), min / median wall time, the ratio
baseline median / solver median, and whether the solver's worst value over the repeats is
at least as good as the baseline's best within one lattice step (0.005"; in brackets how much
worse the solver is, negative when better), with the solver's time split into its phases.
The summary ends with the issue's acceptance lines: the median at the default K within 2x
of the one-wheel median, and the solver at least as good as every baseline on every case.
`--quick` runs three cases once.  Then the throughput of `BatchJudge.mask` on 1,000,000 March
poses on the lattice (100,000 with --quick) against a Python loop of `check_move` over 200 of
them, near obstacles and in the open.
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import platform
import statistics
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from baselines import brute_force, per_heading_geometry
from baselines_peer_wheels import geometry_two_wheels
from baselines_wheels import brute_two_wheels
from bench_args import choose
from mask_throughput import MASK_CASES, bench_mask

import optimizer.search.prefilter as prefilter
import optimizer.search.solve as solve
from constraints.core.scenario import Scenario
from constraints.core.scenario_io import load_scenario
from constraints.sat.lattice import Lattice
from optimizer.search.objectives import Objective
from optimizer.search.request import DEFAULT_MAX_WHEELS

SCENARIOS = Path(__file__).resolve().parent / "scenarios"
TIME_LIMIT_S = 30.0
STEP_IN = Lattice().inch  # the solver's lattice step: the tolerance of "at least as good"
QUICK = ("open-march", "crowded-advance", "edge-march")

Case = tuple[str, str, str, Objective, str]
CASES: dict[str, Case] = {
    "open-march": ("open.json", "solo", "march", Objective("target_distance", (30.0, 22.0)),
                   "open field, March to a point 11.7\" away half-right"),
    "open-reform": ("open.json", "solo", "reform", Objective("target_pose", (25.0, 13.0), 45.0),
                    "open field, Reform to a pose 1.4\" off, turned 45 deg"),
    "crowded-march": ("crowded.json", "mid", "march", Objective("forward"),
                      "friends 1.5\" either side, a house and a wall ahead: March forward"),
    "crowded-advance": ("crowded.json", "mid", "advance", Objective("face_point", (30.0, 20.0)),
                        "same crowd: Advance to face a point half-right"),
    "crowded-reform": ("crowded.json", "mid", "reform", Objective("target_distance", (18.0, 12.0)),
                       "same crowd: Reform, centre towards a point 2\" ahead"),
    "edge-march": ("edge.json", "knights", "march",
                   Objective("front_target_distance", (1.0, 20.0)),
                   "cavalry (Mob 8) in a table corner: March the front to a point by the edge"),
    "edge-advance": ("edge.json", "knights", "advance", Objective("target_pose", (6.0, 9.0), 135.0),
                     "same corner: Advance to a pose turned 90 deg"),
    "rocks-march": ("rocks.json", "band", "march", Objective("target_distance", (30.0, 30.0)),
                    "11 rocks (seeded, one non-convex): March towards a point 18\" ahead"),
    "rocks-advance": ("rocks.json", "band", "advance", Objective("forward"),
                      "same rocks: Advance as far forward as possible"),
    "battle-march": ("battle.json", "guard", "march", Objective("target_distance", (24.0, 20.0)),
                     "battle.json: March past the rocks towards (24, 20)"),
    "battle-advance": ("battle.json", "archers", "advance", Objective("forward"),
                       "battle.json: 10-file archers Advance forward"),
    "battle-reform": ("battle.json", "spears", "reform",
                      Objective("target_pose", (37.0, 11.0), 0.0),
                      "battle.json: Reform by the wall to face east"),
    "battle-face": ("battle.json", "halberds", "march", Objective("face_point", (44.0, 38.0)),
                    "battle.json: March to face the orcs"),
    # Cases where more wheels win (wheel, forward, wheel back).
    "open-sidestep": ("open.json", "solo", "march", Objective("target_pose", (28.0, 17.0), 90.0),
                      "open field: March 5\" ahead and 4\" to the right, still facing 90"),
    "gap-sidestep": ("gap.json", "block", "march", Objective("target_pose", (40.0, 24.0), 90.0),
                     "two walls, a 5.4\" gap 2.7\" right of a 4\" front: an S through it"),
    "column-shuffle": ("column.json", "column", "march",
                       Objective("target_pose", (25.0, 17.0), 90.0),
                       "a 2-file column shuffles left past a friend 3.5\" ahead, facing 90"),
}


# The baselines: of the one-wheel family, and over ways of two wheels (not for a Reform).
BASELINES = ("brute", "geometry", "brute-2", "geometry-2")
PHASES = ("options_for", "find_incumbent", "build_search", "post_objective")
# The module whose namespace each phase is called through.
CALLED_IN = {"options_for": solve, "find_incumbent": prefilter, "build_search": solve,
             "post_objective": solve, "solver_for": solve}


def seeded_best_move(scenario: Scenario, case: Case, seed: int,
                     max_wheels: int = DEFAULT_MAX_WHEELS) -> dict[str, Any]:
    """best_move with CP-SAT's random seed set (best_move itself always uses seed 0), and the
    time of each phase (the functions best_move calls, wrapped in its module namespace)."""
    _, unit, manoeuvre, objective, _ = case
    originals = {name: getattr(CALLED_IN[name], name) for name in ("solver_for",) + PHASES}
    phases = dict.fromkeys(PHASES, 0.0)

    def with_seed(*args: Any, **kwargs: Any) -> Any:
        solver = originals["solver_for"](*args, **kwargs)
        solver.parameters.random_seed = seed
        return solver

    def timed(name: str) -> Callable[..., Any]:
        def call(*args: Any, **kwargs: Any) -> Any:
            started = time.perf_counter()
            try:
                return originals[name](*args, **kwargs)
            finally:
                phases[name] += time.perf_counter() - started
        return call

    solve.solver_for = with_seed
    for name in PHASES:
        setattr(CALLED_IN[name], name, timed(name))
    try:
        started = time.perf_counter()
        r = solve.best_move(scenario, unit, manoeuvre, objective, time_limit_s=TIME_LIMIT_S,
                            workers=1, max_wheels=max_wheels)
        elapsed = time.perf_counter() - started
    finally:
        for name, original in originals.items():
            setattr(CALLED_IN[name], name, original)
    wall = float(r.stats.get("wall_s", 0.0))
    phases["rest"] = r.elapsed_s - wall - sum(phases.values())
    return {"value": r.value, "time_s": elapsed, "status": r.status, "search_s": wall,
            "bound": r.bound, "family": r.family,
            "build_s": r.elapsed_s - wall, "phases_s": phases,
            "options": r.stats.get("options"), "options_total": r.stats.get("options_total"),
            "branches": r.stats.get("branches"), "move": r.move.to_json() if r.move else None}


def run_baseline(method: Callable[..., Any], scenario: Scenario, case: Case) -> dict[str, Any]:
    _, unit, manoeuvre, objective, _ = case
    started = time.perf_counter()
    move, value, stats = method(scenario, unit, manoeuvre, objective)
    return {"value": value, "time_s": time.perf_counter() - started, "stats": stats,
            "move": move.to_json() if move else None}


def bench_case(name: str, repeats: int, max_wheels: int) -> dict[str, Any]:
    case = CASES[name]
    path = SCENARIOS / case[0]
    runs: dict[str, list[dict[str, Any]]] = {"cp-sat": [], "cp-sat-1": [], "brute": [],
                                             "geometry": []}
    if case[2] != "reform":  # the baselines over ways of two wheels
        runs["brute-2"], runs["geometry-2"] = [], []
    for seed in range(repeats):
        runs["cp-sat"].append(seeded_best_move(load_scenario(path), case, seed, max_wheels))
        runs["cp-sat-1"].append(seeded_best_move(load_scenario(path), case, seed, 1))
        if "brute-2" in runs:
            runs["brute-2"].append(run_baseline(brute_two_wheels, load_scenario(path), case))
            runs["geometry-2"].append(run_baseline(geometry_two_wheels, load_scenario(path),
                                                   case))
        runs["brute"].append(run_baseline(brute_force, load_scenario(path), case))
        runs["geometry"].append(run_baseline(per_heading_geometry, load_scenario(path), case))
    return summarise(name, case, runs)


def at_least_as_good(solver: float | None, base: float | None, maximise: bool) -> bool | None:
    if base is None:
        return None if solver is None else True
    if solver is None:
        return False
    return solver >= base - STEP_IN if maximise else solver <= base + STEP_IN


def summarise(name: str, case: Case, runs: dict[str, list[dict[str, Any]]]) -> dict[str, Any]:
    maximise = case[3].maximise
    rows: dict[str, dict[str, Any]] = {}
    for method, found in runs.items():
        values = [r["value"] for r in found]
        known = [v for v in values if v is not None]
        worst = None if len(known) < len(values) else (min(known) if maximise else max(known))
        times = [r["time_s"] for r in found]
        rows[method] = {"values": values, "worst": worst, "time_min_s": min(times),
                        "time_median_s": statistics.median(times), "runs": found}
    solver = rows["cp-sat"]
    for method in [m for m in ("cp-sat-1",) + BASELINES if m in rows]:
        best = [v for v in rows[method]["values"] if v is not None]
        base = (max(best) if maximise else min(best)) if best else None
        rows[method]["solver_ok"] = at_least_as_good(solver["worst"], base, maximise)
        rows[method]["ratio"] = rows[method]["time_median_s"] / solver["time_median_s"]
        rows[method]["gap"] = None if base is None or solver["worst"] is None else \
            (base - solver["worst"] if maximise else solver["worst"] - base)
    for solver in (rows["cp-sat"], rows["cp-sat-1"]):
        solver["statuses"] = sorted({r["status"] for r in solver["runs"]})
        for key in ("build_s", "search_s"):
            solver[f"{key}_median"] = statistics.median(r[key] for r in solver["runs"])
        solver["phases_median_s"] = {k: statistics.median(r["phases_s"][k]
                                                          for r in solver["runs"])
                                     for k in solver["runs"][0]["phases_s"]}
    # One wheel against the baselines (the family they search) as well.
    for method in ("brute", "geometry"):
        rows[method]["ratio_one_wheel"] = rows[method]["time_median_s"] / \
            rows["cp-sat-1"]["time_median_s"]
    return {"case": name, "scenario": case[0], "unit": case[1], "manoeuvre": case[2],
            "objective": {"name": case[3].name, "point": case[3].point,
                          "facing": case[3].facing_deg},
            "what": case[4], "methods": rows}


def fmt(value: float | None) -> str:
    return "-" if value is None else f"{value:.4f}"


def print_case(result: dict[str, Any]) -> None:
    obj, rows = result["objective"], result["methods"]
    target = "" if obj["point"] is None else f" {tuple(obj['point'])}"
    facing = "" if obj["facing"] is None else f" facing {obj['facing']}"
    print(f"\n== {result['case']}: {result['unit']} {result['manoeuvre']}, "
          f"{obj['name']}{target}{facing} [{result['scenario']}]  ({result['what']})")
    print(f"{'method':<10} {'value (worst)':>14} {'t min s':>8} {'t med s':>8} {'ratio':>6} "
          f"{'solver >= it':>13}  notes")
    for method, row in rows.items():
        if method in ("cp-sat", "cp-sat-1"):
            ratio, ok = "1", ""
            if method == "cp-sat-1":
                ratio = f"{row['ratio']:.2f}"
                ok = "" if row["gap"] is None else f"({row['gap']:+.4f})"
            ph = row["phases_median_s"]
            run = row["runs"][0]
            notes = (f"{'/'.join(row['statuses'])} (bound {fmt(run['bound'])}, family "
                     f"{run['family'].get('max_wheels', '-')}); "
                     f"CP-SAT {row['search_s_median']:.2f} s, "
                     f"incumbent {ph['find_incumbent']:.2f}, model {ph['build_search']:.2f}, "
                     f"options {ph['options_for']:.2f}, other "
                     f"{ph['post_objective'] + ph['rest']:.2f}; "
                     f"{row['runs'][0]['options']}/{row['runs'][0]['options_total']} options")
        else:
            ratio = f"{row['ratio']:.2f}" + (f"/{row['ratio_one_wheel']:.2f}"
                                             if "ratio_one_wheel" in row else "")
            gap = row["gap"]
            ok = {True: "yes", False: "NO", None: "n/a"}[row["solver_ok"]]
            ok += "" if gap is None else f" ({gap:+.4f})"
            stats = row["runs"][0]["stats"]
            notes = ", ".join(f"{k} {v}" for k, v in stats.items()
                              if k in ("poses", "masked", "mask_legal", "regions", "checked",
                                       "ways", "sequences"))
        print(f"{method:<10} {fmt(row['worst']):>14} {row['time_min_s']:>8.2f} "
              f"{row['time_median_s']:>8.2f} {ratio:>6} {ok:>13}  {notes}")


def print_summary(results: list[dict[str, Any]]) -> dict[str, Any]:
    solver_t = [r["methods"]["cp-sat"]["time_median_s"] for r in results]
    one_t = [r["methods"]["cp-sat-1"]["time_median_s"] for r in results]
    out: dict[str, Any] = {"median_solver_s": statistics.median(solver_t),
                           "median_one_wheel_s": statistics.median(one_t)}
    print(f"\nsummary over {len(results)} cases: median solver time "
          f"{out['median_solver_s']:.2f} s (min {min(solver_t):.2f}, max {max(solver_t):.2f}); "
          f"one wheel {out['median_one_wheel_s']:.2f} s; ratio of the medians "
          f"{out['median_solver_s'] / out['median_one_wheel_s']:.2f}")
    statuses = [r["methods"]["cp-sat"]["runs"][0]["status"] for r in results]
    print(f"  OPTIMAL under the rules (the bound closes): "
          f"{sum(s == 'OPTIMAL' for s in statuses)}/{len(results)}")
    for method in ("brute", "geometry"):
        one = [r["methods"][method]["ratio_one_wheel"] for r in results]
        faster = sum(x >= 1.0 for x in one)
        print(f"  {method:<9} one wheel at least as fast as it in {faster}/{len(results)} "
              f"(median ratio {statistics.median(one):.3f})")
        out[method + "_one_wheel"] = {"median_ratio": statistics.median(one), "faster": faster}
    for method in BASELINES:
        ratios = [r["methods"][method]["ratio"] for r in results if method in r["methods"]]
        oks = [r["methods"][method]["solver_ok"] for r in results if method in r["methods"]]
        if not oks:
            continue
        out[method] = {"median_ratio": statistics.median(ratios),
                       "solver_ok": sum(o is True for o in oks),
                       "solver_worse": sum(o is False for o in oks)}
        print(f"  {method:<9} median time ratio (baseline / solver) "
              f"{out[method]['median_ratio']:.3f}; solver at least as good ({STEP_IN}\") in "
              f"{out[method]['solver_ok']}/{len(oks)}, worse in "
              f"{out[method]['solver_worse']}")
    ratio = out["median_solver_s"] / out["median_one_wheel_s"]
    worse = sorted({f"{r['case']} ({m})" for r in results for m in BASELINES
                    if r["methods"].get(m, {}).get("solver_ok") is False})
    out["acceptance"] = {"median_ratio": ratio, "within_2x": ratio <= 2.0, "worse": worse}
    print(f"  acceptance: median at K / one-wheel median {ratio:.2f} "
          f"({'met' if ratio <= 2.0 else 'NOT met'}: at most 2); at least as good as every "
          f"baseline on every case: {'met' if not worse else 'NOT met: ' + ', '.join(worse)}")
    return out


# -- main ------------------------------------------------------------------------------------

def machine() -> dict[str, Any]:
    load = os.getloadavg() if hasattr(os, "getloadavg") else None
    return {"date": datetime.datetime.now().astimezone().isoformat(timespec="seconds"),
            "python": platform.python_version(), "platform": platform.platform(),
            "cpus": os.cpu_count(), "loadavg_before": load}


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--quick", action="store_true",
                        help=f"only {', '.join(QUICK)}, one repeat, 100,000 mask poses")
    parser.add_argument("--repeats", type=int, help="runs per method (default 3, quick 1)")
    parser.add_argument("--cases", help="comma-separated case names (default: all)")
    parser.add_argument("--json", type=Path, help="also write every figure to this file")
    parser.add_argument("--mask-only", action="store_true", help="only the mask throughput")
    parser.add_argument("--max-wheels", type=int, default=DEFAULT_MAX_WHEELS,
                        help=f"the solver's K (default {DEFAULT_MAX_WHEELS}); it also runs "
                        "with one wheel")
    args = parser.parse_args(argv)
    return choose(parser, args, args.cases, list(CASES), QUICK, "case")


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    info = machine()
    print(f"{info['date']}  Python {info['python']}  {info['cpus']} CPUs  "
          f"load {info['loadavg_before']}  repeats {args.repeats}")
    results: list[dict[str, Any]] = []
    for name in [] if args.mask_only else args.names:
        results.append(bench_case(name, args.repeats, args.max_wheels))
        print_case(results[-1])
    summary = print_summary(results) if results else {}
    mask = []
    for file, unit, what in MASK_CASES:
        mask.append(bench_mask(file, unit, 100_000 if args.quick else 1_000_000, 200,
                               args.repeats))
        print(f"  ({what})")
    if args.json:
        out = {**info, "loadavg_after": os.getloadavg(), "repeats": args.repeats,
               "time_limit_s": TIME_LIMIT_S, "cases": results, "summary": summary,
               "mask": mask}
        args.json.write_text(json.dumps(out, indent=1, default=str) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
