"""Who may stand in which slot at a candidate offset, how far each model moves there, and the
least-cost assignment of models to slots: the best-first search's test of a candidate and
its third level (docs/rules.md §12.2)."""

from __future__ import annotations

import math

import numpy as np
from ortools.graph.python import linear_sum_assignment

from optimizer.combat_reform.answer import MOVE_TICKS
from optimizer.combat_reform.placement import Interval
from optimizer.combat_reform.prepare import Prepared

# The bound's displacement is computed as sqrt(|v|^2 - 2 x v.r + x^2) (no (offset, model,
# slot, 2) table): with |v| up to a table's length, rounding may take ~1.5e-6" off it, so
# each term is lowered by this many ticks (5e-6") to stay a lower bound.
SLACK_TICKS = 5.0
CELLS = 1 << 20  # (offset, model, slot) cells of the tables built at once (memory)
WIDE_IN = 1e-6   # the bounds' March Rate windows: this much wider than the March Rate


def inside(xs: np.ndarray, intervals: list[Interval]) -> np.ndarray:
    """Whether each offset lies in one of the closed intervals."""
    found = np.zeros(len(xs), dtype=bool)
    for lo, hi in intervals:
        found |= (xs >= lo) & (xs <= hi)
    return found


def _ticks(square: np.ndarray) -> np.ndarray:
    """Moves of these squared lengths in ticks, less the rounding's half tick and the slack
    (inf stays inf)."""
    return np.sqrt(np.maximum(square, 0.0)) * MOVE_TICKS - 0.5 - SLACK_TICKS


