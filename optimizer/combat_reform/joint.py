"""Two or three units of one player reformed jointly (seed 002): "after a player has completed
all their Combat Reforms, all enemy models that were in base contact ... must still be", so an
enemy model one unit leaves may be kept by another, which couples them; and the units are
placed one after another, so a unit may not overlap those placed before it (units of the
same Combat set no other distance, `combat_reform.spacing`).

A best-first search over tuples of the units' candidates (docs/rules.md §12.2):

* Each unit's candidates are its single search's (`search._queue`: every flush line of the
  enemy Facings it touched, every formation, every offset), without the demand that it keep
  the enemy models it touched itself (that demand is the player's, over all the units), on
  the scene in which the units before it in the order are lifted off (they are judged
  against it as placed, below) and those after it stand where they stood.  They come in
  value levels (`Levels`: the single search's groups, value W x own + enemy, W above any
  count of enemy models: lexicographic), each level as arrays (`Level`): where, the enemy
  models touched as bits, the new boundary and its extent along the line.
* Tuples of levels come out of a heap by the sum of their values, best first (each pushed
  once: its parent is it less one in its last raised coordinate), the enemy models summed
  no more than there are; those whose own models exceed the group's bound over every
  placement (`joint_status.group_everything`) are skipped.  In one tuple of levels,
  the best tuple of candidates (`_best_of`): no two units overlapping (on one line and side
  their extents along it; else the checker's penetration depth), together touching every
  enemy model touched before, by value (enemy models counted once: at most the levels' sum),
  then least total displacement.  The last two units' candidates are crossed in numpy
  blocks, a first unit's (of three) enumerated; cuts: no room on the line (`room`,
  `alive_heads`), only the enemy sets that can reach the best value (`worth`), the
  displacement (once a tuple is worth all the levels can be: rows, columns and heads whose
  bounds cannot move less; a head's first by `Levels.cheap`, without its table).
  Displacements are each unit's least-cost assignment (independent once the placements are
  chosen), their lower bounds (`Frame.bounds`) until a best tuple needs them assigned
  (`Levels.settle`, in the block of pairs where it is found; then that block's best is
  looked for again, until its members are assigned: assigning only raises a cost, so the
  cuts made on the bounds hold).
* The search stops when the next tuple of levels cannot beat the best tuple found: that is
  the proof of the joint family's optimum.  The best is then judged by the exact checker on
  all the player's reforms in it; refused, the search runs again without it.
* Offsets: each unit's offsets are closed once under the others' ends (another unit's offset
  plus its width, minus this unit's width), on lines that lie on one line: two units pushed
  against each other are then represented.  A chain of three units pushed against each other
  is represented only where one of its ends is at a unit's own offset.
* Work is bounded (`Budget`: assignments and candidate pairs): past it the best tuple taken
  is FEASIBLE (its value still proved when it reaches the best key left), or None (the
  caller reforms the units one at a time).
"""

from __future__ import annotations

import heapq
from dataclasses import dataclass
from typing import Any

import numpy as np

from optimizer.combat_reform.joint_apart import alive_heads, apart, apart_pairs, room, worth
from optimizer.combat_reform.joint_levels import (
    Budget,
    Level,
    Levels,
    Pick,
)


@dataclass(frozen=True)
class JointOutcome:
    """The best tuple (None: none taken), whether its value is the family's optimum and its
    displacement the least, the best key not ruled out when not, and the work done."""

    picks: tuple[Pick, ...] | None
    proved: bool  # the value is the family's optimum
    least: bool  # and the displacement the least of that value
    bound: int | None
    tuples: int
    assignments: int


Best = tuple[int, int, tuple[Pick, ...]]  # (value, displacement, picks)


