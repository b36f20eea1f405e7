"""The slide: the polish's last stage (optimizer.search.polish), a pattern search in headings
that follows the boundary of the legal ways.

An answer the pattern search leaves may be pressed against a clause (Unit Spacing to a
wall) along which the objective still improves, in a direction that no move of one or two
parameters by equal steps enters: the legal ways that improve lie in a wedge of a few
degrees (bench_random 80: the first wheel opened by 1.6 deg while the leg shortens by 0.12"
and the last wheel closes by 0.6 deg; of 200 random directions at four scales, at most one
improved).  So the slide moves one parameter by a step and, where that way is illegal,
moves another back to the boundary of the legal ways by bisection (a repair).  The change
that improved last is tried first, then doubled while it improves; the step is halved when
nothing improves.

Its parameters are headings (the facing after the Pivot and after each wheel) and legs: a
heading moved alone keeps every later heading, so a way held at its end facing (face_point's
edge where the unit would face away from the point: bench_random 54) slides along it with
one repair, where in wheel angles it would need two.  The work is counted by the caller's
checks (`spent`), and the same candidates come in the same order on every run.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from typing import Any

from constraints.core.verdict import Verdict

Scored = tuple[float, Any, Verdict]  # a candidate's rank (lower is better), move, verdict
# The rank of a way of these parameters (wheel angles), None where it is illegal.
Judge = Callable[[list[float]], Scored | None]

REPAIR_HALVINGS = 10  # bisections of a repair: the boundary to 2^-9 of the step
REPAIR_REACH = 2.0    # a repair moves its parameter by up to this times the step
SAME = 1e-9           # an improvement must beat the rank by more than this (float noise)
# A change: the parameter moved and the sign of its move, and the parameter that repairs it
# with the sign of the repair's move (None: a move alone).
Change = tuple[int, float, int | None, float]


class Slide:
    """One slide from a way (module docstring).  `judge` ranks a legal way; `keeps` says
    whether a legal way may replace the answer (no worse in its exact value: the rank alone
    may differ from it); `free` are the parameters that move, `turns` those that turn the
    unit (the Pivot and the wheels, in order), which it moves as headings.  A repair looks
    for the boundary of the legal ways, kept or not (a way that repairs a move may be worse
    than the answer; the bisection then finds one nearer the move that is better)."""

    def __init__(self, judge: Judge, keeps: Callable[[Scored], bool], free: list[int],
                 turns: list[int], spent: Callable[[], bool]) -> None:
        self.judge, self.keeps, self.free, self.turns = judge, keeps, free, turns
        self.spent = spent

    def headings(self, x: list[float]) -> list[float]:
        """Wheel angles -> headings: each turn's parameter summed with those before it."""
        h, total = list(x), 0.0
        for i in self.turns:
            total += x[i]
            h[i] = total
        return h

    def angles(self, h: list[float]) -> list[float]:
        """Headings -> wheel angles (`headings` undone)."""
        x, before = list(h), 0.0
        for i in self.turns:
            x[i], before = h[i] - before, h[i]
        return x

    def run(self, x: list[float], rank: float,
            start: float, least: float) -> tuple[Scored, list[float]] | None:
        """The best way found from `x` (wheel angles) that beats `rank`, and its parameters;
        steps from `start` halved down to `least`."""
        h, best, step = self.headings(x), None, start
        last: Change | None = None
        while step >= least and not self.spent():
            moved = self._tried(h, rank, last, step) if last is not None else None
            if moved is None:
                last, moved = self._round(h, rank, step)
            if moved is None or last is None:
                step, last = step / 2.0, None
                continue
            best, h = self._onwards(moved, last, step)
            rank = best[0]
        return None if best is None else (best, self.angles(h))

    def _round(self, h: list[float], rank: float,
               step: float) -> tuple[Change | None, tuple[Scored, list[float]] | None]:
        """The first change at this step that beats `rank`: each parameter alone, then, for
        each that is illegal alone, each other parameter repairing it, either way."""
        illegal: list[tuple[int, float, list[float]]] = []
        for i in self.free:
            for sign in (1.0, -1.0):
                if self.spent():
                    return None, None
                moved = _moved(h, i, sign * step)
                scored = self.judge(self.angles(moved))
                if scored is None:
                    illegal.append((i, sign, moved))
                elif self._beats(scored, rank):
                    return (i, sign, None, 0.0), (scored, moved)
        for (i, sign, moved), j, towards in itertools.product(illegal, self.free, (1.0, -1.0)):
            if self.spent():
                return None, None
            found = None if j == i else self._repaired(moved, j, towards * step * REPAIR_REACH)
            if found is not None and self._beats(found[0], rank):
                return (i, sign, j, towards), found
        return None, None

    def _tried(self, h: list[float], rank: float, change: Change,
               step: float) -> tuple[Scored, list[float]] | None:
        """The change at this step from `h` (repaired where it is one), if it beats `rank`."""
        i, sign, j, towards = change
        moved = _moved(h, i, sign * step)
        scored = self.judge(self.angles(moved))
        if scored is not None:
            found: tuple[Scored, list[float]] | None = (scored, moved)
        elif j is not None:
            found = self._repaired(moved, j, towards * step * REPAIR_REACH)
        else:
            found = None
        return found if found is not None and self._beats(found[0], rank) else None

    def _beats(self, scored: Scored, rank: float) -> bool:
        return scored[0] < rank - SAME and self.keeps(scored)

    def _repaired(self, moved: list[float], j: int,
                  reach: float) -> tuple[Scored, list[float]] | None:
        """`moved` (illegal) with parameter j moved by at most `reach` back into the legal
        ways: the best legal way a bisection towards the boundary judges (None: not legal
        even `reach` away)."""
        far = _moved(moved, j, reach)
        scored = self.judge(self.angles(far))
        if scored is None:
            return None
        best, low, high = (scored, far), 0.0, 1.0
        for _ in range(REPAIR_HALVINGS):
            if self.spent():
                break
            middle = (low + high) / 2.0
            at = _moved(moved, j, reach * middle)
            scored = self.judge(self.angles(at))
            if scored is None:
                low = middle
                continue
            high = middle
            if scored[0] < best[0][0]:
                best = (scored, at)
        return best

    def _onwards(self, moved: tuple[Scored, list[float]], change: Change,
                 step: float) -> tuple[Scored, list[float]]:
        """Further the same change, twice as far each time, while it keeps improving (a long
        slide along a wall costs a few checks, not a round each)."""
        best, h = moved
        while not self.spent():
            step *= 2.0
            further = self._tried(h, best[0], change, step)
            if further is None:
                break
            best, h = further
        return best, h


def _moved(h: list[float], i: int, by: float) -> list[float]:
    out = list(h)
    out[i] += by
    return out
