"""`POST /v1/solve/stream`: the solve as Server-Sent Events.  An `improved` event for each
better legal answer the search finds on its way (re-checked, as every answer is), then
`final` with the answer of `/v1/solve`.  A request the readers refuse is a problem+json
answer, as on `/v1/solve`, because the stream starts only once the search has read its
request; a problem found later arrives as an `error` event.  A client that goes away stops
the search (optimizer.search.watch)."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator
from typing import Any

from fastapi import Request
from fastapi.responses import StreamingResponse

from constraints.core.jsonwrite import dumps
from optimizer.search.watch import Watch, watching
from optimizer.service import queries
from optimizer.service.bodies import answered, read_json_body
from optimizer.service.problems import Problem
from optimizer.service.server import Server

POLL_S = 0.2  # how often a quiet stream looks whether its client is still there
log = logging.getLogger("manoeuvre.service")


def event(name: str, data: Any) -> str:
    return f"event: {name}\ndata: {dumps(data)}\n\n"


async def solve_stream(server: Server, request: Request) -> StreamingResponse:
    body = await read_json_body(request)
    loop = asyncio.get_running_loop()
    improved: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
    started = asyncio.Event()
    watch = Watch(lambda answer: loop.call_soon_threadsafe(improved.put_nowait, answer),
                  lambda: loop.call_soon_threadsafe(started.set))

    def work() -> Any:
        with watching(watch):
            return answered(queries.solve, server.service, body)

    # Threads, even with --processes: the watch lives in this process.
    search = asyncio.ensure_future(server.gate.run(work))
    waiting = asyncio.ensure_future(started.wait())
    await asyncio.wait({search, waiting}, return_when=asyncio.FIRST_COMPLETED)
    waiting.cancel()
    if search.done():
        search.result()  # a refused request: its problem, before any event
    return StreamingResponse(_events(request, search, improved, watch),
                             media_type="text/event-stream",
                             headers={"Cache-Control": "no-store"})


async def _events(request: Request, search: asyncio.Future[Any],
                  improved: asyncio.Queue[dict[str, Any]], watch: Watch) -> AsyncIterator[str]:
    try:
        while not search.done() or not improved.empty():
            try:
                answer = await asyncio.wait_for(improved.get(), POLL_S)
            except TimeoutError:
                if await request.is_disconnected():
                    return
                continue
            yield event("improved", answer)
        try:
            yield event("final", search.result())
        except Problem as problem:
            yield event("error", problem.body())
    finally:
        if not search.done():
            watch.cancel()  # the client went away: the search stops
            search.add_done_callback(_log_abandoned)


def _log_abandoned(search: asyncio.Future[Any]) -> None:
    """Say how a search whose client went away ended (for the operator)."""
    if search.cancelled() or search.exception() is not None:
        log.info("a streaming client went away; its search ended without an answer")
        return
    answer = search.result()
    log.info("a streaming client went away; its search ended %s, stopped by %s, after %s s",
             answer.get("status"), answer.get("stopped_by"), answer.get("elapsed_s"))
