"""The answer of an Advance or March polished off the lattice: a local search over its way's
continuous parameters (legs, wheel angles, the Pivot), every candidate judged by the exact
checker.

The searches before it find ways on the lattice (wheels on whole degrees, centres on the
lattice's step) and the answer is certified against a bound over every way the rules allow
(optimizer.search.certify).  Where that certificate leaves a gap it may be the answer's: a
way a fraction of a degree or of an inch off the lattice can do better by more than the
tolerance (a wheel of 3.46 deg where the lattice has 3 and 4, blocked by an obstacle).  The
polish takes the answer's steps, with a leg of no length before a first wheel and between
any two wheels, and a wheel and a leg of no length at the end (so that every run of the way
is free, and the way may turn once more), and moves them in three stages.  First the
descent (optimizer.search.descent): the gradient projected onto the clauses' readings at
their limits, for ways pressed against two clauses at once (gap-sidestep 0.87 -> 0.49).
Then a scatter: candidates that move one to four parameters together by random amounts (a
generator of a fixed seed), at a scale halved after a run of misses (bench_random 92 and
122: the Pivot and the wheel together; 21 and 39: a leg, a wheel and the wheel added at the
end).  Then a pattern search: each parameter alone, then each pair together, both ways, by a
step halved whenever no candidate improves, from STEP_START down to STEP_LEAST; the change
that improved last is tried first at each step.  In the last two an improving candidate
becomes the answer, and the same change, doubled, is tried again while it improves.  The
work is counted in checks (DESCENT_CHECKS, then MAX_CHECKS), not seconds, so the same
request polishes the same way on every machine; the wall clock only stops it early (the
answer then says so).

Where the certificate still leaves the polished answer unproved, a second polish follows,
the slide (optimizer.search.slide): the legal ways' boundary followed by repairs, in headings.

The polish never returns an illegal or worse answer: a candidate replaces the answer only
when the checker finds it legal, better as the search ranks answers by more than float
noise, and no worse in its exact value.  Answers within MAX_GAP_IN of their bound, or of the
relaxation's best point their certificate valued (`reached`: bench_random 60, 154, 173),
are polished and certified again (keeping the tighter bound: `_tighter`).  Answers further
off get the first polish alone, uncertified: the bound made before holds for every legal
way, and the search's last certificate of an unproved answer is made for the better one.
"""

from __future__ import annotations

import itertools
import math
from dataclasses import replace
from typing import Any

import numpy as np

from constraints.core.status import Status
from constraints.core.system import find_system
from constraints.core.verdict import Verdict
from constraints.errors import InvalidInputError
from optimizer.search.certified import Certificates, certified
from optimizer.search.clock import Clock
from optimizer.search.descent import Descent, Measured, measured
from optimizer.search.layout import Layout, opened
from optimizer.search.request import SearchRequest
from optimizer.search.result import SearchResult
from optimizer.search.slide import Slide
from optimizer.search.tidy import SAME as NOISE
from optimizer.search.tidy import tidy_move

STEP_START = 0.5    # inches of leg, degrees of wheel or Pivot: the first moves
STEP_LEAST = 2.0 ** -12  # the last step tried (bench_random 77 needs finer than 2^-8)
MAX_CHECKS = 800    # candidates judged per polish after the descent, at most (1 to 3 ms each)
DESCENT_CHECKS = 1000  # candidates judged by the descent (optimizer.search.descent), first
SLIDE_CHECKS = 400  # candidates judged by the slide (optimizer.search.slide), at most
TIGHT_CHECKS = 400  # ... and by the slide with the last leg taking the budget's rest (two
# checks a candidate), where the slide found nothing and the answer spends its budget:
BUDGET_SPENT = 1e-4  # within this of it (inches)
POLISH_SHARE = 0.9  # of the wall-clock limit, where the polish stops (the certificate's rest)
# Polished and certified again: answers within this of their bound (inches).
MAX_GAP_IN = 0.25
SAME = 1e-9         # a candidate must beat the answer by more than this (float noise)
# The scatter (before the pattern search): candidates that move a few parameters at once by
# random amounts, drawn from a generator of a fixed seed (the same candidates every run).
SCATTER_CHECKS = 500   # the scatter's share of MAX_CHECKS; the pattern search has the rest
SCATTER_SEED = 0
SCATTER_MOST = 4       # parameters moved together, at most
SCATTER_PATIENCE = 40  # misses in a row before the scale is halved


