"""Searches run a few at a time behind a semaphore; a full queue answers 503 at once (with
Retry-After) rather than letting requests pile up.  The work runs in threads (CP-SAT
releases the GIL while it searches, the geometry stages do not), or in worker processes
(`--processes`); benchmarks/README.md compares them."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from concurrent.futures import Executor
from typing import Any

import anyio.to_thread

from optimizer.service.problems import Problem

RETRY_AFTER_S = 1


class Gate:
    """At most `workers` searches at once and `queue` more waiting."""

    def __init__(self, workers: int, queue: int) -> None:
        self.workers, self.queue = workers, queue
        self._slots: asyncio.Semaphore | None = None
        self.inside = 0  # running and waiting

    async def run(self, work: Callable[[], Any], pool: Executor | None = None) -> Any:
        if self._slots is None:  # made in the server's event loop
            self._slots = asyncio.Semaphore(self.workers)
        if self.inside >= self.workers + self.queue:
            raise Problem(503, f"busy: {self.workers} searches running and {self.queue} "
                          "waiting; try again shortly",
                          headers={"Retry-After": str(RETRY_AFTER_S)})
        self.inside += 1
        try:
            async with self._slots:
                if pool is None:
                    return await anyio.to_thread.run_sync(work)
                return await asyncio.get_running_loop().run_in_executor(pool, work)
        finally:
            self.inside -= 1
