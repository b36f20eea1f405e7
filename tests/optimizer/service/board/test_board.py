"""The web board (docs/board.md) in a real headless Chromium (Debian's `chromium`, driven by
Playwright) against a real uvicorn on 127.0.0.1: what a player sees is what the API says.

Without chromium these tests are skipped, unless MANOEUVRE_REQUIRE_BROWSER is set (CI sets
it in .ci/run): then a missing browser fails them loudly."""

from __future__ import annotations

import json
import math

import pytest

from tests.optimizer.service.board.conftest import STATIC, Board
from tests.optimizer.service.conftest import example


def test_the_board_is_served_and_draws_an_example(board: Board) -> None:
    board.open("spears")
    placed = board.state("window.board.placed.spears")
    still = board.api("/v1/check", {"scenario": example("spears"),
                                    "move": {"unit": "spears", "manoeuvre": "advance",
                                             "steps": []}})
    assert placed["models"] == still["end"]["models"]  # drawn where the service says
    drawn = board.page.eval_on_selector_all('[data-unit="spears"] .model',
                                            "ms => ms.map(m => m.dataset.model)")
    assert sorted(drawn) == sorted(still["end"]["models"])
    assert board.page.locator('[data-unit="spears"] .model.character').count() == 1
    assert board.page.locator(".terrain.kind-impassable").count() == 1
    assert board.page.locator(".terrain.kind-dangerous").count() == 1


def test_a_ghost_dragged_onto_the_rocks_turns_red_naming_the_rule(board: Board) -> None:
    board.open("spears")
    board.select("spears", "march")
    assert board.drag_ghost((28.0, 17.5)) == "illegal"
    assert board.page.inner_text("[data-testid=verdict-status]") == "ILLEGAL"
    shown = board.page.eval_on_selector_all("[data-testid=violations] li",
                                            "ls => ls.map(l => l.dataset.clause)")
    move = board.state("window.board.move")
    assert move["manoeuvre"] == "march" and move["centre"] == pytest.approx([28.0, 17.5],
                                                                            abs=0.05)
    verdict = board.api("/v1/check", {"scenario": example("spears"), "move": move})
    assert shown == [v["clause"] for v in verdict["violations"]]
    assert "t9a.unit_spacing" in shown
    assert "Unit Spacing" in board.page.inner_text("[data-testid=violations]")
    assert "impassable terrain rocks" in board.page.inner_text("[data-testid=violations]")
    # the deciding measurement is drawn, where the answer puts it
    assert board.page.locator('.witness[data-clause="t9a.unit_spacing"]').count() == 1


def test_a_ghost_dragged_to_open_ground_turns_green(board: Board) -> None:
    board.open("spears")
    board.select("spears", "march")
    assert board.drag_ghost((28.0, 17.5)) == "illegal"
    assert board.drag_ghost((36.0, 15.0)) == "legal"
    assert board.page.inner_text("[data-testid=verdict-status]") == "LEGAL"
    assert board.page.locator(".witness").count() == 0


def test_keys_move_the_ghost_a_tenth_of_an_inch_and_turn_it_a_degree(board: Board) -> None:
    board.open("spears")
    board.select("spears", "march")
    board.page.focus("[data-testid=board]")
    for key in ["ArrowUp"] * 20 + ["ArrowLeft", "q", "q", "e"]:
        board.page.keyboard.press(key)
    board.settled()
    centre, facing = board.ghost_pose()
    assert centre == pytest.approx([35.9, 12.0], abs=1e-6)
    assert facing == pytest.approx(91.0)
    # only the latest request's answer is shown: the verdict is for where the ghost is
    verdict = board.state("window.board.verdict")
    assert verdict["end"]["centre"] == pytest.approx([35.9, 12.0], abs=1e-6)
    assert board.state("window.board.checks.seq") >= 24