def polished(request: SearchRequest, result: SearchResult, clock: Clock,
             certificates: Certificates | None = None) -> SearchResult:
    """`result` with a better way near its own where the descent, the scatter and the
    pattern search find one, and then, where that is not proved, where the slide finds one
    from it; else `result` as it was (the module docstring says which answers are polished
    and certified again).  The slide comes second, and only for what the first polish leaves
    unproved, within MAX_GAP_IN of its bound: it costs up to SLIDE_CHECKS more checks and a
    certificate, which the answers proved without it cannot
    spare (bench_random 30, 60, 77, 108: proved in 6-9 s of 10).

    The ways' answer comes with a certificate of the early cap (optimizer.search.more_wheels):
    one that a better way beats cannot close, and the full cap spent on it went from the
    polish's (bench_random 112: 104,226 boxes, 5-7 s, for an answer the polish betters by
    0.012).  So the last answer, polished or not, gets the full cap here, from the boxes the
    capped one left (optimizer.search.certified)."""
    first = _polished(request, result, clock, False, certificates)
    slid = _polished(request, first, clock, True, certificates)
    if slid.value is None or slid.status == Status.OPTIMAL or request.relaxation is None \
            or clock.expired():
        return slid
    return _tighter(request, certified(request, slid, clock, certificates, final=True), slid)


def _polished(request: SearchRequest, result: SearchResult, clock: Clock, slide: bool,
              certificates: Certificates | None) -> SearchResult:
    move, gap = result.move, _gap(result)
    wide = gap is not None and gap > MAX_GAP_IN
    if move is None or result.verdict is None or result.status == Status.OPTIMAL or \
            gap is None or (wide and slide) or request.relaxation is None or \
            getattr(move, "centre", None) is not None or not hasattr(move, "steps") or \
            clock.expired(POLISH_SHARE):
        return result
    found = Polish(request, move, result.verdict, clock, slide).run()
    if found is None:
        return result
    better, verdict, checks = found
    value = request.goal.exact(verdict)
    done: dict[str, Any] = {"from": result.value, "checks": checks}
    if slide:  # what the first polish did, and then the slide
        done = {**result.stats.get("polished", {"from": result.value, "checks": 0}),
                "slid": {"from": result.value, "checks": checks}}
    stats = {**result.stats, "polished": done}
    moved = replace(result, move=better, verdict=verdict, value=value, stats=stats)
    if wide:  # the bound made for the answer before (the last certificate comes after)
        covers = result.proof.bound_covers
        return moved if result.bound is None or covers is None else \
            _with_bound(request, moved, result.bound, covers)
    return _tighter(request, certified(request, moved, clock, certificates, final=True),
                    result)


def _tighter(request: SearchRequest, polished: SearchResult,
             was: SearchResult) -> SearchResult:
    """The polished answer with the tighter of its own bound and the one made for the answer
    before it.  Both hold for every legal way, whatever answer they were made for: a box's
    value bounds every way in it (the end cut raises it to its target only where no legal end
    in it beats that), and the bound is the least over the boxes (or the answer's own value,
    a legal way's).  So the new answer may use the better; a certificate cut short by the
    wall clock is looser than a finished one.  (face_point: a bound charging the penalty of
    facing away was made for an answer facing the point, and a better one faces it too.)"""
    old, new, covers = was.bound, polished.bound, was.proof.bound_covers
    if old is None or covers is None or polished.value is None or \
            (new is not None and not request.goal.better(new, old)):
        return polished
    return _with_bound(request, polished, old, covers)


