"""Every endpoint on the bundled examples answers the command line's `--json` for the same
input (`elapsed_s` aside), over real HTTP."""

from __future__ import annotations

import json
from typing import Any

import httpx
import pytest

from optimizer.cli import main
from tests.optimizer.service.conftest import EXAMPLES, example


def without_elapsed(data: Any) -> Any:
    if isinstance(data, dict):
        return {k: without_elapsed(v) for k, v in data.items() if k != "elapsed_s"}
    if isinstance(data, list):
        return [without_elapsed(v) for v in data]
    return data


def cli_json(argv: list[str], capsys: pytest.CaptureFixture[str]) -> Any:
    capsys.readouterr()
    status = main([*argv, "--json"])
    assert status in (0, 1)
    return json.loads(capsys.readouterr().out)


def path(name: str) -> str:
    return str(EXAMPLES / f"{name}.json")


# (endpoint, body without the scenario, scenario, command line after the scenario)
CASES = [
    ("/v1/check", {"move": example("spears_march")}, "spears",
     ["check", path("spears"), path("spears_march")]),
    ("/v1/check", {"move": example("spears_march"), "referee": 0.5}, "spears",
     ["check", path("spears"), path("spears_march"), "--referee", "0.5"]),
    ("/v1/check", {"move": example("goblins_turn")}, "goblins",
     ["check", path("goblins"), path("goblins_turn")]),
    ("/v1/check", {"move": example("ruins_route")}, "ruins",
     ["check", path("ruins"), path("ruins_route")]),
    ("/v1/check", {"move": example("climb_tower_route")}, "climb_tower",
     ["check", path("climb_tower"), path("climb_tower_route")]),
    ("/v1/solve", {"unit": "spears", "manoeuvre": "march", "objective": {"name": "forward"},
                   "time_limit": 30}, "spears",
     ["solve", path("spears"), "--unit", "spears", "--manoeuvre", "march", "--forward",
      "--time-limit", "30"]),
    ("/v1/solve", {"unit": "knights", "manoeuvre": "march", "time_limit": 30,
                   "objective": {"name": "front_target_distance", "point": [42, 18.5]}},
     "flank_march",
     ["solve", path("flank_march"), "--unit", "knights", "--manoeuvre", "march",
      "--target", "42,18.5", "--front", "--time-limit", "30"]),
    ("/v1/nudge", {"casualties": example("melee_casualties")}, "melee",
     ["nudge", path("melee"), "--casualties", path("melee_casualties")]),
    ("/v1/combat-reform", {"result": example("combat_result")}, "combat",
     ["combat-reform", path("combat"), "--result", path("combat_result")]),
    ("/v1/route", {"unit": "fusilier", "to": [9.3, 16.3], "skill": "move_move"}, "ruins",
     ["route", path("ruins"), "--unit", "fusilier", "--to", "9.3,16.3", "--skill",
      "move_move"]),
    ("/v1/route/reach", {"unit": "fusilier"}, "ruins",
     ["route", path("ruins"), "--unit", "fusilier", "--reach"]),
    ("/v1/lof", {"from": "zhanshi", "to": "hacker"}, "ruins",
     ["lof", path("ruins"), "--from", "zhanshi", "--to", "hacker"]),
]


@pytest.mark.parametrize(("endpoint", "body", "scenario", "argv"), CASES,
                         ids=[f"{c[0]}:{c[2]}" for c in CASES])
def test_an_answer_is_the_commands_json(client: httpx.Client, endpoint: str, body: Any,
                                        scenario: str, argv: list[str],
                                        capsys: pytest.CaptureFixture[str]) -> None:
    answer = client.post(endpoint, json={"scenario": example(scenario), **body})
    assert answer.status_code == 200, answer.text
    assert answer.headers["content-type"] == "application/json"
    assert without_elapsed(answer.json()) == without_elapsed(cli_json(argv, capsys))


def test_an_illegal_move_is_200_with_legal_false(client: httpx.Client,
                                                 capsys: pytest.CaptureFixture[str],
                                                 tmp_path: Any) -> None:
    move = {"unit": "spears", "manoeuvre": "march", "steps": [{"forward": 30}]}
    (tmp_path / "far.json").write_text(json.dumps(move))
    answer = client.post("/v1/check", json={"scenario": example("spears"), "move": move})
    assert answer.status_code == 200
    assert answer.json()["legal"] is False
    assert answer.json() == cli_json(["check", path("spears"), str(tmp_path / "far.json")],
                                     capsys)


def test_a_registered_scenario_answers_as_the_inline_one(client: httpx.Client) -> None:
    registered = client.post("/v1/scenarios", json=example("spears"))
    assert registered.status_code == 201
    key = registered.json()["id"]
    assert len(key) == 64 and int(key, 16) >= 0
    by_id = client.post("/v1/check", json={"scenario_id": key, "move": example("spears_march")})
    inline = client.post("/v1/check", json={"scenario": example("spears"),
                                            "move": example("spears_march")})
    assert by_id.json() == inline.json()


