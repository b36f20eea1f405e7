"""What the command line loads to start: `import optimizer.cli`, `--version` and `check` of a
Ninth Age move load neither the solver (OR-tools) nor the plotting library (matplotlib) nor
networkx; the commands that need them import them when they run (the start-up's time is
measured by benchmarks/bench_startup.py)."""

from __future__ import annotations

import json
import subprocess
import sys

from tests.support import ROOT

# The HTTP service's libraries load only for `manoeuvre serve`; pydantic, whose models decide
# what a file may hold, only to build their validators, which later runs read back
# (constraints/schema/compiled.py).
HEAVY = ("ortools", "matplotlib", "networkx", "pandas", "fastapi", "uvicorn", "pydantic",
         "starlette")
# Runs the command in-process, then prints which heavy top-level modules were loaded.
PROBE = """\
import json, sys
from optimizer.cli import main
argv = json.loads(sys.argv[1])
status = main(argv) if argv else 0
loaded = sorted({m.split(".")[0] for m in sys.modules} & set(json.loads(sys.argv[2])))
print(json.dumps({"status": status, "loaded": loaded}), file=sys.stderr)
"""


def loaded_by(*argv: str) -> tuple[int, list[str]]:
    done = subprocess.run([sys.executable, "-c", PROBE, json.dumps(argv), json.dumps(HEAVY)],
                          capture_output=True, text=True, cwd=ROOT, timeout=120, check=True)
    report = json.loads(done.stderr.strip().splitlines()[-1])
    return report["status"], report["loaded"]


def test_importing_the_command_line_loads_no_solver_and_no_plotting() -> None:
    assert loaded_by() == (0, [])


def test_version_loads_no_solver_and_no_plotting() -> None:
    assert loaded_by("--version") == (0, [])


def test_checking_a_ninth_age_move_loads_no_solver_and_no_plotting() -> None:
    loaded_by("check", "examples/spears.json", "examples/spears_march.json")  # validators kept
    status, loaded = loaded_by("check", "examples/spears.json", "examples/spears_march.json")
    assert status == 0 and loaded == []


def test_a_search_does_load_the_solver() -> None:
    """The probe can see a module loaded (the tests above would otherwise prove nothing)."""
    status, loaded = loaded_by("solve", "examples/spears.json", "--unit", "spears",
                               "--manoeuvre", "march", "--forward", "--time-limit", "5")
    assert status == 0 and "ortools" in loaded
