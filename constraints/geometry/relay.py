"""Relay assignment: models walk start -> a mid-move place -> an end slot, and each model's
walk is the sum of its two legs; the least possible longest walk (seed 000, "Mid-Reform Move
Actions": "measure from starting position, to the position it is placed mid-move, and then
finally to its ending position").

Which model stands in which mid-move place and which end slot are both free (docs/rules.md
§8.4), so the question is a three-index bottleneck assignment: choose, for every model i, a
mid place j and an end slot k, each place and each slot used once, minimising the largest
a[i, j] + b[j, k].  That is NP-hard in general, so it is solved exactly in three steps:

- with the end slots fixed (the move names an `assignment`), it is a plain bottleneck
  assignment over mid places of a[i, j] + b[j, k(i)];
- otherwise a lower bound (every model may use any mid place: the bottleneck of
  min_j a[i, j] + b[j, k]) and an upper bound (alternately fixing one leg and solving the
  other) are computed; when they meet, that is the answer;
- when they do not, a binary search over the walk lengths between them asks CP-SAT whether
  one (i, j, k) triple a model, each place and slot used once, fits among the triples no
  dearer than L (comparisons made here in floats: no rounded cost reaches the solver).  It
  runs on one worker with a deterministic time limit, so the answer is the same on every
  machine; when it cannot decide there, `RelayTooLarge` is raised (the caller asks for an
  assignment).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace

import numpy as np

from constraints.geometry.assignment import bottleneck_assignment

MAX_MODELS = 200        # the bounds weigh every (model, place, slot): n^3 numbers
EXACT_MODELS = 10       # up to this many models the least longest walk is found exactly
MAX_TRIPLES = 400_000   # the exact search's size limit
DETERMINISTIC_S = 30.0  # CP-SAT's deterministic time limit (machine-independent units)
ROUNDS = 6              # alternating improvements of the upper bound


class RelayTooLarge(ValueError):
    """The exact relay assignment could not be proved within its size or time limit."""


@dataclass(frozen=True)
class Relay:
    """The mid place and end slot of each model (row), and the longest walk they give.

    `exact`: `bottleneck` is the least longest walk.  Otherwise (a large unit, bounds apart)
    it is a bound on it on the side the limit asked for needs: at most the limit (a relay
    with every walk no longer exists: this one) or more than it (none exists)."""

    mids: tuple[int, ...]
    ends: tuple[int, ...]
    bottleneck: float
    worst_model: int
    exact: bool = True


def relay_assignment(a: np.ndarray, b: np.ndarray, mid_ok: np.ndarray, end_ok: np.ndarray,
                     ends: tuple[int, ...] | None = None, limit: float = math.inf) -> Relay:
    """The relay minimising the longest walk a[i, mid] + b[mid, end].

    `a` is (models, mid places), `b` (mid places, end slots); `mid_ok[i, j]` and
    `end_ok[i, k]` say which places and slots model i may take; `ends` fixes each model's end
    slot.  An infinite bottleneck means no allowed relay has finite walks.  Above
    EXACT_MODELS models, when the bounds differ, only whether the least longest walk is
    within `limit` is decided (`Relay.exact` False).
    """
    n = a.shape[0]
    if n == 0:
        return Relay((), (), 0.0, 0)
    if ends is not None:
        return _with_ends(a, b, mid_ok, ends)
    if n > MAX_MODELS:
        raise RelayTooLarge(f"{n} models")
    upper = _alternate(a, b, mid_ok, end_ok)
    lower = _lower_bound(a, b, mid_ok, end_ok)
    if not np.isfinite(upper.bottleneck) or lower >= upper.bottleneck:
        return upper
    if n <= EXACT_MODELS:
        return _exact(a, b, mid_ok, end_ok, lower, upper)
    return _at_limit(a, b, mid_ok, end_ok, lower, upper, limit)


def _at_limit(a: np.ndarray, b: np.ndarray, mid_ok: np.ndarray, end_ok: np.ndarray,
              lower: float, upper: Relay, limit: float) -> Relay:
    """Whether some relay keeps every walk within `limit`, with a bound on the least
    longest walk on that side (the exact one is left unsearched)."""
    if upper.bottleneck <= limit:
        return replace(upper, exact=False)  # at most this, within the limit
    if lower > limit:
        return replace(upper, bottleneck=lower, exact=False)  # at least this
    walk = a[:, :, None] + b[None, :, :]
    allowed = mid_ok[:, :, None] & end_ok[:, None, :]
    found = _within(walk, allowed & (walk <= limit))
    if found is not None:
        return replace(_walks(a, b, *found), exact=False)
    beyond = walk[allowed & (walk > limit)]  # every relay's longest walk is one of them
    return replace(upper, bottleneck=max(lower, float(beyond.min())), exact=False)


def _walks(a: np.ndarray, b: np.ndarray, mids: tuple[int, ...], ends: tuple[int, ...]
           ) -> Relay:
    rows = np.arange(a.shape[0])
    walk = a[rows, np.array(mids)] + b[np.array(mids), np.array(ends)]
    worst = int(np.argmax(walk))
    return Relay(tuple(int(m) for m in mids), tuple(int(e) for e in ends), float(walk[worst]),
                 worst)


def _with_ends(a: np.ndarray, b: np.ndarray, mid_ok: np.ndarray, ends: tuple[int, ...]
               ) -> Relay:
    """End slots fixed: model i's walk through place j is a[i, j] + b[j, ends[i]]."""
    cost = a + b[:, np.array(ends)].T
    found = bottleneck_assignment(cost, mid_ok)
    if not np.isfinite(found.bottleneck):
        return Relay(found.slots, ends, float("inf"), 0)
    return _walks(a, b, found.slots, ends)


