"""Combat Reforms (seed 002): `best_reform` / `combat_reforms` against an exhaustive baseline.

    .venv/bin/python benchmarks/bench_reform.py [--quick] [--repeats N] [--json OUT]
                                                [--scenes NAME,...] [--profile NAME]
                                                [--no-joint]

Scenes are generated here: a unit of about 20 models (25 mm, 20 mm or 25 x 50 mm cavalry
bases, Mobility 3 to 8, most with a Character) Engaged on its Front with 1, 2 or 3 enemy
units whose Facing edges lie on one line (Fronts, a Flank, a Rear with an incomplete rear
rank), an enemy touching at a corner, a scene with a friend and a rock nearby, and scenes
where two or three units of one player reform one after the other (`combat_reforms` with
its joint reforms off, in unit id order; `joint=True`, two or three units of one Combat
reformed together, is timed as well, in a child process with its memory capped, side by side
with `reform_baselines.joint_exhaustive` over every tuple of their candidates (counted only
past `JOINT_TUPLES`), and compared with the sequences' totals; not with `--quick` or
`--no-joint`).

Per scene, in this one process: the solver, `--repeats` times (default 3), its status and
value (own models in contact, enemy models touched), each answer re-checked by the exact
checker `check_combat_reform` and its contacts counted again on the scene after it; the
baseline (`reform_baselines.exhaustive`: every legal number of files x every offset of a
0.01" lattice, once without and once with the solver's kind of event offsets, each with the
best assignment by bipartite matching), its best re-checked by the checker too.  A baseline
run longer than `LONG_S` is not repeated.  The full run ends with the cProfile of the
solver's slowest scene.
"""

from __future__ import annotations

import argparse
import cProfile
import datetime
import hashlib
import inspect
import io
import json
import os
import platform
import pstats
import statistics
import subprocess
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # the benchmarks package

from bench_args import choose  # noqa: E402

from benchmarks.reform_report import HEADER, print_row, summarise  # noqa: E402
from benchmarks.reform_runs import (
    JOINT,
    Step,
    baseline_sequence,
    joint_here,
    reform_json,
    run_baseline,
    run_joint,
    run_solver,
    sequence,
    total_of,
    two_levels,
)  # noqa: E402
from benchmarks.reform_scenes import SCENES, Json, validate  # noqa: E402
from constraints.rank_and_file.combats import combats, engagements  # noqa: E402
from optimizer.combat_reform.best import best_reform  # noqa: E402

QUICK = ("one-25", "two-line", "seq-2")
ROOT = Path(__file__).resolve().parent.parent


# -- one scene -------------------------------------------------------------------------------

def _solver_value(step: Step) -> tuple[int, int] | None:
    """What the solver's answer is worth: its value when legal, None when it has no legal
    answer (NOT_FOUND, TIMEOUT, or a proposal the checker refuses)."""
    if step.answer is None or step.reform is None or not step.legal:
        return None
    return two_levels(step.answer.value)


def _verdict(step: Step, base: Json, counted: bool = False) -> str:
    """same / better / WORSE (the baseline found a better legal reform) / WRONG (the
    solver's proposal is illegal).  By the values claimed (the solver's `value`, the
    baseline's), or, `counted`, by the contacts counted on the scene after each answer."""
    if step.reform is not None and not step.legal:
        return "WRONG"
    if counted:
        mine = step.true if step.legal else None
        theirs = tuple(base["true"]) if base["found"] else None
    else:
        mine = _solver_value(step)
        theirs = tuple(base["value"]) if base["found"] else None
    if theirs is None:
        return "same" if mine is None else "better"
    if mine is None or mine < theirs:
        return "WORSE"
    return "same" if mine == theirs else "better"


