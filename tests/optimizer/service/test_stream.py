"""`/v1/solve/stream`: better answers as they are found, each legal, then the solve's answer;
a refused request is a problem, not a stream; a client that goes away stops the search."""

from __future__ import annotations

import json
import logging
import time
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.optimizer.service.test_same_as_cli import without_elapsed

SCENARIOS = Path(__file__).resolve().parents[3] / "benchmarks" / "scenarios"


def scenario_file(name: str) -> Any:
    return json.loads((SCENARIOS / name).read_text(encoding="utf-8"))


def events(text: str) -> list[tuple[str, Any]]:
    out = []
    for block in text.split("\n\n"):
        if block.strip():
            name, data = block.split("\n", 1)
            out.append((name.removeprefix("event: "), json.loads(data.removeprefix("data: "))))
    return out


def test_each_better_answer_is_sent_legal_then_the_solve_answer(client: httpx.Client) -> None:
    """The open-field March to a point beyond reach (bench_solve's open-march): standing
    still, then the searches' better answers; every one sent is legal and better than the
    last.  (The rocks March toward a far point did the same in 10 s a solve, unproved.)"""
    data = scenario_file("open.json")
    body = {"scenario": data, "unit": data["units"][0]["id"], "manoeuvre": "march",
            "objective": {"name": "target_distance", "point": [30, 22]}, "time_limit": 30}
    got = events(client.post("/v1/solve/stream", json=body).text)
    names = [name for name, _ in got]
    assert names[-1] == "final" and set(names[:-1]) == {"improved"} and len(names) >= 3
    values = []
    for _, answer in got[:-1]:
        judged = client.post("/v1/check", json={"scenario": data, "move": answer["move"]})
        assert judged.json()["legal"] is True
        assert answer["verdict"] == judged.json()
        values.append(answer["objective"]["value"])
    assert values == sorted(values, reverse=True) and len(set(values)) == len(values)
    final = got[-1][1]
    assert final["objective"]["value"] <= values[-1] + 1e-6
    assert without_elapsed(final) == without_elapsed(client.post("/v1/solve", json=body).json())


def test_a_refused_request_is_a_problem_not_a_stream(client: httpx.Client) -> None:
    body = {"scenario": scenario_file("rocks.json"), "unit": "nobody", "manoeuvre": "march",
            "objective": {"name": "forward"}}
    answer = client.post("/v1/solve/stream", json=body)
    assert answer.status_code == 422
    assert answer.headers["content-type"] == "application/problem+json"
    assert "nobody" in answer.json()["detail"]


def test_a_client_that_goes_away_stops_the_search(client: httpx.Client,
                                                  caplog: pytest.LogCaptureFixture) -> None:
    """Issue 22's Advance runs about 15 s on its work budget when nobody stops it (it ends
    `deterministic_time`).  The client reads the first better answer and leaves: the search
    ends `cancelled`, with the answer it had."""
    caplog.set_level(logging.INFO, logger="manoeuvre.service")
    body = {"scenario": scenario_file("advance_over_time_limit.json"), "unit": "hero",
            "manoeuvre": "advance", "time_limit": 60, "effort": 60,
            "objective": {"name": "target_distance", "point": [37.786, 36.0]}}
    with client.stream("POST", "/v1/solve/stream", json=body) as stream:
        assert stream.status_code == 200
        first = next(line for line in stream.iter_lines() if line.startswith("event: "))
        assert first == "event: improved"
    said: list[str] = []
    for _ in range(600):  # wait for the search to end (up to 60 s; not a timed assertion)
        said = [r.getMessage() for r in caplog.records if "went away" in r.getMessage()]
        if said:
            break
        time.sleep(0.1)
    assert len(said) == 1
    assert "ended FEASIBLE, stopped by cancelled" in said[0]