def _lower_bound(a: np.ndarray, b: np.ndarray, mid_ok: np.ndarray, end_ok: np.ndarray
                 ) -> float:
    """The largest of three relaxations, each dropping one "used once": mid places shared
    (models to end slots), end slots shared (models to places), models shared (places to
    end slots).  No relay does better than any of them."""
    walk = np.where(mid_ok[:, :, None] & end_ok[:, None, :], a[:, :, None] + b[None, :, :],
                    np.inf)
    return max(bottleneck_assignment(walk.min(axis=1)).bottleneck,
               bottleneck_assignment(walk.min(axis=2)).bottleneck,
               bottleneck_assignment(walk.min(axis=0)).bottleneck)


def _alternate(a: np.ndarray, b: np.ndarray, mid_ok: np.ndarray, end_ok: np.ndarray
               ) -> Relay:
    """A good relay: the best second legs alone, then each leg re-solved with the other
    fixed, a few rounds (each round never makes the bottleneck worse)."""
    first = bottleneck_assignment(a, mid_ok)
    if not np.isfinite(first.bottleneck):
        return Relay(first.slots, first.slots, float("inf"), 0)
    mids = first.slots
    # The end slot of each model: a bottleneck over (model, slot) of the second leg from
    # the place it stands in.
    second = bottleneck_assignment(a[np.arange(len(mids)), np.array(mids)][:, None]
                                   + b[np.array(mids)], end_ok)
    best = _walks(a, b, mids, second.slots) if np.isfinite(second.bottleneck) else \
        Relay(mids, second.slots, float("inf"), 0)
    for _ in range(ROUNDS):
        if not np.isfinite(best.bottleneck):
            break
        mids = _with_ends(a, b, mid_ok, best.ends).mids
        cost = a[np.arange(len(mids)), np.array(mids)][:, None] + b[np.array(mids)]
        ends = bottleneck_assignment(cost, end_ok).slots
        found = _walks(a, b, mids, ends)
        if found.bottleneck >= best.bottleneck:
            break
        best = found
    return best


def _exact(a: np.ndarray, b: np.ndarray, mid_ok: np.ndarray, end_ok: np.ndarray,
           lower: float, upper: Relay) -> Relay:
    """Binary search over the walk lengths between the bounds: is there a relay with every
    walk at most L?  Each question is a CP-SAT feasibility model over the triples no dearer
    than L (one a model, a place and a slot each used once)."""
    walk = a[:, :, None] + b[None, :, :]
    allowed = mid_ok[:, :, None] & end_ok[:, None, :]
    levels = np.unique(walk[allowed & (walk >= lower) & (walk < upper.bottleneck)])
    best, lo, hi = upper, 0, len(levels) - 1
    while lo <= hi:
        mid = (lo + hi) // 2
        found = _within(walk, allowed & (walk <= levels[mid]))
        if found is None:
            lo = mid + 1
        else:
            best = _walks(a, b, *found)
            hi = int(np.searchsorted(levels, best.bottleneck)) - 1
    return best


def _within(walk: np.ndarray, usable: np.ndarray) -> tuple[tuple[int, ...], tuple[int, ...]] | None:
    """A relay using only `usable` triples (mid places, end slots), or None when none exists;
    `RelayTooLarge` when CP-SAT can decide neither within its limits."""
    n = walk.shape[0]
    if not (usable.any(axis=(1, 2)).all() and usable.any(axis=(0, 2)).all()
            and usable.any(axis=(0, 1)).all()):
        return None  # a model, a place or a slot with no triple at all
    triples = np.argwhere(usable)
    if len(triples) > MAX_TRIPLES:
        raise RelayTooLarge(f"{len(triples)} walks to weigh")
    from ortools.sat.python import cp_model  # loaded when first needed

    model = cp_model.CpModel()
    chosen = [model.new_bool_var(f"t{t}") for t in range(len(triples))]
    for axis in range(3):
        for k in range(n):
            model.add_exactly_one(chosen[t] for t in np.flatnonzero(triples[:, axis] == k))
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = 1
    solver.parameters.max_deterministic_time = DETERMINISTIC_S
    status = solver.solve(model)
    if status == cp_model.INFEASIBLE:
        return None
    if status not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        raise RelayTooLarge("the exact relay was not proved in time")
    picked = triples[[t for t, lit in enumerate(chosen) if solver.value(lit)]]
    order = np.argsort(picked[:, 0])
    return tuple(int(v) for v in picked[order, 1]), tuple(int(v) for v in picked[order, 2])


__all__ = ["Relay", "RelayTooLarge", "relay_assignment"]