def bench_scene(name: str, repeats: int, joint: bool = True) -> dict[str, Any]:
    scene = SCENES[name]
    scenario = scene.build()
    validate(scenario, scene.units)
    solver = run_solver(scene, scenario, repeats)
    steps: list[Step] = solver.pop("steps")
    lattice = run_baseline(steps, False, repeats)
    both = run_baseline(steps, True, repeats)
    units = []
    for k, step in enumerate(steps):
        a = step.answer
        units.append({
            "unit": step.unit, "models": step.before.unit(step.unit).formation.model_count,
            "enemies": len(engagements(step.before.units).get(step.unit, {})),
            "status": a.status if a else None,
            "family_status": a.family.get("status") if a else None,
            "value": list(two_levels(a.value)) if a else None,
            "bound": list(a.bound) if a and a.bound is not None else None,
            "files": a.files if a else None, "contacts_before": a.contacts_before if a else None,
            "flush_against": a.family.get("flush_against") if a else None,
            "reason": a.reason if a else "", "legal": step.legal, "clauses": step.clauses,
            "search": getattr(a, "search", None) if a else None,
            "true": list(step.true) if step.true else None,
            "reform": reform_json(step.reform),
            "vs_lattice": _verdict(step, lattice["units"][k]),
            "vs_events": _verdict(step, both["units"][k]),
            "vs_counted": _verdict(step, both["units"][k], counted=True)})
    times = solver["times_s"]
    median = statistics.median(times)
    several: dict[str, Any] = {}
    if len(scene.units) > 1:
        several["baseline_sequence"] = baseline_sequence(scenario, scene.units)
        several["sequential_total"] = total_of([u["value"] if u["legal"] else None
                                              for u in units])
        if JOINT and joint:
            several["joint"] = run_joint(name, repeats)
    return {"scene": name, "what": scene.what, "units": units, **several,
            "models": sum(u["models"] for u in units),
            "enemies": len({e for s in steps
                            for e in engagements(s.before.units).get(s.unit, {})}),
            "combats": combats(scenario.units),
            "solver": {**solver, "min_s": min(times), "median_s": median},
            "lattice": lattice, "events": both,
            "ratio_lattice": lattice["median_s"] / median,
            "ratio_events": both["median_s"] / median}


PHASES = (("best.py", "best_reform", "best_reform"),
          ("prepare.py", "prepare", "  layouts of every formation (prepare.prepare)"),
          ("intervals.py", "unit_rules", "    of which unit rules (intervals.unit_rules)"),
          ("model.py", "layout", "    of which offsets and windows (model.layout)"),
          ("search.py", "best_first", "  best-first search (search.best_first)"),
          ("assignment.py", "bounds", "    of which displacement bounds (Frame.bounds)"),
          ("assignment.py", "assign", "    of which least-cost assignments (Frame.assign)"),
          ("best.py", "_checked", "  exact checker on the answer (best._checked)"),
          ("cp_model.py", "solve", "CP-SAT solve (fallback past the budget)"),
          ("reforms.py", "_place", "combat_reforms: each unit judged again and placed"))


def profile_scene(name: str, top: int = 14) -> str:
    """cProfile of the solver on one scene (after a warm-up run): the share of its phases,
    then the top entries by cumulative and by internal time."""
    scene = SCENES[name]
    scenario = scene.build()

    def run() -> None:
        if len(scene.units) == 1:
            best_reform(scenario, scene.units[0])
        else:
            sequence(scenario, scene.units)
    run()
    profiler = cProfile.Profile()
    profiler.enable()
    run()
    profiler.disable()
    text = io.StringIO()
    stats = pstats.Stats(profiler, stream=text).strip_dirs()
    total = stats.total_tt
    cum: dict[tuple[str, str], float] = {}
    for (path, _, func), (_, _, _, ct, _) in stats.stats.items():  # type: ignore[attr-defined]
        key = (os.path.basename(path), func)
        cum[key] = cum.get(key, 0.0) + ct
    lines = [f"{name}: {total:.2f} s under the profiler"]
    lines += [f"  {label}: {cum.get((f, fn), 0.0):.2f} s "
              f"({100.0 * cum.get((f, fn), 0.0) / total:.0f}%)" for f, fn, label in PHASES]
    stats.sort_stats("cumulative").print_stats(top)
    stats.sort_stats("tottime").print_stats(top)
    lines += [line for line in text.getvalue().splitlines() if line.strip()]
    return "\n".join(lines)