def test_the_id_is_the_sha256_of_the_canonical_json(client: httpx.Client) -> None:
    import hashlib

    data = example("spears")
    canonical = json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    reordered = dict(reversed(list(data.items())))
    assert client.post("/v1/scenarios", json=reordered).json()["id"] == \
        hashlib.sha256(canonical.encode()).hexdigest()


def test_moves_are_the_commands_moves_a_line_each(client: httpx.Client,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    answer = client.post("/v1/moves", json={"scenario": example("spears"), "unit": "spears",
                                            "manoeuvre": "march", "limit": 5})
    assert answer.status_code == 200
    assert answer.headers["content-type"] == "application/x-ndjson"
    lines = answer.text.splitlines()
    expected = cli_json(["moves", path("spears"), "--unit", "spears", "--manoeuvre", "march",
                         "--limit", "5"], capsys)["moves"]
    assert len(lines) == len(expected) == 5
    assert [json.loads(line) for line in lines] == expected


def test_nearest_legal_is_the_python_querys_result(client: httpx.Client) -> None:
    from constraints.core.scenario_io import scenario_from_json
    from optimizer.cli.search import result_json
    from optimizer.queries import nearest_legal

    scenario = scenario_from_json(example("spears"))
    expected = result_json(nearest_legal(scenario, "spears", "march", (36.0, 30.0), 90.0,
                                         time_limit_s=30))
    answer = client.post("/v1/nearest-legal", json={
        "scenario": example("spears"), "unit": "spears", "manoeuvre": "march",
        "centre": [36.0, 30.0], "facing": 90.0, "time_limit": 30})
    assert answer.status_code == 200, answer.text
    assert without_elapsed(answer.json()) == without_elapsed(expected)


def test_why_not_names_the_python_querys_clauses(client: httpx.Client) -> None:
    from constraints.core.scenario_io import scenario_from_json
    from constraints.t9a.move_io import move_from_json
    from optimizer.search.explain import why_not

    move = {"unit": "spears", "manoeuvre": "march", "steps": [{"forward": 30}]}
    scenario = scenario_from_json(example("spears"))
    expected = list(why_not(scenario, move_from_json(move), time_limit_s=30))
    answer = client.post("/v1/why-not", json={"scenario": example("spears"), "move": move,
                                              "time_limit": 30})
    assert answer.status_code == 200, answer.text
    assert answer.json()["blocking"] == expected
    assert expected  # a 30" march is out of reach: some clause blocks it


def test_the_region_is_the_python_querys_geojson(client: httpx.Client) -> None:
    import shapely

    from constraints.core.scenario_io import scenario_from_json
    from optimizer.queries import legal_region

    scenario = scenario_from_json(example("spears"))
    expected = legal_region(scenario, "spears", "march", 90.0)
    answer = client.post("/v1/region", json={"scenario": example("spears"), "unit": "spears",
                                             "manoeuvre": "march", "facing": 90.0})
    assert answer.status_code == 200, answer.text
    got = shapely.from_geojson(json.dumps(answer.json()["geometry"]))
    assert got.area > 0
    assert got.symmetric_difference(expected).area < 1e-9


def test_the_stream_ends_with_the_solve_answer(client: httpx.Client) -> None:
    body = {"scenario": example("spears"), "unit": "spears", "manoeuvre": "march",
            "objective": {"name": "forward"}, "time_limit": 30}
    plain = client.post("/v1/solve", json=body).json()
    stream = client.post("/v1/solve/stream", json=body)
    assert stream.headers["content-type"].startswith("text/event-stream")
    events = [e for e in stream.text.split("\n\n") if e.strip()]
    name, data = events[-1].split("\n", 1)
    assert name == "event: final"
    assert without_elapsed(json.loads(data.removeprefix("data: "))) == without_elapsed(plain)


def test_examples_are_the_bundled_files(client: httpx.Client) -> None:
    names = client.get("/v1/examples").json()["examples"]
    assert "spears" in names and "ruins_route" in names
    assert client.get("/v1/examples/spears").json() == example("spears")
    missing = client.get("/v1/examples/..%2Fpyproject")
    assert missing.status_code == 404
    assert missing.headers["content-type"] == "application/problem+json"


def test_health_and_openapi_31(client: httpx.Client) -> None:
    from optimizer import __version__

    assert client.get("/v1/health").json() == {"status": "pass", "version": __version__}
    from openapi_spec_validator import OpenAPIV31SpecValidator

    spec = client.get("/openapi.json").json()
    assert spec["openapi"].startswith("3.1.")
    OpenAPIV31SpecValidator(spec).validate()  # raises on any error
    for route in ("/v1/check", "/v1/solve", "/v1/moves", "/v1/mask", "/v1/scenarios",
                  "/v1/route", "/v1/route/reach", "/v1/nudge", "/v1/combat-reform",
                  "/v1/why-not", "/v1/nearest-legal", "/v1/region", "/v1/solve/stream"):
        assert "requestBody" in spec["paths"][route]["post"], route
