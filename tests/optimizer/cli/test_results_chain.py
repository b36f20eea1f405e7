"""Every result the tool writes with --json is accepted by `check` and by `render`
(docs/formats.md): solve, route, nudge and combat-reform outputs chain."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from optimizer.cli import main
from tests.support import ROOT

EX = ROOT / "examples"
# (scenario, the command writing a result, the options `check` needs with it)
WRITERS = {
    "solve": ("spears.json", ["solve", "--unit", "spears", "--manoeuvre", "march",
                              "--forward", "--time-limit", "20"], []),
    "whfb7 solve": ("goblins.json", ["solve", "--unit", "goblins", "--manoeuvre", "march",
                                     "--forward", "--time-limit", "20"], []),
    "route": ("ruins.json", ["route", "--unit", "fusilier", "--to", "9.3,16.3",
                             "--skill", "move_move"], []),
    "nudge": ("melee.json", ["nudge", "--casualties", str(EX / "melee_casualties.json")], []),
    "combat-reform": ("combat.json", ["combat-reform", "--result",
                                      str(EX / "combat_result.json")],
                      ["--result", str(EX / "combat_result.json")]),
}


@pytest.mark.parametrize("writer", list(WRITERS))
def test_a_result_is_checked_and_drawn(writer: str, tmp_path: Path,
                                       capsys: pytest.CaptureFixture[str]) -> None:
    name, command, check_options = WRITERS[writer]
    scenario = str(EX / name)
    assert main([command[0], scenario, *command[1:], "--json"]) == 0
    result = tmp_path / "result.json"
    result.write_text(capsys.readouterr().out, encoding="utf-8")
    assert main(["check", scenario, str(result), *check_options]) == 0
    out = capsys.readouterr().out
    assert "LEGAL" in out and "ILLEGAL" not in out and "NOT" not in out, out
    picture = tmp_path / "result.png"
    assert main(["render", scenario, str(result), "-o", str(picture)]) == 0
    assert picture.stat().st_size > 1000


def test_a_nudge_result_with_an_edited_leg_is_judged(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    melee = str(EX / "melee.json")
    assert main(["nudge", melee, "--casualties", str(EX / "melee_casualties.json"),
                 "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    data["nudges"][0]["legs"] = [{"sideways": 0.5}]
    wrong = tmp_path / "wrong.json"
    wrong.write_text(json.dumps(data), encoding="utf-8")
    assert main(["check", melee, str(wrong)]) == 1  # its echoed casualties are read
    assert "nudge.minimum (wolves)" in capsys.readouterr().out


def test_a_solve_result_without_a_move_is_bad_input(tmp_path: Path,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    empty = tmp_path / "none.json"
    empty.write_text(json.dumps({"status": "NOT_FOUND", "move": None}), encoding="utf-8")
    assert main(["check", str(EX / "spears.json"), str(empty)]) == 2
    err = capsys.readouterr().err
    assert "none.json" in err and "$.move" in err and "no move" in err
