"""The FastAPI application of `manoeuvre serve` (docs/formats.md "HTTP service").

Every JSON endpoint reads its body with the project's JSON reader (one-line errors with the
JSON path, answered as RFC 9457 problem+json: 400 for a body that is not JSON, 422 for JSON
the readers refuse), runs its handler (optimizer/service/queries.py) in a worker thread
(searches behind the gate), and sends the handler's JSON: the command line's `--json`."""

from __future__ import annotations

import hmac
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from fastapi import FastAPI, Request, Response
from starlette.exceptions import HTTPException
from starlette.middleware.cors import CORSMiddleware
from starlette.types import ASGIApp, Receive, Scope, Send

from optimizer import __version__
from optimizer.service.board import add_board, is_public
from optimizer.service.bodies import MAX_BODY_BYTES, problem_response
from optimizer.service.endpoints import add_endpoints
from optimizer.service.problems import Problem
from optimizer.service.queries import Settings
from optimizer.service.server import Server


class Guard:
    """Pure ASGI middleware: the bearer token (when the server has one) and the declared
    body size, checked before anything reads the body."""

    def __init__(self, app: ASGIApp, token: str | None) -> None:
        self.app = app
        self.token = None if token is None else f"Bearer {token}".encode()

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = dict(scope["headers"])
        refused = None if is_public(scope["method"], scope["path"]) else self._refused(headers)
        if refused is None:
            await self.app(scope, receive, send)
            return
        await problem_response(refused)(scope, receive, send)

    def _refused(self, headers: dict[bytes, bytes]) -> Problem | None:
        if self.token is not None and not hmac.compare_digest(
                headers.get(b"authorization", b""), self.token):
            return Problem(401, "this server needs `Authorization: Bearer <token>` (the "
                           "token given to `manoeuvre serve --token`)",
                           headers={"WWW-Authenticate": "Bearer"})
        length = headers.get(b"content-length")
        if length is not None and (not length.isdigit() or int(length) > MAX_BODY_BYTES):
            return Problem(413, f"body larger than {MAX_BODY_BYTES // 2**20} MiB"
                           if length.isdigit() else "Content-Length is not a number")
        return None


def create_app(settings: Settings | None = None) -> FastAPI:
    """The application, for uvicorn (or any ASGI server)."""
    settings = settings or Settings()
    server = Server(settings)

    @asynccontextmanager
    async def lifespan(_: FastAPI) -> AsyncIterator[None]:
        yield
        if server.pool is not None:  # the worker processes end with the server
            server.pool.shutdown(wait=True, cancel_futures=True)

    app = FastAPI(title="Manoeuvre", version=__version__,
                  summary="The exact referee and optimiser for tabletop wargame movement.",
                  docs_url="/docs", redoc_url=None, lifespan=lifespan)
    app.state.server = server
    add_endpoints(app, server)
    add_board(app)  # the web board at / (docs/board.md)
    app.add_exception_handler(Problem, _on_problem)
    app.add_exception_handler(HTTPException, _on_http)
    app.add_exception_handler(Exception, _on_bug)
    app.add_middleware(Guard, token=settings.token)
    if settings.cors_origins:  # outermost: preflights are answered without the token
        app.add_middleware(CORSMiddleware, allow_origins=settings.cors_origins,
                           allow_methods=["GET", "POST"],
                           allow_headers=["Authorization", "Content-Type"],
                           expose_headers=["X-Count", "Retry-After"],
                           allow_private_network=True)
    return app


async def _on_problem(_: Request, exc: Exception) -> Response:
    assert isinstance(exc, Problem)
    return problem_response(exc)


async def _on_http(_: Request, exc: Exception) -> Response:
    assert isinstance(exc, HTTPException)
    return problem_response(Problem(exc.status_code, str(exc.detail),
                                    headers=dict(exc.headers or {})))


async def _on_bug(_: Request, exc: Exception) -> Response:
    # Our bug, never the client's: said plainly, without a traceback in the answer.
    return problem_response(Problem(500, f"internal error ({type(exc).__name__}); please "
                                    "report it with the request"))


