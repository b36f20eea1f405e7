"""Before the search: a legal starting answer, and the options that might still beat it.

For a family that answers by exact geometry (a March or Advance) the starting answer is the
best legal best-point of the options' sound regions (optimizer.search.geometric), and only
the options whose relaxed regions might beat it by more than a lattice step are kept.
Otherwise (or where geometry finds no legal point), as follows.  Bounds from each option's
reach first; then, for the options these keep, bounds from their
relaxed regions of end centres (optimizer.regions: every legal end centre lies in one),
clipped to where the incumbent could be beaten, after a one-point screen for distance
objectives; a better incumbent is looked for inside the relaxed regions.  What the search
then proves optimal over the kept options is optimal over all (the dropped ones cannot beat
a legal answer the model also has).  `focus_discs` says, per kept option, which centres the
search still needs (constraints.sat.context.EncodeContext.focus).
"""

from __future__ import annotations

import numpy as np
import shapely

from constraints.sat.option import Option
from optimizer.batch import BatchJudge
from optimizer.search.clock import PREFILTER_SHARE, Clock
from optimizer.search.geometric import Learned, geometric_answer
from optimizer.search.incumbent import Incumbent, find_incumbent
from optimizer.search.objectives import Goal
from optimizer.search.regions import CentreRegions
from optimizer.search.request import SearchRequest

EMPTY = shapely.Polygon()
# The starting answer is judged this much inside every limit, more than the encoding gives up
# (inscribed polygons, half-tick rounding, band slack), so it is a solution of the model.
INCUMBENT_MARGIN_IN = 0.03


def prefilter(request: SearchRequest, options: list[Option], regions: list,
              clock: Clock) -> tuple[Incumbent | None, list, dict]:
    """A legal starting answer, the options that might beat it, and the kept options'
    relaxed regions (the steps: this module's docstring; docs/techniques.md §8: per-heading
    geometry as a pre-filter), within PREFILTER_SHARE of the clock's limit.  Where exact
    geometry finds a legal answer (optimizer.search.geometric), it is the start instead
    (`Incumbent.checked`), and only the options that might beat it by more than a lattice
    step are kept: none may be left."""
    goal, tick = request.goal, request.lattice.inch
    bounds = goal.bounds(options, regions)
    learned = geometric_answer(request, options, bounds, clock)
    if learned.answer is not None:
        return _beside_answer(request, options, learned, clock)
    judge = BatchJudge(request.scenario, request.unit_id, request.manoeuvre,
                       margin_in=INCUMBENT_MARGIN_IN)
    incumbent = _better(goal, find_incumbent(request, judge, options, regions, bounds, clock),
                        stand_still(request, judge, options))
    if incumbent is not None and _unbeatable(goal, options, incumbent, tick):
        return incumbent, [incumbent.option], {}
    keep = kept_options(goal, bounds, incumbent, tick)
    keep = screened(request, judge, options, keep, regions, incumbent)
    if len(keep) <= 1:
        return incumbent, keep, {}
    fine, relaxed = refined_bounds(
        request.relaxed_regions, goal, options, keep, incumbent, tick, clock)
    looked = [relaxed.get(k, EMPTY) for k in range(len(options))]
    again = find_incumbent(request, judge, options, looked, fine, clock)
    incumbent = _better(goal, incumbent, again)
    if incumbent is not None and _unbeatable(goal, options, incumbent, tick):
        return incumbent, [incumbent.option], relaxed
    finer = set(kept_options(goal, fine, incumbent, tick))
    keep = [k for k in keep if k in finer]
    if _swept(request, options, keep, relaxed, fine, clock):
        finer = set(kept_options(goal, fine, incumbent, tick))
        keep = [k for k in keep if k in finer]
    return incumbent, keep, relaxed


