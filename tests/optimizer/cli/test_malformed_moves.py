"""Malformed moves and command lines: exit status 2 and one clear line on stderr, never a
traceback (as tests/optimizer/cli/test_malformed.py does for scenarios, whose mutations and
checks these cases share); valid documents round-trip through JSON."""

from __future__ import annotations

import copy
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from constraints.core.scenario_io import (
    load_scenario,
    save_scenario,
    scenario_from_json,
    scenario_to_json,
)
from constraints.t9a.move_io import load_move, move_from_json
from optimizer.cli import main
from tests.optimizer.cli.test_malformed import (
    EXAMPLE,
    EXAMPLE_DATA,
    EXAMPLE_MOVE,
    T0,
    U0,
    VALID_MOVE,
    Mutation,
    assert_one_clear_line,
    both,
    case,
    drop,
    missing,
    put,
    raw,
    replace_with,
    run_check,
    write,
)

# ---------------------------------------------------------------------------------------------
# Move cases, against the valid example scenario.

REFORM = {"unit": "spears", "manoeuvre": "reform", "files": 5, "centre": [36.0, 10.0],
          "facing": 90.0}
ADVANCE = {"unit": "spears", "manoeuvre": "advance", "pivot": 10.0,
           "steps": [{"forward": 1.0}]}

MOVE_CASES = [
    # The file itself.
    case("move-not-json", raw("march spears 2 inches"), "$", "not valid JSON"),
    case("move-empty-file", raw(""), "$", "not valid JSON"),
    case("move-file-missing", missing(), None, "cannot read"),
    case("move-top-level-array", replace_with([VALID_MOVE]), "$", "expected an object"),
    case("move-top-level-string", replace_with("march"), "$", "expected an object"),
    # Keys.
    case("move-missing-unit", drop("unit"), "$", "missing key", "unit"),
    case("move-missing-manoeuvre", drop("manoeuvre"), "$", "missing key", "manoeuvre"),
    case("move-unknown-key", put("speed", 3), "$.speed", "unknown key"),
    case("move-unknown-unit", put("unit", "elves"), "$.unit", "unknown unit", "elves"),
    case("move-unit-is-character", put("unit", "captain"), "$.unit", "unknown unit"),
    case("move-unit-number", put("unit", 3), "$.unit", "string"),
    case("move-unknown-manoeuvre", put("manoeuvre", "charge"), "$.manoeuvre",
         "unknown manoeuvre", "charge"),
    case("move-manoeuvre-case", put("manoeuvre", "March"), "$.manoeuvre", "unknown manoeuvre"),
    # Steps.
    case("move-wheel-120", put("steps", 1, {"wheel": 120.0}), "$.steps[1].wheel", "<= 90"),
    case("move-wheel-minus-120", put("steps", 1, {"wheel": -120.0}), "$.steps[1].wheel",
         ">= -90"),
    case("move-forward-negative", put("steps", 0, {"forward": -2.0}), "$.steps[0].forward",
         ">= 0"),
    case("move-forward-string", put("steps", 0, {"forward": "2"}), "$.steps[0].forward",
         "expected a number"),
    case("move-forward-nan", put("steps", 0, {"forward": float("nan")}), "$.steps[0].forward",
         "finite"),
    case("move-wheel-infinity", put("steps", 1, {"wheel": float("inf")}), "$.steps[1].wheel",
         "finite"),
    case("move-step-two-keys", put("steps", 0, {"forward": 2.0, "wheel": 10.0}),
         "$.steps[0]", "exactly one"),
    case("move-step-no-key", put("steps", 0, {}), "$.steps[0]", "exactly one"),
    case("move-step-unknown-key", put("steps", 0, {"turn": 90}), "$.steps[0].turn",
         "unknown key"),
    case("move-step-number", put("steps", 0, 2.0), "$.steps[0]", "expected an object"),
    case("move-steps-object", put("steps", {"forward": 2.0}), "$.steps", "expected an array"),
    # Which keys go with which manoeuvre.
    case("move-pivot-on-march", put("pivot", 30.0), "$.pivot", "only an Advance"),
    case("move-pivot-bool", both(replace_with(ADVANCE), put("pivot", True)), "$.pivot",
         "expected a number"),
    case("move-steps-on-reform", both(replace_with(REFORM), put("steps", [{"forward": 1.0}])),
         "$.steps", "no steps"),
    case("move-steps-and-centre", put("centre", [36.0, 12.0]), "$.steps", "not both"),
    case("move-centre-without-facing",
         both(drop("steps"), put("centre", [36.0, 12.0])), "$.centre", "needs both"),
    case("move-facing-without-centre", both(drop("steps"), put("facing", 90.0)), "$.facing",
         "needs both"),
    case("move-reform-centre-three-items", both(replace_with(REFORM),
                                                put("centre", [36.0, 10.0, 0.0])),
         "$.centre", "expected 2 items"),
    case("move-reform-facing-string", both(replace_with(REFORM), put("facing", "north")),
         "$.facing", "expected a number"),
    case("move-files-zero", both(replace_with(REFORM), put("files", 0)), "$.files", ">= 1"),
    case("move-files-five-string", both(replace_with(REFORM), put("files", "five")), "$.files",
         "whole number"),
    case("move-files-float", both(replace_with(REFORM), put("files", 5.5)), "$.files",
         "whole number"),
    case("move-files-zero-on-march", put("files", 0), "$.files", ">= 1"),
    # Assignments.
    case("move-assignment-unknown-model",
         both(replace_with(REFORM), put("assignment", {"ghost": [0, 0]})), "$.assignment.ghost",
         "unknown", "ghost"),
    case("move-assignment-unknown-model-on-march", put("assignment", {"ghost": [0, 0]}),
         "$.assignment.ghost", "unknown", "ghost"),
    case("move-assignment-array", both(replace_with(REFORM), put("assignment", [[0, 0]])),
         "$.assignment", "expected an object"),
    case("move-assignment-slot-negative",
         both(replace_with(REFORM), put("assignment", {"captain": [0, -1]})),
         "$.assignment.captain[1]", ">= 0"),
]


