"""README's curl examples of the HTTP service, run against a real server (its port in place
of 8000): each prints the JSON the README promises."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from typing import Any

import pytest

from tests.optimizer.service.conftest import Running
from tests.support import ROOT


def readme_service_block() -> list[str]:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    blocks = [b for b in re.findall(r"```shell\n(.*?)```", readme, re.S) if "serve" in b]
    assert len(blocks) == 1
    lines = blocks[0].strip().splitlines()
    assert lines[0] == ".venv/bin/manoeuvre serve &"
    return lines[1:]


def json_values(text: str) -> list[Any]:
    """The JSON values printed one after another (curl adds no newline)."""
    decoder, values, at = json.JSONDecoder(), [], 0
    while at < len(text):
        if text[at].isspace():
            at += 1
            continue
        value, at = decoder.raw_decode(text, at)
        values.append(value)
    return values


@pytest.mark.skipif(shutil.which("curl") is None, reason="curl is not installed")
def test_the_readme_curl_examples_answer(server: Running) -> None:
    script = "\n".join(["set -e", *readme_service_block()]).replace(
        "localhost:8000", f"127.0.0.1:{server.port}")
    done = subprocess.run(["bash", "-c", script], cwd=ROOT, capture_output=True, text=True,
                          timeout=300, check=False)
    assert done.returncode == 0, done.stderr
    health, verdict, solved, *moves = json_values(done.stdout)
    assert health["status"] == "pass"
    assert verdict["legal"] is True and verdict["unit"] == "spears"
    assert solved["status"] == "OPTIMAL" and solved["verdict"]["legal"] is True
    assert len(moves) == 3 and all(m["unit"] == "spears" for m in moves)
