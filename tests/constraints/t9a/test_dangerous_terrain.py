"""Dangerous Terrain tests (RULES §2.13.2): the rule examples of the module's table, judged
through the exact checker, and the report in `check --json`."""

from __future__ import annotations

import json

import pytest

from constraints.core.scenario_io import scenario_from_json
from constraints.t9a.checker import check_move
from constraints.t9a.clauses.movement.dangerous_terrain import EXAMPLES
from constraints.t9a.move_io import move_from_json
from optimizer.cli import main


@pytest.mark.parametrize(("why", "scenario", "move", "tests"), EXAMPLES,
                         ids=[e[0] for e in EXAMPLES])
def test_rule_examples(why, scenario, move, tests):
    verdict = check_move(scenario_from_json(scenario), move_from_json(move))
    assert verdict.legal, why  # a test is a report, never a violation
    found = tuple((t["terrain"], t["dice"], t["test"]) for t in verdict.dangerous_terrain)
    assert found == tests, why


def test_check_json_reports_the_tests(tmp_path, capsys):
    scenario, move = EXAMPLES[0][1], EXAMPLES[0][2]
    (tmp_path / "s.json").write_text(json.dumps(scenario))
    (tmp_path / "m.json").write_text(json.dumps(move))
    assert main(["check", str(tmp_path / "s.json"), str(tmp_path / "m.json"), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["dangerous_terrain"] == [{"terrain": "marsh", "dice": 5, "test": 4}]
    assert main(["check", str(tmp_path / "s.json"), str(tmp_path / "m.json")]) == 0
    assert "Dangerous Terrain test: marsh, 5 dice, 4+" in capsys.readouterr().out
