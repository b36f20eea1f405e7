"""Start-up of the command line: whole-process wall time of `manoeuvre --version`, a `check`
and a `solve` on the bundled examples, against `python -c pass` and
`python -c "import numpy, shapely"` timed in the same run.

    .venv/bin/python benchmarks/bench_startup.py [--runs N] [--json OUT] [--source DIR]
                                                 [--baseline DIR]

Each round runs every command once, in turn (so a burst of load on the shared machine falls
on all of them alike); the table shows min / median / max seconds over `--runs` rounds and the
median's ratio to the two baselines.  The commands run as `python -m optimizer.cli ...` (what
the `manoeuvre` script runs) from the project folder.  `--source DIR` times another checkout
of the project (its folder first on PYTHONPATH, run from there) with this interpreter: how
the "before" figures of benchmarks/README.md were taken; `--baseline DIR` times another
checkout's commands in the same rounds (before and after in one run).  Targets (issue 26):
`--version` at most 3x `python -c pass`; `check` at most 2.5x `import numpy, shapely`.
`--models` adds the cost of reading `check`'s two files through the pydantic models, stage by
stage (pydantic-core, the checks and records, the validators stored or built, the
validation).  These are timings, not tests: nothing here asserts a speed.
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import platform
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
CLI = [sys.executable, "-m", "optimizer.cli"]
COMMANDS: dict[str, list[str]] = {
    "python -c pass": [sys.executable, "-c", "pass"],
    "import numpy, shapely": [sys.executable, "-c", "import numpy, shapely"],
    "--version": [*CLI, "--version"],
    "check": [*CLI, "check", "examples/spears.json", "examples/spears_march.json"],
    "solve": [*CLI, "solve", "examples/spears.json", "--unit", "spears", "--manoeuvre",
              "march", "--forward", "--time-limit", "30"],
}
# Each command's target, as (baseline, most times the baseline's median).
TARGETS = {"--version": ("python -c pass", 3.0), "check": ("import numpy, shapely", 2.5)}


def wall_time(argv: list[str], cwd: Path, env: dict[str, str]) -> float:
    """Seconds from starting the process to its exit (it must exit 0)."""
    start = time.perf_counter()
    subprocess.run(argv, cwd=cwd, env=env, stdout=subprocess.DEVNULL, check=True)
    return time.perf_counter() - start


def measure(runs: int, source: Path, baseline: Path | None = None) -> dict[str, list[float]]:
    """Each command's wall times; with `baseline`, its `--version`, `check` and `solve` are
    timed in the same rounds too (named "... (baseline)"), so before and after share the
    machine's load."""
    plain = dict(os.environ, MPLBACKEND="Agg")
    env = dict(plain, PYTHONPATH=str(source)) if source != ROOT else plain
    jobs = [(name, argv, source, env) for name, argv in COMMANDS.items()]
    if baseline is not None:
        other = dict(plain, PYTHONPATH=str(baseline))
        jobs += [(f"{name} (baseline)", argv, baseline, other)
                 for name, argv in COMMANDS.items() if argv[:3] == CLI]
    for _, argv, cwd, job_env in jobs:  # warm the file cache; not timed
        wall_time(argv, cwd, job_env)
    times: dict[str, list[float]] = {name: [] for name, *_ in jobs}
    for _ in range(runs):
        for name, argv, cwd, job_env in jobs:
            times[name].append(wall_time(argv, cwd, job_env))
    return times


def table(times: dict[str, list[float]]) -> tuple[str, dict[str, Any]]:
    medians = {name: statistics.median(t) for name, t in times.items()}
    base_pass, base_np = medians["python -c pass"], medians["import numpy, shapely"]
    lines = ["| command | min s | median s | max s | x `python -c pass` | x `import numpy, "
             "shapely` | target |", "|---|---|---|---|---|---|---|"]
    for name, t in times.items():
        target = TARGETS.get(name.removesuffix(" (baseline)"))
        shown = "" if target is None else (
            f"<= {target[1]:g}x `{target[0]}`: "
            f"{'met' if medians[name] <= target[1] * medians[target[0]] else 'NOT met'}")
        lines.append(f"| `{name}` | {min(t):.3f} | {medians[name]:.3f} | {max(t):.3f} | "
                     f"{medians[name] / base_pass:.1f} | {medians[name] / base_np:.2f} | "
                     f"{shown} |")
    figures = {name: {"min_s": min(t), "median_s": medians[name], "max_s": max(t),
                      "x_pass": medians[name] / base_pass, "x_numpy_shapely":
                      medians[name] / base_np} for name, t in times.items()}
    return "\n".join(lines), figures


