"""The candidates of units reformed jointly, as value levels of numpy arrays, and the
search's work budget (docs/rules.md §12.2; the search is `joint.py`)."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from optimizer.combat_reform.assignment import Frame
from optimizer.combat_reform.model import Layout
from optimizer.combat_reform.placement import FlushLine
from optimizer.combat_reform.prepare import (
    Prepared,
)
from optimizer.combat_reform.search import _queue

MAX_JOINT = 3  # at most this many units are reformed together
TUPLES_PER_EFFORT = 20_000_000  # pairs of candidates judged per unit of effort (~10 ns each)
ASSIGNMENTS_PER_EFFORT = 10_000  # as `best.ASSIGNMENTS_PER_EFFORT`


@dataclass(frozen=True)
class Pick:
    """One unit's candidate with an assignment: where (line, formation, offset index), its
    value, its least displacement (ticks), each model's slot, the enemy models it touches
    and its new boundary's corners."""

    line: int
    k: int
    index: int
    own: int
    enemy: int
    cost: int
    slots: tuple[int, ...]
    touched: frozenset[str]
    corners: np.ndarray = field(compare=False)


class Budget:
    """Assignments and tuples left; `spent` once either runs out."""

    def __init__(self, effort: float) -> None:
        self.assignments = int(effort * ASSIGNMENTS_PER_EFFORT)
        self.tuples = int(effort * TUPLES_PER_EFFORT)
        self.used_assignments = 0
        self.used_tuples = 0

    @property
    def spent(self) -> bool:
        return self.used_assignments >= self.assignments or self.used_tuples >= self.tuples


@dataclass
class Level:
    """One value of one unit: its candidates the bounds do not rule out, as arrays: where
    (line, formation, offset index), the least displacement (`exact`, -1 until assigned,
    -2 when no assignment exists) or its lower bound (`low`), the enemy models touched as
    bits, the new boundary (corners, edge normals) and, for units flush on one line, its
    extent along it (`side` names the line and side, `lo`, `hi` along its direction)."""

    value: int
    own: int
    enemy: int
    line: np.ndarray
    k: np.ndarray
    index: np.ndarray
    low: np.ndarray
    exact: np.ndarray
    masks: np.ndarray
    corners: np.ndarray
    normals: np.ndarray
    side: np.ndarray
    lo: np.ndarray
    hi: np.ndarray
    bounded: np.ndarray  # whether `low` is the bound yet (else 0)
    slots: dict[int, tuple[int, ...]] = field(default_factory=dict)

    def costs(self) -> np.ndarray:
        return np.where(self.exact >= 0, self.exact, self.low)

    def alive(self) -> np.ndarray:
        return self.exact != -2


