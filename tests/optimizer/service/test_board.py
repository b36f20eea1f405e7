"""The web board (docs/board.md) in a real headless Chromium (Debian's `chromium`, driven by
Playwright) against a real uvicorn on 127.0.0.1: what a player sees is what the API says.

Without chromium these tests are skipped, unless MANOEUVRE_REQUIRE_BROWSER is set (CI sets
it in .ci/run): then a missing browser fails them loudly."""

from __future__ import annotations

import json
import math
import os
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.optimizer.service.conftest import Running, example

CHROMIUM = os.environ.get("MANOEUVRE_CHROMIUM", "/usr/bin/chromium")  # else `chromium` on PATH
REQUIRED = bool(os.environ.get("MANOEUVRE_REQUIRE_BROWSER"))
STATIC = Path(__file__).resolve().parents[3] / "optimizer" / "service" / "static"


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    executable = CHROMIUM if Path(CHROMIUM).exists() else shutil.which("chromium")
    if executable is None:
        if REQUIRED:
            pytest.fail(f"MANOEUVRE_REQUIRE_BROWSER is set but there is no chromium at "
                        f"{CHROMIUM} (apt-get install -y chromium)")
        pytest.skip("no chromium (apt-get install -y chromium; CI requires it)")
    sync_api = pytest.importorskip("playwright.sync_api") if not REQUIRED else \
        __import__("playwright.sync_api", fromlist=["sync_playwright"])
    with sync_api.sync_playwright() as p:
        launched = p.chromium.launch(executable_path=executable, args=["--no-sandbox"])
        yield launched
        launched.close()


class Board:
    """A page of the board, recording every console error and failed request."""

    def __init__(self, page: Any, server: Running) -> None:
        self.page, self.server, self.problems = page, server, []
        page.on("console", lambda m: self.problems.append(f"console {m.type}: {m.text}")
                if m.type in ("error", "warning") else None)
        page.on("pageerror", lambda e: self.problems.append(f"page error: {e}"))
        page.on("requestfailed", lambda r: self.problems.append(
            f"failed {r.url}: {r.failure}") if "abort" not in (r.failure or "").lower()
            else None)
        page.on("response", lambda r: self.problems.append(f"HTTP {r.status} {r.url}")
                if r.status >= 400 else None)

    def open(self, name: str) -> None:
        self.page.goto(f"{self.server.url}/?example={name}")
        self.page.wait_for_function(f"window.board && window.board.name === {name!r} && "
                                    "!window.board.loading && "
                                    "document.querySelectorAll('[data-unit]').length > 0")

    def state(self, expression: str) -> Any:
        return self.page.evaluate(f"() => JSON.parse(JSON.stringify({expression}))")

    def client(self, point: tuple[float, float]) -> tuple[float, float]:
        x, y = self.page.evaluate(f"window.board.view.client([{point[0]}, {point[1]}])")
        return x, y

    def select(self, unit: str, manoeuvre: str) -> None:
        x, y = self.client(tuple(self.state(f"window.board.placed[{unit!r}].centre")))
        self.page.mouse.click(x, y)
        self.page.click(f"[data-testid=manoeuvre-{manoeuvre}]")
        self.settled()

    def settled(self) -> str:
        """The ghost's state once the latest verdict is in (not pending)."""
        self.page.wait_for_selector("[data-testid=ghost]:not([data-state=pending])")
        state: str = self.page.get_attribute("[data-testid=ghost]", "data-state")
        return state

    def drag_ghost(self, to: tuple[float, float], steps: int = 12) -> str:
        """Drag the ghost by its centre to `to` (world inches), as a player's mouse does."""
        centre = self.state("window.board.ghost.centre")
        x0, y0 = self.client(tuple(centre))
        x1, y1 = self.client(to)
        mouse = self.page.mouse
        mouse.move(x0, y0)
        mouse.down()
        mouse.move(x1, y1, steps=steps)
        mouse.up()
        return self.settled()

    def ghost_pose(self) -> tuple[list[float], float]:
        centre = self.page.get_attribute("[data-testid=ghost]", "data-centre")
        facing = self.page.get_attribute("[data-testid=ghost]", "data-facing")
        return [float(v) for v in centre.split(",")], float(facing)

    def api(self, path: str, body: dict[str, Any]) -> Any:
        with httpx.Client(base_url=self.server.url, timeout=120.0) as client:
            answer = client.post(path, json=body)
            assert answer.status_code == 200, answer.text
            return answer.json()


