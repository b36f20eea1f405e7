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
  once: its parent is it less one in its last raised coordinate).  In one tuple of levels,
  the best tuple of candidates (`_best_of`): no two units overlapping (on one line and side
  their extents along it; else the checker's penetration depth), together touching every
  enemy model touched before, by value (enemy models counted once: at most the levels' sum),
  then least total displacement.  The last two units' candidates are crossed in numpy
  blocks, a first unit's (of three) enumerated; cuts: no room on the line (`room`,
  `alive_heads`), only the enemy sets that can reach the best value (`worth`), the displacement.
  Displacements are each unit's least-cost assignment (independent once the placements are
  chosen), their lower bounds (`Frame.bounds`) until a best tuple needs them assigned
  (`Levels.settle`; then the best is looked for again, until its members are assigned).
* The search stops when the next tuple of levels cannot beat the best tuple taken: that is
  the proof of the joint family's optimum.  A tuple is taken only once the exact checker
  accepts all the player's reforms in it.
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
from dataclasses import dataclass, replace
from typing import Any

import numpy as np

from constraints.core.scenario import Scenario
from constraints.rank_and_file.combats import combats
from constraints.t9a.clauses.combat_reform.checker import check_combat_reform
from optimizer.combat_reform.answer import ReformAnswer, placed_answer, proposal
from optimizer.combat_reform.joint_apart import alive_heads, apart, apart_pairs, room, worth
from optimizer.combat_reform.joint_data import Group, group_data
from optimizer.combat_reform.joint_levels import (
    ASSIGNMENTS_PER_EFFORT,
    MAX_JOINT,
    Budget,
    Level,
    Levels,
    Pick,
)
from optimizer.combat_reform.joint_status import (
    Member,
    group_everything,
    group_optimal,
    member,
)
from optimizer.combat_reform.prepare import (
    Asks,
    rules_bound,
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
                 accept: Any) -> JointOutcome:
    """The best tuple of the units' candidates (module docs): tuples of levels by the sum of
    their values, best first; in each, the best tuple of candidates by their displacements
    (their bounds until assigned: a best tuple is assigned, then looked for again, until its
    members are all assigned); stop when the next tuple of levels cannot beat the best
    taken.  `accept(picks)` is the exact checker's word on a tuple that would become the
    best."""
    n = len(units)
    if any(not u.groups for u in units):
        return JointOutcome(None, True, True, None, 0, budget.used_assignments)
    need = np.uint64(sum(units[0].bits[e] for e in keep))
    heap: list[tuple[int, tuple[int, ...]]] = []

    def push(t: tuple[int, ...]) -> None:
        if all(i < len(u.groups) for u, i in zip(units, t, strict=True)):
            heapq.heappush(heap, (-sum(u.values[i] for u, i in zip(units, t, strict=True)), t))

    push((0,) * n)
    best: Best | None = None
    while heap:
        neg, t = heap[0]
        if best is not None and -neg < best[0]:
            return _ended(best, budget, None)
        if budget.spent:
            return _ended(best, budget, -neg)
        heapq.heappop(heap)
        last = max((j for j in range(n) if t[j]), default=0)
        for j in range(last, n):
            push(t[:j] + (t[j] + 1,) + t[j + 1:])
        levels = [u.level(i) for u, i in zip(units, t, strict=True)]
        rejected: set[tuple[int, ...]] = set()
        while True:
            got = _best_of(units, levels, need, weight, best, rejected, budget)
            if got is None:
                break
            value, cost, where = got
            if not all(u.settle(lv, i) for u, lv, i in zip(units, levels, where, strict=True)):
                return _ended(best, budget, -neg)
            if any(lv.exact[i] < 0 for lv, i in zip(levels, where, strict=True)):
                continue  # a member has no assignment: look again without it
            exact = sum(int(lv.exact[i]) for lv, i in zip(levels, where, strict=True))
            if exact != cost:
                continue  # the bounds were below the displacements: look again
            picks = tuple(u.pick(lv, i) for u, lv, i in zip(units, levels, where, strict=True))
            if accept(picks):
                best = (value, cost, picks)
                break
            rejected.add(where)
    return _ended(best, budget, None)


