"""The OpenAPI document carries the project's JSON Schemas: bodies and answers refer to
them, and real answers of the service validate against what the document says."""

from __future__ import annotations

from typing import Any

import httpx
import jsonschema
import pytest

from tests.optimizer.service.conftest import example


@pytest.fixture(scope="module")
def spec(server: Any) -> dict[str, Any]:
    with server.client() as c:
        found: dict[str, Any] = c.get("/openapi.json").json()
    return found


def answer_schema(spec: dict[str, Any], path: str) -> dict[str, Any]:
    schema = spec["paths"][path]["post"]["responses"]["200"]["content"]["application/json"]
    # Local references resolve against a root that holds the components.
    return {**schema["schema"], "components": spec["components"]}


def test_bodies_refer_to_the_file_schemas(spec: dict[str, Any]) -> None:
    check = spec["paths"]["/v1/check"]["post"]["requestBody"]["content"]["application/json"]
    properties = check["schema"]["properties"]
    assert properties["scenario"]["$ref"] == "#/components/schemas/scenario"
    assert {"$ref": "#/components/schemas/move"} in properties["move"]["anyOf"]
    assert properties["result"]["$ref"] == "#/components/schemas/combat-result"
    assert spec["components"]["schemas"]["scenario"]["title"].startswith("Manoeuvre scenario")


@pytest.mark.parametrize(("path", "body"), [
    ("/v1/check", {"scenario": example("spears"), "move": example("spears_march")}),
    ("/v1/check", {"scenario": example("ruins"), "move": example("ruins_route")}),
    ("/v1/solve", {"scenario": example("spears"), "unit": "spears", "manoeuvre": "march",
                   "objective": {"name": "forward"}, "time_limit": 30}),
    ("/v1/route", {"scenario": example("ruins"), "unit": "fusilier", "to": [9.3, 16.3, 3.0]}),
])
def test_answers_validate_against_the_document(spec: dict[str, Any], client: httpx.Client,
                                               path: str, body: dict[str, Any]) -> None:
    answer = client.post(path, json=body)
    assert answer.status_code == 200, answer.text
    jsonschema.Draft202012Validator(answer_schema(spec, path)).validate(answer.json())


def test_a_wrong_answer_would_not_validate(spec: dict[str, Any]) -> None:
    validator = jsonschema.Draft202012Validator(answer_schema(spec, "/v1/solve"))
    assert not validator.is_valid({"status": "SOLVED"})