def test_best_move_here_ends_the_unit_at_the_solvers_pose(board: Board) -> None:
    board.open("spears")
    board.select("spears", "march")
    board.drag_ghost((33.0, 14.0))
    for _ in range(20):  # turn it to face 70 degrees (from 90)
        board.page.keyboard.press("e")
    board.settled()
    board.page.click("[data-testid=best]")
    board.page.wait_for_selector("[data-testid=search-status]")
    board.page.wait_for_function("document.body.dataset.animating === '0'")
    board.settled()
    final = board.state("window.board.lastSolve")  # the stream's `final` event, as read
    assert board.state("window.board.improved") >= 1  # progress: better answers on the way
    centre, facing = board.ghost_pose()
    assert centre == pytest.approx(final["verdict"]["end"]["centre"], abs=1e-6)
    assert facing == pytest.approx(final["verdict"]["end"]["facing"], abs=1e-6)
    assert board.page.inner_text("[data-testid=search-status]").startswith(final["status"])
    # the same request straight to the API: the same answer (a search its proof ends)
    body = {"scenario": example("spears"), "unit": "spears", "manoeuvre": "march",
            "objective": {"name": "target_pose", "point": [33.0, 14.0], "facing": 70.0},
            "time_limit": 10}
    direct = board.api("/v1/solve", body)
    assert direct["status"] == final["status"] == "OPTIMAL"
    assert direct["move"] == final["move"]
    assert direct["verdict"]["end"] == final["verdict"]["end"]
    assert math.dist(centre, [33.0, 14.0]) > 0.01  # the solver's pose, not the one asked


def test_casualties_give_the_nudges_the_api_gives(board: Board) -> None:
    board.open("melee")
    casualties = json.loads((STATIC.parents[2] / "examples" / "melee_casualties.json")
                            .read_text(encoding="utf-8"))
    for unit, count in casualties.items():
        board.page.fill(f"[data-testid=casualties-{unit}]", str(count))
    board.page.click("[data-testid=nudge]")
    board.page.wait_for_selector("[data-testid=nudges] li")
    answer = board.api("/v1/nudge", {"scenario": example("melee"), "casualties": casualties})
    shown = board.page.eval_on_selector_all("[data-testid=nudges] li[data-unit]",
                                            "ls => ls.map(l => l.dataset.unit)")
    assert shown == [n["unit"] for n in answer["nudges"]]
    assert shown, "the melee's casualties call for a nudge"
    assert board.page.locator(".nudge-arrow").count() == len(
        [u for u in answer["units"] if u["id"] in ("spears", "orcs", "wolves")])


