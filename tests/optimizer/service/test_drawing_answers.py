"""The service's answers carry what a client draws (docs/formats.md "Verdict"): a solve's
verdict has the poses of its move, and a Combat Reform's check places every model where the
Combat Reform answer put it."""

from __future__ import annotations

import math

import httpx
import pytest

from tests.optimizer.service.conftest import example


def test_a_solve_answer_has_the_poses_of_its_move(client: httpx.Client) -> None:
    answer = client.post("/v1/solve", json={
        "scenario": example("spears"), "unit": "spears", "manoeuvre": "march",
        "objective": {"name": "target_pose", "point": [33.0, 14.0], "facing": 70.0}}).json()
    verdict, steps = answer["verdict"], answer["move"]["steps"]
    assert len(verdict["poses"]) == len(steps) + 1
    assert verdict["poses"][-1] == {"centre": verdict["end"]["centre"],
                                    "facing": verdict["end"]["facing"]}
    poses = verdict["poses"]
    for step, before, after in zip(steps, poses[:-1], poses[1:], strict=True):
        if "forward" in step:
            assert math.dist(before["centre"], after["centre"]) == pytest.approx(
                step["forward"], abs=1e-5)
        else:
            turned = (after["facing"] - before["facing"] - step["wheel"]) % 360.0
            assert min(turned, 360.0 - turned) == pytest.approx(0.0, abs=1e-5)


def test_a_combat_reform_checked_places_the_models_where_the_answer_did(
        client: httpx.Client) -> None:
    scenario = example("combat")
    found = client.post("/v1/combat-reform", json={"scenario": scenario}).json()
    assert found["reforms"], "the example's Combat Reform moves a unit"
    verdict = client.post("/v1/check", json={"scenario": scenario, "move": {
        "manoeuvre": "combat_reform", "reforms": found["reforms"]}}).json()
    assert verdict["legal"] is True
    placed = verdict["end"]["models"]
    # Characters by id; rank-and-file are interchangeable (an index is a place in the end
    # formation's layout), so the places are compared as a set.
    wanted = [m for r in found["reforms"] for m in r["models"]]
    reformed = {r["unit"] for r in found["reforms"]}
    assert len(placed) == len(wanted)
    for model in wanted:
        if "." not in model["id"]:
            assert placed[model["id"]]["centre"] == pytest.approx(model["position"], abs=1e-5)
    assert sorted(_rounded(p["centre"]) for p in placed.values()) == \
        sorted(_rounded(m["position"]) for m in wanted)
    assert all(m["id"].split(".")[0] in reformed for m in wanted if "." in m["id"])


def _rounded(point: list[float]) -> tuple[float, float]:
    return round(point[0], 4), round(point[1], 4)