# -- main ------------------------------------------------------------------------------------

def machine() -> dict[str, Any]:
    """Date, commit, the solver's sources (where they were loaded from, whether they differ
    from the commit, a hash of them: the solver may be edited while a run goes on), the
    machine and its load.  `BENCH_COMMIT` names the commit of a tree exported without
    git (`git archive`)."""
    solver_dir = Path(inspect.getfile(best_reform)).parent
    try:
        commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, text=True,
                                capture_output=True, check=False).stdout.strip()
        dirty = subprocess.run(["git", "status", "--porcelain", "--", str(solver_dir)],
                               cwd=ROOT, text=True, capture_output=True,
                               check=False).stdout.strip()
    except OSError:
        commit, dirty = "", ""
    digest = hashlib.sha1()
    for path in sorted(solver_dir.glob("*.py")):
        digest.update(path.read_bytes())
    return {"date": datetime.datetime.now().astimezone().isoformat(timespec="seconds"),
            "commit": os.environ.get("BENCH_COMMIT") or commit,
            "solver_dir": str(solver_dir), "solver_sha1": digest.hexdigest()[:12],
            "solver_edited": bool(dirty), "joint": JOINT,
            "python": platform.python_version(),
            "platform": platform.platform(), "cpus": os.cpu_count(),
            "loadavg_before": os.getloadavg()}


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--quick", action="store_true",
                        help=f"only {', '.join(QUICK)}, once")
    parser.add_argument("--repeats", type=int, help="runs per method (default 3, quick 1)")
    parser.add_argument("--scenes", help="comma-separated scene names (default: all)")
    parser.add_argument("--json", type=Path, help="also write every figure to this file")
    parser.add_argument("--no-joint", action="store_true",
                        help="skip combat_reforms(joint=True) on several units")
    parser.add_argument("--joint-of", choices=sorted(SCENES), help=argparse.SUPPRESS)
    parser.add_argument("--profile", choices=sorted(SCENES),
                        help="only print the cProfile hot spots of the solver on one scene")
    args = parser.parse_args(argv)
    return choose(parser, args, args.scenes, list(SCENES), QUICK, "scene")


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    if args.joint_of:  # the child of `run_joint`: one JSON line
        print(json.dumps(joint_here(SCENES[args.joint_of].build(), args.repeats)))
        return 0
    if args.profile:
        print(profile_scene(args.profile))
        return 0
    info = machine()
    print(f"{info['date']}  commit {info['commit']}  Python {info['python']}  "
          f"{info['cpus']} CPUs  load {tuple(round(x, 2) for x in info['loadavg_before'])}  "
          f"repeats {args.repeats}")
    print(f"solver from {info['solver_dir']} (sources sha1 {info['solver_sha1']}"
          f"{', EDITED since the commit' if info['solver_edited'] else ''}; joint reforms "
          f"{'present' if info['joint'] else 'absent'})")
    print(HEADER)
    results = []
    for name in args.names:
        results.append(bench_scene(name, args.repeats,
                                   joint=not (args.quick or args.no_joint)))
        print_row(results[-1])
    summary = summarise(results)
    slowest = max(results, key=lambda r: r["solver"]["median_s"])["scene"]
    single = max((r for r in results if len(r["units"]) == 1),
                 key=lambda r: r["solver"]["median_s"], default=None)
    profile = ""
    if not args.quick:
        profile = profile_scene(slowest)
        print(f"\nwhere the solver's time goes on its slowest scene, {slowest}:\n{profile}")
        if single is not None and single["scene"] != slowest:
            extra = profile_scene(single["scene"])
            print(f"\nand on the slowest single-unit scene, {single['scene']}:\n{extra}")
            profile += "\n\n" + extra
    info["loadavg_after"] = os.getloadavg()
    print(f"load after {tuple(round(x, 2) for x in info['loadavg_after'])}")
    if args.json:
        out = {**info, "repeats": args.repeats, "scenes": results, "summary": summary,
               "slowest": slowest, "profile": profile}
        args.json.write_text(json.dumps(out, indent=1, default=str) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
