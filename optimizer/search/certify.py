"""OPTIMAL that holds under the rules: a bound on the objective over every legal way, proved by
branch and bound over a relaxation's boxes (docs/techniques.md §9).

A relaxation (constraints.rank_and_file.snaking_reach) covers its parameter space with boxes
and maps a box to a piece that holds every end pose of every way in it; the goal bounds its
objective over a piece (Goal.piece_values).  Boxes whose bound cannot beat the answer by
more than the tolerance are settled; the others are halved along their most sensitive
parameter, until none is left or the work cap is reached.  The bound is the best over every
box's bound: no legal way does better.  The work is counted in boxes, not seconds: the same
answer on any machine.

A box's middle, as a box of no width, is one point of the relaxation: its value is one the
relaxation reaches, so no refinement can prove a bound above it.  Once such a point beats the
answer by more than the tolerance the certificate cannot close; it is then refined only until
its bound is within the tolerance of the best such point, or STUCK_BOXES are judged (a looser
bound, sound, for a fraction of the work: benchmarks/README.md).

A certificate hands on the boxes it left open (`Certificate.left`); another of the same goal
and relaxation, for an answer no better, may start from them (`start`): its settled boxes
stay settled, every value still bounds its box (docs/techniques.md, "A certificate from the
boxes left before").
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

import numpy as np

from constraints.geometry.pieces import Relaxation
from optimizer.search.end_cut import EndCut, cut_values
from optimizer.search.objectives import Goal

CERTIFY_TOLERANCE_IN = 0.01  # OPTIMAL: the answer within this of every legal way's value
MAX_BOXES = 120_000          # boxes judged per certificate, at most (benchmarks/README.md)
MIN_HALF = 1e-7              # radians x weight: boxes this small are not split again
ROUND_BOXES = 50_000         # boxes split per round, lowest bound first
STUCK_BOXES = 20_000         # the cap once a point of the relaxation beats the answer
POINT_BOXES = 16             # the lowest boxes whose middles are valued each round
VALUE_CHUNK = 4_096          # new boxes valued between looks at the deadline (16,384 of an
# Advance's took 0.68 s: bench_random 181 ran 0.72 s past its limit; the same bounds at 4,096)


@dataclass(frozen=True)
class Boxes:
    """The boxes a certificate left open, and what its settled ones proved: where the
    certificate of an answer no worse may start (`certify`'s `start`).  Every value bounds
    every legal way in its box (signed, lower is better)."""

    mids: np.ndarray
    halves: np.ndarray
    values: np.ndarray
    settled: float  # the least value of a box settled, inf if none
    target: float   # the boxes below it were open
    loose: bool     # some were valued by plain pieces, uncut (the certificate was stuck)


@dataclass(frozen=True)
class Certificate:
    """A bound on the objective over every legal way, and how it was reached."""

    bound: float
    boxes: int             # boxes judged
    closed: bool           # every box settled, not cut short by the cap or the deadline
    timed_out: bool = False
    reached: float | None = None  # the relaxation's value at its best point valued: no
    # refinement proves a bound beyond it (None: no point valued)
    left: Boxes | None = field(default=None, compare=False, repr=False)  # where it stopped
    cap: int = MAX_BOXES   # the boxes it might judge
    stuck: bool = False    # a point of the relaxation, after the cut, beat the answer: more
    # boxes under the same cut would not close it (optimizer.search.certified asks no more)

    def proves(self, value: float, tolerance: float) -> bool:
        """Whether `value` is within `tolerance` of the bound (the answer is OPTIMAL)."""
        return abs(value - self.bound) <= tolerance + 1e-12


def certify(goal: Goal, relaxation: Relaxation, value: float,
            tolerance: float = CERTIFY_TOLERANCE_IN, max_boxes: int = MAX_BOXES,
            deadline: float | None = None, cut: EndCut | None = None,
            start: Boxes | None = None) -> Certificate:
    """The bound over every way, refined until it is within `tolerance` of `value` (an
    answer's objective), `max_boxes` are judged or the `deadline` (time.perf_counter) passes.
    `cut` (optimizer.search.end_cut) settles the boxes whose legal ends cannot beat it.
    `start`: the boxes another certificate of the same goal and relaxation left, for an
    answer no better than this one's, to refine further instead of the relaxation's first.

    Boxes are refined lowest bound first, at most ROUND_BOXES a round, so that a certificate
    cut short still has the highest bound its work could give: the least over every box not
    settled, sound, only looser."""
    sign = -1.0 if goal.maximise else 1.0  # work in "lower is better" terms
    target = sign * value - tolerance
    if start is None:
        mids, halves = relaxation.initial()
        values = _values(goal, relaxation, mids, halves, sign, target, cut=cut)
        settled, judged = np.inf, len(mids)
    else:  # a box settled for a higher target stays settled; its value still bounds it
        if start.target < target:
            raise ValueError("boxes left for a better answer cannot start this certificate")
        mids, halves, settled, judged = start.mids, start.halves, start.settled, 0
        # The cut of a lower target settles more (less is near enough to beat it): asked
        # again of the boxes themselves before their halves are.  (Of the same target it
        # settles none of them, and the probe of its first tests would stop it: end_cut.)
        open_ = (start.values < target) & (target < start.target)
        values = start.values.copy()
        values[open_] = cut_values(cut, relaxation.pieces(mids[open_], halves[open_]),
                                   values[open_])
    reached, plain, loose = np.inf, np.inf, False
    while True:
        open_ = values < target
        if (~open_).any():
            settled = min(settled, float(values[~open_].min()))
        mids, halves, values = mids[open_], halves[open_], values[open_]
        left = Boxes(mids, halves, values, settled, target, loose)
        bound = sign * min(settled, float(values.min(initial=np.inf)), sign * value)
        if not len(values):
            return Certificate(bound, judged, True, reached=_signed(sign, reached), left=left,
                               cap=max_boxes)
        late = _late(deadline)
        if late:  # nothing more is valued: the bound so far, sound
            return Certificate(bound, judged, False, True, _signed(sign, reached), left,
                               max_boxes, reached < target)
        refine = np.argsort(values, kind="stable")[:ROUND_BOXES]
        points = mids[refine[:POINT_BOXES]]
        reached = min(reached, _point_value(goal, relaxation, points, sign, cut=cut))
        # What refining by plain pieces, uncut (below, once stuck), could prove at most.
        plain = min(plain, _point_value(goal, relaxation, points, sign, tight=False))
        cap = max_boxes if reached >= target else min(max_boxes, STUCK_BOXES)
        # Cannot close, and within the tolerance of what any refinement could prove.
        stop = reached < target and float(values.min()) >= plain - tolerance
        refine = refine[(halves[refine] * relaxation.weights).max(axis=1) >= MIN_HALF]
        if late or stop or not len(refine) or judged + 2 * len(refine) > cap:
            return Certificate(bound, judged, False, late, _signed(sign, reached), left,
                               max_boxes, reached < target)
        keep = np.ones(len(values), dtype=bool)
        keep[refine] = False
        new_mids, new_halves = _split(mids[refine], halves[refine], relaxation.weights)
        # Once a point beats the answer (after the cut) the certificate cannot close: plain
        # pieces then, and no cut.
        stuck = reached < target
        loose |= stuck
        # Valued a chunk at a time, with a look at the deadline between: a child not valued
        # keeps its parent's bound (the parent's piece holds the child's: sound, looser).  A
        # child valued keeps the higher of the two: its own piece may be valued less tightly
        # than its parent was (the cut's budget spent, or a certificate that went on from
        # another's boxes without the escalation that raised them: bench_random 91's bound
        # fell from 6.0956 to 3.9882 so).
        new_values = np.concatenate([values[refine], values[refine]])
        for start_at in range(0, len(new_mids), VALUE_CHUNK):
            if start_at and _late(deadline):
                break
            part = slice(start_at, start_at + VALUE_CHUNK)
            new_values[part] = np.maximum(new_values[part], _values(
                goal, relaxation, new_mids[part], new_halves[part], sign, target,
                tight=not stuck, cut=None if stuck else cut))
        judged += len(new_mids)
        mids = np.concatenate([mids[keep], new_mids])
        halves = np.concatenate([halves[keep], new_halves])
        values = np.concatenate([values[keep], new_values])


def _late(deadline: float | None) -> bool:
    return deadline is not None and time.perf_counter() > deadline


def _values(goal: Goal, relaxation: Relaxation, mids: np.ndarray, halves: np.ndarray,
            sign: float, target: float, tight: bool = True,
            cut: EndCut | None = None) -> np.ndarray:
    """Each box's bound (lower is better), less what the cut settles.  A relaxation with
    tighter, dearer pieces (`tighter_pieces`) gives them, while `tight`, to the boxes its
    plain pieces leave open: a tighter piece is never looser, so a box the plain one settles
    stays settled.  The cut reads the tighter pieces where they were made, else the plain."""
    pieces = relaxation.pieces(mids, halves)
    values = sign * goal.piece_values(pieces)
    open_ = values < target
    tighter = relaxation.tighter_pieces(mids[open_], halves[open_]) \
        if tight and open_.any() else None
    if tighter is None:
        return cut_values(cut, pieces, values)
    # The cut reads the tighter pieces where there are any: an end lies in both their sets.
    values[open_] = cut_values(cut, tighter, sign * goal.piece_values(tighter))
    return values


def _point_value(goal: Goal, relaxation: Relaxation, mids: np.ndarray, sign: float,
                 tight: bool = True, cut: EndCut | None = None) -> float:
    """The best value of the relaxation at these points (boxes of no width; `tight`: with
    the tighter pieces where the relaxation has them; less the cut)."""
    if not len(mids):
        return np.inf
    return float(_values(goal, relaxation, mids, np.zeros_like(mids), sign, np.inf,
                         tight, cut).min())


def _signed(sign: float, reached: float) -> float | None:
    return None if not np.isfinite(reached) else sign * reached


def _split(mids: np.ndarray, halves: np.ndarray,
           weights: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Each box halved along the parameter that moves its piece most."""
    axis = np.argmax(halves * weights, axis=1)
    rows = np.arange(len(mids))
    halves = halves.copy()
    halves[rows, axis] /= 2.0
    low, high = mids.copy(), mids.copy()
    low[rows, axis] -= halves[rows, axis]
    high[rows, axis] += halves[rows, axis]
    return np.concatenate([low, high]), np.concatenate([halves, halves])