@pytest.fixture()
def board(browser: Any, server: Running) -> Iterator[Board]:
    page = browser.new_page(viewport={"width": 1280, "height": 800})
    opened = Board(page, server)
    yield opened
    problems = list(opened.problems)
    page.close()
    assert problems == [], "the board logged errors or failed requests"


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


def test_two_fingers_pinch_zoom_about_their_midpoint(browser: Any, server: Running) -> None:
    page = browser.new_page(viewport={"width": 1280, "height": 800}, has_touch=True)
    board = Board(page, server)
    board.open("spears")
    x, y = (round(v) for v in board.client((50.0, 30.0)))  # open table: no unit, no ghost
    width = board.state("window.board.view.box.w")
    under = board.state(f"window.board.view.world({x}, {y})")
    touch = page.context.new_cdp_session(page)

    def fingers(kind: str, apart: float, along: float = 0) -> None:
        points = [] if kind == "touchEnd" else [
            {"x": x + along - apart / 2, "y": y, "id": 0},
            {"x": x + along + apart / 2, "y": y, "id": 1}]
        touch.send("Input.dispatchTouchEvent", {"type": kind, "touchPoints": points})

    fingers("touchStart", 100)
    for apart in range(110, 210, 10):  # the fingers spread to twice as far apart
        fingers("touchMove", apart)
    fingers("touchEnd", 200)
    assert board.state("window.board.view.box.w") == pytest.approx(width / 2, rel=1e-6)
    # the point between the fingers stays under them
    assert board.state(f"window.board.view.world({x}, {y})") == pytest.approx(under, abs=1e-3)
    fingers("touchStart", 200)
    for along in range(10, 90, 10):  # both fingers slide right, pinching in a little
        fingers("touchMove", 200 - along / 2, along)
    fingers("touchEnd", 160, 80)
    assert board.state("window.board.view.box.w") == pytest.approx(width / 2 * 200 / 160,
                                                                   rel=1e-6)
    assert board.state(f"window.board.view.world({x + 80}, {y})") == pytest.approx(under,
                                                                                  abs=1e-3)
    assert board.state("window.board.selected") is None
    problems = list(board.problems)
    page.close()
    assert problems == []


def test_an_infinity_route_click_shows_the_apis_route(board: Board) -> None:
    board.open("ruins")
    x, y = board.client((4.8, 13.0))
    board.page.mouse.click(x, y)
    board.page.wait_for_function("window.board.selected === 'fusilier'")
    with board.page.expect_response("**/v1/route") as routed:
        board.page.mouse.click(*board.client((6.0, 10.0)))
    board.page.wait_for_selector("[data-testid=route-status]")
    answer = routed.value.json()
    assert board.page.inner_text("[data-testid=route-status]").startswith(answer["status"])
    drawn = board.page.get_attribute(".route", "points")
    assert len(drawn.split()) == len(answer["path"])
    # who can react along it: the answer's exposure (the zhanshi sees all around)
    who = board.page.inner_text("[data-testid=route-aro]")
    assert who.startswith("ARO by: " + (", ".join(answer["aro_by"]) or "nobody"))


def test_the_board_needs_no_token_but_the_api_does(serve: Any) -> None:
    from optimizer.service import Settings

    secured = serve(Settings(token="s3cret"))
    with secured.client() as client:
        assert client.get("/").status_code == 200
        assert client.get("/board/js/main.js").status_code == 200
        assert client.get("/v1/health").status_code == 401
        assert client.post("/", content=b"{}").status_code in (401, 405)


def test_every_static_file_is_package_data() -> None:
    import tomllib

    config = tomllib.loads((STATIC.parents[2] / "pyproject.toml").read_text(encoding="utf-8"))
    globs = config["tool"]["setuptools"]["package-data"]["optimizer.service"]
    files = {p.relative_to(STATIC.parent).as_posix() for p in STATIC.rglob("*") if p.is_file()}
    covered = {f for f in files if any(Path(f).match(g) for g in globs)}
    assert covered == files