# What reading the two files of `check` through the models costs, stage by stage, in a fresh
# process: "stored" reads the validators kept in constraints/schema/__pycache__/ (every run
# after the first: no pydantic), "cold" builds them as the first run does (pydantic, the
# model classes, the core schemas; constraints/schema/compiled.py).
MODEL_STAGES = """\
import json, sys, time
marks = [time.perf_counter()]
def lap():
    marks.append(time.perf_counter())
import constraints.core.scenario_io  # the rulebook, numpy and shapely (not timed below)
lap()
import pydantic_core
lap()
from constraints.schema import checks, compiled, errors, records
lap()
names = ("scenario:T9AScenario", "move:T9AMove")
if sys.argv[1] == "cold":
    errors._AS.update({n: pydantic_core.SchemaValidator(compiled._light(n)) for n in names})
else:
    errors._AS.update({n: compiled.validator(n) for n in names})
lap()
errors.read_as(names[0], json.load(open("examples/spears.json")))
errors.read_as(names[1], json.load(open("examples/spears_march.json")))
lap()
print(json.dumps([b - a for a, b in zip(marks[1:], marks[2:])]
                 + ["pydantic" in sys.modules]))
"""
STAGES = ("pydantic-core", "checks, records", "validators", "validation")


def model_stages(runs: int) -> str:
    """A table of the models' cost to `check`, stage by stage (median ms of `runs`)."""
    env = dict(os.environ, MPLBACKEND="Agg")
    lines = ["| validators | " + " | ".join(STAGES) + " | total | pydantic loaded |",
             "|---" * (len(STAGES) + 3) + "|"]
    subprocess.run([sys.executable, "-c", MODEL_STAGES, "stored"], cwd=ROOT, env=env,
                   check=True, stdout=subprocess.DEVNULL)  # store the validators
    for mode in ("stored", "cold"):
        found = [json.loads(subprocess.run(
            [sys.executable, "-c", MODEL_STAGES, mode], cwd=ROOT, env=env, check=True,
            capture_output=True, text=True).stdout) for _ in range(runs)]
        medians = [1000 * statistics.median(f[i] for f in found) for i in range(len(STAGES))]
        lines.append(f"| {mode} | " + " | ".join(f"{m:.1f}" for m in medians)
                     + f" | {sum(medians):.1f} | {'yes' if found[0][-1] else 'no'} |")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=7, help="rounds (default 7)")
    parser.add_argument("--json", metavar="OUT", help="also write the figures here")
    parser.add_argument("--source", type=Path, default=ROOT,
                        help="time this checkout of the project (default: this one)")
    parser.add_argument("--baseline", type=Path, default=None, metavar="DIR",
                        help="also time the commands of this other checkout, in the same "
                        "rounds (before and after in one run)")
    parser.add_argument("--models", action="store_true",
                        help="also time, stage by stage, what reading check's two files "
                        "through the pydantic models costs (ms)")
    args = parser.parse_args()
    source = args.source.resolve()
    baseline = args.baseline.resolve() if args.baseline else None
    text, figures = table(measure(args.runs, source, baseline))
    print(text)
    if args.models:
        print("\n" + model_stages(args.runs))
    if args.json:
        Path(args.json).write_text(json.dumps({
            "date": datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds"),
            "python": platform.python_version(), "cpus": os.cpu_count(),
            "load_average": os.getloadavg(), "source": str(source),
            "baseline": str(baseline) if baseline else None, "runs": args.runs,
            "figures": figures}, indent=2) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
