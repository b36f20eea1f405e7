"""Screenshots of each view of the web board (docs/board.md), made by driving the board in
Debian's chromium (headless, Playwright) against `manoeuvre serve` on 127.0.0.1, as the
board's tests do.  Run by hand after changing the board; tests never run it (it rewrites the
tracked pictures in docs/images/).

    .venv/bin/python docs/screenshots.py [--out docs/images]
"""

from __future__ import annotations

import argparse
import os
import subprocess
from collections.abc import Callable
from pathlib import Path
from typing import Any

from optimizer.service.local import spawn

ROOT = Path(__file__).resolve().parent.parent
CHROMIUM = os.environ.get("MANOEUVRE_CHROMIUM", "/usr/bin/chromium")


def serve() -> tuple[subprocess.Popen[bytes], str]:
    try:
        return spawn(cwd=ROOT)
    except RuntimeError as exc:
        raise SystemExit(str(exc)) from None


class Shots:
    def __init__(self, page: Any, url: str, out: Path) -> None:
        self.page, self.url, self.out = page, url, out

    def open(self, name: str) -> None:
        self.page.goto(f"{self.url}/?example={name}")
        self.page.wait_for_function(f"window.board && window.board.name === {name!r} && "
                                    "document.querySelectorAll('[data-unit]').length > 0")

    def client(self, point: tuple[float, float]) -> tuple[float, float]:
        x, y = self.page.evaluate(f"window.board.view.client([{point[0]}, {point[1]}])")
        return x, y

    def settled(self) -> None:
        self.page.wait_for_selector("[data-testid=ghost]:not([data-state=pending])")

    def zoom(self, about: tuple[float, float], clicks: int) -> None:
        self.page.mouse.move(*self.client(about))
        for _ in range(clicks):
            self.page.mouse.wheel(0, -200)

    def drag(self, start: tuple[float, float], to: tuple[float, float]) -> None:
        mouse = self.page.mouse
        mouse.move(*self.client(start))
        mouse.down()
        mouse.move(*self.client(to), steps=10)
        mouse.up()
        self.settled()

    def shot(self, name: str) -> None:
        self.page.screenshot(path=str(self.out / f"board-{name}.png"))
        print(f"wrote {self.out / f'board-{name}.png'}")


def check_view(s: Shots) -> None:
    s.open("spears")
    s.zoom((32.0, 15.0), 4)
    s.page.mouse.click(*s.client((36.0, 10.0)))
    s.page.click("[data-testid=manoeuvre-march]")
    s.settled()
    s.drag((36.0, 10.0), (28.0, 17.0))
    s.shot("illegal")
    s.drag((28.0, 17.0), (35.0, 15.5))
    s.page.check("[data-testid=show-region]")
    s.page.wait_for_function("document.body.dataset.region === 'ready'")
    s.shot("legal-region")


def best_view(s: Shots) -> None:
    s.open("spears")
    s.zoom((34.0, 13.0), 5)
    s.page.mouse.click(*s.client((36.0, 10.0)))
    s.page.click("[data-testid=manoeuvre-march]")
    s.settled()
    s.drag((36.0, 10.0), (33.0, 14.0))
    s.page.focus("[data-testid=board]")
    for _ in range(20):
        s.page.keyboard.press("e")
    s.settled()
    s.page.click("[data-testid=best]")
    s.page.wait_for_selector("[data-testid=search-status]")
    s.page.wait_for_function("document.body.dataset.animating === '0'")
    s.settled()
    s.shot("best-move")


def nudge_view(s: Shots) -> None:
    s.open("melee")
    s.zoom((36.0, 10.0), 6)
    s.page.fill("[data-testid=casualties-spears]", "5")
    s.page.fill("[data-testid=casualties-orcs]", "2")
    s.page.click("[data-testid=nudge]")
    s.page.wait_for_selector("[data-testid=nudges] li")
    s.shot("nudge")


def reform_view(s: Shots) -> None:
    s.open("combat")
    s.zoom((31.0, 10.0), 6)
    s.page.click("[data-testid=combat-reform]")
    s.page.wait_for_selector("[data-testid=reform-status]", timeout=120_000)
    s.shot("combat-reform")


def route_view(s: Shots) -> None:
    s.open("ruins")
    s.page.mouse.click(*s.client((4.8, 13.0)))
    s.page.wait_for_function("window.board.selected === 'fusilier'")
    s.page.check("[data-testid=show-reach]")
    s.page.wait_for_function("document.querySelectorAll('.reach').length > 0")
    s.page.mouse.click(*s.client((9.3, 16.3)))
    s.page.wait_for_selector("[data-testid=route-status]")
    s.shot("route")


VIEWS: list[Callable[[Shots], None]] = [check_view, best_view, nudge_view, reform_view,
                                        route_view]


def main() -> None:
    from playwright.sync_api import sync_playwright

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "images")
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    proc, url = serve()
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
            page = browser.new_page(viewport={"width": 1280, "height": 760})
            shots = Shots(page, url, args.out)
            for view in VIEWS:
                view(shots)
            browser.close()
    finally:
        proc.terminate()
        proc.wait(timeout=30)


if __name__ == "__main__":
    main()