@pytest.mark.parametrize(("change", "json_path", "words"), MOVE_CASES)
def test_malformed_move(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                        change: Mutation, json_path: str | None,
                        words: tuple[str, ...]) -> None:
    scenario, move = tmp_path / "scenario.json", tmp_path / "move.json"
    write(scenario, EXAMPLE_DATA)
    write(move, change(copy.deepcopy(VALID_MOVE)))
    status, out, err = run_check(capsys, scenario, move)
    assert_one_clear_line(status, out, err, move, json_path, words)


@pytest.mark.parametrize("doc", [
    pytest.param({**VALID_MOVE, "steps": [{"forward": 1e308}]}, id="forward-1e308"),
    pytest.param({**REFORM, "centre": [1e308, 10.0]}, id="reform-centre-1e308"),
    pytest.param({**VALID_MOVE, "steps": [{"forward": 1e20}]}, id="forward-1e20"),
    pytest.param({**REFORM, "files": 1000}, id="reform-files-1000"),
    pytest.param({**VALID_MOVE, "files": 100}, id="march-files-100"),
])
@pytest.mark.filterwarnings("ignore::RuntimeWarning")
def test_absurd_but_finite_numbers(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                   doc: dict[str, Any]) -> None:
    """Finite numbers far out of range: a verdict (exit 1) or bad input (exit 2), no crash."""
    scenario, move = tmp_path / "scenario.json", tmp_path / "move.json"
    write(scenario, EXAMPLE_DATA)
    write(move, doc)
    status, out, err = run_check(capsys, scenario, move)
    assert "Traceback" not in out + err
    if status == 2:
        assert_one_clear_line(status, out, err, move, None, ())
    else:
        assert status == 1 and err == "" and "ILLEGAL" in out


def test_assignment_naming_every_model_but_one_unknown(capsys: pytest.CaptureFixture[str],
                                                       tmp_path: Path) -> None:
    """A full assignment with one model id misspelt: the unknown id is named."""
    scenario, move = tmp_path / "scenario.json", tmp_path / "move.json"
    write(scenario, EXAMPLE_DATA)
    unit = load_scenario(EXAMPLE).unit("spears")
    slots = dict(zip(unit.model_ids(), unit.formation.occupied_slots(), strict=True))
    slots["spears.99"] = slots.pop("spears.0")
    write(move, {**REFORM, "assignment": {k: list(v) for k, v in slots.items()}})
    status, out, err = run_check(capsys, scenario, move)
    assert_one_clear_line(status, out, err, move, "$.assignment.spears.99",
                          ("unknown", "spears.99"))


# ---------------------------------------------------------------------------------------------
# The command line itself, and the controls: the unmutated documents are valid.


@pytest.mark.parametrize("argv", [
    pytest.param([], id="no-command"),
    pytest.param(["check"], id="check-no-files"),
    pytest.param(["check", "a.json"], id="check-one-file"),
    pytest.param(["judge", "a.json", "b.json"], id="unknown-command"),
    pytest.param(["check", "a.json", "b.json", "--colour"], id="unknown-option"),
])
def test_bad_command_line(capsys: pytest.CaptureFixture[str], argv: list[str]) -> None:
    status = main(argv)
    out, err = capsys.readouterr()
    assert_one_clear_line(status, out, err, "command line", None, ())


