"""The application's state (`Server`): the service's settings and scenario cache, the
search gate, and the worker processes of `--processes`."""

from __future__ import annotations

from collections.abc import Callable
from concurrent.futures import Executor, ProcessPoolExecutor
from functools import partial
from typing import Any

import anyio.to_thread
from fastapi import Request, Response

from optimizer.service import pool
from optimizer.service.bodies import Handler, answered, json_response, read_json_body
from optimizer.service.gate import Gate
from optimizer.service.queries import Service, Settings
from optimizer.service.scenarios import ScenarioCache


class Server:
    """The application's state: settings, the scenario cache and the search gate."""

    def __init__(self, settings: Settings) -> None:
        self.service = Service(settings, ScenarioCache(settings.cache_size))
        self.gate = Gate(settings.workers, settings.queue)
        self.pool: Executor | None = None
        if settings.processes:
            import multiprocessing

            # spawn: the server's threads are not copied into a forked child
            self.pool = ProcessPoolExecutor(settings.workers,
                                            multiprocessing.get_context("spawn"),
                                            initializer=pool.start, initargs=(settings,))

    async def answer(self, handler: Handler, request: Request, gated: bool) -> Any:
        body = await read_json_body(request)
        if gated and self.pool is not None:
            sent = pool.inlined(self.service.cache, body)
            return await self.gate.run(partial(pool.answer, handler, sent), self.pool)
        work = partial(answered, handler, self.service, body)
        return await (self.gate.run(work) if gated else anyio.to_thread.run_sync(work))

    def endpoint(self, handler: Handler, gated: bool = False, status: int = 200) \
            -> Callable[[Request], Any]:
        async def endpoint(request: Request) -> Response:
            return json_response(await self.answer(handler, request, gated), status)
        return endpoint
