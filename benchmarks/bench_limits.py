"""Whole-command wall time against `--time-limit`, on large inputs, idle and loaded.

    .venv/bin/python benchmarks/bench_limits.py [--limits 5,10,20] [--cases A,B] [--quick]
                                                [--repeats N] [--json OUT]
                                                [--random 122,151,196] [--tree DIR]

By default: issue 22's two Advances (benchmarks/scenarios/advance_over_time_limit*.json,
whose model building once ignored the clock: 18 s under a 5 s limit) under limits of 5, 10
and 20 s, about three minutes in all; `--quick`: 5 s only.  Also (`--cases`), large inputs
generated here from fixed seeds (written to a temporary folder): a
1,000-model unit (an Advance and a Reform), a Reform among 30 units, a Reform among 200
rocks.  Each request runs `manoeuvre solve ... --time-limit S --json` as a fresh process
(imports included) and its wall time is measured from outside; "loaded" runs the same with a
busy loop on the other core.  The target: the command ends within 0.5 s of the limit.  Also
printed: each answer's status and `stopped_by`, so a search that ends early (proved) is told
apart from one the clock cut.

`--random N,M,...`: bench_random.py's requests of those numbers (its seed and count), each
written to a scenario file and solved by the same command (issue 31: 122, 151 and 196 once
overran 10 s by 0.5-2.4 s under load; 48, 106, 138, 167, 174, 195 and 199 were cut by the
clock).  `--tree DIR`: also run each command with DIR's code (say, a worktree of main:
`git worktree add --detach /tmp/old main`), beside this tree's, in the same run and under the
same load, the two alternating.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import numpy as np

MANOEUVRE = Path(sys.executable).parent / "manoeuvre"
SCENARIOS = Path(__file__).parent / "scenarios"


def _unit(uid: str, centre: tuple[float, float], facing: float, models: int = 10,
          files: int = 5, base: tuple[float, float] = (20.0, 20.0), player: str = "red",
          mobility: float = 4.0) -> dict[str, Any]:
    return {"id": uid, "player": player, "base": list(base), "models": models, "files": files,
            "centre": [round(centre[0], 3), round(centre[1], 3)], "facing": facing,
            "mobility": mobility}


def _field(units: list, terrain: list, width: float = 72.0, depth: float = 48.0) -> dict:
    return {"format": "manoeuvre/1", "rules": "t9a", "battlefield": {"width": width,
            "depth": depth}, "terrain": terrain, "units": units}


def horde() -> dict:
    """One 1,000-model unit: 40 files of 20 mm bases, 25 ranks (31.5" x 19.7")."""
    return _field([_unit("horde", (36.0, 14.0), 90.0, models=1000, files=40)], [])


def crowd(count: int = 30, seed: int = 1) -> dict:
    """A 10-model unit in the middle of 30 others, each placed where it overlaps nothing."""
    rng = np.random.default_rng(seed)
    units = [_unit("mover", (36.0, 24.0), 90.0)]
    boxes = [(36.0, 24.0)]
    while len(units) <= count:
        x, y = rng.uniform(5.0, 67.0), rng.uniform(5.0, 43.0)
        if all(abs(x - bx) > 6.5 or abs(y - by) > 3.5 for bx, by in boxes):
            boxes.append((x, y))
            units.append(_unit(f"u{len(units)}", (x, y), float(rng.choice([90.0, 270.0])),
                               player="blue" if len(units) % 2 else "red"))
    return _field(units, [])


def rocks(count: int = 200, seed: int = 2) -> dict:
    """A 10-model unit among 200 small rocks (triangles 0.4-1" across), none within 1.2" of
    it."""
    rng = np.random.default_rng(seed)
    terrain = []
    while len(terrain) < count:
        x, y = rng.uniform(1.0, 71.0), rng.uniform(1.0, 47.0)
        if abs(x - 36.0) < 4.5 and abs(y - 24.0) < 3.0:
            continue
        size = rng.uniform(0.4, 1.0)
        angles = rng.uniform(0.0, 2 * np.pi) + np.array([0.0, 2.1, 4.2])
        pts = [[round(x + size * np.cos(a) / 2, 3), round(y + size * np.sin(a) / 2, 3)]
               for a in angles]
        terrain.append({"id": f"rock{len(terrain)}", "kind": "impassable", "polygon": pts})
    return _field([_unit("mover", (36.0, 24.0), 90.0)], terrain)


def _stored(name: str) -> Any:
    def load() -> dict:
        return dict(json.loads((SCENARIOS / name).read_text()))
    return load


CASES = {
    "advance-22": (_stored("advance_over_time_limit.json"), "hero", "advance",
                   ["--target", "37.786,36.0"]),
    "advance-22b": (_stored("advance_over_time_limit_2.json"), "hero", "advance",
                    ["--target", "7.162,28.848"]),
    "horde-advance": (horde, "horde", "advance", ["--target", "36,18"]),
    "horde-reform": (horde, "horde", "reform", ["--target", "37,15", "--facing", "60"]),
    "crowd30-reform": (crowd, "mover", "reform", ["--target", "37,25", "--facing", "45"]),
    "rocks200-reform": (rocks, "mover", "reform", ["--target", "37,25", "--facing", "45"]),
}


DEFAULT_CASES = "advance-22,advance-22b"


def _spin(seconds: float) -> None:
    end = time.perf_counter() + seconds
    while time.perf_counter() < end:
        pass


RANDOM_SEED, RANDOM_COUNT = 20261201, 200  # bench_random.py's defaults


def random_cases(numbers: list[int]) -> dict[str, tuple]:
    """bench_random.py's requests of these numbers as cases of the command."""
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    from benchmarks.random_requests import random_requests
    from constraints.core.scenario_io import scenario_to_json

    requests = random_requests(RANDOM_COUNT, RANDOM_SEED)
    cases: dict[str, tuple] = {}
    for n in numbers:
        request = requests[n]
        data = scenario_to_json(request.scenario)
        cases[f"random-{n}"] = (lambda data=data: data, request.unit, request.manoeuvre,
                                _objective_args(request.objective))
    return cases


def _objective_args(objective: Any) -> list[str]:
    """The command's arguments for an objective (`manoeuvre solve --help`)."""
    point = None if objective.point is None else f"{objective.point[0]},{objective.point[1]}"
    name = objective.name
    if name == "forward":
        return ["--forward"]
    if name == "face_point":
        return ["--face", str(point)]
    if name == "front_target_distance":
        return ["--target", str(point), "--front"]
    if name == "target_pose":
        return ["--target", str(point), "--facing", str(objective.facing_deg)]
    return ["--target", str(point)]


# `--in-process`: the search alone, `best_move` timed around its call in a fresh process (as
# bench_random.py times it), the objective read from the command's arguments.
IN_PROCESS = """
import json, sys, time
from constraints.core.scenario_io import load_scenario
from optimizer import Objective, best_move
path, unit, manoeuvre, limit, *extra = sys.argv[1:]
point = lambda text: tuple(float(v) for v in text.split(","))
if "--forward" in extra:
    objective = Objective("forward")
elif "--face" in extra:
    objective = Objective("face_point", point(extra[extra.index("--face") + 1]))
else:
    target = point(extra[extra.index("--target") + 1])
    if "--facing" in extra:
        objective = Objective("target_pose", target, float(extra[extra.index("--facing") + 1]))
    else:
        objective = Objective("front_target_distance" if "--front" in extra
                              else "target_distance", target)
scenario = load_scenario(path)
started = time.perf_counter()
result = best_move(scenario, unit, manoeuvre, objective, time_limit_s=float(limit))
elapsed = time.perf_counter() - started
print(json.dumps({**result.to_json(), "elapsed_s": elapsed}))
"""


def run(path: Path, unit: str, manoeuvre: str, extra: list[str], limit: float,
        tree: Path | None = None, in_process: bool = False) -> dict:
    """One command; with `tree`, that tree's code (`python -m optimizer.cli` on its path);
    `in_process`: the search alone (IN_PROCESS), its own time as the wall time."""
    head = [str(MANOEUVRE)] if tree is None else [sys.executable, "-m", "optimizer.cli"]
    command = [*head, "solve", str(path), "--unit", unit, "--manoeuvre", manoeuvre,
               *extra, "--time-limit", str(limit), "--json"]
    if in_process:
        command = [sys.executable, "-c", IN_PROCESS, str(path), unit, manoeuvre, str(limit),
                   *extra]
    env = None if tree is None else {**os.environ, "PYTHONPATH": str(tree)}
    started = time.perf_counter()
    done = subprocess.run(command, capture_output=True, text=True, check=False, env=env,
                          cwd=tree)
    wall = time.perf_counter() - started
    try:
        answer = json.loads(done.stdout)
    except json.JSONDecodeError:
        answer = {"status": f"exit {done.returncode}: {done.stderr.strip()[:120]}"}
    if in_process and "elapsed_s" in answer:
        wall = answer["elapsed_s"]
    return {"wall_s": wall, "search_s": answer.get("elapsed_s"), "status": answer.get("status"),
            "stopped_by": answer.get("stopped_by"), "value": (answer.get("objective") or {})
            .get("value")}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--limits", default="5,10,20", help="time limits (s), comma-separated")
    parser.add_argument("--quick", action="store_true", help="a 5 s limit only")
    parser.add_argument("--repeats", type=int, default=1)
    parser.add_argument("--cases", default=DEFAULT_CASES)
    parser.add_argument("--json", type=Path)
    parser.add_argument("--random", help="bench_random.py's requests of these numbers")
    parser.add_argument("--tree", type=Path, help="also run with this tree's code")
    parser.add_argument("--loads", default="idle,loaded")
    parser.add_argument("--in-process", action="store_true",
                        help="time the search alone (best_move), not the whole command")
    args = parser.parse_args()
    limits = [5.0] if args.quick else [float(v) for v in args.limits.split(",")]
    cases = dict(CASES)
    names = args.cases.split(",") if args.cases else []
    if args.random:
        more = random_cases([int(n) for n in args.random.split(",")])
        cases.update(more)
        names = list(more) if args.cases == DEFAULT_CASES else names + list(more)
    trees: list[Path | None] = [None] if args.tree is None else [None, args.tree.resolve()]
    print(f"{time.strftime('%Y-%m-%d %H:%M')}  load {os.getloadavg()}  limits {limits} s")
    out: dict[str, Any] = {}
    with tempfile.TemporaryDirectory() as tmp:
        for name in names:
            make, unit, manoeuvre, extra = cases[name]
            path = Path(tmp) / f"{name}.json"
            path.write_text(json.dumps(make()))
            for limit in limits:
                for load in args.loads.split(","):
                    for tree in trees:
                        runs = _runs(path, unit, manoeuvre, extra, limit, load, args.repeats,
                                     tree, args.in_process)
                        key = f"{name}/{limit:g}/{load}" + ("" if tree is None else "/tree")
                        _print(key, runs, limit)
                        out[key] = runs
    if args.json:
        args.json.write_text(json.dumps(out, indent=1) + "\n")


def _print(key: str, runs: list[dict], limit: float) -> None:
    wall = statistics.median(r["wall_s"] for r in runs)
    last = runs[-1]
    print(f"{key:30} wall {wall:6.2f} s  over the limit {wall - limit:+6.2f} s  "
          f"(search {last['search_s']} s)  {last['status']}  "
          f"stopped_by {last['stopped_by']}  value {last['value']}", flush=True)


def _runs(path: Path, unit: str, manoeuvre: str, extra: list[str], limit: float, load: str,
          repeats: int, tree: Path | None = None, in_process: bool = False) -> list[dict]:
    """`repeats` runs of one request; "loaded": beside a busy loop on another core."""
    busy = None
    if load == "loaded":
        busy = multiprocessing.get_context("spawn").Process(
            target=_spin, args=(repeats * (limit + 30.0),))
        busy.start()
    try:
        return [run(path, unit, manoeuvre, extra, limit, tree, in_process)
                for _ in range(repeats)]
    finally:
        if busy is not None:
            busy.terminate()
            busy.join()


if __name__ == "__main__":
    main()
