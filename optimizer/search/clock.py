"""The wall-clock cap of a search, and whether it fired.

The answer of a search depends on its deterministic work only (CP-SAT's deterministic time,
counted work elsewhere), so the same request gives the same answer on a busy machine; the
wall clock is a cap on top, and an answer cut short by it says so (`stopped_by`).
"""

from __future__ import annotations

import time

from optimizer.search.watch import current

# The share of the wall-clock limit the prefilter may use before it stops (the answer then
# says the wall clock stopped it); within it, its work is counted, not timed.
PREFILTER_SHARE = 0.5


class Clock:
    """Seconds left of a wall-clock limit, from the moment it is made."""

    def __init__(self, limit_s: float) -> None:
        self.started = time.perf_counter()
        self.limit_s = limit_s
        self.fired = False
        # Kept back from every step for the work after the search (re-checking the answer),
        # so that the whole search ends within its limit.
        self.reserve_s = 0.0
        self.watch = current()  # a watcher who may stop the search (optimizer.search.watch)
        if self.watch is not None:
            self.watch.started()

    @property
    def deadline(self) -> float:
        return self.started + self.limit_s - self.reserve_s

    def elapsed(self) -> float:
        return time.perf_counter() - self.started

    def left(self) -> float:
        if self.cancelled():
            return 0.0
        return self.deadline - time.perf_counter()

    def cancelled(self) -> bool:
        """Whether the watcher stopped the search (then the clock reads as run out)."""
        return self.watch is not None and self.watch.stopped.is_set()

    def expired(self, fraction: float = 1.0) -> bool:
        """Whether `fraction` of the limit has passed (and if so, remember the cap fired)."""
        past = self.cancelled() or \
            time.perf_counter() > self.started + fraction * (self.limit_s - self.reserve_s)
        self.fired |= past
        return past
