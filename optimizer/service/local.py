"""`manoeuvre serve` started as a child process on a free loopback port, for the scripts
that drive it from outside (benchmarks/bench_service.py, bench_board.py, docs/screenshots.py)
and any local client; the tests run uvicorn in-process instead."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

STARTUP_S = 30.0  # a loaded machine imports the service in a few seconds


def free_port() -> int:
    """A port nobody listens on at 127.0.0.1 (now)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def spawn(*options: str, cwd: Path | None = None,
          quiet: bool = True) -> tuple[subprocess.Popen[bytes], str]:
    """`manoeuvre serve --port P *options` running, and its URL, once /v1/health answers;
    RuntimeError (the child killed) if it does not within STARTUP_S."""
    port = free_port()
    out = subprocess.DEVNULL if quiet else None
    proc = subprocess.Popen([sys.executable, "-m", "optimizer.cli", "serve", "--port",
                             str(port), *options], cwd=cwd, stdout=out, stderr=out,
                            env=dict(os.environ, MPLBACKEND="Agg"))
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + STARTUP_S
    while time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(f"{url}/v1/health", timeout=1.0):
                return proc, url
        except (urllib.error.URLError, ConnectionError, TimeoutError):
            time.sleep(0.05)
    proc.kill()
    raise RuntimeError("manoeuvre serve did not start")