def _beside_answer(request: SearchRequest, options: list[Option], learned: Learned,
                   clock: Clock) -> tuple[Incumbent, list, dict]:
    """A legal answer by exact geometry, and the options whose relaxed regions (every legal
    end centre of theirs lies in one) might beat it by more than a lattice step."""
    goal, tick = request.goal, request.lattice.inch
    answer = learned.answer
    assert answer is not None
    incumbent = Incumbent(answer.option, answer.centre, answer.value, checked=answer)
    if _unbeatable(goal, options, incumbent, tick):
        return incumbent, [], learned.relaxed
    todo = [k for k in _beating(goal, learned.bounds, answer.value, tick)
            if k not in learned.relaxed]
    if todo:
        fine, more = refined_bounds(
            request.relaxed_regions, goal, options, todo, incumbent, tick, clock)
        learned.bounds[todo] = fine[todo]
        learned.relaxed.update(more)
    keep = _beating(goal, learned.bounds, answer.value, tick)
    if _swept(request, options, [k for k in keep if k not in learned.swept], learned.relaxed,
              learned.bounds, clock):
        keep = _beating(goal, learned.bounds, answer.value, tick)
    return incumbent, keep, learned.relaxed


def _swept(request: SearchRequest, options: list[Option], keep: list,
           relaxed: dict[int, shapely.Geometry], bounds: np.ndarray, clock: Clock) -> bool:
    """The kept options' relaxed regions cut again by what their ways' sweep surely refuses
    (`CentreRegions.sweep_cut`: dearer, so only for the few options kept), their bounds
    updated in place; whether any changed.  Once the prefilter's share of the clock has
    passed, the options left keep their regions uncut (still relaxations, looser)."""
    goal, changed = request.goal, False
    sweeping = request.relaxed_regions
    for k in keep:
        if k not in relaxed:
            continue
        if clock.expired(PREFILTER_SHARE):
            break
        region = sweeping.less_swept(options[k], relaxed[k])
        if region.equals(relaxed[k]):
            continue
        changed = True
        if region.is_empty:
            del relaxed[k]
            bounds[k] = -np.inf if goal.maximise else np.inf
        else:
            relaxed[k] = region
            bounds[k] = goal.bounds([options[k]], [region])[0]
    return changed


def _beating(goal: Goal, bounds: np.ndarray, value: float, tick: float) -> list:
    """Indexes of the options whose bound beats `value` by more than `tick` (or unknown)."""
    with np.errstate(invalid="ignore"):
        beats = bounds > value + tick if goal.maximise else bounds < value - tick
    return [int(k) for k in np.flatnonzero(np.isnan(bounds) | beats)]


def _better(goal: Goal, a: Incumbent | None, b: Incumbent | None) -> Incumbent | None:
    """The better of two starting answers (the first on a tie)."""
    if a is None or (b is not None and goal.better(b.value, a.value)):
        return b
    return a


def stand_still(request: SearchRequest, judge: BatchJudge,
                options: list[Option]) -> Incumbent | None:
    """Doing nothing (the family's stand-still option at the start centre) as a starting
    answer, when the batch mask passes it with the judge's margin."""
    k = request.family.stand_still(options, request.unit)
    if k is None:
        return None
    centre = np.zeros((1, 2))
    world = request.frame.world_array(centre)
    if not request.family.mask(judge, world, [options[k]], np.zeros(1, dtype=int))[0]:
        return None
    return Incumbent(k, (0.0, 0.0), float(request.goal.values(options[k], centre)[0]))


def _unbeatable(goal: Goal, options: list[Option], incumbent: Incumbent, tick: float) -> bool:
    """Whether the incumbent is at the lattice floor: no lattice centre of any option does
    better, so the search needs only its option."""
    return goal.at_lattice_floor(options[incumbent.option], incumbent.centre, tick)


def kept_options(goal: Goal, bounds: np.ndarray, incumbent: Incumbent | None,
                 tick: float) -> list:
    """Indexes of the options that might beat the incumbent (all, without one)."""
    if incumbent is None:
        return list(range(len(bounds)))
    slack = _slack(incumbent.value, tick)
    with np.errstate(invalid="ignore"):
        beats = bounds >= incumbent.value - slack if goal.maximise else \
            bounds <= incumbent.value + slack
    keep = np.isnan(bounds) | beats
    keep[incumbent.option] = True
    return list(np.nonzero(keep)[0])


def worst_kept(goal: Goal, value: float, tick: float) -> float:
    """The worst value an option may still reach and be kept (an answer's `value`, less
    slack)."""
    slack = _slack(value, tick)
    return value - slack if goal.maximise else value + slack


