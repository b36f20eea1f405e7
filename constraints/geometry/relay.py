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
- when they do not, CP-SAT chooses one (i, j, k) triple a model, among the triples no dearer
  than the upper bound, minimising the rank of the dearest triple chosen (ranks, not
  inches, so no rounding of costs reaches the solver).  It runs on one worker with a
  deterministic time limit, so the answer is the same on every machine; when it cannot
  prove its optimum there, `RelayTooLarge` is raised (the caller asks for an assignment).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from constraints.geometry.assignment import bottleneck_assignment

MAX_MODELS = 200        # the bounds weigh every (model, place, slot): n^3 numbers
MAX_TRIPLES = 400_000   # the exact search's size limit
DETERMINISTIC_S = 30.0  # CP-SAT's deterministic time limit (machine-independent units)
ROUNDS = 6              # alternating improvements of the upper bound


class RelayTooLarge(ValueError):
    """The exact relay assignment could not be proved within its size or time limit."""


@dataclass(frozen=True)
class Relay:
    """The mid place and end slot of each model (row), and the longest walk they give."""

    mids: tuple[int, ...]
    ends: tuple[int, ...]
    bottleneck: float
    worst_model: int


def relay_assignment(a: np.ndarray, b: np.ndarray, mid_ok: np.ndarray, end_ok: np.ndarray,
                     ends: tuple[int, ...] | None = None) -> Relay:
    """The relay minimising the longest walk a[i, mid] + b[mid, end].

    `a` is (models, mid places), `b` (mid places, end slots); `mid_ok[i, j]` and
    `end_ok[i, k]` say which places and slots model i may take; `ends` fixes each model's end
    slot.  An infinite bottleneck means no allowed relay has finite walks.
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
    return _exact(a, b, mid_ok, end_ok, upper)


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
    """The bottleneck when mid places may be shared: no relay does better."""
    through = np.where(mid_ok[:, :, None], a[:, :, None] + b[None, :, :], np.inf).min(axis=1)
    return bottleneck_assignment(through, end_ok).bottleneck


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
           upper: Relay) -> Relay:
    """CP-SAT over the triples no dearer than `upper`: one a model, a place and a slot
    each used once, minimising the rank of the dearest."""
    from ortools.sat.python import cp_model  # loaded when first needed

    walk = a[:, :, None] + b[None, :, :]
    usable = mid_ok[:, :, None] & end_ok[:, None, :] & (walk <= upper.bottleneck)
    triples = np.argwhere(usable)
    if len(triples) > MAX_TRIPLES:
        raise RelayTooLarge(f"{len(triples)} walks to weigh")
    values = walk[usable]
    levels, rank = np.unique(values, return_inverse=True)
    model = cp_model.CpModel()
    chosen = [model.new_bool_var(f"t{t}") for t in range(len(triples))]
    top = model.new_int_var(0, len(levels) - 1, "top")
    for axis in range(3):
        for k in range(a.shape[0]):
            model.add_exactly_one(chosen[t] for t in np.flatnonzero(triples[:, axis] == k))
    for t, lit in enumerate(chosen):
        model.add(top >= int(rank[t])).only_enforce_if(lit)
    model.minimize(top)
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = 1
    solver.parameters.max_deterministic_time = DETERMINISTIC_S
    if solver.solve(model) != cp_model.OPTIMAL:
        raise RelayTooLarge("the exact relay was not proved in time")
    picked = triples[[t for t, lit in enumerate(chosen) if solver.value(lit)]]
    order = np.argsort(picked[:, 0])
    return _walks(a, b, tuple(picked[order, 1]), tuple(picked[order, 2]))


__all__ = ["Relay", "RelayTooLarge", "relay_assignment"]