class Frame:
    """One formation's slots as arrays, computed once for all its candidates: each slot's
    rank and lane (-1: not next to the line), the ranks that must be full, and each model's
    start against each slot's centre at offset 0."""

    def __init__(self, ready: Prepared, k: int) -> None:
        self.ready = ready
        self.lay = ready.layouts[k]
        option = self.lay.option
        slots = option.slots()
        self.rank = np.array([s[0] for s in slots])
        lanes = [option.lane_of(s) for s in slots]
        self.lane = np.array([-1 if f is None else f for f in lanes])
        self.rear = self.rank == option.ranks - 1
        self.full = ~self.rear | (option.ranks == 1)
        self.starts = option.unit.model_positions()
        self.chars = sorted(ready.characters)
        self.keep = [m for m in self.chars if ready.ids[m] in ready.demands.keep_characters]
        self.with_span = [(ready.ids.index(c), s) for c, s in ready.demands.character_with]
        self.limit = ready.demands.reach_in
        # For the bounds, windows a little wider than the March Rate (a bound may count a
        # slot the model cannot quite reach, never miss one); `assign` measures each move.
        self.wide = option.reach_windows(self.starts, self.limit + WIDE_IN)
        v = self.starts[:, None, :] - option.origins[None, :, :]
        self.square = (v * v).sum(axis=-1)  # |v|^2 and v . right, (models, slots)
        self.along = v @ option.line.right
        # The models' moves sum to at least the move of their sum (the triangle inequality):
        # the starts' sum against the occupied slots' sum, which is every slot's less the
        # rear rank's empty ones, those summing to a point of a segment (the rear slots lie
        # on a line: the `empty` leftmost ones to the `empty` rightmost ones).
        empty = len(slots) - len(ready.ids)
        rear = option.origins[self.rear]
        order = np.argsort(rear @ option.line.right)
        gone = [rear[order[:empty]].sum(axis=0), rear[order[len(order) - empty:]].sum(axis=0)]
        base = self.starts.sum(axis=0) - option.origins.sum(axis=0)
        self.moved = (base + gone[0], base + gone[1])  # at x = 0, the segment's two ends

    def allowed(self, xs: np.ndarray, reach: np.ndarray | None = None) -> np.ndarray:
        """(offsets, models, slots): within the March Rate (`reach` when given, else the wide
        windows); a character only in the front rank, one that touched an enemy only in a
        lane touching one, one the player keeps with an enemy only in a lane touching that
        enemy's edge."""
        lay = self.lay
        x = xs[:, None, None]
        ok = (self.wide[0][None] <= x) & (x <= self.wide[1][None]) if reach is None \
            else reach.copy()  # NaN windows: never
        ok[:, self.chars, :] &= (self.rank == 0)[None, None, :]
        if self.keep:
            touch = self._by_slot([inside(xs, lay.front[f]) for f in range(len(lay.front))])
            ok[:, self.keep, :] &= touch[:, None, :]
        for m, span in self.with_span:
            ok[:, m, :] &= self._by_slot([inside(xs, [lay.by_span[f][span]] if span >= 0
                                                 else []) for f in range(len(lay.by_span))])
        return ok

    def _by_slot(self, touching: list[np.ndarray]) -> np.ndarray:
        """(offsets, slots): whether the slot is next to the line in a lane that touches."""
        per_lane = np.stack(touching, axis=1)
        return np.where(self.lane >= 0, per_lane[:, np.maximum(self.lane, 0)], False)

    def bounds(self, index: np.ndarray) -> np.ndarray:
        """A lower bound on the least displacement (ticks) at each offset `index`: the
        largest of each model to its nearest allowed slot, each slot of a full rank from
        its nearest allowed model, and the move of the models' sum (`_together`); -1 where a
        model or a full rank's slot has none (no assignment).  Rounding each move to ticks
        takes at most half a tick off it, so that much comes off each term too."""
        out = np.empty(len(index), dtype=np.int64)
        chunk = max(1, CELLS // self.square.size)
        for start in range(0, len(index), chunk):
            xs = self.lay.xs[index[start:start + chunk]]
            x = xs[:, None, None]
            # The squared moves, their least taken before the root: the move is an
            # increasing function of them, so the least move is the same, with a root per
            # model and per slot instead of per pair.
            square = self.along[None] * (-2.0 * x)
            square += self.square[None]
            square += x * x
            square[~self.allowed(xs)] = math.inf
            rows = _ticks(square.min(axis=2))
            cols = _ticks(square[:, :, self.full].min(axis=1))
            blocked = np.isinf(rows).any(axis=1) | np.isinf(cols).any(axis=1)
            low = np.maximum(np.maximum(rows.sum(axis=1), cols.sum(axis=1)),
                             (self._together(xs) * MOVE_TICKS
                              - (0.5 + SLACK_TICKS) * len(self.ready.ids)))
            low = np.maximum(np.floor(np.where(blocked, 0.0, low)), 0.0)  # costs are >= 0
            out[start:start + chunk] = np.where(blocked, -1, low)
        return out

    def cheap_bounds(self, index: np.ndarray) -> np.ndarray:
        """The last term of `bounds` alone (the move of the models' sum), without the table
        of models and slots: at most `bounds` wherever that is not -1."""
        low = self._together(self.lay.xs[index]) * MOVE_TICKS \
            - (0.5 + SLACK_TICKS) * len(self.ready.ids)
        return np.maximum(np.floor(low), 0.0).astype(np.int64)

    def _together(self, xs: np.ndarray) -> np.ndarray:
        """At each offset, the distance from the models' summed move to the segment of the
        occupied slots' sums (every slot's moves by n x along the line)."""
        n = len(self.ready.ids)
        shift = n * xs[:, None] * self.lay.option.line.right[None, :]
        a, b = self.moved[0][None, :] - shift, self.moved[1][None, :] - shift
        d = b - a
        length = float(d[0] @ d[0])
        t = np.zeros(len(xs)) if length == 0.0 else \
            np.clip(-(a * d).sum(axis=1) / length, 0.0, 1.0)
        close = a + t[:, None] * d
        return np.hypot(close[:, 0], close[:, 1])

    def moves(self, x: float) -> tuple[np.ndarray, np.ndarray]:
        """(models, slots): whether each model is within its March Rate of each slot at
        offset x, measured as the checker measures it (its slot centres, `math.hypot` where
        the move is within a hair of the limit, to the last bit), and the move in ticks."""
        ends = self.lay.option.slot_centres(x)
        gap = self.starts[:, None, :] - ends[None, :, :]
        dist = np.hypot(gap[..., 0], gap[..., 1])
        ok = dist <= self.limit
        for m, s in zip(*np.nonzero(np.abs(dist - self.limit) <= 1e-9), strict=True):
            ok[m, s] = math.hypot(*gap[m, s]) <= self.limit
        return ok, np.rint(dist * MOVE_TICKS).astype(np.int64)

    def assign(self, index: int) -> tuple[int, tuple[int, ...]] | None:
        """The least total displacement at offset `index` and each model's slot, or None
        when no assignment meets the rules.  The rear rank's empty slots are taken by dummy
        rows at no cost (dummies may stand only there), so every other rank is full."""
        x = float(self.lay.xs[index])
        reach, ticks = self.moves(x)
        models, slots = np.nonzero(self.allowed(np.array([x]), reach[None])[0])
        n, count = len(self.ready.ids), len(self.rank)
        rear = np.flatnonzero(self.rear)
        dummies = np.arange(n, count)
        left = np.concatenate([models, np.repeat(dummies, len(rear))])
        right = np.concatenate([slots, np.tile(rear, len(dummies))])
        costs = np.concatenate([ticks[models, slots],
                                np.zeros(len(dummies) * len(rear), dtype=np.int64)])
        if len(np.unique(left)) < count or len(np.unique(right)) < count:
            return None  # a row or slot without arcs (the solver sizes itself by its arcs)
        solver = linear_sum_assignment.SimpleLinearSumAssignment()
        solver.add_arcs_with_cost(left, right, costs)
        if solver.solve() != solver.OPTIMAL:
            return None
        return int(solver.optimal_cost()), tuple(int(solver.right_mate(m)) for m in range(n))
