"""The headless Chromium and the page of the board that test_board.py and test_board_more.py
drive (Playwright against a real uvicorn on 127.0.0.1).

Without chromium the tests are skipped, unless MANOEUVRE_REQUIRE_BROWSER is set (CI sets it
in .ci/run): then a missing browser fails them loudly."""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.optimizer.service.conftest import Running

CHROMIUM = os.environ.get("MANOEUVRE_CHROMIUM", "/usr/bin/chromium")  # else `chromium` on PATH
REQUIRED = bool(os.environ.get("MANOEUVRE_REQUIRE_BROWSER"))
STATIC = Path(__file__).resolve().parents[4] / "optimizer" / "service" / "static"


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
