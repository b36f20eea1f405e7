"""`optimizer.service.local.spawn`: `manoeuvre serve` as a child process on a free loopback
port, answering once it returns (the benchmarks and docs/screenshots.py start it so)."""

from __future__ import annotations

import httpx

from optimizer.service.local import spawn


def test_spawn_answers_at_the_url_it_gives() -> None:
    proc, url = spawn("--workers", "1")
    try:
        assert url.startswith("http://127.0.0.1:")
        assert httpx.get(f"{url}/v1/health", timeout=10).json()["status"] == "pass"
    finally:
        proc.terminate()
        proc.wait(timeout=30)
    assert proc.returncode is not None
