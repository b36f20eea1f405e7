"""A seeded fuzz of every command and of the public API with hostile input (hypothesis).

Malformed input must give exit status 2 (the API: `InvalidInputError`) with one line of at
most 300 characters: never a traceback, never another exception, never a hang, never a
partial output file.  Valid input that the fuzz happens to build must give an answer (exit
status 0 or 1).  Every example is small: the bundled two-unit scenario, time limits of a
second, small work budgets.

The default run is a few tens of seconds; MANOEUVRE_FUZZ_EXAMPLES=N runs N examples per
fuzzed target (the defaults below are relative to 40), e.g. 2000 for a long hunt.  The runs
are derandomised: the same N gives the same examples.
"""

from __future__ import annotations

import contextlib
import io
import json
import math
import os
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

import optimizer
from optimizer.cli import main
from tests.support import ROOT

SCENARIO_FILE = ROOT / "examples" / "spears.json"
SCENARIO_DATA = json.loads(SCENARIO_FILE.read_text(encoding="utf-8"))
MOVES = [{"unit": "spears", "manoeuvre": "march",
          "steps": [{"forward": 2.0}, {"wheel": -45.0}, {"forward": 1.0}]},
         {"unit": "spears", "manoeuvre": "advance", "pivot": 30.0,
          "steps": [{"forward": 1.5}]},
         {"unit": "spears", "manoeuvre": "reform", "files": 6, "centre": [36.0, 10.5],
          "facing": 90.0},
         {"unit": "spears", "manoeuvre": "march", "centre": [36.0, 13.0], "facing": 90.0}]
PREFIX = "manoeuvre: error: "
WARNING = "manoeuvre: warning: "
BASE = int(os.environ.get("MANOEUVRE_FUZZ_EXAMPLES", "40"))
SPEARS = optimizer.load_scenario(SCENARIO_FILE)


def fuzz(share: float) -> Callable[[Any], Any]:
    """Seeded settings: `share` x MANOEUVRE_FUZZ_EXAMPLES examples (at least 1)."""
    return settings(max_examples=max(1, round(BASE * share)), deadline=None,
                    derandomize=True, database=None,
                    suppress_health_check=[HealthCheck.too_slow,
                                           HealthCheck.data_too_large])


# ---------------------------------------------------------------------------------------------
# Hostile values.

NUMBERS = st.sampled_from([math.nan, math.inf, -math.inf, 1e300, -1e300, 1e30, 1e11, 1e7,
                           1e6 + 1, -1.0, -0.0, 0.0, 1e-300, 5e-324, 0.5, 2.0, 90.0, 91.0,
                           450.0, -720.0, 10**30, 2**63, 10**400, -(2**70), 0, 1, 3, 1000,
                           1001]) | st.floats() | st.integers(-(10**6), 10**6)
# A value of 100 kB, built (not listed) so that hypothesis's reports stay short.
LONG = st.builds(lambda: "x" * 100_000)
TEXTS = LONG | st.sampled_from(["", "\ud800", "a\ud800b", "a\nb", "tab\there", "\x00",
                                "\x1b[31m", "\u2028", "spears", "orcs", "captain", "march",
                         "advance", "reform", "t9a", "t9a-2025", "impassable", "dangerous",
                         "manoeuvre/1", "forward", "wheel"]) | st.text(max_size=12)
LEAVES = NUMBERS | TEXTS | st.booleans() | st.none()
VALUES = st.recursive(LEAVES, lambda inner: st.lists(inner, max_size=4)
                      | st.dictionaries(TEXTS, inner, max_size=3), max_leaves=8)


