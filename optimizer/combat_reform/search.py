"""The best Combat Reform of one unit: a best-first search over its candidate placements,
each decided by a least-cost assignment of models to slots (docs/rules.md §12.2).

A candidate is a flush line, a formation on it (a `Layout`: files, and the Facing against
the line) and one of the layout's offsets, the finite set on which every condition of the
family is represented (`placement.offsets`: the ends of every interval of conditions and a
point inside each gap between them).  The slot next to the line in every lane is always
occupied (the family's formations: a Rear or flank against the enemy only with a full rear
rank), so a candidate's value, (own models in contact, enemy models touched), is read from
the intervals at its offset alone.  The assignment only decides whether the models can be
placed there: each within its March Rate of where it stood, characters in the front rank
and touching where they must, every rank but the rear one full.  A least-cost assignment
(total displacement) decides that and gives the third level in the same call.

Candidates are taken by value, best first (the widest frontage before it, when asked).  The
first value at which some candidate has an assignment is the family's optimum: every
candidate of a better value was tried and has none; this is the proof.  Within that value,
candidates go by a lower bound on their displacement (`Frame.bounds`); once that bound
reaches the least displacement found, no candidate left can do better.  Candidates the bound
finds blocked (a model with no slot it may take, a slot of a full rank no model may take)
are dropped without an assignment.  The number of assignments is bounded (`budget`): past
it the search stops, proved only as far as it got (the caller's fallback).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from optimizer.combat_reform.assignment import Frame, inside
from optimizer.combat_reform.model import Layout
from optimizer.combat_reform.prepare import Prepared

# What a candidate refused by `accept` (the exact checker, ~10 ms) costs of the budget of
# assignments (~50 us each).
REFUSAL_COST = 200


@dataclass(frozen=True)
class Found:
    """The best candidate: which line (index into the search's `Prepared` list), which
    formation, which offset, its value, its least displacement and every model's slot."""

    line: int
    k: int
    index: int
    value: tuple[int, int]
    cost: int
    slots: tuple[int, ...]  # each model's slot, an index into `option.slots()`


@dataclass(frozen=True)
class Outcome:
    """How the search ended: `proved` when the value is the family's optimum (or no
    candidate has an assignment); `least` when the displacement is the least over the
    candidates of that value; `bound` the best value not ruled out when not proved."""

    found: Found | None
    proved: bool
    least: bool
    bound: tuple[int, int] | None
    candidates: int
    assignments: int
    refused: int = 0  # candidates assigned but refused by `accept`


@dataclass
class _Queue:
    """Every candidate passing the value filters, as parallel arrays in the order tried."""

    line: np.ndarray
    k: np.ndarray
    index: np.ndarray
    key: np.ndarray  # (candidates, 3): the widest frontage (0 when not asked), own, enemy


def best_first(lines: list[Prepared], budget: int, bound_only: bool = False,
               accept: Callable[[Found], bool] | None = None) -> Outcome:
    """The best candidate over every line's layouts (module docs).  `bound_only`: layouts
    outside the family (`outside.py`), whose values are only upper bounds (a lane's slot next
    to the line may be empty): the first candidate assigned ends the search, its value the
    best any of them can reach.  `accept`: a last judge of a candidate assigned (the exact
    checker, for a unit whose enemies lie on several lines); one refused is passed over and
    counted in `Outcome.refused`."""
    queue = _queue(lines, exact=not bound_only)
    frames: dict[tuple[int, int], Frame] = {}
    low = np.zeros(len(queue.index), dtype=np.int64)
    tried, total, refused = 0, len(queue.index), 0
    edges = np.flatnonzero(np.any(np.diff(queue.key, axis=0) != 0, axis=1)) + 1
    for group in np.split(np.arange(total), edges):
        _bound(queue, lines, frames, low, group)
        group = group[low[group] >= 0]  # the others cannot be assigned at all
        order = np.lexsort((queue.index[group], queue.k[group], queue.line[group], low[group]))
        best: Found | None = None
        for c in group[order]:
            p, k, index = int(queue.line[c]), int(queue.k[c]), int(queue.index[c])
            if best is not None and low[c] >= best.cost:
                break  # no candidate left can move its models less
            if tried >= budget:
                value = (int(queue.key[c][1]), int(queue.key[c][2]))
                return Outcome(best, best is not None, False, None if best else value,
                               total, tried, refused)
            tried += 1
            got = frames[(p, k)].assign(index)
            if got is not None and (best is None or got[0] < best.cost):
                found = Found(p, k, index, (int(queue.key[c][1]), int(queue.key[c][2])), *got)
                if accept is not None and not accept(found):
                    refused += 1
                    tried += REFUSAL_COST - 1  # a checker's call: many assignments' time
                    continue
                best = found
                if bound_only:
                    return Outcome(best, True, False, None, total, tried, refused)
        if best is not None:
            return Outcome(best, True, True, None, total, tried, refused)
    return Outcome(None, True, True, None, total, tried, refused)


def _bound(queue: _Queue, lines: list[Prepared], frames: dict[tuple[int, int], Frame],
           low: np.ndarray, group: np.ndarray) -> None:
    """The displacement bounds of the group's candidates, a formation at a time (only the
    groups reached are bounded: most searches stop in the first)."""
    for p, k in sorted({(int(queue.line[c]), int(queue.k[c])) for c in group}):
        if (p, k) not in frames:
            frames[(p, k)] = Frame(lines[p], k)
        mine = group[(queue.line[group] == p) & (queue.k[group] == k)]
        low[mine] = frames[(p, k)].bounds(queue.index[mine])


def _queue(lines: list[Prepared], exact: bool = True) -> _Queue:
    """The candidates of every line and layout meeting the demands on the value (as many
    own models in contact as before, at most the rules' bound, every enemy model touched
    before still touched), best value first; ties by line, formation and offset.  Not
    `exact` (layouts outside the family, their values upper bounds): no lane need be
    occupied, and the demands are only those an upper bound can refuse (a value above the
    rules' bound may stand for one below it)."""
    columns: list[list[np.ndarray]] = [[np.zeros(0, dtype=np.int64)] for _ in range(6)]
    for p, ready in enumerate(lines):
        d = ready.demands
        for k, lay in enumerate(ready.layouts):
            if exact:
                _lanes_occupied(lay, len(ready.ids))
            own, enemy = values(lay)
            ok = lay.allowed & (own >= d.own_before)
            if d.own_most is not None and exact:
                ok &= own <= d.own_most
            for e in d.keep_enemy:
                ok &= inside(lay.xs, [lay.enemy[e]] if e in lay.enemy else [])
            i = np.flatnonzero(ok)
            widest = lay.option.files if d.widest else 0
            for column, part in zip(columns, (np.full(len(i), p), np.full(len(i), k), i,
                                              np.full(len(i), widest), own[i], enemy[i]),
                                    strict=True):
                column.append(part.astype(np.int64))
    line, form, index, wide, own_, enemy_ = (np.concatenate(c) for c in columns)
    order = np.lexsort((index, form, line, -enemy_, -own_, -wide))
    key = np.stack([wide, own_, enemy_], axis=1)
    return _Queue(line[order], form[order], index[order], key[order])


def _lanes_occupied(lay: Layout, models: int) -> None:
    """The search reads a candidate's value from its offset alone, which holds only when
    every lane's slot next to the line is always occupied: not in a rear rank with gaps
    (`prepare._options` builds no such formation; this keeps it so)."""
    option = lay.option
    gaps = option.files * option.ranks > models
    if gaps and any(option.lane_slot(f)[0] == option.ranks - 1 and option.ranks > 1
                    for f in range(len(option.lanes()))):
        raise ValueError(f"a lane of {option.files} files ({option.own} against the line) "
                         "may be empty next to the line: the search cannot value it")


def values(lay: Layout) -> tuple[np.ndarray, np.ndarray]:
    """At each offset: the lanes touching an enemy model (each lane's slot next to the line
    is occupied), and the enemy models over the unit's extent along the line."""
    own = np.zeros(len(lay.xs), dtype=np.int64)
    for intervals in lay.front.values():
        own += inside(lay.xs, intervals)
    enemy = np.zeros(len(lay.xs), dtype=np.int64)
    for interval in lay.enemy.values():
        enemy += inside(lay.xs, [interval])
    return own, enemy