def _ended(best: Best | None, budget: Budget, bound: int | None) -> JointOutcome:
    """`bound` None: the search ended (proved); else the best key left unexplored when the
    budget ran out: the value is still proved when the best taken reaches it (only a tuple
    of that value moving less may be left)."""
    proved = bound is None or (best is not None and bound <= best[0])
    return JointOutcome(None if best is None else best[2], proved, bound is None, bound,
                        budget.used_tuples, budget.used_assignments)


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
    top = sum(lv.value for lv in levels)  # every tuple's value is at most this
    found: tuple[int, int, tuple[int, ...]] | None = None
    if best is not None:
        found = (best[0], best[1], ())
    a, b = levels[-2], levels[-1]
    heads: list[tuple[tuple[int, ...], int]] = [((), 0)]
    if len(levels) == 3:
        first = levels[0]
        units[0].bound(first, np.flatnonzero(first.alive()))
    costs = [lv.costs() for lv in levels]
    rest = int(costs[-2][a.alive()].min(initial=2**62)) + \
        int(costs[-1][b.alive()].min(initial=2**62))
    if len(levels) == 3:
        alive = alive_heads(first, a, b, need)
        heads = [((int(i),), int(costs[0][i]))
                 for i in alive[np.argsort(costs[0][alive], kind="stable")]]
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
        costs[-2], costs[-1] = a.costs(), b.costs()
        rows = rows[np.argsort(costs[-2][rows], kind="stable")]
        col_least = int(costs[-1][cols].min())
        step = max(1, CHUNK // len(cols))
        for start in range(0, len(rows), step):
            r = rows[start:start + step]
            if found is not None and found[0] >= reach and \
                    cost + int(costs[-2][r[0]]) + col_least >= found[1]:
                break  # no pair left can be worth more or move less
            budget.used_tuples += len(r) * len(cols)
            if budget.spent:
                return found if found is not None and found[2] else None
            fit = apart_pairs(a, r, b, cols)
            union = a.masks[r][:, None] | b.masks[cols][None, :] | base
            fit &= (union & need) == need
            if not fit.any():
                continue
            value = own + np.bitwise_count(union).astype(np.int64)
            total = cost + costs[-2][r][:, None] + costs[-1][cols][None, :]
            score = np.where(fit, value, -1)
            while True:
                top_value = int(score.max())
                if top_value < 0:
                    break
                at = np.flatnonzero(score.ravel() == top_value)
                flat = at[np.argmin(total.ravel()[at])]
                x, y = divmod(int(flat), len(cols))
                where = chosen + (int(r[x]), int(cols[y]))
                if where in rejected:
                    score[x, y] = -1
                    continue
                key = (top_value, -int(total[x, y]))
                if found is None or key > (found[0], -found[1]):
                    found = (key[0], -key[1], where)
                break
    return found if found is not None and found[2] else None


# -- the answer -------------------------------------------------------------------------------

def _answers(group: Group, picks: tuple[Pick, ...], status: str) -> list[ReformAnswer]:
    found = []
    for unit, lines, pick in zip(group.units, group.lines, picks, strict=True):
        ready = lines[pick.line]
        lay = ready.layouts[pick.k]
        slots = lay.option.slots()
        placed = tuple((ready.ids[m], slots[s]) for m, s in enumerate(pick.slots))
        found.append(placed_answer(status, unit, ready.line, lay.option,
                                   float(lay.xs[pick.index]), placed, (pick.own, pick.enemy),
                                   (pick.own, pick.enemy), ready.demands.own_before))
    return found


def _legal(scenario: Scenario, answers: list[ReformAnswer]) -> bool:
    """The exact checker on all the group's reforms (who may reform is the caller's)."""
    reforms = [proposal(a) for a in answers]
    if any(r is None for r in reforms):
        return False
    verdict = check_combat_reform(scenario, [r for r in reforms if r is not None])
    return not [c for c in verdict.clauses() if c != "combat_reform.eligible"]


def joint_reform(scenario: Scenario, ids: tuple[str, ...], effort: float,
                 asks: list[Asks]) -> tuple[ReformAnswer, ...] | None:
    """The units' joint reform, in the order given; None when the search's budget ran out
    before any tuple was taken (the caller then reforms them one at a time)."""
    group = group_data(scenario, ids, asks)
    if group is None:
        return None
    budget = Budget(effort)
    sides: dict[tuple[float, ...], int] = {}
    streams = [Levels(lines, budget, group.weight, group.bits, sides) for lines in group.lines]

    def accept(picks: tuple[Pick, ...]) -> bool:
        return _legal(scenario, _answers(group, picks, "FEASIBLE"))

    outcome = joint_search(streams, group.keep, group.weight, budget, accept)
    if outcome.picks is None:
        return None
    return _statuses(scenario, group, outcome, streams, effort)


def _statuses(scenario: Scenario, group: Group, outcome: JointOutcome, streams: list[Levels],
              effort: float) -> tuple[ReformAnswer, ...]:
    """OPTIMAL when the group's value is the rules' optimum (`joint_status.group_optimal`:
    it reaches the bound over every placement, or the proved joint family's optimum is not
    beaten by tuples with a unit outside its family, for two units); else FEASIBLE, the
    family's status kept in `family`."""
    assert outcome.picks is not None
    answers = _answers(group, outcome.picks, "OPTIMAL")
    value = (sum(p.own for p in outcome.picks),
             len(frozenset().union(*(p.touched for p in outcome.picks))))

    def members() -> list[Member]:
        return [member(scenario, view, u, previous, lines, group.combat,
                       s.values[0] // group.weight if s.groups else 0,
                       int(effort * ASSIGNMENTS_PER_EFFORT))
                for view, u, previous, lines, s in zip(group.views, group.units, group.before,
                                                       group.lines, streams, strict=True)]

    # Two units: the closure of their offsets holds every pair of their families'
    # placements; three may miss chains pushed together (module docs).
    proved = group_optimal(value, group_everything(scenario, group.units, group.before),
                           members, outcome.proved, len(group.units) == 2)
    search: dict[str, object] = {"pairs": outcome.tuples, "assignments": outcome.assignments,
              "least_moves": outcome.least,
              "displacement_ticks": sum(p.cost for p in outcome.picks)}
    out = []
    for a, u, previous in zip(answers, group.units, group.before, strict=True):
        family = dict(a.family, status="OPTIMAL" if outcome.proved else "FEASIBLE",
                      joint=[x.id for x in group.units])
        mine = rules_bound(scenario, u, previous)
        out.append(replace(a, status="OPTIMAL" if proved else "FEASIBLE", family=family,
                           bound=a.value if proved else (mine, a.bound[1]), search=search))
    return tuple(out)


def joint_groups(scenario: Scenario, units: list[str]) -> list[tuple[str, ...]]:
    """The given units (in order) grouped by Combat: groups of 2 to `MAX_JOINT` units of one
    Combat are reformed together; the others alone."""
    found: list[tuple[str, ...]] = []
    for c in combats(scenario.units):
        mine = tuple(u for u in units if u in c)
        if 2 <= len(mine) <= MAX_JOINT:
            found.append(mine)
    return found