def _with_bound(request: SearchRequest, result: SearchResult, bound: float,
                covers: str) -> SearchResult:
    """`result` with a bound over every legal way, and whether its value is within the
    tolerance of it."""
    assert result.value is not None
    tolerance = request.tolerance
    return replace(result, proof=result.proof.bounded(
        bound, covers, abs(result.value - bound) <= tolerance + 1e-12, tolerance))


def _gap(result: SearchResult) -> float | None:
    """How far the answer is from its bound over every way, or from the relaxation's best
    point its certificate valued where that is nearer (None: no bound)."""
    if result.value is None or result.bound is None:
        return None
    reached = result.stats.get("certificate_reached")
    near = abs(result.value - reached) if reached is not None else math.inf
    return min(abs(result.value - result.bound), near)


class Polish:
    """One pattern search from an answer's way (the module docstring)."""

    def __init__(self, request: SearchRequest, move: Any, verdict: Verdict,
                 clock: Clock, slide: bool = False) -> None:
        self.request, self.clock = request, clock
        self.check = find_system(request.scenario.rules).check
        self.checks = 0
        self.limit = MAX_CHECKS  # the checks the current stage may reach
        self.last: tuple[tuple[int, float], ...] = ()  # the change that improved last
        self.answer_rank = request.goal.ranked(verdict)
        self.answer_value = request.goal.exact(verdict)
        self.verdict = verdict
        self.slides = slide  # the slide alone, else the scatter and the pattern search
        steps = opened(move.steps, request.max_wheels, lead=slide)
        pivots = hasattr(move, "pivot_deg") and getattr(move.manoeuvre, "pivots", False)
        self.layout = Layout(move, tuple(s.kind for s in steps), bool(pivots))
        self.x = self.layout.start(steps)
        self.free = [i for i in range(len(self.x)) if self.layout.free(i)]  # what moves

    def score(self, x: list[float]) -> tuple[float, Any, Verdict] | None:
        """The candidate's rank, lower is better (None: illegal, or worse than the answer in
        its exact value)."""
        judged = self.judge(x)
        return judged if judged is not None and self.keeps(judged) else None

    def judge(self, x: list[float]) -> tuple[float, Any, Verdict] | None:
        """The candidate's rank, lower is better, whatever its value (None: illegal)."""
        return self._measure(x).scored

    def keeps(self, judged: tuple[float, Any, Verdict]) -> bool:
        """Whether a legal candidate is no worse than the answer in its exact value."""
        goal = self.request.goal
        return not goal.better(self.answer_value, goal.exact(judged[2]))

    def run(self) -> tuple[Any, Verdict, int] | None:
        """The best way found (tidied: no legs of no length) and its verdict, with the checks
        made; None when none beats the answer (or the opened way is not judged the same as
        the answer)."""
        start = self.score(self.x)
        best_rank = -self.answer_rank if self.request.goal.maximise else self.answer_rank
        if start is None or abs(start[0] - best_rank) > SAME:
            return None
        found: tuple[float, Any, Verdict] | None = None
        stages = ((self._slide, SLIDE_CHECKS), (self._tight_slide, SLIDE_CHECKS + TIGHT_CHECKS)) \
            if self.slides else ((self._descent, DESCENT_CHECKS),
                                 (self._scatter, DESCENT_CHECKS + SCATTER_CHECKS),
                                 (self._pattern, DESCENT_CHECKS + MAX_CHECKS))
        for stage, limit in stages:
            if stage == self._tight_slide and found is not None:
                break  # (the slide improved it: the answer is not held where the tight one is)
            self.limit = limit
            moved = stage(best_rank)
            if moved is not None:
                found, best_rank = moved, moved[0]
        if found is None:
            return None
        return self._tidied(found)

    def _pattern(self, rank: float) -> tuple[float, Any, Verdict] | None:
        """The pattern search from self.x (moved to its best): each parameter alone, then each
        pair, by a step halved whenever neither improves."""
        best: tuple[float, Any, Verdict] | None = None
        step = STEP_START
        while step >= STEP_LEAST and not self._spent():
            moved = self._round(step, rank)
            if moved is None:
                step /= 2.0
                continue
            best, x = self._onwards(moved, self.x)
            self.x, rank = x, best[0]
        return best

    def _descent(self, rank: float) -> tuple[float, Any, Verdict] | None:
        """The descent from self.x (moved to its best): optimizer.search.descent."""
        legs = {i for i in self.free if self.layout.leg(i)}
        descent = Descent(self._measure, self.keeps, self.free, legs, self._spent,
                          set(self.layout.turns()))
        found = descent.run(self.x, rank)
        if found is None:
            return None
        best, self.x = found
        return best

    def _measure(self, x: list[float]) -> Measured:
        """The candidate `x` (within its limits) judged, with its readings."""
        self.checks += 1
        return measured(self.layout, self.check, self.request, x)

    def _slide(self, rank: float) -> tuple[float, Any, Verdict] | None:
        """The slide from self.x (moved to its best): optimizer.search.slide."""
        slide = Slide(self.judge, self.keeps, self.free, self.layout.turns(), self._spent)
        found = slide.run(self.x, rank, STEP_START, STEP_LEAST)
        if found is None:
            return None
        best, self.x = found
        return best

    def _tight_slide(self, rank: float) -> tuple[float, Any, Verdict] | None:
        """The slide again with the last leg taking the rest of the budget (`_tight`): an
        answer pressed against the budget and a wall at once improves only where a move, its
        repair and the last leg change together (bench_solve's edge-march: the first leg
        shortened, the wheel closed by five times as many degrees, the last leg longer), and a
        repair that leaves the budget spent keeps it so."""
        last = max((i for i in self.free if self.layout.leg(i)), default=None)
        budget = self.request.limits.budget_in
        spent = self.verdict.measurements.get("distance")
        if last is None or budget is None or spent is None or spent < budget - BUDGET_SPENT:
            return None  # (an answer with budget to spare is not held by it)

        def judge(x: list[float]) -> tuple[float, Any, Verdict] | None:
            tight = self._tight(x, last, budget)
            return None if tight is None else self.judge(tight)

        free = [i for i in self.free if i != last]
        slide = Slide(judge, self.keeps, free, self.layout.turns(), self._spent)
        found = slide.run(self.x, rank, STEP_START, STEP_LEAST)
        return None if found is None else found[0]  # (the last stage: self.x is done with)

    def _tight(self, x: list[float], last: int, budget: float) -> list[float] | None:
        """`x` with its leg `last` lengthened or shortened by what the way leaves of the
        budget, as the checker measures it (a leg counts its length; None: not measured,
        or less than nothing left for it)."""
        self.checks += 1
        try:
            move = self.layout.move_at(x)
        except InvalidInputError:
            return None
        spent = self.check(self.request.scenario, move).measurements.get("distance")
        if spent is None or x[last] + budget - spent < 0.0:
            return None
        out = list(x)
        out[last] += budget - spent
        return out

    def _spent(self) -> bool:
        return self.checks >= self.limit or self.clock.expired(POLISH_SHARE)

    def _scatter(self, rank: float) -> tuple[float, Any, Verdict] | None:
        """A search by random moves from self.x (moved to its best): each candidate moves one
        to SCATTER_MOST parameters together, each by a normal draw times the scale; the scale
        is halved after SCATTER_PATIENCE misses in a row and starts again at STEP_START once
        below STEP_LEAST.  Where the legal ways that improve lie in a narrow wedge (the way
        pressed against its budget and an obstacle at once), no move of the pattern search's
        (one or two parameters, by equal steps) may enter it; a random direction does, at
        some draw.  The generator's seed is fixed: the same candidates on every run."""
        rng = np.random.default_rng(SCATTER_SEED)
        free = self.free
        most = min(SCATTER_MOST, len(free))
        best: tuple[float, Any, Verdict] | None = None
        scale, misses = STEP_START, 0
        while free and not self._spent():
            x = list(self.x)
            for i in rng.choice(free, size=int(rng.integers(1, most + 1)), replace=False):
                x[int(i)] += float(rng.normal()) * scale
            x = self.layout.clipped(x)
            if x == self.x:  # every draw pushed past a limit: no candidate, counted as one
                self.checks += 1
                continue
            scored = self.score(x)
            if scored is not None and scored[0] < rank - SAME:
                best, self.x = self._onwards((scored, x), self.x)
                rank, misses = best[0], 0
                continue
            misses += 1
            if misses >= SCATTER_PATIENCE:
                scale, misses = scale / 2.0, 0
                if scale < STEP_LEAST:
                    scale = STEP_START
        return best

    def _onwards(self, moved: tuple[tuple[float, Any, Verdict], list[float]],
                 was: list[float]) -> tuple[tuple[float, Any, Verdict], list[float]]:
        """Further the same way while it keeps improving (a pattern move: twice the change,
        then twice again), so that a long slide costs a few checks, not a round each."""
        best, x = moved
        change = [b - a for a, b in zip(was, x, strict=True)]
        while self.checks < self.limit:
            change = [2.0 * c for c in change]
            further = [a + c for a, c in zip(x, change, strict=True)]
            scored = self.score(further)
            if scored is None or scored[0] >= best[0] - SAME:
                break
            best, x = scored, further
        return best, x

    def _tidied(self, best: tuple[float, Any, Verdict]) -> tuple[Any, Verdict, int]:
        """The found way without its legs and wheels of no length (optimizer.search.tidy,
        values unrounded), where the checker judges it no worse: the answer the certificate
        is given is the one returned."""
        move = tidy_move(best[1], rounding=False)
        if move != best[1]:
            verdict = self.check(self.request.scenario, move)
            self.checks += 1
            goal = self.request.goal
            if verdict.legal and _no_worse(goal, goal.ranked(verdict), goal.ranked(best[2])) \
                    and _no_worse(goal, goal.exact(verdict), goal.exact(best[2])):
                return move, verdict, self.checks
        return best[1], best[2], self.checks

    def _round(self, step: float,
               rank: float) -> tuple[tuple[float, Any, Verdict], list[float]] | None:
        """The best candidate at this step that beats `rank` by more than SAME: the change
        that improved last, at this step, first (a way pressed against its budget slides
        along it level after level); then each free parameter alone, then each pair together
        (only when none alone improves)."""
        free = self.free
        last = [tuple((i, math.copysign(step, d)) for i, d in self.last)] if self.last else []
        singles = [((i, d),) for i in free for d in (step, -step)]
        pairs = [((i, a), (j, b)) for i, j in itertools.combinations(free, 2)
                 for a in (step, -step) for b in (step, -step)]
        for moves in (last, singles, pairs):
            best = None
            for change in moves:
                if self._spent():
                    break  # (the clock remembers that it cut the polish short)
                x = list(self.x)
                for i, d in change:
                    x[i] += d
                scored = self.score(x)
                if scored is not None and scored[0] < rank - SAME and \
                        (best is None or scored[0] < best[0][0]):
                    best = (scored, x, change)
            if best is not None:
                self.last = best[2]
                return best[0], best[1]
        return None


def _no_worse(goal: Any, value: float, than: float) -> bool:
    """`value` is no worse than `than`, beyond float noise (joining two legs moves the end
    by 1e-15")."""
    return not goal.better(than, value) or abs(value - than) <= NOISE
