"""A real uvicorn server on a free 127.0.0.1 port, in a thread of the test process, and an
httpx client talking to it over HTTP."""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
import uvicorn

from optimizer.service import Settings, create_app
from optimizer.service.local import free_port

EXAMPLES = Path(__file__).resolve().parents[3] / "examples"


def example(name: str) -> Any:
    return json.loads((EXAMPLES / f"{name}.json").read_text(encoding="utf-8"))


class Running:
    """A uvicorn server serving `create_app(settings)` until stopped."""

    def __init__(self, settings: Settings) -> None:
        self.port = free_port()
        config = uvicorn.Config(create_app(settings), host="127.0.0.1", port=self.port,
                                log_level="error", lifespan="off")
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, daemon=True)
        self.thread.start()
        for _ in range(500):  # up to 10 s for the socket to listen (not a timed assertion)
            if self.server.started:
                break
            time.sleep(0.02)
        assert self.server.started, "uvicorn did not start"
        self.url = f"http://127.0.0.1:{self.port}"

    def client(self, **headers: str) -> httpx.Client:
        return httpx.Client(base_url=self.url, timeout=120.0, headers=headers)

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=10)


@pytest.fixture(scope="session")
def serve() -> Iterator[Callable[[Settings], Running]]:
    """Start servers with given settings; all stopped at the end of the session."""
    started: list[Running] = []

    def start(settings: Settings) -> Running:
        started.append(Running(settings))
        return started[-1]
    yield start
    for running in started:
        running.stop()


@pytest.fixture(scope="session")
def server(serve: Callable[[Settings], Running]) -> Running:
    return serve(Settings())


@pytest.fixture()
def client(server: Running) -> Iterator[httpx.Client]:
    with server.client() as c:
        yield c