def past_step(goal: Goal, value: float, tick: float) -> float:
    """What a value must beat to beat `value` by more than a lattice step (and the search's
    rounding, `_slack`)."""
    slack = _slack(value, tick)
    return value + slack if goal.maximise else value - slack


def _slack(value: float, tick: float) -> float:
    """How much better than the incumbent an option's bound must be to drop it.  The search's
    norm has integer directions (7e-4 relative, optimizer.search.objectives): twice that, so
    no option that could win in the search's terms is dropped; and a straight option's band
    lets the search's centre stray up to ~0.7 tick off its line."""
    return tick + 2e-3 * abs(value)


def refined_bounds(relaxed: CentreRegions, goal: Goal, options: list[Option], keep: list,
                   incumbent: Incumbent | None, tick: float,
                   clock: Clock | None = None) -> tuple[np.ndarray, dict[int, shapely.Geometry]]:
    """Bounds of the kept options from their relaxed regions of end centres (every legal end
    centre lies in one, optimizer.search.regions), and those regions; an option with an
    empty region has no legal move (bound +-inf).  Options not reached before the clock's
    share runs out keep NaN (the caller keeps them).

    With an incumbent, each region is first clipped to where the objective could beat it
    (Goal.clip: a disc about the target, a half-plane, a strip): the shapes stay small and
    cheap, and the bound is unchanged for every option that might beat the incumbent."""
    bounds = np.full(len(options), np.nan)
    regions: dict[int, shapely.Geometry] = {}
    for k in keep:
        if clock is not None and clock.expired(PREFILTER_SHARE):
            break
        clip = None if incumbent is None else \
            goal.clip(options[k], worst_kept(goal, incumbent.value, tick))
        region = relaxed.of(options[k], clip)
        if region.is_empty:
            bounds[k] = -np.inf if goal.maximise else np.inf
            continue
        regions[k] = region
        bounds[k] = goal.bounds([options[k]], [region])[0]
    return bounds, regions


def screened(request: SearchRequest, judge: BatchJudge, options: list[Option], keep: list,
             reach: list, incumbent: Incumbent | None) -> list:
    """The kept options that may still beat the incumbent, by a vectorised test of one point
    each (distance objectives only; others pass as they are).

    To beat it, an option's centre must lie within rho of its target point c (rho from the
    incumbent's value, as `Goal.clip`).  Moving the centre by rho changes every end-position
    measure by at most rho, so if c itself fails those rules with every limit rho more
    lenient, or lies more than rho outside the option's reach, no centre of the option can
    beat the incumbent."""
    goal = request.goal
    if incumbent is None or not goal.distance or not keep:
        return keep
    opts = [options[k] for k in keep]
    discs = goal.target_discs(opts, worst_kept(goal, incumbent.value, request.lattice.inch))
    assert discs is not None
    centres, rho = discs
    ok = rho >= 0
    near = shapely.distance(np.asarray([reach[k] for k in keep], dtype=object),
                            shapely.points(centres))
    ok &= near <= rho
    todo = np.flatnonzero(ok)
    if len(todo):
        ok[todo] = judge.end_positions(
            request.frame.world_array(centres[todo]),
            np.array([opts[n].facing_deg for n in todo]),
            np.array([opts[n].width_in for n in todo]),
            np.array([opts[n].depth_in for n in todo]), float(rho[todo].max()))
    ok[keep.index(incumbent.option)] = True
    return [k for k, good in zip(keep, ok, strict=True) if good]


def focus_discs(goal: Goal, options: list[Option], keep: list, incumbent: Incumbent | None,
                tick: float) -> dict[int, tuple[tuple[float, float], float]]:
    """Per kept option, the disc of centres the search still needs (distance objectives
    with an incumbent; empty otherwise): see constraints.sat.context.EncodeContext.focus."""
    if incumbent is None or not keep:
        return {}
    discs = goal.target_discs([options[k] for k in keep], worst_kept(goal, incumbent.value, tick))
    if discs is None:
        return {}
    centres, rho = discs
    return {int(k): ((float(c[0]), float(c[1])), float(r))
            for k, c, r in zip(keep, centres, rho, strict=True) if r >= 0}