def joint_search(units: list[Levels], keep: frozenset[str], weight: int, budget: Budget,
                 accept: Any, most_own: int | None = None) -> JointOutcome:
    """The best tuple of the units' candidates (module docs) that the exact checker accepts
    (`accept(picks)`): the best of the search (`_search`), judged once it ends; when the
    checker refuses it, the search runs again without that tuple (its levels, bounds and
    assignments kept), so every tuple it pruned is looked at again."""
    refused: dict[tuple[int, ...], set[tuple[int, ...]]] = {}
    while True:
        outcome, taken = _search(units, keep, weight, budget, most_own, refused)
        if outcome.picks is None or accept(outcome.picks):
            return outcome
        assert taken is not None
        refused.setdefault(taken[0], set()).add(taken[1])


def _search(units: list[Levels], keep: frozenset[str], weight: int, budget: Budget,
            most_own: int | None, refused: dict[tuple[int, ...], set[tuple[int, ...]]]
            ) -> tuple[JointOutcome, tuple[tuple[int, ...], tuple[int, ...]] | None]:
    """Tuples of levels by the sum of their values (the enemy models summed no more than
    there are), best first; in each, the best tuple of candidates by their displacements
    (their bounds until assigned: a best tuple is assigned, then looked for again, until its
    members are all assigned); stop when the next tuple of levels cannot beat the best
    found.  `most_own`: a bound on the own models in contact over every placement of the
    units (`joint_status.group_everything`); tuples of levels above it are skipped (no legal
    tuple of them exists).  `refused`: tuples the checker refused, by tuple of levels.  Also
    returns where the best is (its tuple of levels and candidates)."""
    n = len(units)
    if any(not u.groups for u in units):
        return JointOutcome(None, True, True, None, 0, budget.used_assignments), None
    need = np.uint64(sum(units[0].bits[e] for e in keep))
    heap: list[tuple[int, tuple[int, ...]]] = []
    enemies = len(units[0].bits)

    def push(t: tuple[int, ...]) -> None:
        if all(i < len(u.groups) for u, i in zip(units, t, strict=True)):
            heapq.heappush(heap, (-_key(units, t, weight, enemies), t))

    push((0,) * n)
    best: Best | None = None
    taken: tuple[tuple[int, ...], tuple[int, ...]] | None = None
    while heap:
        neg, t = heap[0]
        if best is not None and -neg < best[0]:
            return _ended(best, budget, None), taken
        if budget.spent:
            return _ended(best, budget, -neg), taken
        heapq.heappop(heap)
        last = max((j for j in range(n) if t[j]), default=0)
        for j in range(last, n):
            push(t[:j] + (t[j] + 1,) + t[j + 1:])
        if most_own is not None and \
                sum(u.values[i] // weight for u, i in zip(units, t, strict=True)) > most_own:
            continue  # more own models than any placement of the units has in contact
        levels = [u.level(i) for u, i in zip(units, t, strict=True)]
        rejected = refused.get(t, set())
        while True:
            try:
                got = _best_of(units, levels, need, weight, best, rejected, budget)
            except _Spent:
                return _ended(best, budget, -neg), taken
            if got is None:
                break
            value, cost, where = got
            if not all(u.settle(lv, i) for u, lv, i in zip(units, levels, where, strict=True)):
                return _ended(best, budget, -neg), taken
            if any(lv.exact[i] < 0 for lv, i in zip(levels, where, strict=True)):
                continue  # a member has no assignment: look again without it
            exact = sum(int(lv.exact[i]) for lv, i in zip(levels, where, strict=True))
            if exact != cost:
                continue  # the bounds were below the displacements: look again
            picks = tuple(u.pick(lv, i) for u, lv, i in zip(units, levels, where, strict=True))
            best, taken = (value, cost, picks), (t, where)
            break
    return _ended(best, budget, None), taken


def _key(units: list[Levels], t: tuple[int, ...], weight: int, enemies: int) -> int:
    """The most a tuple of the levels `t` is worth: own models summed, enemy models summed
    but no more than there are (the levels' values come in order, so a tuple's key is never
    above the one it was pushed from: an own model fewer is worth more than every enemy
    model)."""
    values = [u.values[i] for u, i in zip(units, t, strict=True)]
    return weight * sum(v // weight for v in values) + min(enemies, sum(v % weight
                                                                        for v in values))


