"""Characters keep the front rank under the assignment a move gives (issue 22, part 4).

The rule-example table lives with the clause (`CharactersFrontRank.examples`) and runs in the
conformance suite; here: the reported cases (a Reform of examples/spears.json and an
Advance's Pivot putting the captain in the third rank), and the reference referee agreeing
on every example of the table.
"""

from __future__ import annotations

import json

import pytest

from constraints.core.scenario_io import load_scenario, scenario_from_json
from constraints.t9a.checker import check_move
from constraints.t9a.clauses.movement.characters_front_rank import CharactersFrontRank
from constraints.t9a.move_io import move_from_json
from constraints.t9a.moves import Move
from optimizer.cli import main
from tests.referee.compare import Tally, judge
from tests.support import ROOT

SPEARS = ROOT / "examples" / "spears.json"
CLAUSE = "t9a.characters.front_rank"


def _captain_in_rank_3(files: int) -> dict[str, list[int]]:
    """Every spearman in the default order, the captain in slot [2, 0] (the third rank)."""
    unit = load_scenario(SPEARS).unit("spears")
    end = unit.formation.reformed(files)
    free = [s for s in end.occupied_slots() if s != (2, 0)]
    others = [m for m in unit.model_ids() if m != "captain"]
    return {"captain": [2, 0], **{m: list(s) for m, s in zip(others, free, strict=False)}}


def test_a_reform_of_the_spears_with_the_captain_in_rank_3_is_illegal(tmp_path, capsys):
    move = {"unit": "spears", "manoeuvre": "reform", "files": 5, "centre": [36.0, 10.0],
            "facing": 90.0, "assignment": _captain_in_rank_3(5)}
    path = tmp_path / "M.json"
    path.write_text(json.dumps(move), encoding="utf-8")
    assert main(["check", str(SPEARS), str(path), "--json"]) == 1
    answer = json.loads(capsys.readouterr().out)
    broken = {v["clause"]: v for v in answer["violations"]}
    assert broken[CLAUSE]["measured"] == 1.0


def test_an_advance_whose_pivot_puts_the_captain_behind_is_illegal():
    s = load_scenario(SPEARS)
    # The spears' own formation keeps [2, 0] empty: a 6-file Reform's default layout would
    # not; use a layout slot the formation holds, in the third rank.
    unit = s.unit("spears")
    third = next(slot for slot in unit.formation.occupied_slots() if slot[0] == 2)
    others = [m for m in unit.model_ids() if m != "captain"]
    free = [slot for slot in unit.formation.occupied_slots() if slot != third]
    assignment = (("captain", third), *zip(others, free, strict=True))
    verdict = check_move(s, Move("spears", "advance", pivot_deg=90.0, assignment=assignment))
    assert CLAUSE in verdict.clauses()
    assert verdict.measurements["out_of_front_rank"] == 1.0
    kept = (("captain", (0, 2)), *zip(others, [x for x in free if x != (0, 2)] + [third],
                                      strict=True))
    assert CLAUSE not in check_move(s, Move("spears", "advance", pivot_deg=90.0,
                                            assignment=kept)).clauses()


@pytest.mark.parametrize("example", CharactersFrontRank.examples, ids=lambda e: e.why)
def test_the_referee_agrees_on_every_rule_example(example):
    s, move = scenario_from_json(example.scenario), move_from_json(example.move)
    tally = Tally()
    verdict, ruling = judge(s, move, tally, label=example.why)
    assert not tally.problems, tally.problems
    assert ruling.measures[CLAUSE].broken == example.breaks
    assert (CLAUSE in verdict.clauses()) == example.breaks
