"""The descent: the polish's first stage (optimizer.search.polish), a projected gradient
search along the boundary of the legal ways, steered by the clauses' readings.

An answer far from the best way is often pressed against two clauses at once (its budget
and the Front Facing's spacing to a wall: gap-sidestep), and the ways that improve on it lie
along the surface where both readings stay at their limits: every parameter moves together,
in proportions no move of one or two parameters gives (bench_solve's gap-sidestep: four
parameters, the wheels by degrees while the middle leg lengthens).  The pattern search and
the slide crawl there by hundredths.  The checker measures each clause (a Reading: measured
against its limit), so the surface can be followed by its gradient: from a way x,

- the objective's rank and every reading are differenced in each free parameter (one check
  a parameter);
- the readings near their limits (within NEAR, with a gradient) are the active ones, with
  the legs at 0 that the gradient would shorten;
- the step is the rank's gradient projected onto the active readings' level sets, searched
  along by halving, each candidate moved back onto those level sets (a Newton step on their
  linearisation, RESTORES at most) and judged by the checker;
- where no step with the active readings held improves, the plain gradient is tried (a
  reading held needlessly: the way moves off it).

The readings are not told which side of the limit is legal (the distance is at most its
limit, the spacing at least); holding a near one at its value needs no side.  Every
candidate is judged by the checker, and only a legal way that beats the answer is kept, so
the stage is a search, not a claim.  Its work is counted in the caller's checks and it has
no randomness: the same request descends the same way on every run.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from constraints.core.verdict import Verdict
from constraints.errors import InvalidInputError

Scored = tuple[float, Any, Verdict]  # a candidate's rank (lower is better), move, verdict

TURN_SCALE = 10.0   # degrees of a turn (Pivot, wheel) per inch of a leg, in a plain step
NEAR = 0.02         # a reading this near its limit is active (inches, degrees)
DIFFERENCE = 1e-5   # the finite differences' step (inches, degrees)
FLAT = 1e-6         # a reading's gradient smaller than this everywhere: not steering
HALVINGS = 12       # the line search's halvings (from REACH_GROWTH times the last step)
REACH_GROWTH = 4.0  # a step starts from this times the last one's move, at most 1
RESTORES = 2        # Newton steps back onto the active readings' level sets, per candidate
STALL_STEPS = 5     # the descent stops when this many steps together gain
STALL_GAIN = 1e-4   # less than this (the tolerance of OPTIMAL is 100 times more)
SAME = 1e-9         # an improvement must beat the rank by more than this (float noise)


@dataclass(frozen=True)
class Measured:
    """A judged candidate: its parameters, rank (None: illegal or not judged) and readings
    (measured minus limit, by clause; empty when the move could not be made)."""

    x: np.ndarray
    scored: Scored | None
    margins: dict[str, float]


# Parameters -> the candidate judged, its parameters kept within their limits (a leg at
# least 0: optimizer.search.layout's `clipped`); the caller counts the check.
Measure = Callable[[list[float]], Measured]


class Descent:
    """One descent from a way (module docstring).  `measure` judges a candidate, `keeps`
    says whether a legal way may replace the answer, `free` are the parameters that move,
    `legs` those at least 0 and `turns` those in degrees; `spent` says when the checks are
    used up."""

    def __init__(self, measure: Measure, keeps: Callable[[Scored], bool], free: list[int],
                 legs: set[int], spent: Callable[[], bool], turns: set[int] | None = None) -> None:
        self.measure, self.keeps, self.free, self.legs = measure, keeps, free, legs
        self.spent = spent
        # The plain metric: a turn's degree moves a front corner by hundredths of an inch, a
        # leg's inch by an inch, so steps in the turns' degrees TURN_SCALE times longer keep
        # the two in proportion (gap-sidestep: 0.58 in 1000 checks unscaled, 0.48 scaled).
        turns = turns or set()
        self.base = np.diag([TURN_SCALE ** 2 if i in turns else 1.0 for i in free])
        # The quasi-Newton metric on the held readings' surface (BFGS: the valley the way
        # follows is narrow, and the plain gradient zigzags across it), reset whenever the
        # held readings change; and the last step's move and projected gradient.
        self.metric = self.base
        self.held: list[str] | None = None
        self.last: tuple[np.ndarray, np.ndarray] | None = None
        self.reach = 1.0  # the last step's largest move of a parameter

    def run(self, x: list[float], rank: float) -> tuple[Scored, list[float]] | None:
        """The best way found from `x` that beats `rank`, and its parameters."""
        at = self.measure(list(x))
        if at.scored is None or not self.free:
            return None
        best: Measured | None = None
        ranks = [at.scored[0]]
        while not self.spent() and not _stalled(ranks):
            moved = self._step(at)
            if moved is None or moved.scored is None:
                break
            at = best = moved
            ranks.append(moved.scored[0])
        if best is None or best.scored is None or not best.scored[0] < rank - SAME:
            return None
        return best.scored, [float(v) for v in best.x]

    def _step(self, at: Measured) -> Measured | None:
        """The first candidate that is legal and improves on `at`, along the gradient
        projected onto the active readings' level sets (in the learnt metric, then the plain
        one), then onto each one's alone, then not projected (None: none, or the checks ran
        out)."""
        assert at.scored is not None
        gradient, jacobian, still = self._differenced(at)
        if self.spent():
            return None
        active = [k for k, row in jacobian.items()
                  if abs(at.margins[k]) < NEAR and np.abs(row).max() > FLAT]
        singles = [[k] for k in active] if len(active) > 1 else []
        for held in [active, *singles, []] if active else [[]]:
            rows = np.array([jacobian[k] for k in held] +
                            [np.eye(len(self.free))[c] for c, i in enumerate(self.free)
                             if c in still or
                             (i in self.legs and at.x[i] <= 0.0 and gradient[c] > 0.0)])
            projected = _projected(gradient, rows)
            self._learn(held, at.x[self.free], projected)
            metrics = (self.metric, self.base) if self.learnt() else (self.base,)
            for metric in metrics:
                direction = -_tangent(metric, gradient, rows)
                if np.abs(direction).max() <= FLAT or direction @ gradient >= 0.0:
                    continue
                found = self._searched(at, direction, held, jacobian)
                if found is not None:
                    self.last = (at.x[self.free], projected)
                    return found
            self.metric, self.last = self.base, None
        return None

    def learnt(self) -> bool:
        """Whether the metric is more than the plain one."""
        return not np.array_equal(self.metric, self.base)

    def _learn(self, held: list[str], x: np.ndarray, projected: np.ndarray) -> None:
        """The metric updated by the last step (BFGS's inverse update), or reset where the
        held readings changed or the step taught nothing (no curvature along it)."""
        if held != self.held or self.last is None:
            self.metric, self.held = self.base, held
            return
        move, change = x - self.last[0], projected - self.last[1]
        curvature = float(move @ change)
        if curvature <= 1e-12:
            return
        rho = 1.0 / curvature
        eye = np.eye(len(self.free))
        left = eye - rho * np.outer(move, change)
        self.metric = left @ self.metric @ left.T + rho * np.outer(move, move)

    def _differenced(self, at: Measured) -> tuple[np.ndarray, dict[str, np.ndarray], list[int]]:
        """The rank's gradient and each reading's, by forward differences (backward where
        the forward candidate is illegal or at a limit), and the parameters neither way
        moves legally (held still this step: a way pressed against a clause both ways)."""
        assert at.scored is not None
        gradient = np.zeros(len(self.free))
        jacobian = {k: np.zeros(len(self.free)) for k in at.margins}
        still: list[int] = []
        for c, i in enumerate(self.free):
            for sign in (1.0, -1.0):
                x = at.x.copy()
                x[i] += sign * DIFFERENCE
                near = self.measure([float(v) for v in x])
                if near.scored is not None and near.x[i] != at.x[i]:
                    break
            else:
                still.append(c)
                continue
            gradient[c] = sign * (near.scored[0] - at.scored[0]) / DIFFERENCE
            for k, row in jacobian.items():
                if k in near.margins:
                    row[c] = sign * (near.margins[k] - at.margins[k]) / DIFFERENCE
        return gradient, jacobian, still

    def _searched(self, at: Measured, direction: np.ndarray, held: list[str],
                  jacobian: dict[str, np.ndarray]) -> Measured | None:
        """The longest step along `direction`, halved from one that moves a parameter by
        REACH_GROWTH times the last step's move (at most 1), whose candidate (moved back onto
        the held readings' level sets) beats `at`."""
        assert at.scored is not None
        # From a move of REACH_GROWTH times the last step's (1 at first), or the metric's own
        # step where it has learnt one and that is shorter.
        size = min(1.0, REACH_GROWTH * self.reach) / float(np.abs(direction).max())
        if self.learnt():
            size = min(size, 1.0)
        for _ in range(HALVINGS):
            if self.spent():
                return None
            x = at.x.copy()
            x[self.free] += size * direction
            found = self._restored(self.measure([float(v) for v in x]), at, held, jacobian)
            if found.scored is not None and found.scored[0] < at.scored[0] - SAME and \
                    self.keeps(found.scored):
                self.reach = size * float(np.abs(direction).max())
                return found
            size /= 2.0
        return None

    def _restored(self, found: Measured, at: Measured, held: list[str],
                  jacobian: dict[str, np.ndarray]) -> Measured:
        """`found` moved back onto the level sets of the held readings at `at`, by Newton
        steps on their linearisation at `at`, while it is illegal or no better."""
        assert at.scored is not None
        rows = np.array([jacobian[k] for k in held])
        for _ in range(RESTORES if held else 0):
            if self.spent() or not all(k in found.margins for k in held) or \
                    (found.scored is not None and found.scored[0] < at.scored[0] - SAME):
                break
            off = np.array([at.margins[k] - found.margins[k] for k in held])
            x = found.x.copy()
            x[self.free] += rows.T @ np.linalg.lstsq(rows @ rows.T, off, rcond=None)[0]
            found = self.measure([float(v) for v in x])
        return found


def measured(layout: Any, check: Callable[[Any, Any], Verdict], request: Any,
             x: list[float]) -> Measured:
    """The candidate `x` of a way laid out by `layout` (optimizer.search.layout), within its
    limits, judged by `check` for `request`, with its readings."""
    x = layout.clipped(x)
    try:
        move = layout.move_at(x)
    except InvalidInputError:  # a Pivot beyond its limit: no move
        return Measured(np.array(x), None, {})
    verdict = check(request.scenario, move)
    margins = {r.clause: float(r.measured) - float(r.limit) for r in verdict.readings}
    if not verdict.legal:
        return Measured(np.array(x), None, margins)
    rank = request.goal.ranked(verdict)
    return Measured(np.array(x), (-rank if request.goal.maximise else rank, move, verdict),
                    margins)


def _stalled(ranks: list[float]) -> bool:
    """Whether the last STALL_STEPS steps gained less than STALL_GAIN together: the descent
    creeps along a curved boundary by steps too small to matter (the scatter and the pattern
    search go on from there)."""
    return len(ranks) > STALL_STEPS and ranks[-1 - STALL_STEPS] - ranks[-1] < STALL_GAIN


def _tangent(metric: np.ndarray, gradient: np.ndarray, rows: np.ndarray) -> np.ndarray:
    """The steepest ascent in `metric` along the null space of `rows`: metric @ gradient
    less its part the rows see, measured in the metric (rows @ result = 0)."""
    lifted = metric @ gradient
    if rows.size == 0:
        return lifted
    bent = metric @ rows.T
    return lifted - bent @ np.linalg.lstsq(rows @ bent, rows @ lifted, rcond=None)[0]


def _projected(vector: np.ndarray, rows: np.ndarray) -> np.ndarray:
    """`vector` less its part in the span of `rows`: `_tangent` in the plain inner product,
    without its products by the identity (whose rounding would move the descent's path)."""
    if rows.size == 0:
        return vector
    return vector - rows.T @ np.linalg.lstsq(rows @ rows.T, rows @ vector, rcond=None)[0]