def test_unmutated_documents_are_valid(capsys: pytest.CaptureFixture[str],
                                       tmp_path: Path) -> None:
    scenario, move = tmp_path / "scenario.json", tmp_path / "move.json"
    write(scenario, EXAMPLE_DATA)
    for doc in (VALID_MOVE, REFORM, ADVANCE):
        write(move, doc)
        status, out, err = run_check(capsys, scenario, move)
        assert status in (0, 1), err
        assert err == "" and out


# ---------------------------------------------------------------------------------------------
# End to end, in a fresh interpreter.


def run_cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "optimizer.cli", *args], capture_output=True,
                          text=True, timeout=120, check=False)


@pytest.mark.parametrize(("which", "change", "json_path", "word"), [
    pytest.param("scenario", raw("{not json"), "$", "not valid JSON", id="scenario-not-json"),
    pytest.param("scenario", put(*U0, "base", 0, -20), "$.units[0].base[0]", "> 0",
                 id="scenario-negative-base"),
    pytest.param("scenario", put(*T0, "polygon", [[30, 30], [34, 33], [34, 30], [30, 33]]),
                 "$.terrain[0].polygon", "not simple", id="scenario-bow-tie"),
    pytest.param("move", put("unit", "elves"), "$.unit", "unknown unit", id="move-unknown-unit"),
    pytest.param("move", put("steps", 1, {"wheel": 120.0}), "$.steps[1].wheel", "<= 90",
                 id="move-wheel-120"),
    pytest.param("move", missing(), None, "cannot read", id="move-missing"),
])
def test_subprocess_bad_input(tmp_path: Path, which: str, change: Mutation,
                              json_path: str | None, word: str) -> None:
    scenario, move = tmp_path / "scenario.json", tmp_path / "move.json"
    write(scenario, change(copy.deepcopy(EXAMPLE_DATA)) if which == "scenario"
          else EXAMPLE_DATA)
    write(move, change(copy.deepcopy(VALID_MOVE)) if which == "move" else VALID_MOVE)
    done = run_cli("check", str(scenario), str(move))
    bad = scenario if which == "scenario" else move
    assert_one_clear_line(done.returncode, done.stdout, done.stderr, bad, json_path, (word,))


def test_subprocess_console_script(tmp_path: Path) -> None:
    """The installed `manoeuvre` script, when present beside the interpreter."""
    script = Path(sys.executable).parent / "manoeuvre"
    if not script.exists():
        pytest.skip("no manoeuvre console script beside this interpreter")
    scenario, move = tmp_path / "scenario.json", tmp_path / "move.json"
    write(scenario, put(*U0, "height", 7)(copy.deepcopy(EXAMPLE_DATA)))
    write(move, VALID_MOVE)
    done = subprocess.run([str(script), "check", str(scenario), str(move)],
                          capture_output=True, text=True, timeout=120, check=False)
    assert_one_clear_line(done.returncode, done.stdout, done.stderr, scenario,
                          "$.units[0].height", ("<= 5",))


def test_subprocess_valid_input_is_not_bad_input() -> None:
    done = run_cli("check", str(EXAMPLE), str(EXAMPLE_MOVE), "--json")
    assert done.returncode in (0, 1), done.stderr
    assert "Traceback" not in done.stderr
    assert json.loads(done.stdout)["unit"] == "spears"


# ---------------------------------------------------------------------------------------------
# Round trips of valid documents.


def test_scenario_round_trips_through_json() -> None:
    scenario = load_scenario(EXAMPLE)
    assert scenario_from_json(scenario_to_json(scenario)) == scenario
    text = json.dumps(scenario_to_json(scenario))
    assert scenario_from_json(json.loads(text)) == scenario


def test_scenario_save_then_load(tmp_path: Path) -> None:
    scenario = load_scenario(EXAMPLE)
    path = tmp_path / "saved.json"
    save_scenario(scenario, path)
    again = load_scenario(path)
    assert again == scenario
    assert scenario_to_json(again) == scenario_to_json(scenario)


def test_move_round_trips_through_json() -> None:
    move = load_move(EXAMPLE_MOVE)
    assert move_from_json(move.to_json()) == move
    for doc in (VALID_MOVE, REFORM, ADVANCE):
        assert move_from_json(move_from_json(doc).to_json()) == move_from_json(doc)
