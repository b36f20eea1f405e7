"""Reading a request's body and writing an answer, shared by the endpoints, the streams and
the worker processes: bodies past MAX_BODY_BYTES are refused (413), bodies that are not JSON
are problems (400), and a handler's reader errors become problems at their JSON paths (422)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from fastapi import Request, Response

from constraints.core.jsonread import parse_json
from constraints.core.jsonwrite import dumps
from constraints.errors import InvalidInputError
from optimizer.service.problems import PROBLEM_TYPE, Problem, invalid
from optimizer.service.queries import WHERE, Service

MAX_BODY_BYTES = 16 * 1024 * 1024
Handler = Callable[[Service, Any], Any]


def problem_response(problem: Problem) -> Response:
    return Response(problem.encoded(), status_code=problem.status, media_type=PROBLEM_TYPE,
                    headers=problem.headers)


async def read_body(request: Request) -> bytes:
    """The body, refused past MAX_BODY_BYTES even when sent without a Content-Length."""
    parts, size = [], 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > MAX_BODY_BYTES:
            raise Problem(413, f"body larger than {MAX_BODY_BYTES // 2**20} MiB")
        parts.append(chunk)
    return b"".join(parts)


async def read_json_body(request: Request) -> Any:
    try:
        return parse_json(await read_body(request))
    except InvalidInputError as exc:
        raise Problem(400, f"$: {exc.problem}", "$") from None


def answered(handler: Handler, service: Service, body: Any) -> Any:
    """The handler's answer, its readers' errors as problems at the body's JSON paths."""
    try:
        return handler(service, body)
    except InvalidInputError as exc:
        raise invalid(exc, WHERE) from None
    except RecursionError:  # a body nested too deeply for a reader
        raise Problem(422, "$: nested too deeply", "$") from None


def json_response(data: Any, status: int = 200) -> Response:
    return Response(dumps(data), status_code=status, media_type="application/json")
