"""The service's limits and safety rules: token, host, body size, cache eviction, the busy
gate, CORS, problem+json answers, and the batch mask over the wire."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable, Iterator
from typing import Any

import httpx
import numpy as np
import pytest

from optimizer.cli import main
from optimizer.service import Settings
from optimizer.service.bodies import MAX_BODY_BYTES
from optimizer.service.gate import Gate
from optimizer.service.problems import Problem
from tests.optimizer.service.conftest import EXAMPLES, Running, example

PROBLEM = "application/problem+json"


def assert_problem(answer: httpx.Response, status: int, path: str | None = None) -> None:
    assert answer.status_code == status, answer.text
    assert answer.headers["content-type"] == PROBLEM
    body = answer.json()
    assert body["status"] == status and body["title"] and body["type"] and body["detail"]
    assert "\n" not in body["detail"]
    if path is not None:
        assert body["path"] == path


@pytest.mark.parametrize("host", ["0.0.0.0", "192.168.1.20", "::", "example.org"])
def test_a_host_past_loopback_needs_a_token(host: str,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["serve", "--host", host]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "--token" in err and "Traceback" not in err


@pytest.mark.parametrize(("option", "value"), [("--port", "70000"), ("--workers", "0"),
                                               ("--cache-size", "0"),
                                               ("--max-time-limit", "0"),
                                               ("--token", "two words")])
def test_bad_serve_options_are_one_line(option: str, value: str,
                                        capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["serve", option, value]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and option in err


@pytest.fixture(scope="module")
def guarded(serve: Callable[[Settings], Running]) -> Running:
    return serve(Settings(token="s3cret", cache_size=2,
                          cors_origins=["http://localhost:5173"]))


def test_the_token_is_needed_on_every_request(guarded: Running) -> None:
    with guarded.client() as bare:
        answer = bare.get("/v1/health")
        assert_problem(answer, 401)
        assert answer.headers["www-authenticate"] == "Bearer"
        assert_problem(bare.get("/v1/health", headers={"Authorization": "Bearer wrong"}), 401)
        assert_problem(bare.post("/v1/check", json={}), 401)
    with guarded.client(Authorization="Bearer s3cret") as good:
        assert good.get("/v1/health").status_code == 200


def test_an_evicted_scenario_answers_404(guarded: Running) -> None:
    with guarded.client(Authorization="Bearer s3cret") as c:
        first = c.post("/v1/scenarios", json=example("spears")).json()["id"]
        move = {"scenario_id": first, "move": example("spears_march")}
        assert c.post("/v1/check", json=move).status_code == 200
        for name in ("melee", "combat"):  # a cache of two: spears goes
            assert c.post("/v1/scenarios", json=example(name)).status_code == 201
        gone = c.post("/v1/check", json=move)
        assert_problem(gone, 404, "$.scenario_id")
        assert "register it again" in gone.json()["detail"]
        assert c.post("/v1/scenarios", json=example("spears")).json()["id"] == first
        assert c.post("/v1/check", json=move).status_code == 200


def test_cors_answers_listed_origins_and_the_private_network_preflight(
        guarded: Running) -> None:
    preflight = {"Origin": "http://localhost:5173", "Access-Control-Request-Method": "POST",
                 "Access-Control-Request-Headers": "authorization, content-type",
                 "Access-Control-Request-Private-Network": "true"}
    with guarded.client() as c:
        ok = c.options("/v1/check", headers=preflight)
        assert ok.status_code == 200
        assert ok.headers["access-control-allow-origin"] == "http://localhost:5173"
        assert ok.headers["access-control-allow-private-network"] == "true"
        other = c.options("/v1/check", headers={**preflight, "Origin": "https://evil.test"})
        assert other.status_code == 400
        assert "access-control-allow-origin" not in other.headers


def test_without_listed_origins_no_cors_headers(client: httpx.Client) -> None:
    answer = client.get("/v1/health", headers={"Origin": "http://localhost:5173"})
    assert answer.status_code == 200
    assert "access-control-allow-origin" not in answer.headers


def test_bodies_past_16_mib_answer_413(client: httpx.Client) -> None:
    big = b"[" + b"0," * (MAX_BODY_BYTES // 2) + b"0]"
    assert_problem(client.post("/v1/check", content=big,
                               headers={"Content-Type": "application/json"}), 413)

    def chunks() -> Iterator[bytes]:  # no Content-Length: counted as it comes
        for _ in range(17):
            yield b" " * 2**20
    assert_problem(client.post("/v1/check", content=chunks()), 413)


@pytest.mark.parametrize(("content", "status", "path"), [
    (b"{", 400, "$"), (b"\xff\xfe", 400, "$"), (b"[]", 422, "$"),
    (b'{"move": {}}', 422, "$"),
    (b'{"scenario": {}, "scenario_id": "x", "move": {}}', 422, "$"),
    (b'{"scenario_id": 7, "move": {}}', 422, "$.scenario_id"),
])
def test_malformed_bodies_are_problems_with_the_path(client: httpx.Client, content: bytes,
                                                     status: int, path: str) -> None:
    assert_problem(client.post("/v1/check", content=content), status, path)


def test_a_readers_error_names_the_path_in_the_body(client: httpx.Client) -> None:
    move = {"unit": "spears", "manoeuvre": "march", "steps": [{"forward": "far"}]}
    answer = client.post("/v1/check", json={"scenario": example("spears"), "move": move})
    assert_problem(answer, 422, "$.move.steps[0].forward")
    bad = example("spears")
    bad["units"][0]["id"] = 5
    assert_problem(client.post("/v1/check", json={"scenario": bad, "move": move}), 422,
                   "$.scenario.units[0].id")
    unknown = client.post("/v1/solve", json={"scenario": example("spears"), "unit": "nobody",
                                             "manoeuvre": "march",
                                             "objective": {"name": "forward"}})
    assert_problem(unknown, 422, "$.unit")
    assert_problem(client.post("/v1/solve", json={
        "scenario": example("spears"), "unit": "spears", "manoeuvre": "march",
        "objective": {"name": "somewhere"}}), 422, "$.objective.name")


def test_unknown_routes_and_methods_are_problems(client: httpx.Client) -> None:
    assert_problem(client.get("/v1/nothing"), 404)
    assert_problem(client.get("/v1/check"), 405)


def test_time_limits_are_capped() -> None:
    from optimizer.service.queries import Service, capped
    from optimizer.service.scenarios import ScenarioCache

    service = Service(Settings(max_time_limit=2.0), ScenarioCache(1))
    assert capped(service, 3600, 10.0) == 2.0
    assert capped(service, 0.5, 10.0) == 0.5
    assert capped(service, None, 10.0) == 2.0


def test_a_full_gate_answers_503_with_retry_after(server: Running,
                                                  client: httpx.Client) -> None:
    gate = server.server.config.app.state.server.gate
    body = {"scenario": example("spears"), "unit": "spears", "manoeuvre": "march",
            "objective": {"name": "forward"}}
    gate.inside += gate.workers + gate.queue  # as if that many searches were in
    try:
        busy = client.post("/v1/solve", json=body)
    finally:
        gate.inside -= gate.workers + gate.queue
    assert_problem(busy, 503)
    assert busy.headers["retry-after"] == "1"
    assert client.post("/v1/check", json={"scenario": example("spears"),
                                          "move": example("spears_march")}).status_code == 200
    assert client.post("/v1/solve", json=body).status_code == 200


def test_the_gate_lets_workers_in_and_queues_the_rest() -> None:
    release = threading.Event()

    async def scenario() -> list[Any]:
        gate = Gate(workers=1, queue=1)
        running = [asyncio.create_task(gate.run(release.wait)) for _ in range(2)]
        await asyncio.sleep(0.05)
        assert gate.inside == 2  # one running, one waiting
        with pytest.raises(Problem) as refused:
            await gate.run(release.wait)
        assert refused.value.status == 503
        release.set()
        return list(await asyncio.gather(*running))

    assert asyncio.run(scenario()) == [True, True]


def spears_poses() -> np.ndarray:
    from constraints.core.scenario_io import scenario_from_json

    unit = scenario_from_json(example("spears")).unit("spears")
    x0, y0 = unit.pose.centre
    rng = np.random.default_rng(7)
    n = 2000
    return np.column_stack([x0 + rng.uniform(-10, 10, n), y0 + rng.uniform(-10, 10, n),
                            rng.choice([0.0, 45.0, 90.0, 135.0], n), np.full(n, unit.files)])


def test_the_mask_is_the_batch_judges_json_and_binary(client: httpx.Client) -> None:
    from constraints.core.scenario_io import scenario_from_json
    from optimizer.pose_mask import legal_mask

    poses = spears_poses()
    expected = legal_mask(scenario_from_json(example("spears")), "spears", "march",
                          poses[:, :2], poses[:, 2], files=poses[:, 3].astype(int))
    assert 0 < expected.sum() < len(poses)  # both answers occur
    answer = client.post("/v1/mask", json={"scenario": example("spears"), "unit": "spears",
                                           "manoeuvre": "march", "poses": poses.tolist()})
    assert answer.status_code == 200, answer.text
    assert answer.json() == expected.tolist()
    key = client.post("/v1/scenarios", json=example("spears")).json()["id"]
    binary = client.post("/v1/mask", content=poses.astype("<f8").tobytes(),
                         params={"scenario_id": key, "unit": "spears", "manoeuvre": "march"},
                         headers={"Content-Type": "application/octet-stream"})
    assert binary.status_code == 200, binary.text
    assert binary.headers["x-count"] == str(len(poses))
    bits = np.unpackbits(np.frombuffer(binary.content, np.uint8), bitorder="little")
    assert bits[:len(poses)].astype(bool).tolist() == expected.tolist()
    assert not bits[len(poses):].any()


@pytest.mark.parametrize(("content", "params", "status", "path"), [
    (b"\0" * 31, {"unit": "spears", "manoeuvre": "march"}, 422, "$"),
    (np.array([[np.nan, 0, 0, 5]]).tobytes(), {"unit": "spears", "manoeuvre": "march"}, 422,
     "$.poses"),
    (b"", {"unit": "spears"}, 422, "?manoeuvre"),
    (b"", {"unit": "spears", "manoeuvre": "march", "x": "1"}, 422, "?x"),
])
def test_a_bad_binary_mask_is_a_problem(client: httpx.Client, content: bytes,
                                        params: dict[str, str], status: int,
                                        path: str) -> None:
    key = client.post("/v1/scenarios", json=example("spears")).json()["id"]
    answer = client.post("/v1/mask", content=content, params={"scenario_id": key, **params},
                         headers={"Content-Type": "application/octet-stream"})
    assert_problem(answer, status, path)


def test_queries_a_system_does_not_answer_are_422(client: httpx.Client) -> None:
    mask = client.post("/v1/mask", json={"scenario": example("ruins"), "unit": "trooper",
                                         "manoeuvre": "move", "poses": [[1, 2, 3, 4]]})
    assert_problem(mask, 422, "$")
    assert "legal_mask" in mask.json()["detail"]
    assert_problem(client.post("/v1/why-not", json={"scenario": example("ruins"),
                                                    "move": example("ruins_route")}), 422, "$")


def test_the_whfb7_mask_is_the_python_one(client: httpx.Client) -> None:
    from optimizer import legal_mask, load_scenario

    poses = [[24.0, 14.0, 90.0, 5], [24.0, 40.0, 90.0, 5], [25.0, 15.0, 80.0, 5],
             [24.0, 14.0, 90.5, 5], [20.0, 12.0, 100.0, 5]]
    body = {"scenario": example("goblins"), "unit": "goblins", "manoeuvre": "march",
            "poses": poses}
    got = client.post("/v1/mask", json=body)
    assert got.status_code == 200, got.text
    rows = np.array(poses)
    expected = legal_mask(load_scenario(EXAMPLES / "goblins.json"), "goblins", "march",
                          rows[:, :2], rows[:, 2], files=rows[:, 3].astype(int))
    assert got.json() == expected.tolist() and got.json()[:2] == [True, False]


def test_searches_in_processes_answer_as_in_threads(serve: Callable[[Settings], Running],
                                                    client: httpx.Client) -> None:
    from tests.optimizer.service.test_same_as_cli import without_elapsed

    running = serve(Settings(processes=True, workers=1))
    body = {"unit": "spears", "manoeuvre": "march", "objective": {"name": "forward"},
            "time_limit": 30}
    with running.client() as c:
        key = c.post("/v1/scenarios", json=example("spears")).json()["id"]
        in_process = c.post("/v1/solve", json={"scenario_id": key, **body})
        assert in_process.status_code == 200, in_process.text
        in_thread = client.post("/v1/solve", json={"scenario": example("spears"), **body})
        assert without_elapsed(in_process.json()) == without_elapsed(in_thread.json())
        assert_problem(c.post("/v1/solve", json={"scenario_id": key, **body,
                                                 "unit": "nobody"}), 422, "$.unit")
        assert_problem(c.post("/v1/solve", json={"scenario_id": "0" * 64, **body}), 404,
                       "$.scenario_id")
        reach = c.post("/v1/route/reach", json={"scenario": example("ruins"),
                                                "unit": "fusilier"})
        assert reach.status_code == 200 and reach.json()["status"] == "FEASIBLE"


def test_python_m_serve_with_processes_answers_and_stops() -> None:
    # `python -m optimizer.cli` ran its command again in every spawned worker (an unguarded
    # __main__): a second server on the same port, and no answer.
    import os
    import subprocess
    import sys
    import time

    from optimizer.service.local import free_port
    from tests.support import ROOT

    port = free_port()
    server = subprocess.Popen([sys.executable, "-m", "optimizer.cli", "serve", "--port",
                               str(port), "--processes", "--workers", "1"], cwd=ROOT,
                              env=dict(os.environ, MPLBACKEND="Agg"),
                              stderr=subprocess.PIPE, text=True)
    try:
        url = f"http://127.0.0.1:{port}"
        for _ in range(600):  # up to a minute to listen (not a timed assertion)
            try:
                httpx.get(f"{url}/v1/health", timeout=1.0)
                break
            except httpx.TransportError:
                time.sleep(0.1)
        answer = httpx.post(f"{url}/v1/solve", timeout=120.0, json={
            "scenario": example("spears"), "unit": "spears", "manoeuvre": "march",
            "objective": {"name": "forward"}, "time_limit": 30})
        assert answer.status_code == 200 and answer.json()["status"] == "OPTIMAL"
    finally:
        server.terminate()
        _, err = server.communicate(timeout=60)
    assert "Traceback" not in err and "leaked" not in err, err