def paths_of(doc: Any, here: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every path to a value inside `doc` (the root excluded)."""
    found = []
    if isinstance(doc, dict):
        items: list[tuple[Any, Any]] = list(doc.items())
    elif isinstance(doc, list):
        items = list(enumerate(doc))
    else:
        return []
    for key, value in items:
        found.append((*here, key))
        found += paths_of(value, (*here, key))
    return found


@st.composite
def mutated(draw: st.DrawFn, doc: Any) -> Any:
    """`doc` with one to three hostile changes: a value replaced, a key dropped, an unknown
    key added, an array emptied or grown."""
    doc = json.loads(json.dumps(doc))
    for _ in range(draw(st.integers(1, 3))):
        paths = paths_of(doc)
        if not paths:
            break
        path = draw(st.sampled_from(paths))
        parent = doc
        for key in path[:-1]:
            parent = parent[key]
        action = draw(st.sampled_from(["replace", "replace", "replace", "drop", "add",
                                       "empty", "grow"]))
        key = path[-1]
        if action == "replace":
            parent[key] = draw(VALUES)
        elif action == "drop":
            del parent[key]
        elif action == "add" and isinstance(parent, dict):
            parent[draw(TEXTS)] = draw(VALUES)
        elif action == "empty" and isinstance(parent[key], list | dict):
            parent[key] = type(parent[key])()
        elif action == "grow" and isinstance(parent[key], list) and parent[key]:
            parent[key] = parent[key] * draw(st.integers(2, 50))
    return doc


RAW_FILES = st.sampled_from([b"", b"{", b"[" * 100_000, b"\xff\xfe\x00", b"null", b"1e999",
                             b'{"format": "manoeuvre/1"', b"NaN", b"9" * 5000,
                             b'"\\ud800"']) | st.binary(max_size=64)


@st.composite
def document(draw: st.DrawFn, valid: Any) -> bytes:
    """The bytes of a file: usually `valid` mutated, sometimes junk, sometimes `valid` itself
    (so that the rest of the command line is fuzzed too)."""
    roll = draw(st.integers(0, 9))
    if roll == 9:
        return draw(RAW_FILES)
    if roll <= 2:
        return json.dumps(valid).encode("utf-8")
    return json.dumps(draw(mutated(valid))).encode("utf-8")


# ---------------------------------------------------------------------------------------------
# Running a command.


def run_cli(argv: list[str]) -> tuple[int, str, str]:
    """`manoeuvre argv` in-process: status, stdout, stderr.  Any exception but SystemExit
    (--help) escapes and fails the test: that is a traceback."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            status = main(argv)
        except SystemExit as stop:  # --help, --version
            status = int(stop.code or 0)
    return status, out.getvalue(), err.getvalue()


def assert_answer_or_one_line(status: int, out: str, err: str) -> None:
    event(f"exit status {status}")  # counts in --hypothesis-show-statistics
    assert "Traceback" not in out + err
    if status == 2:
        assert out == "", out[:300]
        assert err.endswith("\n") and err.count("\n") == 1, err[:600]
        assert err.startswith(PREFIX) and len(err) - 1 <= 300, err[:600]
    else:
        assert status in (0, 1), (status, err[:300])
        # An answer may come with plausibility warnings (docs/formats.md): whole lines, each
        # `manoeuvre: warning: ...`; nothing else on stderr.
        assert all(line.startswith(WARNING) and len(line) <= 300
                   for line in err.splitlines()), err[:300]
        assert err == "" or err.endswith("\n"), err[:300]


def files_in(folder: Path) -> set[str]:
    return {p.name for p in folder.iterdir()}


# ---------------------------------------------------------------------------------------------
# The commands.


@fuzz(4.0)
@given(scenario=document(SCENARIO_DATA), move=st.sampled_from(MOVES).flatmap(document),
       as_json=st.booleans())
def test_fuzz_check(scenario: bytes, move: bytes, as_json: bool) -> None:
    with tempfile.TemporaryDirectory() as folder:
        paths = Path(folder, "scenario.json"), Path(folder, "move.json")
        paths[0].write_bytes(scenario)
        paths[1].write_bytes(move)
        status, out, err = run_cli(["check", *map(str, paths)] + (["--json"] if as_json else []))
    assert_answer_or_one_line(status, out, err)


MELEE = ROOT / "examples" / "melee.json"
MELEE_CASUALTIES = ROOT / "examples" / "melee_casualties.json"
# A player's nudges (`check SCENARIO NUDGE.json`): a `nudge --json` result's keys that are
# read, and some it writes that are read past.
NUDGES = {"status": "OPTIMAL", "nudges": [{"unit": "wolves", "legs": [{"sideways": 0.2}],
                                           "distance": 0.2, "touches": ["orcs"]}],
          "order": ["wolves"], "in_combat": 3, "removed": []}


@fuzz(1.0)
@given(nudges=document(NUDGES), casualties=st.booleans(), as_json=st.booleans())
def test_fuzz_check_nudges(nudges: bytes, casualties: bool, as_json: bool) -> None:
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder, "nudges.json")
        path.write_bytes(nudges)
        status, out, err = run_cli(["check", str(MELEE), str(path)]
                                   + (["--casualties", str(MELEE_CASUALTIES)] if casualties
                                      else []) + (["--json"] if as_json else []))
    assert_answer_or_one_line(status, out, err)


