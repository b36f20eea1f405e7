"""Hostile input and new users at the command line: each case the fuzz of the hostile-input
issue found, and each confusion it named, as a test.

Bad input gives exit status 2 and one line on stderr of at most 300 characters, starting
"manoeuvre: error: " and naming the file and JSON path (or the option); never a traceback,
never a partial output file.
"""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from optimizer import load_scenario
from optimizer.cli import main
from optimizer.cli import search as cli_search
from optimizer.cli import search_output as cli_output
from optimizer.cli.options import join_negative_values, seconds_since_start
from optimizer.cli.search import result_text
from optimizer.search import request as search_request
from optimizer.search import solve as search_solve
from optimizer.search.objectives import Objective
from tests.support import ROOT

SPEARS = ROOT / "examples" / "spears.json"
MARCH = ROOT / "examples" / "spears_march.json"
PREFIX = "manoeuvre: error: "
SOLVE = ["solve", str(SPEARS), "--unit", "spears", "--manoeuvre", "march"]
# A small work budget stops these searches; the wall clock is only a backstop (an answer
# asserted must not depend on the machine's speed).
QUICK = ["--time-limit", "600", "--effort", "0.5"]


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


def bad_input(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    """Run a command that must fail as bad input; its one error line."""
    status, out, err = run(capsys, *argv)
    assert status == 2, (status, out, err)
    assert out == "" and "Traceback" not in err
    assert err.count("\n") == 1 and err.endswith("\n"), err
    line = err[:-1]
    assert line.startswith(PREFIX) and len(line) <= 300, line
    return line


def write_json(path: Path, data: Any) -> Path:
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


def scenario_with(tmp_path: Path, change: Any) -> Path:
    data = json.loads(SPEARS.read_text(encoding="utf-8"))
    change(data)
    return write_json(tmp_path / "scenario.json", data)


# ---------------------------------------------------------------------------------------------
# render: output files written whole or not at all; zero-area sweeps.


@pytest.mark.parametrize("where", ["missing/out.png", ".", "/proc/self/out.png",
                                   "x" * 300 + ".png", "out.gif"])
def test_render_to_a_bad_output(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                monkeypatch: pytest.MonkeyPatch, where: str) -> None:
    monkeypatch.chdir(tmp_path)
    line = bad_input(capsys, "render", str(SPEARS), str(MARCH), "-o", where)
    assert "--output" in line
    assert list(tmp_path.iterdir()) == []  # nothing left behind, not even a temporary file


def test_a_failed_write_leaves_no_partial_file(capsys: pytest.CaptureFixture[str],
                                               tmp_path: Path,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    from matplotlib.figure import Figure

    def half_then_fail(self: Figure, stream: Any, **kw: Any) -> None:
        stream.write(b"\x89PNG half a picture")
        raise OSError(28, "No space left on device")
    monkeypatch.setattr(Figure, "savefig", half_then_fail)
    out = tmp_path / "move.png"
    line = bad_input(capsys, "render", str(SPEARS), str(MARCH), "-o", str(out))
    assert "No space left" in line and str(out) in line
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("distance", [0.0, 1e-300])
def test_render_a_march_that_sweeps_no_area(capsys: pytest.CaptureFixture[str],
                                            tmp_path: Path, distance: float) -> None:
    move = write_json(tmp_path / "move.json", {"unit": "spears", "manoeuvre": "march",
                                               "steps": [{"forward": distance}]})
    out = tmp_path / "still.svg"
    status, _out, err = run(capsys, "render", str(SPEARS), str(move), "-o", str(out))
    assert status == 0, err
    assert "<svg" in out.read_text(encoding="utf-8")


def test_render_of_a_solve_result_marks_its_target(capsys: pytest.CaptureFixture[str],
                                                   tmp_path: Path) -> None:
    status, out, err = run(capsys, *SOLVE, "--target", "38,15", *QUICK, "--json")
    assert status == 0, err
    result = json.loads(out)
    assert result["objective"]["point"] == [38.0, 15.0]
    saved = write_json(tmp_path / "result.json", result)
    picture = tmp_path / "result.svg"
    status, _out, err = run(capsys, "render", str(SPEARS), str(saved), "-o", str(picture))
    assert status == 0, err
    assert "search target" in picture.read_text(encoding="utf-8")


# ---------------------------------------------------------------------------------------------
# solve: numbers, negative values, options that do not go together, limits.


@pytest.mark.parametrize("option", ["--facing", "--time-limit", "--effort"])
@pytest.mark.parametrize("value", ["nan", "inf", "-inf", "NaN", "ten"])
def test_solve_numbers_must_be_finite(capsys: pytest.CaptureFixture[str], option: str,
                                      value: str) -> None:
    line = bad_input(capsys, *SOLVE, "--target", "40,20", option, value)
    assert option in line


def test_negative_values_after_an_option(capsys: pytest.CaptureFixture[str]) -> None:
    """`--target -1,-1` used to fail with "expected one argument"."""
    status, out, err = run(capsys, *SOLVE, "--target", "-1,-1", *QUICK, "--json")
    assert status in (0, 1), err
    assert json.loads(out)["objective"]["point"] == [-1.0, -1.0]
    status, out, err = run(capsys, *SOLVE, "--target", "40,20", "--facing", "-90", *QUICK)
    assert status in (0, 1), err


def test_join_negative_values() -> None:
    argv = ["--target", "-1,-1", "--facing", "-inf", "--targ", "-2,3", "--unit", "-u",
            "--f", "-1", "--time-limit=-2", "--limit", "-.5"]
    assert join_negative_values(argv) == [
        "--target=-1,-1", "--facing=-inf", "--targ=-2,3", "--unit", "-u", "--f", "-1",
        "--time-limit=-2", "--limit=-.5"]


@pytest.mark.parametrize(("extra", "named"), [
    (["--forward", "--front"], "--front"),
    (["--forward", "--facing", "90"], "--facing"),
    (["--face", "40,30", "--front"], "--front"),
    (["--face", "40,30", "--facing", "0"], "--facing"),
    (["--target", "40,30", "--front", "--facing", "0"], "--front"),
])
def test_options_that_would_be_ignored_are_errors(capsys: pytest.CaptureFixture[str],
                                                  extra: list[str], named: str) -> None:
    line = bad_input(capsys, *SOLVE, *extra)
    assert f": {named}: " in line


@pytest.mark.parametrize("limit", ["0", "-1", "3601"])
def test_time_limit_range(capsys: pytest.CaptureFixture[str], limit: str) -> None:
    assert "--time-limit" in bad_input(capsys, *SOLVE, "--forward", "--time-limit", limit)


@pytest.mark.parametrize("limit", ["0", "-5", "10001", "99999999999999999999"])
def test_moves_limit_range(capsys: pytest.CaptureFixture[str], limit: str) -> None:
    """Listing every legal Reform of a unit takes a minute: the list is capped."""
    line = bad_input(capsys, "moves", str(SPEARS), "--unit", "spears", "--manoeuvre", "march",
                     "--limit", limit)
    assert "--limit" in line


def test_effort_and_time_reach_the_search(capsys: pytest.CaptureFixture[str],
                                          monkeypatch: pytest.MonkeyPatch) -> None:
    """--effort is passed to the search; the search gets what is left of
    --time-limit after start-up, less a margin for printing."""
    seen: dict[str, Any] = {}
    real = search_solve.best_move

    def spy(*args: Any, **kwargs: Any) -> Any:
        seen.update(kwargs)
        return real(*args, **kwargs)
    monkeypatch.setattr(search_solve, "best_move", spy)  # cmd_solve imports it when it runs
    status, _out, err = run(capsys, *SOLVE, "--forward", "--time-limit", "5", "--effort", "0.5")
    assert status == 0, err
    assert seen.get("effort") == 0.5
    assert 0 < seen["time_limit_s"] <= 5 - cli_output.PRINT_MARGIN_S


def test_the_time_limit_counts_from_the_start_of_the_process() -> None:
    """The `manoeuvre` script's start-up (imports) counts: the process is older than this
    call, and a search is given less than the limit; called in-process, from the call."""
    now = time.monotonic()
    assert seconds_since_start(True, now) > seconds_since_start(False, now) >= 0
    # A limit longer than any test run (the process may be older than 600 s by now).
    args = cli_output.argparse.Namespace(time_limit=1e6, whole_process=True, called_at=now)
    assert cli_output.search_time(args) <= 1e6 - seconds_since_start(True, now) + 1e-6
    inside = cli_output.argparse.Namespace(time_limit=600.0, whole_process=False,
                                           called_at=now)
    assert 599.0 < cli_output.search_time(inside) <= 600.0 - cli_output.PRINT_MARGIN_S
    tiny = cli_output.argparse.Namespace(time_limit=1e-3, whole_process=True, called_at=now)
    assert cli_output.search_time(tiny) == cli_output.MIN_SEARCH_S


def test_text_result_says_what_stopped_it_and_normalises_facings(
        capsys: pytest.CaptureFixture[str]) -> None:
    scenario = load_scenario(SPEARS)
    result = search_solve.best_move(scenario, "spears", "reform",
                                    Objective("target_pose", (36.0, 10.0), 450.0),
                                    effort=0.5)
    assert result.verdict is not None
    text = result_text(result)
    assert "facing 90.000 deg" in text
    assert "stopped by" not in text or result.stopped_by
    assert "stopped by: effort" in result_text(result.proved(stopped_by="effort"))


# ---------------------------------------------------------------------------------------------
# Hostile files.


@pytest.mark.parametrize(("option", "value", "word"), [
    ("march_mob", 1e7, "<= 10"),
    ("march_mob", 1e11, "<= 10"),
    ("march_mob", 1e300, "<= 10"),
    ("end_spacing_in", 1e300, "<= 24"),
    ("heading_window_deg", 1e30, "<= 180"),
])
def test_rule_options_out_of_bounds(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                    option: str, value: float, word: str) -> None:
    path = scenario_with(tmp_path, lambda d: d.update(rule_options={option: value}))
    line = bad_input(capsys, "check", str(path), str(MARCH))
    assert f"$.rule_options.{option}" in line and word in line


def test_a_lone_surrogate_id(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = scenario_with(tmp_path, lambda d: d["units"][0].update(id="\ud800"))
    line = bad_input(capsys, "check", str(path), str(MARCH))
    assert "$.units[0].id" in line and "printable" in line
    move = write_json(tmp_path / "move.json", {"unit": "\ud800", "manoeuvre": "march",
                                               "steps": []})
    assert "$.unit" in bad_input(capsys, "check", str(SPEARS), str(move))
    picture = tmp_path / "x.png"
    assert "$.unit" in bad_input(capsys, "render", str(SPEARS), str(move), "-o", str(picture))
    assert not picture.exists()


def test_an_endless_file_is_not_read_whole(capsys: pytest.CaptureFixture[str]) -> None:
    if not Path("/dev/zero").exists():
        pytest.skip("no /dev/zero here")
    line = bad_input(capsys, "check", "/dev/zero", str(MARCH))
    assert "/dev/zero" in line and "16 MiB" in line


def test_a_key_with_a_newline_is_one_line(capsys: pytest.CaptureFixture[str],
                                          tmp_path: Path) -> None:
    path = scenario_with(tmp_path, lambda d: d.update({"bad\nkey\x00": 1}))
    line = bad_input(capsys, "check", str(path), str(MARCH))
    assert "bad\\nkey\\x00" in line


def test_a_huge_bad_value_is_shortened(capsys: pytest.CaptureFixture[str],
                                       tmp_path: Path) -> None:
    move = write_json(tmp_path / "move.json", {"unit": "x" * 100_000, "manoeuvre": "march",
                                               "steps": []})
    line = bad_input(capsys, "check", str(SPEARS), str(move))
    assert "unknown unit" in line and "..." in line


def test_a_long_file_name_is_shortened(capsys: pytest.CaptureFixture[str],
                                       tmp_path: Path) -> None:
    folder = tmp_path / ("d" * 200) / ("e" * 200)
    folder.mkdir(parents=True)
    move = write_json(folder / "move.json", {"unit": "ghost", "manoeuvre": "march"})
    line = bad_input(capsys, "check", str(SPEARS), str(move))
    assert "move.json: $.unit: unknown unit 'ghost'" in line


def test_a_reform_facing_is_printed_in_0_to_360(capsys: pytest.CaptureFixture[str],
                                                tmp_path: Path) -> None:
    move = write_json(tmp_path / "move.json", {"unit": "spears", "manoeuvre": "reform",
                                               "facing": 450.0})
    status, out, _err = run(capsys, "check", str(SPEARS), str(move))
    assert "facing 90.000 deg" in out and "450" not in out


# ---------------------------------------------------------------------------------------------
# Help for new users.


def test_help_names_units_exit_statuses_and_positionals(capsys: pytest.CaptureFixture[str]
                                                        ) -> None:
    for argv in (["--help"], ["solve", "--help"], ["check", "--help"], ["render", "--help"]):
        with pytest.raises(SystemExit) as done:
            main(argv)
        assert done.value.code == 0
        out = capsys.readouterr().out
        assert "inches" in out and "degrees" in out and "exit status" in out
    with pytest.raises(SystemExit):
        main(["check", "--help"])
    out = capsys.readouterr().out
    assert "a scenario file" in out and "a move file" in out


def test_version(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--version"]) == 0
    assert capsys.readouterr().out.startswith("manoeuvre ")


def test_the_parser_states_the_searchs_own_defaults() -> None:
    """The parser writes the search's defaults itself (so that it imports no search)."""
    assert (cli_search.DEFAULT_MAX_WHEELS, cli_search.MAX_WHEELS, cli_search.DEFAULT_TOLERANCE) \
        == (search_request.DEFAULT_MAX_WHEELS, search_request.MAX_WHEELS,
            search_request.DEFAULT_TOLERANCE)


def test_a_commands_help_does_not_repeat_the_exit_status_paragraph(
        capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["--help"])
    assert "no output file is left behind" in capsys.readouterr().out
    for name in ("check", "render", "solve", "moves", "nudge", "combat-reform", "route"):
        with pytest.raises(SystemExit):
            main([name, "--help"])
        out = capsys.readouterr().out
        assert "no output file is left behind" not in out and "manoeuvre --help" in out


# ---------------------------------------------------------------------------------------------
# In a real process: a closed pipe, and the time limit.


def test_output_into_a_closed_pipe_exits_quietly() -> None:
    command = [sys.executable, "-m", "optimizer.cli", "moves", str(SPEARS), "--unit", "spears",
               "--manoeuvre", "reform", "--limit", "10000"]
    with subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE) as process:
        assert process.stdout is not None and process.stderr is not None
        process.stdout.read(10)
        process.stdout.close()  # as `| head -c 10` does
        err = process.stderr.read().decode("utf-8", "replace")
        assert process.wait(timeout=120) == 0  # the reader took what it wanted: no error
    assert "Traceback" not in err and "BrokenPipe" not in err


def test_solve_in_a_process_prints_and_exits(tmp_path: Path) -> None:
    done = subprocess.run([sys.executable, "-m", "optimizer.cli", *SOLVE, "--target", "-1,-1",
                           *QUICK, "--json"], capture_output=True, text=True, timeout=120,
                          check=False)
    assert done.returncode in (0, 1), done.stderr
    assert json.loads(done.stdout)["status"] in ("OPTIMAL", "FEASIBLE", "TIMEOUT")
