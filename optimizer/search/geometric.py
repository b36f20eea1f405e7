"""A legal answer by exact geometry before any model (docs/techniques.md §8): per option, the
sound region of its end centres (optimizer.search.regions, `outer=False`: every point passes
the end-position rules), the region's best point for the goal, and the checker's verdict on
that move (it alone judges the front's sweep and the Pivot).

Best first and lazily, in stages per option, each key bounding the next: its reach's bound
(every clause but the budget ignored); its relaxed region's (`outer=True`: every legal end
centre stays in it); the same less what its way's sweep surely refuses (`sweep_cut`: only
illegal centres); the best point of its sound region less that cut; and, that refused, the
best point of its whole sound region.  An option moves on a stage only when its key is the
best left, and a point is judged only when its value is: the first legal one is the best of
those best points but the ones refused before it.  It is never worse than the per-heading
peer's answer (a legal best point of a sound region is in it less the cut, and is judged
itself if the cut region's best is refused), without cutting the regions that cannot beat
it.  An option whose points the checker refuses is passed by; its relaxed bound, kept, lets
the pruning after this (optimizer.search.prefilter) hand it to the model if it could still
beat the answer.
The work is counted (regions and checks), not timed: the answer does not depend on the
machine.
"""

from __future__ import annotations

import heapq
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import shapely

from constraints.core.system import find_system
from constraints.core.verdict import Verdict
from constraints.sat.option import Option
from optimizer.search.clock import PREFILTER_SHARE, Clock
from optimizer.search.option_groups import GroupRegions, facing_runs, halves
from optimizer.search.request import SearchRequest

MAX_REGIONS = 400  # regions cut (relaxed and sound), at most
MAX_CHECKS = 24    # moves judged by the checker, at most
# The stage an option's key comes from: its reach, its relaxed region, that region less what
# its way's sweep surely refuses, a best point of its sound region less that, and of it all.
REACH, RELAXED, CUT, SWEPT, SOUND = range(5)
# Before them, where the family groups its options (optimizer.search.option_groups): a run of
# options whose key is its parent's, and one whose key is its own region's bound.
OPEN, BOUNDED = -2, -1
KEY_NOISE = 1e-9  # inches: keys this close are a tie (regions' overlays move vertices)


@dataclass(frozen=True)
class Checked:
    """A legal answer: its option, end centre (start frame), value in the goal's own terms
    (Goal.values), and the move with the checker's verdict."""

    option: int
    centre: tuple[float, float]
    value: float
    move: Any
    verdict: Verdict


@dataclass
class Learned:
    """What the search found: the answer (None: none), and per option the best bound known
    (its reach's, or its relaxed region's where cut: +-inf when empty) with the relaxed
    regions cut, and the options whose regions have lost what their ways' sweep surely
    refuses (`swept`)."""

    answer: Checked | None
    bounds: np.ndarray
    relaxed: dict[int, shapely.Geometry] = field(default_factory=dict)
    swept: set[int] = field(default_factory=set)


