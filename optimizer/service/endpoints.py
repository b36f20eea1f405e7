"""The routes under /v1/ (docs/formats.md "HTTP service").  Each JSON body is read through
its model (optimizer/service/requests.py), whose JSON Schema the OpenAPI document shows, with
the files' schemas (scenario, move, ...) plugged in (optimizer/service/openapi.py)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import anyio.to_thread
from fastapi import FastAPI, Request, Response
from fastapi.responses import StreamingResponse

from constraints.core.jsonwrite import dumps
from optimizer import __version__
from optimizer.service import mask, openapi, queries, stream
from optimizer.service.bodies import answered, json_response, read_body
from optimizer.service.problems import Problem
from optimizer.service.server import Server

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
STRING: dict[str, Any] = {"type": "string"}
PROBLEM = {"description": "malformed request (RFC 9457 problem details, with the JSON path)",
           "content": {"application/problem+json": {"schema": {
               "type": "object", "properties": {"type": STRING, "title": STRING,
                                                "status": {"type": "integer"},
                                                "detail": STRING, "path": STRING}}}}}


def body() -> dict[str, Any]:
    """OpenAPI's requestBody (and error answers) for a JSON body: its schema is its model's,
    filled in when the document is first asked for (optimizer/service/openapi.py)."""
    return {"requestBody": {"required": True,
                            "content": {"application/json": {"schema": {"type": "object"}}}},
            "responses": {"400": PROBLEM, "422": PROBLEM}}


# (path, handler, gated, summary); each body's model is requests.BODIES[path].
JSON_ROUTES: list[tuple[str, Any, bool, str]] = [
    ("/v1/check", queries.check, False,
     "Judge a move, nudges or a Combat Reform proposal (`check --json`); 200 when illegal"),
    ("/v1/solve", queries.solve, True, "The best legal move for an objective (`solve --json`)"),
    ("/v1/region", queries.region, True,
     "Where the unit's centre may legally end at this facing (a GeoJSON Feature)"),
    ("/v1/why-not", queries.why_not, True,
     "The clauses that keep every way of the family from the move's end pose"),
    ("/v1/nearest-legal", queries.nearest_legal, True,
     "The legal end pose nearest a requested one (a search result)"),
    ("/v1/nudge", queries.nudge, True,
     "Remove casualties, re-form units, nudge them back into contact (`nudge --json`)"),
    ("/v1/combat-reform", queries.combat_reform, True,
     "The best Combat Reform (`combat-reform --json`)"),
    ("/v1/route", queries.route, True,
     "An Infinity trooper's shortest (or safest) route (`route --to [--safest] "
     "[--exposure] --json`)"),
    ("/v1/route/reach", queries.route_reach, True,
     "Where an Infinity trooper's Move can end (`route --reach --json`)"),
    ("/v1/lof", queries.lof, True,
     "Whether one Infinity trooper draws Line of Fire to another (`lof --json`)"),
]


def add_endpoints(app: FastAPI, server: Server) -> None:
    openapi.install(app)
    app.get("/v1/health", summary="Liveness", operation_id="health")(health)
    app.get("/v1/examples", summary="The bundled example files, by name",
            operation_id="examples")(examples)
    app.get("/v1/examples/{name}", summary="One bundled example file",
            operation_id="example")(example)
    app.post("/v1/scenarios", summary="Register a scenario; its id (sha256 of its canonical "
             "JSON)", openapi_extra=body(), operation_id="register")(
        server.endpoint(queries.register, status=201))
    for path, handler, gated, summary in JSON_ROUTES:
        app.post(path, summary=summary, openapi_extra=body(),
                 operation_id=path.removeprefix("/v1/").replace("/", "_").replace("-", "_"))(
            server.endpoint(handler, gated))

    async def moves(request: Request) -> Response:
        found = await server.answer(queries.moves, request, gated=True)
        return Response("".join(dumps(m) + "\n" for m in found),
                        media_type="application/x-ndjson")

    async def solve_stream(request: Request) -> StreamingResponse:
        return await stream.solve_stream(server, request)

    async def batch_mask(request: Request) -> Response:
        kind = request.headers.get("content-type", "").split(";")[0].strip().lower()
        if kind != "application/octet-stream":
            return json_response(await server.answer(mask.mask_json, request, gated=False))
        data = await read_body(request)
        packed, count = await anyio.to_thread.run_sync(_binary, server, data,
                                                       dict(request.query_params))
        return Response(packed, media_type="application/octet-stream",
                        headers={"X-Count": str(count)})

    app.post("/v1/moves", summary="Legal moves on the view lattice, a move a line (NDJSON; "
             "the moves of `moves --json`)", operation_id="moves", openapi_extra=body())(moves)
    app.post("/v1/solve/stream",
             summary="As /v1/solve, as Server-Sent Events (`improved` answers, then `final`)",
             operation_id="solve_stream",
             openapi_extra=body())(solve_stream)
    extra = body()
    extra["requestBody"]["content"]["application/octet-stream"] = {
        "schema": {"type": "string", "contentMediaType": "application/octet-stream",
                   "description": "rows of four little-endian float64: x, y, facing, files "
                   "(scenario_id, unit, manoeuvre as query parameters)"}}
    app.post("/v1/mask", summary="Legality of many end poses (JSON booleans, or packed bits "
             "with X-Count)", openapi_extra=extra, operation_id="mask")(batch_mask)


def _binary(server: Server, data: bytes, query: dict[str, str]) -> tuple[bytes, int]:
    found: tuple[bytes, int] = answered(
        lambda service, _: mask.mask_binary(service, data, query), server.service, None)
    return found


async def health() -> dict[str, str]:
    return {"status": "pass", "version": __version__}


def _example_files() -> dict[str, Path]:
    return {p.stem: p for p in sorted(EXAMPLES.glob("*.json"))} if EXAMPLES.is_dir() else {}


async def examples() -> dict[str, Any]:
    return {"examples": list(_example_files())}


async def example(name: str) -> Response:
    found = _example_files().get(name)
    if found is None:
        raise Problem(404, f"no bundled example named {name!r} (GET /v1/examples lists them)")
    return Response(found.read_bytes(), media_type="application/json")