ARG_VALUES = st.sampled_from(["nan", "inf", "-inf", "-1", "0", "1e400", "", "x", "-1,-1",
                              "1,2,3", "1e7,1", "nan,1", "40,20", "36.5,14", "--json",
                              "\ud800", "a\nb", "x" * 5000, "0.3", "2", "-90", "450"])
SOLVE_OPTIONS = st.sampled_from(["--target", "--face", "--facing", "--time-limit", "--effort",
                                 "--unit", "--manoeuvre", "--targ", "--bogus"])


@st.composite
def solve_argv(draw: st.DrawFn) -> list[str]:
    """A `solve` command line: half sane (so that searches run), half with hostile parts
    swapped in or added."""
    goal = draw(st.sampled_from([["--target", "40,20"], ["--face", "40,30"], ["--forward"],
                                 ["--target", "-1,-1", "--facing", "-90"],
                                 ["--target", "38,15", "--front"]]))
    argv = ["solve", str(SCENARIO_FILE), "--unit", "spears", "--manoeuvre",
            draw(st.sampled_from(["march", "advance", "reform"])), *goal]
    if draw(st.booleans()):
        return argv + ["--time-limit", "1", "--effort", draw(st.sampled_from(["0.2", "0.5"]))]
    argv[3] = draw(st.sampled_from(["spears", "orcs", "ghost", "", "\ud800"]))
    argv += draw(st.sampled_from([[], ["--front"], ["--facing", "30"], ["--json"]]))
    for _ in range(draw(st.integers(0, 3))):
        argv += [draw(SOLVE_OPTIONS), draw(ARG_VALUES)]
    # Small budgets last (argparse keeps the last): a search here takes a second at most.
    return argv + ["--time-limit", draw(st.sampled_from(["1", "nan", "-2", "0"])),
                   "--effort", draw(st.sampled_from(["0.2", "inf", "-1", "1e99"]))]


@fuzz(0.5)
@given(argv=solve_argv())
def test_fuzz_solve(argv: list[str]) -> None:
    assert_answer_or_one_line(*run_cli(argv))


@fuzz(0.5)
@given(scenario=document(SCENARIO_DATA),
       unit=st.sampled_from(["spears", "spears", "spears", "ghost", "\ud800"]),
       manoeuvre=st.sampled_from(["march", "advance", "reform", "charge"]),
       limit=st.sampled_from(["3", "1", "3", "0", "-5", "x", "nan", "99999999999999999999"]),
       as_json=st.booleans())
def test_fuzz_moves(scenario: bytes, unit: str, manoeuvre: str, limit: str,
                    as_json: bool) -> None:
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder, "scenario.json")
        path.write_bytes(scenario)
        argv = ["moves", str(path), "--unit", unit, "--manoeuvre", manoeuvre, "--limit", limit]
        assert_answer_or_one_line(*run_cli(argv + (["--json"] if as_json else [])))


OUTPUTS = st.sampled_from(["out.png", "out.svg", "out.png", "out.svg", "missing/out.png", ".",
                           "out.gif", "",
                           "x" * 300 + ".png", "/proc/self/out.png", "out.PNG", "-",
                           "a\nb.png"])


@fuzz(0.4)
@given(move=st.sampled_from(MOVES).flatmap(document), output=OUTPUTS,
       region=st.booleans())
def test_fuzz_render(move: bytes, output: str, region: bool) -> None:
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder, "move.json")
        path.write_bytes(move)
        target = Path(folder, output) if output and not output.startswith("/") else \
            Path(output)
        before = files_in(Path(folder))
        argv = ["render", str(SCENARIO_FILE), str(path), "-o", str(target)]
        status, out, err = run_cli(argv + (["--region"] if region else []))
        assert_answer_or_one_line(status, out, err)
        if status == 2:  # nothing left behind
            assert files_in(Path(folder)) == before


@fuzz(0.5)
@given(argv=st.lists(ARG_VALUES | SOLVE_OPTIONS | st.sampled_from(
    ["check", "render", "moves", "solve", "--help", "--version", "-o", str(SCENARIO_FILE)]),
    max_size=6))
def test_fuzz_command_lines(argv: list[str]) -> None:
    """Any jumble of words: help, or one line of bad input, never a crash.  (A jumble that
    happens to be a valid command is given a small budget.)"""
    if argv[:1] == ["solve"]:
        argv = argv + ["--time-limit", "1", "--effort", "0.2"]
    if argv[:1] in (["render"], ["moves"]):
        return  # their sane runs are fuzzed above, with files in a temporary folder
    assert_answer_or_one_line(*run_cli(argv))


# ---------------------------------------------------------------------------------------------
# The public API.