def test_apply_moves_the_unit_and_undo_redo_step_back_and_forth(board: Board) -> None:
    board.open("spears")
    board.select("spears", "march")
    assert board.drag_ghost((36.0, 15.0)) == "legal"
    end = board.state("window.board.verdict.end")
    board.page.click("[data-testid=apply]")
    board.page.wait_for_function("window.board.undo.length === 1 && !window.board.loading "
                                 "&& window.board.selected === 'spears'")
    board.settled()
    assert board.state("window.board.placed.spears.centre") == end["centre"]
    unit = board.state("window.board.scenario.units[0]")
    assert unit["centre"] == end["centre"] and unit["facing"] == end["facing"]
    board.page.click("[data-testid=undo]")
    board.page.wait_for_function("window.board.redo.length === 1 && !window.board.loading")
    assert board.state("window.board.placed.spears.centre") == [36.0, 10.0]
    board.page.click("[data-testid=redo]")
    board.page.wait_for_function("window.board.undo.length === 1 && !window.board.loading")
    assert board.state("window.board.placed.spears.centre") == end["centre"]


def test_a_fast_drag_ends_with_the_verdict_for_where_the_ghost_is(board: Board) -> None:
    board.open("spears")
    board.select("spears", "march")
    sent = board.state("window.board.checks.seq")
    board.drag_ghost((28.0, 17.5), steps=40)  # as fast as the events come, no waiting
    centre, _ = board.ghost_pose()
    verdict = board.state("window.board.verdict")
    assert verdict["end"]["centre"] == pytest.approx(centre, abs=1e-6)
    assert verdict["end"]["centre"] == pytest.approx([28.0, 17.5], abs=0.05)
    assert board.state("window.board.checks.seq") - sent >= 40
    assert verdict["legal"] is False


def test_with_a_token_the_board_calls_the_api_with_it(browser: Any, serve: Any) -> None:
    from optimizer.service import Settings

    secured = serve(Settings(token="s3cret"))
    page = browser.new_page()
    opened = Board(page, secured)
    page.goto(f"{secured.url}/?example=spears#token=s3cret")
    page.wait_for_function("window.board && window.board.name === 'spears' && "
                           "!window.board.loading && "
                           "document.querySelectorAll('[data-unit]').length > 0")
    problems = list(opened.problems)
    page.close()
    assert problems == []


def test_a_scenario_the_server_forgot_is_registered_again(board: Board) -> None:
    board.open("spears")
    board.page.evaluate("window.board.scenarioId = '0'.repeat(64)")  # an id it never gave
    board.select("spears", "march")
    assert board.drag_ghost((36.0, 15.0)) == "legal"
    assert board.state("window.board.scenarioId") != "0" * 64
    # the one 404 that asked for it again is expected; nothing else went wrong
    board.problems[:] = [p for p in board.problems if "404" not in p]


def test_the_legal_region_drawn_is_the_apis(board: Board) -> None:
    board.open("spears")
    board.select("spears", "march")
    board.page.check("[data-testid=show-region]")
    board.page.wait_for_function("document.body.dataset.region === 'ready'")
    answer = board.api("/v1/region", {"scenario": example("spears"), "unit": "spears",
                                      "manoeuvre": "march", "facing": 90})
    geometry = answer["geometry"]
    polygons = [geometry["coordinates"]] if geometry["type"] == "Polygon" \
        else geometry["coordinates"]
    assert polygons, "the spears can March somewhere"
    drawn = board.page.eval_on_selector_all(".region", "ps => ps.map(p => p.getAttribute('d'))")
    assert len(drawn) == len(polygons)
    assert [d.count("M") for d in drawn] == [len(rings) for rings in polygons]


def test_download_move_saves_the_file_the_command_line_reads(board: Board) -> None:
    board.open("spears")
    board.select("spears", "march")
    board.drag_ghost((36.0, 15.0))
    with board.page.expect_download() as saved:
        board.page.click("[data-testid=download-move]")
    move = json.loads(Path(saved.value.path()).read_text(encoding="utf-8"))
    assert move == board.state("window.board.move")
    verdict = board.api("/v1/check", {"scenario": example("spears"), "move": move})
    assert verdict == board.state("window.board.verdict")


def test_a_whfb7_reform_is_judged_live(board: Board) -> None:
    board.open("goblins")
    board.select("goblins", "reform")
    board.page.fill("[data-testid=files]", "4")
    board.page.dispatch_event("[data-testid=files]", "change")
    board.settled()
    verdict = board.state("window.board.verdict")
    assert verdict["end"]["files"] == 4
    assert board.state("window.board.move") == {"unit": "goblins", "manoeuvre": "reform",
                                                "files": 4, "facing": 90.0}
    assert board.page.locator('[data-testid=ghost] .model').count() == 20


