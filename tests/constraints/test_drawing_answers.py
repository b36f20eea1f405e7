"""What a verdict gives a client to draw (docs/formats.md "Verdict"): each violation's
witness, the end's model bases, and the poses after the Pivot and each step; for T9A and
whfb7 moves, end-pose moves, Reforms and the JSON every client reads."""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import pytest
from shapely.geometry import Point as ShapelyPoint
from shapely.geometry import Polygon

from constraints.core.scenario_io import load_scenario
from constraints.core.system import find_system
from constraints.schema import validate

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def judged(example: str, move: dict[str, Any]) -> tuple[Any, dict[str, Any]]:
    scenario = load_scenario(EXAMPLES / f"{example}.json")
    system = find_system(scenario.rules)
    verdict = system.check(scenario, system.read_move(move))
    out = verdict.to_json()
    validate("verdict", json.dumps(out))  # the schema knows every key
    return verdict, out


def test_a_violation_carries_its_witness_as_the_clause_measured_it() -> None:
    verdict, out = judged("spears", {"unit": "spears", "manoeuvre": "march",
                                     "steps": [{"forward": 9.01}]})
    found = {v["clause"]: v for v in out["violations"]}
    final = found["t9a.valid_final_position"]
    a, b = final["witness"]
    assert math.dist(a, b) == pytest.approx(final["measured"], abs=1e-5)
    assert final["witness"] == [[round(c, 6) for c in p] for p in
                                next(v.witness for v in verdict.violations
                                     if v.clause == "t9a.valid_final_position")]
    # the corner it starts from is the end's front-left corner
    assert a == out["end"]["corners"][0]


def test_a_legal_move_has_no_witness_and_no_violation() -> None:
    _, out = judged("spears", {"unit": "spears", "manoeuvre": "march",
                               "steps": [{"forward": 2.0}]})
    assert out["legal"] is True and out["violations"] == []


def test_models_are_every_model_inside_the_end_boundary() -> None:
    scenario = load_scenario(EXAMPLES / "spears.json")
    _, out = judged("spears", {"unit": "spears", "manoeuvre": "march",
                               "steps": [{"forward": 2.0}, {"wheel": -45.0},
                                         {"forward": 3.0}]})
    models = out["end"]["models"]
    assert set(models) == set(scenario.unit("spears").model_ids())
    assert "captain" in models and "spears.0" in models
    boundary = Polygon(out["end"]["corners"])
    for placed in models.values():
        assert boundary.buffer(1e-6).contains(ShapelyPoint(placed["centre"]))
        assert placed["facing"] == out["end"]["facing"]
    # no two bases share a centre
    centres = {tuple(p["centre"]) for p in models.values()}
    assert len(centres) == len(models)


def test_poses_follow_each_step_and_end_at_the_end() -> None:
    _, out = judged("spears", {"unit": "spears", "manoeuvre": "march",
                               "steps": [{"forward": 2.0}, {"wheel": -45.0},
                                         {"forward": 3.0}]})
    poses = out["poses"]
    assert len(poses) == 4  # after the (absent) Pivot, then each of three steps
    assert poses[0] == {"centre": [36.0, 10.0], "facing": 90.0}
    assert poses[1]["centre"] == pytest.approx([36.0, 12.0])
    assert poses[2]["facing"] == pytest.approx(45.0)
    assert poses[-1]["centre"] == out["end"]["centre"]
    assert poses[-1]["facing"] == out["end"]["facing"]
    # the last leg is 3" forwards along the facing after the wheel
    (x0, y0), (x1, y1) = poses[2]["centre"], poses[3]["centre"]
    assert math.hypot(x1 - x0, y1 - y0) == pytest.approx(3.0)
    assert math.degrees(math.atan2(y1 - y0, x1 - x0)) == pytest.approx(45.0)


def test_an_advance_pose_after_its_pivot_comes_first() -> None:
    _, out = judged("spears", {"unit": "spears", "manoeuvre": "advance", "pivot": 30.0,
                               "steps": [{"forward": 1.0}]})
    assert out["poses"][0]["facing"] == pytest.approx(120.0)
    assert out["poses"][0]["centre"] == pytest.approx([36.0, 10.0])
    assert len(out["poses"]) == 2


def test_a_reform_has_models_in_its_new_files_and_no_poses() -> None:
    _, out = judged("spears", {"unit": "spears", "manoeuvre": "reform", "files": 7,
                               "centre": [36.0, 10.0], "facing": 0.0})
    assert "poses" not in out
    assert out["end"]["files"] == 7
    boundary = Polygon(out["end"]["corners"])
    assert all(boundary.buffer(1e-6).contains(ShapelyPoint(p["centre"]))
               for p in out["end"]["models"].values())
    assert {p["facing"] for p in out["end"]["models"].values()} == {0.0}


def test_an_end_pose_move_gives_the_poses_of_the_way_it_found() -> None:
    _, out = judged("spears", {"unit": "spears", "manoeuvre": "march",
                               "centre": [36.0, 15.0], "facing": 90.0})
    assert out["legal"] is True
    assert out["poses"][-1]["centre"] == pytest.approx([36.0, 15.0], abs=1e-6)
    assert len(out["poses"]) == len(out["steps"]) + 1


def test_whfb7_moves_give_models_and_poses() -> None:
    _, out = judged("goblins", {"unit": "goblins", "manoeuvre": "march",
                                "steps": [{"forward": 3.0}, {"turn": 90.0}]})
    assert len(out["poses"]) == 3
    assert out["poses"][0] == {"centre": [24.0, 10.0], "facing": 90.0}  # no Pivot: start
    assert out["poses"][-1]["facing"] == out["end"]["facing"]
    assert len(out["end"]["models"]) == 20
    _, reform = judged("goblins", {"unit": "goblins", "manoeuvre": "reform", "files": 4,
                                   "facing": 90.0})
    assert "poses" not in reform and len(reform["end"]["models"]) == 20
