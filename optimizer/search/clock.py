"""The wall-clock cap of a search, and whether it fired.

The answer of a search depends on its deterministic work only (CP-SAT's deterministic time,
counted work elsewhere), so the same request gives the same answer on a busy machine; the
wall clock is a cap on top, and an answer cut short by it says so (`stopped_by`).

Every stage of `best_move` that can run long looks at the clock between pieces of work
small enough that the whole search ends soon after its limit, and stops with what it has
(always sound: a region left uncut is still a relaxation, a bound not tightened still a
bound).  Before the model, within PREFILTER_SHARE of the limit: exact geometry
(optimizer.search.geometric, per option stage), the incumbent, the relaxed regions and their
sweep cuts (optimizer.search.prefilter, per option).  The model: its building (per clause
and rows posted) and CP-SAT (the time left).  After it, within the whole limit: the
inexact options' regions (optimizer.search.unproved), the certificate (per round of boxes,
optimizer.search.certify; past the limit a new answer reuses the certificate made before),
the Advance's wheel refinement and the plainest answer (geometric, per option stage), the
ways of several wheels (candidates per sequence, templates per chunk, model and solve as
above).  Issue 31's requests 122, 151 and 196 overran the limit under load where the wheel
refinement and the sweep cuts did not look (benchmarks/README.md, bench_limits.py).
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