def test_a_whfb7_move_ghost_is_judged_by_the_batch_mask(board: Board) -> None:
    board.open("goblins")
    board.select("goblins", "move")
    for _ in range(20):  # 2" straight ahead: a forward step of the family reaches it
        board.page.keyboard.press("ArrowUp")
    assert board.settled() == "legal"
    assert board.page.inner_text("[data-testid=verdict-status]") == "REACHED"
    reach = board.state("window.board.reach")
    assert reach["reached"] is True and reach["pose"] == [24.0, 12.0, 90.0, 5]
    mask = board.api("/v1/mask", {"scenario": example("goblins"), "unit": "goblins",
                                  "manoeuvre": "move", "poses": [reach["pose"]]})
    assert mask == [True]
    assert board.page.is_enabled("[data-testid=best]")


def test_a_whfb7_march_ghost_far_beyond_reach_is_shown_not_reached(board: Board) -> None:
    board.open("goblins")
    board.select("goblins", "march")
    assert board.drag_ghost((24.0, 40.0)) == "not_reached"
    status = board.page.inner_text("[data-testid=verdict-status]")
    assert status == "NOT REACHED BY THE WAYS SEARCHED" and "ILLEGAL" not in status
    assert "Best move here" in board.page.inner_text("[data-testid=verdict]")
    reach = board.state("window.board.reach")
    assert reach["reached"] is False
    assert reach["pose"][:2] == pytest.approx([24.0, 40.0], abs=0.1)
    mask = board.api("/v1/mask", {"scenario": example("goblins"), "unit": "goblins",
                                  "manoeuvre": "march", "poses": [reach["pose"]]})
    assert mask == [False]
    assert board.page.is_enabled("[data-testid=best]")
    assert board.state("window.board.verdict") is None  # nothing claims it illegal


def test_a_whfb7_move_ghost_turned_is_asked_with_the_turned_files(board: Board) -> None:
    board.open("goblins")
    board.select("goblins", "move")
    for _ in range(90):  # Q turns 1 deg left: a quarter turn on the spot, no step
        board.page.keyboard.press("q")
    assert board.settled() == "legal"
    reach = board.state("window.board.reach")
    turned = board.api("/v1/check", {"scenario": example("goblins"), "move": {
        "unit": "goblins", "manoeuvre": "move", "steps": [{"turn": 90}]}})["end"]
    assert reach["pose"] == [24.0, 10.0, 180.0, turned["files"]] and turned["files"] != 5
    mask = board.api("/v1/mask", {"scenario": example("goblins"), "unit": "goblins",
                                  "manoeuvre": "move", "poses": reach["asked"]})
    assert mask == [False, True]  # the unit's own files: no; the turned ones: yes
    assert board.page.locator("[data-testid=ghost] .model").count() == 20


def test_the_reachable_area_is_drawn_one_colour_a_level_with_a_legend(board: Board) -> None:
    board.open("rooftop_gap")
    board.page.mouse.click(*board.client((8.507874, 12.0)))
    board.page.wait_for_function("window.board.selected === 'runner'")
    board.page.select_option("[data-testid=reach-skill]", "jump")
    with board.page.expect_response("**/v1/route/reach") as reached:
        board.page.check("[data-testid=show-reach]")
    board.page.wait_for_selector("[data-testid=reach-legend] li")
    answer = reached.value.json()
    assert json.loads(reached.value.request.post_data)["skill"] == "jump"
    api = board.api("/v1/route/reach", {"scenario": example("rooftop_gap"), "unit": "runner",
                                        "skill": "jump"})
    assert [lv["level"] for lv in api["levels"]] == [lv["level"] for lv in answer["levels"]]
    assert len(api["levels"]) >= 2, "the runner jumps down from the roof: two levels"
    legend = board.page.eval_on_selector_all(
        "[data-testid=reach-legend] li", "ls => ls.map(l => [Number(l.dataset.level), "
        "l.dataset.colour, l.querySelector('.swatch').style.backgroundColor])")
    assert [level for level, _, _ in legend] == [lv["level"] for lv in api["levels"]]
    colours = [colour for _, colour, _ in legend]
    assert len(set(colours)) == len(colours)  # one colour a level
    drawn = board.page.eval_on_selector_all(
        ".reach", "ps => ps.map(p => [Number(p.dataset.level), p.style.fill])")
    swatch = {level: shown for level, _, shown in legend}
    for level in api["levels"]:  # every polygon of a level, in the legend's colour
        fills = [fill for at, fill in drawn if at == level["level"]]
        assert len(fills) == len(level["polygons"])
        assert set(fills) == {swatch[level["level"]]}
