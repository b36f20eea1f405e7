"""Hostile requests never get a 5xx: a seeded, bounded hypothesis run over every endpoint
with valid bodies broken one key at a time, arbitrary JSON and bytes, and odd content
types and headers, against a real server whose searches are capped at half a second."""

from __future__ import annotations

import copy
import json
import os
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from constraints.errors import MAX_MESSAGE
from optimizer.service import Settings
from tests.optimizer.service.conftest import Running, example

SPEARS = example("spears")
SOLVE = {"unit": "spears", "manoeuvre": "march", "objective": {"name": "forward"}}
BODIES: dict[str, dict[str, Any]] = {
    "/v1/check": {"scenario": SPEARS, "move": example("spears_march")},
    "/v1/solve": {"scenario": SPEARS, **SOLVE},
    "/v1/solve/stream": {"scenario": SPEARS, **SOLVE},
    "/v1/moves": {"scenario": SPEARS, "unit": "spears", "manoeuvre": "march", "limit": 3},
    "/v1/mask": {"scenario": SPEARS, "unit": "spears", "manoeuvre": "march",
                 "poses": [[36.0, 12.0, 90.0, 5]]},
    "/v1/nearest-legal": {"scenario": SPEARS, "unit": "spears", "manoeuvre": "march",
                          "centre": [36.0, 20.0], "facing": 90.0},
    "/v1/why-not": {"scenario": SPEARS, "move": example("spears_march")},
    "/v1/nudge": {"scenario": example("melee"), "casualties": example("melee_casualties")},
    "/v1/combat-reform": {"scenario": example("combat"), "result": example("combat_result")},
    "/v1/route": {"scenario": example("ruins"), "unit": "fusilier", "to": [9.3, 16.3]},
    "/v1/route/reach": {"scenario": example("ruins"), "unit": "fusilier"},
    "/v1/lof": {"scenario": example("ruins"), "from": "zhanshi", "to": "fusilier"},
    "/v1/region": {"scenario": SPEARS, "unit": "spears", "manoeuvre": "march",
                   "facing": 90.0},
    "/v1/scenarios": SPEARS,
}
HOSTILE: list[Any] = [None, True, -1, 0, 2**64, -1e308, 1e308, float("nan"), float("inf"),
                      "", "x" * 5000, "\u0000\ud800", [], {}, [[[]]], {"": {}},
                      [1e308, -1e308], [0, 0, 0, 0, 0]]
CONTENT_TYPES = ["application/json", "text/plain", "application/octet-stream",
                 "multipart/form-data; boundary=x", "application/json; charset=latin-1",
                 "", "application/x-www-form-urlencoded"]


def paths(value: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every key and index path inside `value`."""
    found = [prefix] if prefix else []
    if isinstance(value, dict):
        for k, v in value.items():
            found += paths(v, (*prefix, k))
    elif isinstance(value, list):
        for i, v in enumerate(value[:4]):
            found += paths(v, (*prefix, i))
    return found


@st.composite
def broken_body(draw: st.DrawFn, endpoint: str) -> bytes:
    body = copy.deepcopy(BODIES[endpoint])
    kind = draw(st.sampled_from(["replace", "delete", "add", "json", "bytes", "deep"]))
    if kind == "bytes":
        return draw(st.binary(max_size=300))
    if kind == "deep":
        depth = draw(st.integers(100, 100_000))
        return b"[" * depth + b"]" * depth
    if kind == "json":
        leaf = st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=20)
        value = draw(st.recursive(leaf, lambda inner: st.lists(inner, max_size=4)
                                  | st.dictionaries(st.text(max_size=8), inner, max_size=4),
                                  max_leaves=20))
        return json.dumps(value).encode()
    where = draw(st.sampled_from(paths(body)))
    parent = body
    for key in where[:-1]:
        parent = parent[key]
    if kind == "replace":
        parent[where[-1]] = draw(st.sampled_from(HOSTILE))
    elif kind == "delete":
        del parent[where[-1]]
    elif isinstance(parent, dict):
        parent[draw(st.sampled_from(["extra", "", "$", "__proto__"]))] = \
            draw(st.sampled_from(HOSTILE))
    else:
        parent.append(draw(st.sampled_from(HOSTILE)))
    return json.dumps(body).encode()


@st.composite
def request(draw: st.DrawFn) -> tuple[str, bytes, dict[str, str], dict[str, str]]:
    endpoint = draw(st.sampled_from(sorted(BODIES)))
    headers = {"Content-Type": draw(st.sampled_from(CONTENT_TYPES))}
    if draw(st.booleans()):
        headers["Authorization"] = draw(st.sampled_from(["Bearer", "Basic x", "Bearer " +
                                                         "a" * 1000]))
    params = draw(st.sampled_from([{}, {"scenario_id": "0" * 64, "unit": "spears",
                                        "manoeuvre": "march"}, {"unit": "\u00e9"}]))
    return endpoint, draw(broken_body(endpoint)), headers, params


@pytest.fixture(scope="module")
def capped_server(serve: Callable[[Settings], Running]) -> Running:
    return serve(Settings(max_time_limit=0.5, cache_size=4))


# MANOEUVRE_FUZZ_EXAMPLES=N (tests/optimizer/cli/test_fuzz.py) runs N here when more than 150.
EXAMPLES = max(150, int(os.environ.get("MANOEUVRE_FUZZ_EXAMPLES", "0")))


@settings(max_examples=EXAMPLES, derandomize=True, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture,
                                 HealthCheck.too_slow])
@given(request())
def test_hostile_requests_never_get_a_5xx(capped_server: Running,
                                          req: tuple[str, bytes, dict[str, str],
                                                     dict[str, str]]) -> None:
    endpoint, content, headers, params = req
    with capped_server.client() as c:
        answer = c.post(endpoint, content=content, headers=headers, params=params)
    assert answer.status_code < 500, (endpoint, answer.status_code, answer.text[:300])
    if answer.status_code >= 400:
        assert answer.headers["content-type"] == "application/problem+json"
        problem = answer.json()
        assert problem["status"] == answer.status_code
        # One line, as the command line prints it (InvalidInputError's at most 280).
        assert "\n" not in problem["detail"] and len(problem["detail"]) <= MAX_MESSAGE, \
            problem["detail"]


def test_the_fuzz_covers_every_post_route(capped_server: Running) -> None:
    with capped_server.client() as c:
        spec = c.get("/openapi.json").json()
    posted = {p for p, item in spec["paths"].items() if "post" in item}
    assert posted == set(BODIES)


# Each endpoint's body on a scenario of each game system, with that system's unit and
# manoeuvre: a query a system does not answer is a 422, never a 5xx.
SYSTEMS = {"spears": ("spears", "march", example("spears_march")),
           "goblins": ("goblins", "march", example("goblins_turn")),
           "ruins": ("fusilier", "march", example("ruins_route"))}


@pytest.mark.parametrize("scenario", sorted(SYSTEMS))
@pytest.mark.parametrize("endpoint", sorted(set(BODIES) - {"/v1/scenarios"}))
def test_every_endpoint_on_every_system_is_never_a_5xx(capped_server: Running, endpoint: str,
                                                       scenario: str) -> None:
    unit, manoeuvre, move = SYSTEMS[scenario]
    body = {**BODIES[endpoint], "scenario": example(scenario)}
    for key, value in (("unit", unit), ("manoeuvre", manoeuvre), ("move", move)):
        if key in body:
            body[key] = value
    with capped_server.client() as c:
        answer = c.post(endpoint, json=body)
    assert answer.status_code in (200, 422), (answer.status_code, answer.text[:300])