def _ended(best: Best | None, budget: Budget, bound: int | None) -> JointOutcome:
    """`bound` None: the search ended (proved); else the best key left unexplored when the
    budget ran out: the value is still proved when the best taken reaches it (only a tuple
    of that value moving less may be left)."""
    proved = bound is None or (best is not None and bound <= best[0])
    return JointOutcome(None if best is None else best[2], proved, bound is None, bound,
                        budget.used_tuples, budget.used_assignments)


class _Spent(Exception):
    """The assignments' budget ran out while settling a tuple."""


CHUNK = 1 << 16  # pairs of candidates judged at once (then the displacement may cut)
HEAD_CELLS = 10_000  # a first unit's candidate (of three) costs about as much as this many pairs


def _best_of(units: list[Levels], levels: list[Level], need: np.uint64, weight: int,
             best: Best | None, rejected: set[tuple[int, ...]], budget: Budget
             ) -> tuple[int, int, tuple[int, ...]] | None:
    """The best tuple of one candidate per level, better than `best`: mutually not
    overlapping, touching together every enemy model in `need` (bits); by value (enemy
    models counted once), then least displacement (bounds where not assigned).  The last
    two units' candidates are judged in pairs at once (numpy), the first one's (of three)
    enumerated least displacement first, cut by the displacement once a tuple of the
    levels' best value is found."""
    if any(not len(lv.low) for lv in levels):
        return None
    anything = np.uint64(0)
    for lv in levels:
        anything |= np.bitwise_or.reduce(lv.masks[lv.alive()])
    if anything & need != need:
        return None  # no tuple of these levels touches every enemy model kept
    own = weight * sum(lv.own for lv in levels)
    # Every tuple's value is at most this: the enemy models any of them touches, once.
    top = own + min(sum(lv.enemy for lv in levels), int(np.bitwise_count(anything)))
    found: tuple[int, int, tuple[int, ...]] | None = None
    if best is not None:
        found = (best[0], best[1], ())
    a, b = levels[-2], levels[-1]
    heads: list[tuple[tuple[int, ...], int]] = [((), 0)]
    rest = int(a.costs()[a.alive()].min(initial=2**62)) + \
        int(b.costs()[b.alive()].min(initial=2**62))
    if len(levels) == 3:
        first = levels[0]
        alive = alive_heads(first, a, b, need)
        if found is not None and found[0] >= top:
            # Only less displacement helps: heads the cheap bound rules out need no table.
            alive = alive[units[0].cheap(first, alive) + rest < found[1]]
        units[0].bound(first, alive)
        alive = alive[first.alive()[alive]]
        low = first.costs()
        heads = [((int(i),), int(low[i])) for i in alive[np.argsort(low[alive], kind="stable")]]
    for chosen, cost in heads:
        if found is not None and found[0] >= top and cost + rest >= found[1]:
            break  # a value above `top` is impossible: only less displacement helps
        budget.used_tuples += HEAD_CELLS * len(chosen)
        if budget.spent:
            break
        ok_a, ok_b = a.alive(), b.alive()
        base = np.uint64(0)
        for h, i in enumerate(chosen):
            ok_a = ok_a & apart(levels[h], i, a)
            ok_b = ok_b & apart(levels[h], i, b)
            base |= levels[h].masks[i]
        rows, cols = np.flatnonzero(ok_a), np.flatnonzero(ok_b)
        if not len(rows) or not len(cols) or not room(a, rows, b, cols):
            continue
        least = -1 if found is None else found[0]
        reach = top
        if not rejected:
            rows, cols, reach = worth(a, rows, b, cols, base, need, own, least, top)
            if not len(rows):
                continue
        units[-2].bound(a, rows)
        units[-1].bound(b, cols)
        rows, cols = rows[a.alive()[rows]], cols[b.alive()[cols]]
        if not len(rows) or not len(cols) or not room(a, rows, b, cols):
            continue
        if not rejected:
            rows, cols, reach = worth(a, rows, b, cols, base, need, own, least, top)
            if not len(rows):
                continue
        # Lower bounds frozen for the cuts (settling only raises a candidate's cost).
        low_a, low_b = a.costs(), b.costs()
        if found is not None and found[0] >= reach:
            # Only less displacement helps: a row or column that cannot make a pair moving
            # less than the best, even with the other's least, is left out.
            room_left = found[1] - cost
            rows = rows[low_a[rows] + int(low_b[cols].min()) < room_left]
            if not len(rows):
                continue
            cols = cols[low_b[cols] + int(low_a[rows].min()) < room_left]
            if not len(cols):
                continue
        rows = rows[np.argsort(low_a[rows], kind="stable")]
        cols = cols[np.argsort(low_b[cols], kind="stable")]
        col_low = low_b[cols]
        step = max(1, CHUNK // len(cols))
        for start in range(0, len(rows), step):
            r = rows[start:start + step]
            c = cols
            if found is not None and found[0] >= reach:
                # Only the columns that can move less than the best with the block's least
                # row (the columns by their bounds: a prefix).
                c = cols[:int(np.searchsorted(col_low, found[1] - cost - int(low_a[r[0]])))]
                if not len(c):
                    break  # no pair left can be worth more or move less
            budget.used_tuples += len(r) * len(c)
            if budget.spent:
                return found if found is not None and found[2] else None
            fit = apart_pairs(a, r, b, c)
            union = a.masks[r][:, None] | b.masks[c][None, :] | base
            fit &= (union & need) == need
            if not fit.any():
                continue
            value = own + np.bitwise_count(union).astype(np.int64)
            score = np.where(fit, value, -1)
            found, dead = _settled(units, levels, chosen, r, c, score, found, rejected)
            if dead:
                break  # the head has no assignment
    return found if found is not None and found[2] else None


def _cost(level: Level, i: int) -> int:
    exact = int(level.exact[i])
    return exact if exact >= 0 else int(level.low[i])


def _settled(units: list[Levels], levels: list[Level], chosen: tuple[int, ...],
             r: np.ndarray, cols: np.ndarray, score: np.ndarray,
             found: tuple[int, int, tuple[int, ...]] | None,
             rejected: set[tuple[int, ...]]
             ) -> tuple[tuple[int, int, tuple[int, ...]] | None, bool]:
    """The best of a block of pairs (rows `r` of the last but one unit, `cols` of the last,
    after the head `chosen`; `score` their values, -1 where they cannot stand together),
    if better than `found`, its members assigned: the best by value then displacement
    bound is assigned, then looked for again, until the best has all its members assigned
    (a member without an assignment drops out).  Also whether the head has no assignment.
    Raises `_Spent` when the assignments' budget runs out."""
    a, b = levels[-2], levels[-1]
    while True:
        top_value = int(score.max())
        if top_value < 0:
            return found, False
        head = sum(_cost(levels[h], i) for h, i in enumerate(chosen))
        total = head + a.costs()[r][:, None] + b.costs()[cols][None, :]
        at = np.flatnonzero(score.ravel() == top_value)
        flat = at[np.argmin(total.ravel()[at])]
        x, y = divmod(int(flat), len(cols))
        where = chosen + (int(r[x]), int(cols[y]))
        if where in rejected:
            score[x, y] = -1
            continue
        key = (top_value, -int(total[x, y]))
        if found is not None and key <= (found[0], -found[1]):
            return found, False
        if all(lv.exact[i] >= 0 for lv, i in zip(levels, where, strict=True)):
            return (key[0], -key[1], where), False
        for u, lv, i in zip(units, levels, where, strict=True):
            if not u.settle(lv, i):
                raise _Spent
        if any(levels[h].exact[i] == -2 for h, i in enumerate(chosen)):
            return found, True
        if a.exact[r[x]] == -2:
            score[x, :] = -1
        if b.exact[cols[y]] == -2:
            score[:, y] = -1
