"""Request bodies are read through their models (optimizer/service/requests.py): a bad key
is one 422 problem at its JSON path in the files' words, and the OpenAPI document shows each
body's model, so that what the document accepts the service accepts."""

from __future__ import annotations

from typing import Any

import httpx
import jsonschema
import pytest

from optimizer.service.requests import BODIES
from tests.optimizer.service.conftest import example
from tests.optimizer.service.test_rules import assert_problem

SPEARS = example("spears")
SOLVE = {"scenario": SPEARS, "unit": "spears", "manoeuvre": "march",
         "objective": {"name": "forward"}}
RUINS = example("ruins")

# (route, body, JSON path, the problem's words)
BAD = [
    ("/v1/solve", {**SOLVE, "objective": {"name": "somewhere"}}, "$.objective.name",
     "unknown objective 'somewhere' (known: target_distance, front_target_distance, "
     "target_pose, face_point, forward)"),
    ("/v1/solve", {**SOLVE, "time_limit": -1}, "$.time_limit", "expected a number > 0"),
    ("/v1/solve", {**SOLVE, "objective": {"name": "forward", "far": 1}},
     "$.objective.far", "unknown key 'far'"),
    ("/v1/solve", {**SOLVE, "unit": 5}, "$.unit", "expected a non-empty string, got 5"),
    ("/v1/solve", {**SOLVE, "avoid": "x"}, "$.avoid", "expected 'dangerous', got 'x'"),
    ("/v1/moves", {"scenario": SPEARS, "unit": "spears", "manoeuvre": "march", "limit": 0},
     "$.limit", "expected a whole number >= 1, got 0"),
    ("/v1/mask", {"scenario": SPEARS, "unit": "spears", "manoeuvre": "march",
                  "poses": [[1, 2, 3]]}, "$.poses[0]", "expected 4 items, got 3"),
    ("/v1/mask", {"scenario": SPEARS, "unit": "spears", "manoeuvre": "march",
                  "poses": [[1, 2, 3, "x"]]}, "$.poses[0][3]", "expected a number, got a string"),
    ("/v1/region", {"scenario": SPEARS, "unit": "spears", "manoeuvre": "march"}, "$",
     "missing key 'facing'"),
    ("/v1/check", {"scenario": SPEARS, "move": example("spears_march"), "referee": 3},
     "$.referee",
     "expected a number <= 1.0, got 3.0"),
    ("/v1/route", {"scenario": RUINS, "unit": "fusilier", "to": [1]}, "$.to",
     "expected at least 2 items, got 1"),
    ("/v1/lof", {"scenario": RUINS, "to": "fusilier"}, "$", "missing key 'from'"),
    ("/v1/combat-reform", {"scenario": SPEARS, "widest": 1}, "$.widest",
     "expected true or false, got 1"),
]


@pytest.mark.parametrize(("route", "body", "path", "words"), BAD,
                         ids=[f"{r}:{p}" for r, _, p, _ in BAD])
def test_a_bad_key_is_one_problem_at_its_path(client: httpx.Client, route: str,
                                              body: dict[str, Any], path: str,
                                              words: str) -> None:
    answer = client.post(route, json=body)
    assert_problem(answer, 422, path)
    detail = answer.json()["detail"]
    assert detail.startswith(f"{path}: {words}") and len(detail) <= 280, detail


def test_an_optional_key_may_be_null(client: httpx.Client) -> None:
    answer = client.post("/v1/solve", json={**SOLVE, "time_limit": 30, "effort": None,
                                            "tolerance": None})
    assert answer.status_code == 200, answer.text


@pytest.fixture(scope="module")
def spec(server: Any) -> dict[str, Any]:
    with server.client() as c:
        found: dict[str, Any] = c.get("/openapi.json").json()
    return found


def body_validator(spec: dict[str, Any], route: str) -> jsonschema.Draft202012Validator:
    content = spec["paths"][route]["post"]["requestBody"]["content"]["application/json"]
    return jsonschema.Draft202012Validator({**content["schema"],
                                            "components": spec["components"]})


def test_every_json_body_in_the_document_is_its_models(spec: dict[str, Any]) -> None:
    for route, model in BODIES.items():
        schema = spec["paths"][route]["post"]["requestBody"]["content"][
            "application/json"]["schema"]
        assert schema["additionalProperties"] is False, route
        assert set(schema["properties"]) == {f.alias or name for name, f in
                                             model.model_fields.items()}, route
        assert "$defs" not in str(schema), route  # nested models written in place


def test_what_the_document_refuses_the_service_refuses(spec: dict[str, Any],
                                                       client: httpx.Client) -> None:
    assert body_validator(spec, "/v1/solve").is_valid(SOLVE)
    assert body_validator(spec, "/v1/check").is_valid(
        {"scenario": SPEARS, "move": example("spears_march"), "referee": 0.5})
    for route, body, *_ in BAD:
        assert not body_validator(spec, route).is_valid(body), (route, body)
    scenario = spec["paths"]["/v1/scenarios"]["post"]["requestBody"]["content"][
        "application/json"]["schema"]
    assert scenario == {"$ref": "#/components/schemas/scenario"}