class Levels:
    """A unit's candidates by value (the single search's groups, best first), each level
    built as asked: its candidates' displacement bounds, their assignments only when a
    tuple needs them (`settle`)."""

    def __init__(self, lines: list[Prepared], budget: Budget, weight: int,
                 bits: dict[str, int], sides: dict[tuple[float, ...], int]) -> None:
        self.lines = lines
        self.budget = budget
        self.queue = _queue(lines)
        self.frames: dict[tuple[int, int], Frame] = {}
        self.low = np.zeros(len(self.queue.index), dtype=np.int64)
        key = self.queue.key
        edges = np.flatnonzero(np.any(np.diff(key, axis=0) != 0, axis=1)) + 1
        self.groups = np.split(np.arange(len(key)), edges) if len(key) else []
        self.values = [weight * int(key[g[0]][1]) + int(key[g[0]][2]) for g in self.groups]
        self.bits = bits
        self.sides = sides
        self.found: dict[int, Level] = {}

    def level(self, g: int) -> Level:
        if g not in self.found:
            self.found[g] = self._level(g)
        return self.found[g]

    def _level(self, g: int) -> Level:
        q, group = self.queue, self.groups[g]
        group = group[np.lexsort((q.index[group], q.k[group], q.line[group]))]
        m = len(group)
        masks = np.zeros(m, dtype=np.uint64)
        corners = np.zeros((m, 4, 2))
        side = np.zeros(m, dtype=np.int64)
        lo, hi = np.zeros(m), np.zeros(m)
        # Sorted by line and formation: each (line, formation) is one block of the group.
        key = q.line[group].astype(np.int64) * (int(q.k.max(initial=0)) + 1) + q.k[group]
        starts = np.flatnonzero(np.concatenate([[True], key[1:] != key[:-1]])) if m \
            else np.zeros(0, dtype=np.int64)
        for a, b in zip(starts, np.append(starts[1:], m), strict=True):
            mine = np.arange(a, b)
            p, k = int(q.line[group[a]]), int(q.k[group[a]])
            lay = self.lines[p].layouts[k]
            line, option = lay.option.line, lay.option
            xs = lay.xs[q.index[group[mine]]]
            masks[mine] = _touched(lay, xs, self.bits)
            front = line.a[None, :] + xs[:, None] * line.right[None, :]
            w, d = option.along_in * line.right, option.across_in * line.out
            corners[mine] = np.stack([front, front + w, front + w + d, front + d], axis=1)
            along, where = _side(line, self.sides)
            side[mine] = where
            ends = corners[mine] @ along
            lo[mine], hi[mine] = ends.min(axis=1), ends.max(axis=1)
        first = q.key[group[0]] if m else self.queue.key[self.groups[g][0]]
        return Level(self.values[g], int(first[1]), int(first[2]), q.line[group], q.k[group],
                     q.index[group], np.zeros(m, dtype=np.int64),
                     np.full(m, -1, dtype=np.int64), masks, corners, normals(corners), side,
                     lo, hi, np.zeros(m, dtype=bool))

    def bound(self, level: Level, idx: np.ndarray) -> None:
        """The displacement bounds of the level's candidates `idx` (once each): a candidate
        the bounds find blocked has no assignment."""
        idx = idx[~level.bounded[idx]]
        if not len(idx):
            return
        for p, k in _pairs(level.line[idx], level.k[idx]):
            mine = idx[(level.line[idx] == p) & (level.k[idx] == k)]
            if (p, k) not in self.frames:
                self.frames[(p, k)] = Frame(self.lines[p], k)
            low = self.frames[(p, k)].bounds(level.index[mine])
            level.low[mine] = np.maximum(low, 0)
            level.exact[mine[low < 0]] = -2
        level.bounded[idx] = True

    def cheap(self, level: Level, idx: np.ndarray) -> np.ndarray:
        """A lower bound on the displacement of the level's candidates `idx`: their costs
        where bounded, else the move of the models' sum alone (`Frame.cheap_bounds`)."""
        out = level.costs()[idx]
        todo = np.flatnonzero(~level.bounded[idx])
        for p, k in _pairs(level.line[idx[todo]], level.k[idx[todo]]):
            mine = todo[(level.line[idx[todo]] == p) & (level.k[idx[todo]] == k)]
            if (p, k) not in self.frames:
                self.frames[(p, k)] = Frame(self.lines[p], k)
            out[mine] = self.frames[(p, k)].cheap_bounds(level.index[idx[mine]])
        return out

    def settle(self, level: Level, i: int) -> bool:
        """Assign candidate i of the level (once): False when the budget is spent."""
        if level.exact[i] != -1:
            return True
        if self.budget.spent:
            return False
        self.budget.used_assignments += 1
        p, k = int(level.line[i]), int(level.k[i])
        got = self.frames[(p, k)].assign(int(level.index[i]))
        if got is None:
            level.exact[i] = -2
        else:
            level.exact[i] = got[0]
            level.slots[i] = got[1]
        return True

    def pick(self, level: Level, i: int) -> Pick:
        p, k, index = int(level.line[i]), int(level.k[i]), int(level.index[i])
        touched = frozenset(e for e, b in self.bits.items() if int(level.masks[i]) & b)
        return Pick(p, k, index, level.own, level.enemy, int(level.exact[i]), level.slots[i],
                    touched, level.corners[i])


def _touched(lay: Layout, xs: np.ndarray, bits: dict[str, int]) -> np.ndarray:
    """At each offset, the enemy models the unit touches as bits (all of them at once)."""
    if not lay.enemy:
        return np.zeros(len(xs), dtype=np.uint64)
    ivs = np.array(list(lay.enemy.values()))
    bit = np.array([bits[e] for e in lay.enemy], dtype=np.uint64)
    hit = (xs[:, None] >= ivs[None, :, 0]) & (xs[:, None] <= ivs[None, :, 1])
    return np.bitwise_or.reduce(np.where(hit, bit[None, :], np.uint64(0)), axis=1)


def _pairs(lines: np.ndarray, ks: np.ndarray) -> list[tuple[int, int]]:
    """The distinct (line, formation) pairs, sorted (numpy: a level may hold thousands)."""
    if not len(lines):
        return []
    span = int(ks.max()) + 1
    both = np.unique(lines.astype(np.int64) * span + ks)  # one integer key: a 1-D unique
    return [(int(b) // span, int(b) % span) for b in both]


def _side(line: FlushLine, sides: dict[tuple[float, ...], int]) -> tuple[np.ndarray, int]:
    """The line's direction along it, the same for every line on one line and side (units
    flush on it stand on the same side), and the id of that line and side."""
    out = line.out
    along = np.array([-out[1], out[0]])
    key = (round(float(out[0]), 6), round(float(out[1]), 6), round(float(line.a @ out), 6))
    return along, sides.setdefault(key, len(sides))

def normals(v: np.ndarray) -> np.ndarray:
    """(..., k, 2) polygons' unit edge normals."""
    d = np.roll(v, -1, axis=-2) - v
    n = np.stack([d[..., 1], -d[..., 0]], axis=-1)
    return n / np.maximum(np.hypot(n[..., 0], n[..., 1]), 1e-300)[..., None]
