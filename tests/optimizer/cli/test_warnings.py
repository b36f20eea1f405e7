"""Warnings, not errors: a base under 10 mm on a side (inches given as millimetres?) and a
target or centre more than a table's width off the table get one line each on stderr and a
`warnings` list in `--json` output; the command runs as it would without them."""

from __future__ import annotations

import json

from constraints.core.plausible import move_warnings, point_warnings, scenario_warnings
from constraints.core.scenario_io import scenario_to_json
from constraints.rank_and_file.unit import Base
from optimizer.cli import main
from tests.support import scenario, unit


def _write(tmp_path, scn, name="scn.json"):
    path = tmp_path / name
    path.write_text(json.dumps(scenario_to_json(scn)), encoding="utf-8")
    return str(path)


def test_a_base_given_in_inches_is_warned_of():
    scn = scenario(unit("tiny", base=Base(1.0, 1.0)), unit("ok", centre=(20.0, 30.0)))
    [line] = scenario_warnings(scn)
    assert "'tiny'" in line and "10 mm" in line
    assert scenario_warnings(scenario(unit("ok", base=Base(10.0, 20.0)))) == []


def test_a_point_a_table_width_off_the_table_is_warned_of():
    scn = scenario(unit())
    assert point_warnings(scn, (36.0, 10.0), "the target") == []
    assert point_warnings(scn, (-70.0, 10.0), "the target") == []  # less than 72" off
    [line] = point_warnings(scn, (900.0, 250.0), "the target")
    assert "the target (900, 250)" in line and "828" in line
    assert move_warnings(scn, {"centre": [36.0, 2000.0]}) != []
    assert move_warnings(scn, {"centre": "x"}) == []


def test_check_warns_on_stderr_and_in_json(tmp_path, capsys):
    path = _write(tmp_path, scenario(unit("tiny", base=Base(1.0, 1.0), models=4, files=2,
                                          centre=(36.0, 10.0))))
    move = tmp_path / "move.json"
    move.write_text(json.dumps({"unit": "tiny", "manoeuvre": "reform",
                                "centre": [36.0, 10.0]}), encoding="utf-8")
    assert main(["check", path, str(move), "--json"]) == 0
    captured = capsys.readouterr()
    assert captured.err.count("manoeuvre: warning:") == 1 and "'tiny'" in captured.err
    assert len(json.loads(captured.out)["warnings"]) == 1


def test_no_warning_no_key(tmp_path, capsys):
    path = _write(tmp_path, scenario(unit("u")))
    move = tmp_path / "move.json"
    move.write_text(json.dumps({"unit": "u", "manoeuvre": "reform"}), encoding="utf-8")
    assert main(["check", path, str(move), "--json"]) == 0
    captured = capsys.readouterr()
    assert captured.err == "" and "warnings" not in json.loads(captured.out)


def test_solve_warns_of_a_far_target(tmp_path, capsys):
    path = _write(tmp_path, scenario(unit("u")))
    code = main(["solve", path, "--unit", "u", "--manoeuvre", "advance", "--target",
                 "900,10", "--json", "--time-limit", "5"])
    captured = capsys.readouterr()
    assert code in (0, 1)
    assert captured.err.count("manoeuvre: warning:") == 1 and "the target" in captured.err
    assert json.loads(captured.out)["warnings"][0].startswith("the target")


def test_text_output_warns_too_and_bad_input_stays_one_line(tmp_path, capsys):
    path = _write(tmp_path, scenario(unit("tiny", base=Base(1.0, 1.0), models=4, files=2)))
    move = tmp_path / "move.json"
    move.write_text(json.dumps({"unit": "tiny", "manoeuvre": "reform"}), encoding="utf-8")
    assert main(["check", path, str(move)]) == 0
    assert capsys.readouterr().err.count("manoeuvre: warning:") == 1
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({"unit": "nobody", "manoeuvre": "reform"}), encoding="utf-8")
    assert main(["check", path, str(bad)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("manoeuvre: error:")
