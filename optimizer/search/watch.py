"""Someone watching a search: told of each better legal answer as it is found, and able to
stop the search (the HTTP service's streaming solve, whose client may go away).

A watch is set for the calling thread with `watching(watch)`; the search finds it through a
context variable rather than an argument, because the clock and the CP-SAT solvers are made
deep inside the families' searches and a watch changes nothing about the answer.  Without a
watch (the command line, Python) nothing here runs.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any

_current: ContextVar[Watch | None] = ContextVar("manoeuvre_watch", default=None)


class Watch:
    """Better answers go to `on_improved` (a JSON dict each); `on_started` is called once,
when the search has read its request and starts; `cancel()` stops the search: its clock
reads as run out and every CP-SAT solve it started is interrupted."""

    def __init__(self, on_improved: Callable[[dict[str, Any]], object] | None = None,
                 on_started: Callable[[], object] | None = None) -> None:
        self.on_improved, self.on_started = on_improved, on_started
        self._started = False
        self.stopped = threading.Event()
        self._solvers: list[Any] = []
        self._lock = threading.Lock()
        self._best: float | None = None

    def cancel(self) -> None:
        self.stopped.set()
        with self._lock:
            for solver in self._solvers:
                solver.stop_search()  # asynchronous; harmless once a solve has ended

    def started(self) -> None:
        if not self._started and self.on_started is not None:
            self.on_started()
        self._started = True

    def solving(self, solver: Any) -> None:
        """A CP-SAT solver of this search, interrupted by `cancel` (at once if cancelled)."""
        with self._lock:
            self._solvers.append(solver)
        if self.stopped.is_set():
            solver.parameters.max_time_in_seconds = 0.0

    def improved(self, value: float, maximise: bool, answer: Callable[[], dict[str, Any]]) \
            -> None:
        """Tell the watcher of a legal answer of this `value` if it beats every one told so
        far (`answer` builds its JSON only then)."""
        if self.on_improved is None or self.stopped.is_set():
            return
        if self._best is not None and (value <= self._best if maximise else
                                       value >= self._best):
            return
        self._best = value
        self.on_improved(answer())


def current() -> Watch | None:
    """The watch of the search running in this thread, if any."""
    return _current.get()


@contextmanager
def watching(watch: Watch) -> Iterator[Watch]:
    """Searches started inside the block report to `watch`."""
    token = _current.set(watch)
    try:
        yield watch
    finally:
        _current.reset(token)