def geometric_answer(request: SearchRequest, options: list[Option], bounds: np.ndarray,
                     clock: Clock | None = None, share: float = PREFILTER_SHARE) -> Learned:
    """The legal move at the best of the options' sound regions' best points, best first by
    the stages' keys (the module docstring); no answer when the family or goal does not say
    how, or no point judged is legal.  It stops, with what it found, once `share` of the
    clock's limit has passed (the prefilter's share before the model; the whole limit for
    the stages after it)."""
    goal, family = request.goal, request.family
    learned = Learned(None, np.array(bounds, dtype=float))
    if not family.answers_by_geometry:
        return learned
    sign = -1.0 if goal.maximise else 1.0
    # A point's key, less a lattice step where the family says so (`judges_within_step`).
    credit = request.lattice.inch if family.judges_within_step else 0.0
    # There too, a key within float noise of the one popped keeps it (a lower key is still a
    # bound), so that the tie goes deepest first as meant.
    noise = KEY_NOISE if family.judges_within_step else 0.0
    # Keys (value, -stage, option, point): on a tie the option furthest on goes first, so
    # that options sharing one bound (a Reform's facings, when nothing cuts their regions
    # near their best point) do not all have their regions cut before one point is judged.
    runs = facing_runs(options) if family.groups_facings and goal.centre_only else []
    queue: list[tuple[float, int, int, tuple[float, float] | None]] = [
        (sign * float(b), -REACH, k, None) for k, b in enumerate(bounds)
        if np.isfinite(b) and not runs]
    # A run's place is kept negated: on a tie the newest (the smallest, deepest) goes first.
    queue += [(min(sign * float(bounds[k]) for k in run), -OPEN, -n, None)
              for n, run in enumerate(runs)]
    heapq.heapify(queue)
    grouped = GroupRegions(request.scenario, request.unit, request.manoeuvre, goal) \
        if runs else None
    relaxed, sound = request.relaxed_regions, request.sound_regions
    spare: dict[int, tuple[float, tuple[float, float]]] = {}  # each option's second point
    system = find_system(request.scenario.rules)
    regions = checks = 0
    while queue and checks < MAX_CHECKS and regions < MAX_REGIONS:
        if clock is not None and clock.expired(share):
            break
        key, stage, k, point = heapq.heappop(queue)
        stage = -stage
        if stage in (OPEN, BOUNDED):  # a run of options
            assert grouped is not None
            regions += stage == OPEN
            _run(queue, learned, grouped, options, runs, key, stage, -k, sign, noise)
            continue
        option = options[k]
        if stage in (REACH, RELAXED):  # its relaxed region; then less the sweep's cut
            if stage == REACH:
                region = relaxed.of(option)
                # Not counted where a clause refused the option outright (no overlay made).
                regions += option not in relaxed.refused
            else:
                learned.swept.add(k)
                region = relaxed.less_swept(option, learned.relaxed.pop(k))
            if region.is_empty:  # no legal end centre: the worst bound
                learned.bounds[k] = sign * np.inf
                continue
            learned.relaxed[k] = region
            learned.bounds[k] = goal.bounds([option], [region])[0]
            heapq.heappush(queue, (_snap(sign * learned.bounds[k], key, noise), -(stage + 1), k,
                                   None))
        elif stage == CUT:  # its sound region's best point, less the sweep's cut, then not
            regions += 1
            points = _best_points(goal, option, sound.of(option), relaxed.sweep_cut(option))
            if points:
                value, best = points[0]
                heapq.heappush(queue, (sign * value - credit, -SWEPT, k, best))
            if len(points) > 1:
                spare[k] = points[1]
        else:
            assert point is not None
            move = family.move(request.unit_id, request.frame, option, point)
            verdict = system.check(request.scenario, move)
            checks += 1
            if verdict.legal:
                value = float(goal.values(option, np.array([point]))[0])
                learned.answer = Checked(k, point, value, move, verdict)
                break
            if k in spare:  # its whole sound region's best point, next
                value, best = spare.pop(k)
                heapq.heappush(queue, (sign * value - credit, -SOUND, k, best))
    _left_in_runs(queue, learned, runs, sign)
    return learned


def _run(queue: list, learned: Learned, grouped: GroupRegions, options: list[Option],
         runs: list[tuple[int, ...]], key: float, stage: int, n: int, sign: float,
         noise: float) -> None:
    """A run of options popped: OPEN, its region's bound (every member's legal end centres
    lie in it); BOUNDED, its halves (or, for a short run, its options), each keyed by no less
    than the run's key."""
    run = runs[n]
    if stage == OPEN:
        region = grouped.of(options, run)
        if region.is_empty:  # no member has a legal end centre
            learned.bounds[list(run)] = sign * np.inf
            return
        bound = sign * float(grouped.bound(options, run, region))
        heapq.heappush(queue, (_snap(max(key, bound), key, noise), -BOUNDED, -n, None))
        return
    if len(run) > 2:
        for half in halves(run):
            runs.append(half)
            heapq.heappush(queue, (key, -OPEN, 1 - len(runs), None))
        return
    for k in run:
        own = sign * float(learned.bounds[k])
        if np.isfinite(own):
            heapq.heappush(queue, (_snap(max(key, own), key, noise), -REACH, k, None))


def _snap(new: float, old: float, noise: float) -> float:
    """`new`, or `old` where `new` is worse by float noise only (a lower key for the same
    option or run is still a bound)."""
    return old if old <= new <= old + noise else new


def _left_in_runs(queue: list, learned: Learned, runs: list[tuple[int, ...]],
                  sign: float) -> None:
    """The bounds of the options the search did not reach, tightened by their runs' keys and
    their own (each a bound over every legal end centre of theirs)."""
    for key, stage, k, _ in queue:
        for member in runs[-k] if -stage in (OPEN, BOUNDED) else (k,) if -stage == REACH else ():
            learned.bounds[member] = sign * max(key, sign * float(learned.bounds[member]))


def _best_points(goal: Any, option: Option, region: shapely.Geometry,
                 cut: shapely.Geometry) -> list[tuple[float, tuple[float, float]]]:
    """The best point of the sound `region` less `cut`, then (when it differs and lies
    outside the cut, which only illegal centres are in) the region's own; with values."""
    if region.is_empty:
        return []
    parts = [region] if cut.is_empty else [region.difference(cut), region]
    out: list[tuple[float, tuple[float, float]]] = []
    for n, part in enumerate(parts):
        best = None if part.is_empty else goal.best_point(option, part)
        if best is None:
            continue
        point = (float(best[0]), float(best[1]))
        if n and (cut.intersects(shapely.Point(point)) or
                  (out and np.allclose(point, out[0][1], rtol=0.0, atol=1e-9))):
            continue
        out.append((float(goal.values(option, best[None])[0]), point))
    return out
