"""Two source trees side by side: `best_move` on the bench cases, interleaved in one run.

    .venv/bin/python benchmarks/bench_compare.py OLD_TREE NEW_TREE [--repeats 5]
                                                 [--cases NAME,...] [--json OUT]

For a change that must not change answers or speed (a refactor), run the commit before and
the commit after (e.g. `git worktree add /tmp/old HEAD~3`).  One worker process per tree
imports that tree's packages and answers "solve case X" requests; the driver alternates the
trees request by request (A B, then B A), so machine load falls on both alike.  Each request
loads the scenario afresh (no cache carries over).  Reported per case: both values (they must
be equal), whether the moves are the same (`moved`: a different move of the same value), the
median of each tree's times and their ratio new / old.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
from pathlib import Path
from typing import Any

from bench_solve import CASES, SCENARIOS, TIME_LIMIT_S

WORKER = r"""
import json, sys, time
sys.path.insert(0, sys.argv[1])
from optimizer import Objective, best_move, load_scenario
make = getattr(Objective, "named", Objective)
for line in sys.stdin:
    case = json.loads(line)
    objective = make(case["objective"], case["point"], case["facing"])
    scenario = load_scenario(case["path"])
    started = time.perf_counter()
    result = best_move(scenario, case["unit"], case["manoeuvre"], objective,
                       time_limit_s=case["limit"])
    elapsed = time.perf_counter() - started
    print(json.dumps({"value": result.value, "status": str(result.status),
                      "stopped_by": getattr(result, "stopped_by", None),
                      "move": result.move.to_json() if result.move else None,
                      "time_s": elapsed}), flush=True)
"""


class Worker:
    """A process that imports one tree and solves cases on request."""

    def __init__(self, tree: Path) -> None:
        self.tree = tree
        self.proc = subprocess.Popen([sys.executable, "-c", WORKER, str(tree)], cwd=tree,
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
                                     env={"PYTHONPATH": str(tree), "PATH": "/usr/bin:/bin"})

    def solve(self, name: str) -> dict[str, Any]:
        file, unit, manoeuvre, objective, _ = CASES[name]
        request = {"path": str(SCENARIOS / file), "unit": unit, "manoeuvre": manoeuvre,
                   "objective": objective.name, "point": objective.point,
                   "facing": objective.facing_deg, "limit": TIME_LIMIT_S}
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self.proc.stdin.write(json.dumps(request) + "\n")
        self.proc.stdin.flush()
        return json.loads(self.proc.stdout.readline())

    def close(self) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.close()
        self.proc.wait()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("old", type=Path)
    parser.add_argument("new", type=Path)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--cases", default=",".join(CASES))
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()
    names = args.cases.split(",")
    workers = {"old": Worker(args.old.resolve()), "new": Worker(args.new.resolve())}
    runs: dict[str, dict[str, list[dict[str, Any]]]] = {n: {"old": [], "new": []} for n in names}
    for rep in range(args.repeats):
        for name in names:
            order = ("old", "new") if rep % 2 == 0 else ("new", "old")
            for side in order:
                runs[name][side].append(workers[side].solve(name))
    for worker in workers.values():
        worker.close()
    report(runs)
    if args.json:
        args.json.write_text(json.dumps(runs, indent=1) + "\n")


def report(runs: dict[str, dict[str, list[dict[str, Any]]]]) -> None:
    print(f"{'case':18} {'old value':>10} {'new value':>10} {'same':>5} {'moved':>5} "
          f"{'old s':>7} {'new s':>7} {'new/old':>7}  statuses old -> new")
    ratios, same, moved = [], 0, 0
    proved = {"old": 0, "new": 0}
    for name, sides in runs.items():
        values = {side: {r["value"] for r in found} for side, found in sides.items()}
        medians = {side: statistics.median(r["time_s"] for r in found)
                   for side, found in sides.items()}
        equal = values["old"] == values["new"] and len(values["old"]) == 1
        same += equal
        moves = {side: {json.dumps(r.get("move"), sort_keys=True) for r in found}
                 for side, found in sides.items()}
        changed = moves["old"] != moves["new"]
        moved += changed
        ratio = medians["new"] / medians["old"]
        ratios.append(ratio)
        old_v, new_v = (",".join("-" if v is None else f"{v:.4f}"
                                 for v in sorted(values[side], key=lambda v: (v is None, v)))
                        for side in ("old", "new"))
        statuses = {side: ",".join(sorted({r["status"] for r in found}))
                    for side, found in sides.items()}
        for side, found in sides.items():  # proved in every repeat
            proved[side] += all(r["status"] in ("OPTIMAL", "INFEASIBLE") for r in found)
        print(f"{name:18} {old_v:>10} {new_v:>10} {'yes' if equal else 'NO':>5} "
              f"{'yes' if changed else '':>5} {medians['old']:7.3f} {medians['new']:7.3f} "
              f"{ratio:7.2f}  {statuses['old']} -> {statuses['new']}")
    print(f"\nsame values in {same}/{len(runs)} cases, other moves in {moved}; median of the "
          f"time ratios new/old {statistics.median(ratios):.3f} (min {min(ratios):.2f}, max "
          f"{max(ratios):.2f}); proved (OPTIMAL or INFEASIBLE) in every repeat: old "
          f"{proved['old']}/{len(runs)}, new {proved['new']}/{len(runs)}")


if __name__ == "__main__":
    main()
