"""Answers for requests the service refuses: RFC 9457 `application/problem+json`, each with
`type`, `title`, `status`, `detail` (the one-line error, as the command line prints it) and
`path` (the JSON path in the request body)."""

from __future__ import annotations

import json
from typing import Any

from constraints.errors import InvalidInputError

PROBLEM_TYPE = "application/problem+json"
# One type URI per kind of refusal; "about:blank" (RFC 9457 section 4.2.1) where the status
# code says it all.
TYPES = {400: "about:blank", 401: "about:blank", 404: "about:blank", 405: "about:blank",
         413: "about:blank", 415: "about:blank", 422: "urn:manoeuvre:problem:invalid-input",
         500: "about:blank", 503: "about:blank"}
TITLES = {400: "Bad Request", 401: "Unauthorized", 404: "Not Found",
          405: "Method Not Allowed", 413: "Content Too Large", 415: "Unsupported Media Type",
          422: "Invalid input", 500: "Internal Server Error", 503: "Service Unavailable"}


class Problem(Exception):
    """A refusal: raised anywhere in a request's handling, answered as problem+json."""

    def __init__(self, status: int, detail: str, path: str | None = None,
                 headers: dict[str, str] | None = None) -> None:
        super().__init__(detail)
        self.status, self.detail, self.path = status, detail, path
        self.headers = headers or {}

    def __reduce__(self) -> tuple[Any, ...]:  # sent back from a worker process whole
        return (Problem, (self.status, self.detail, self.path, self.headers))

    def body(self) -> dict[str, Any]:
        out: dict[str, Any] = {"type": TYPES.get(self.status, "about:blank"),
                               "title": TITLES.get(self.status, "Error"),
                               "status": self.status, "detail": self.detail}
        if self.path is not None:
            out["path"] = self.path
        return out

    def encoded(self) -> bytes:
        return json.dumps(self.body()).encode("utf-8")


def invalid(exc: InvalidInputError, where: dict[str, str] | None = None,
            status: int = 422) -> Problem:
    """A reader's error as a problem at its JSON path in the request body.

    The readers name a path inside the part they read (`$.steps[0]`) and, through
    `in_file`, the part itself as the error's source (`$.move`); the command line's answer
    functions name options (`--unit`): `where` maps those to the body's keys."""
    path = body_path(exc, where or {})
    return Problem(status, str(InvalidInputError(exc.problem, path=path)), path)


def body_path(exc: InvalidInputError, where: dict[str, str]) -> str:
    """The error's JSON path in the whole request body."""
    path = where.get(exc.path, exc.path)
    source = exc.source
    if source is not None and source.startswith("$"):
        return source + path[1:] if path.startswith("$") else f"{source}.{path}"
    if not path.startswith("$"):
        return where.get("command line", "$")  # an option with no key of its own
    return path
