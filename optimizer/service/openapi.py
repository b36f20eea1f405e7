"""The service's OpenAPI document with the project's JSON Schemas in it: each request body's
(its model's, optimizer/service/requests.py: what the service accepts), the scenario, move,
route, nudges, casualties and combat-result files the bodies carry, and the results the
answers are (constraints.schema, the same as docs/schemas/), under `components/schemas`.
They are built when /openapi.json is first asked for, so the service starts without
building them.
"""

from __future__ import annotations

import json
from typing import Any

from fastapi import FastAPI

from constraints.schema import SCHEMAS, json_schema

# A body key -> the format it holds, on every route (`move` per route, below).
BODY_KEYS = {"scenario": ["scenario"], "result": ["combat-result"],
             "casualties": ["casualties"]}
MOVE_KEY = {"/v1/check": ["move", "route", "combat-reform", "nudges"],
            "/v1/why-not": ["move"]}
# A route -> the format of its 200 answer.
ANSWERS = {"/v1/check": "verdict", "/v1/solve": "search-result",
           "/v1/nearest-legal": "search-result", "/v1/nudge": "nudge-result",
           "/v1/combat-reform": "combat-reform-result", "/v1/route": "route-result"}
COMPONENTS = "#/components/schemas/"


def install(app: FastAPI) -> None:
    """Make `app.openapi()` return FastAPI's document with the schemas added (once)."""
    plain = app.openapi

    def openapi() -> dict[str, Any]:
        spec = plain()  # FastAPI builds it once and keeps it
        if "manoeuvre" not in spec.get("components", {}).get("schemas", {}):
            with_schemas(spec)
        return spec
    app.openapi = openapi  # type: ignore[method-assign]


def with_schemas(spec: dict[str, Any]) -> None:
    """Add every format's schema to `spec`, each body's model's schema, and refer to the
    formats from the bodies and answers."""
    from optimizer.service.requests import BODIES, body_schema

    components = spec.setdefault("components", {}).setdefault("schemas", {})
    for name in SCHEMAS:
        _add(components, name)
    components["manoeuvre"] = {"description": "the formats below are manoeuvre's "
                               "(docs/formats.md, docs/schemas/)"}
    for path, item in spec["paths"].items():
        post = item.get("post")
        if post is None:
            continue
        body = post.get("requestBody", {}).get("content", {}).get("application/json", {})
        if path in BODIES:
            body["schema"] = body_schema(BODIES[path])
        elif path == "/v1/scenarios" and body:
            body["schema"] = _refer(["scenario"])
        properties = body.get("schema", {}).get("properties", {})
        for key, names in [*BODY_KEYS.items(), ("move", MOVE_KEY.get(path, []))]:
            if key in properties and names:
                properties[key] = {**_refer(names),
                                   **_described(properties[key])}
        if path in ANSWERS:
            answer = post.setdefault("responses", {}).setdefault("200", {"description": "OK"})
            answer["content"] = {"application/json": {"schema": _refer([ANSWERS[path]])}}


def _refer(names: list[str]) -> dict[str, Any]:
    refs = [{"$ref": COMPONENTS + name} for name in names]
    return refs[0] if len(refs) == 1 else {"anyOf": refs}


def _described(schema: dict[str, Any]) -> dict[str, Any]:
    return {"description": schema["description"]} if "description" in schema else {}


def _add(components: dict[str, Any], name: str) -> None:
    """The format's schema as component `name`, its definitions beside it (a definition
    another format already added differently is renamed `name.Definition`)."""
    schema = json_schema(name)
    schema.pop("$schema", None)
    defs: dict[str, Any] = schema.pop("$defs", {})
    same = {d: d for d in defs}
    renamed = {d: d if d not in components or components[d] == _rewritten(defs[d], same)
               else f"{name}.{d}" for d in defs}
    for d, body in defs.items():
        components[renamed[d]] = _rewritten(body, renamed)
    components[name] = _rewritten(schema, renamed)


def _rewritten(schema: Any, names: dict[str, str]) -> Any:
    """`schema` with its `#/$defs/X` references pointing at the components."""
    text = json.dumps(schema)
    for old, new in sorted(names.items(), key=lambda kv: -len(kv[0])):
        text = text.replace(f'"#/$defs/{old}"', f'"{COMPONENTS}{new}"')
    return json.loads(text)
