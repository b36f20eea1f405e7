"""More of the web board (docs/board.md; test_board.py has the first part) in a real
headless Chromium (Debian's `chromium`, driven by Playwright) against a real uvicorn on
127.0.0.1: what a player sees is what the API says.

Without chromium these tests are skipped, unless MANOEUVRE_REQUIRE_BROWSER is set (CI sets
it in .ci/run): then a missing browser fails them loudly."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.optimizer.service.board.conftest import STATIC, Board
from tests.optimizer.service.conftest import Running, example


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