def test_the_best_combat_reform_is_the_apis_and_accept_writes_it_undoably(
        board: Board) -> None:
    board.open("combat")
    board.page.click("[data-testid=combat-reform]")
    board.page.wait_for_selector("[data-testid=reform-status]")
    shown = board.state("window.board.lastReform")
    answer = board.api("/v1/combat-reform", {"scenario": example("combat"), "effort": 5})
    assert shown["reforms"] == answer["reforms"] and answer["status"] == "OPTIMAL"
    assert board.page.inner_text("[data-testid=reform-status]").startswith(
        "Combat Reform: OPTIMAL")
    (reform,) = answer["reforms"]
    assert reform["unit"] == "A" and reform["files"] == 8  # the rule's figure: 4 -> 8 files
    board.page.click("[data-testid=accept-reform]")
    board.page.wait_for_function("window.board.undo.length === 1 && !window.board.loading")
    # the scenario holds the answer, and the unit is drawn where the service now places it
    unit = board.state("window.board.scenario.units.find(u => u.id === 'A')")
    assert (unit["files"], unit["centre"], unit["facing"]) == (
        reform["files"], reform["centre"], reform["facing"])
    hero = next(m for m in reform["models"] if m["id"] == "hero")
    assert unit["characters"] == [{"id": "hero", "slot": hero["slot"]}]
    placed = board.state("window.board.placed.A")
    assert placed["centre"] == pytest.approx(reform["centre"], abs=1e-9)
    assert placed["facing"] == pytest.approx(reform["facing"], abs=1e-9)
    drawn = board.page.locator('g.unit[data-unit="A"]')
    assert [float(v) for v in drawn.get_attribute("data-centre").split(",")] == \
        pytest.approx(reform["centre"], abs=1e-9)
    assert float(drawn.get_attribute("data-facing")) == pytest.approx(reform["facing"])
    # every model where the answer put it (rank-and-file models are interchangeable)
    where = sorted((round(x, 6), round(y, 6)) for x, y in
                   (m["centre"] for m in placed["models"].values()))
    assert where == sorted((round(x, 6), round(y, 6)) for x, y in
                           (m["position"] for m in reform["models"]))
    assert placed["models"]["hero"]["centre"] == pytest.approx(hero["position"], abs=1e-6)
    # the API takes the new scenario: a stand-still Advance of the reformed unit is judged
    still = board.api("/v1/check", {"scenario": board.state("window.board.scenario"),
                                    "move": {"unit": "A", "manoeuvre": "advance",
                                             "steps": []}})
    assert still["end"]["centre"] == pytest.approx(reform["centre"], abs=1e-9)
    assert still["end"]["files"] == reform["files"]
    # Undo brings back the unit as it stood before the reform
    board.page.click("[data-testid=undo]")
    board.page.wait_for_function("window.board.redo.length === 1 && !window.board.loading")
    before = next(u for u in example("combat")["units"] if u["id"] == "A")
    assert board.state("window.board.scenario.units.find(u => u.id === 'A')") == before
    assert board.state("window.board.placed.A.centre") == before["centre"]
    assert board.state("window.board.placed.A.files") == before["files"]
    drawn_before = board.page.locator('g.unit[data-unit="A"]').get_attribute("data-centre")
    assert [float(v) for v in drawn_before.split(",")] == before["centre"]


def test_an_accepted_reform_with_an_incomplete_rear_rank_stands_as_the_answer_says(
        board: Board) -> None:
    # the rule's figure with 17 rank-and-file models and rocks either side: the best reform
    # is 10 files, the rear rank of 8 short of two (written as the scenario's empty slots)
    scenario = example("combat")
    scenario["units"][0].update(models=17, centre=[32.0, 7.5])
    scenario["terrain"] = [
        {"id": "west", "kind": "impassable", "polygon": [[20, 0], [25.5, 0], [25.5, 8], [20, 8]]},
        {"id": "east", "kind": "impassable", "polygon": [[38.5, 0], [44, 0], [44, 8], [38.5, 8]]}]
    board.page.goto(board.server.url)
    board.page.wait_for_function("window.board && window.board.name && !window.board.loading")
    board.page.set_input_files("[data-testid=upload]", files=[{
        "name": "narrow.json", "mimeType": "application/json",
        "buffer": json.dumps(scenario).encode()}])
    board.page.wait_for_function("window.board.name === 'narrow.json' && !window.board.loading")
    board.page.click("[data-testid=combat-reform]")
    board.page.wait_for_selector("[data-testid=reform-status]")
    answer = board.api("/v1/combat-reform", {"scenario": scenario, "effort": 5})
    (reform,) = answer["reforms"]
    assert board.state("window.board.lastReform.reforms") == answer["reforms"]
    assert reform["files"] == 10 and len(reform["models"]) == 18
    board.page.click("[data-testid=accept-reform]")
    board.page.wait_for_function("window.board.undo.length === 1 && !window.board.loading")
    unit = board.state("window.board.scenario.units.find(u => u.id === 'A')")
    taken = {tuple(m["slot"]) for m in reform["models"]}
    assert {tuple(s) for s in unit["empty"]} == {(r, f) for r in range(2) for f in range(10)
                                                  if (r, f) not in taken}
    placed = board.state("window.board.placed.A")
    where = sorted((round(x, 6), round(y, 6)) for x, y in
                   (m["centre"] for m in placed["models"].values()))
    assert where == sorted((round(x, 6), round(y, 6)) for x, y in
                           (m["position"] for m in reform["models"]))
