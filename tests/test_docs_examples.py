"""What the documentation shows is what the program does: the verdict example of
docs/formats.md is today's output, the search result example has today's keys, and notebook
02 calls every query the README says it shows."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest

from optimizer import Move, check_move, forward, load_scenario
from tests.support import ROOT

FORMATS = (ROOT / "docs" / "formats.md").read_text(encoding="utf-8")
README = (ROOT / "README.md").read_text(encoding="utf-8")


def json_block_after(heading: str) -> Any:
    """The first ```json block after `heading` in docs/formats.md."""
    rest = FORMATS[FORMATS.index(heading):]
    return json.loads(re.search(r"```json\n(.*?)```", rest, re.S).group(1))


def test_the_verdict_example_is_todays_output() -> None:
    shown = json_block_after("## Verdict")
    move = Move("spears", "march", (forward(9.01),))  # as the example says
    real = check_move(load_scenario(ROOT / "examples" / "spears.json"), move).to_json()
    assert set(shown) == set(real)
    assert shown["legal"] == real["legal"]
    assert shown["end"]["centre"] == pytest.approx(real["end"]["centre"], abs=0.01)
    for corner, real_corner in zip(shown["end"]["corners"], real["end"]["corners"], strict=True):
        assert corner == pytest.approx(real_corner, abs=0.01)
    assert [v["clause"] for v in shown["violations"]] == \
        [v["clause"] for v in real["violations"]]
    assert shown["measurements"] == pytest.approx(real["measurements"], abs=0.01)


def test_the_search_result_example_has_todays_keys() -> None:
    from optimizer.cli.search import result_json
    from optimizer.search.objectives import Objective
    from optimizer.search.solve import best_move

    shown = json_block_after("## Search result")
    scenario = load_scenario(ROOT / "examples" / "flank_march.json")
    result = best_move(scenario, "knights", "march",
                       Objective("front_target_distance", (42.0, 18.5)), time_limit_s=120)
    real = result_json(result)
    assert set(shown) - {"blocking"} == set(real) - {"blocking"}
    assert set(shown["objective"]) == set(real["objective"])
    assert shown["objective"]["point"] == real["objective"]["point"]


def test_notebook_02_calls_what_the_readme_promises() -> None:
    promised = re.search(r"02_searching_moves\.ipynb` walks through it, with the queries an AI "
                         r"opponent uses\s*\(([^)]*)\)", README)
    assert promised is not None
    names = re.findall(r"`([\w.]+)`", promised.group(1))
    cells = json.loads((ROOT / "notebooks" / "02_searching_moves.ipynb")
                       .read_text(encoding="utf-8"))["cells"]
    code = "\n".join("".join(c["source"]) for c in cells if c["cell_type"] == "code")
    for name in names:
        called = name.split(".")[-1]
        assert re.search(rf"\b{called}\(", code), f"notebook 02 never calls {name}"


def test_the_nudge_result_example_has_todays_keys_and_the_readme_its_text(capsys) -> None:
    from optimizer.cli import main
    shown = json_block_after("## Nudge result")
    melee = ROOT / "examples" / "melee.json"
    casualties = ROOT / "examples" / "melee_casualties.json"
    assert main(["nudge", str(melee), "--casualties", str(casualties), "--json"]) == 0
    real = json.loads(capsys.readouterr().out)
    assert set(shown) == set(real)
    assert set(shown["nudges"][0]) == set(real["nudges"][0])
    assert shown["nudges"] == real["nudges"] and shown["units"] == real["units"][:1]
    assert main(["nudge", str(melee), "--casualties", str(casualties)]) == 0
    text = capsys.readouterr().out.strip()
    command = "$ manoeuvre nudge examples/melee.json --casualties examples/melee_casualties.json"
    assert f"{command}\n{text}\n" in README


def test_the_combat_reform_example_has_todays_keys(tmp_path, capsys) -> None:
    from optimizer.cli import main
    shown = json_block_after("## Combat Reform proposal and result")
    scn = {"format": "manoeuvre/1", "rules": "t9a",
           "battlefield": {"width": 72, "depth": 48}, "active_player": "red",
           "units": [{"id": "A", "player": "red", "base": [25.4, 25.4], "models": 9,
                      "files": 5, "centre": [36, 10], "facing": 90, "mobility": 4,
                      "characters": [{"id": "hero", "slot": [0, 4]}]},
                     {"id": "B", "player": "blue", "base": [25.4, 25.4], "models": 7,
                      "files": 7, "centre": [40, 11.5], "facing": 270, "mobility": 4}]}
    path = tmp_path / "scenario.json"
    path.write_text(json.dumps(scn), encoding="utf-8")
    assert main(["combat-reform", str(path), "--json"]) == 0
    real = json.loads(capsys.readouterr().out)
    assert set(shown) == set(real)
    assert set(shown["reforms"][0]) == set(real["reforms"][0])
    # The first two levels and the family are the answer; where among equal answers the
    # unit stands (and so the third level) may change with the model's details.
    assert shown["objective"]["levels"] == real["objective"]["levels"]
    assert shown["objective"]["value"][:2] == real["objective"]["value"][:2]
    assert {k: real["reforms"][0][k] for k in ("files", "family")} == \
        {k: shown["reforms"][0][k] for k in ("files", "family")}
    assert real["reforms"][0]["value"][:2] == shown["reforms"][0]["value"][:2]


def test_the_infinity_examples_are_todays(capsys) -> None:
    from constraints.core.scenario_io import scenario_from_json
    from optimizer.cli import main
    heading = "## Infinity N4 scenario"
    scenario_from_json(json_block_after(heading))       # the example scenario loads
    rest = FORMATS[FORMATS.index(heading):]
    blocks = [json.loads(b) for b in re.findall(r"```json\n(.*?)```", rest, re.S)[:3]]
    declared, shown = blocks[1], blocks[2]
    bundled = json.loads((ROOT / "examples" / "ruins_route.json").read_text(encoding="utf-8"))
    assert {k: v for k, v in declared.items() if k != "prone"} == bundled
    assert main(["route", str(ROOT / "examples" / "ruins.json"), "--unit", "fusilier", "--to",
                 "9.3,16.3", "--skill", "move_move", "--json"]) == 0
    real = json.loads(capsys.readouterr().out)
    assert set(shown) == set(real)
    assert shown["path"] == real["path"] and shown["status"] == real["status"]
    assert shown["length"] == pytest.approx(real["length"])
