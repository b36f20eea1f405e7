"""What the model's OPTIMAL or INFEASIBLE proves where a clause's rows keep only a safe part of
what it allows on some options (`MoveEncoding.inexact`: a Reform's model paths round
obstacles are safe discs of centres, so a legal lattice pose may lie outside them).

The model proves nothing about those options.  Regions holding every legal end centre of
theirs (the prefilter's relaxed regions, made here for the options that lack one and whose
reach could matter) bound them instead: the model's OPTIMAL stands if none can beat its
answer by more than a lattice step (and the search's rounding, as the pruning that drops
options counts it), and is FEASIBLE with their bound otherwise; its
INFEASIBLE stands if none has a legal end centre, and is NOT_FOUND otherwise.
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import shapely

from constraints.core.status import Status
from constraints.sat.option import Option
from optimizer.search.clock import Clock
from optimizer.search.objectives import Goal
from optimizer.search.prefilter import past_step
from optimizer.search.request import SearchRequest
from optimizer.search.result import SearchResult


def unproved(request: SearchRequest, options: list[Option], result: SearchResult,
             reach: list[shapely.Geometry], relaxed: dict[int, shapely.Geometry],
             clock: Clock | None = None) -> SearchResult:
    """`result` with its status what the model proves (the module docstring): `reach` holds
    every option's reach, `relaxed` some options' relaxed regions.  Once the clock's limit
    has passed, the options whose relaxed regions are not made yet keep their reach's
    bound (it holds every legal end centre too, only looser)."""
    inexact = result.stats.pop("inexact_options", [])
    if not inexact or result.status not in (Status.OPTIMAL, Status.INFEASIBLE):
        return result
    goal, tick = request.goal, request.lattice.inch
    found = None if result.value is None else \
        float(result.stats.get("search_value", result.value))
    # Beating the answer by more than a lattice step and the search's rounding, as the
    # pruning counts it (INFEASIBLE: having any legal centre at all).
    threshold = None if found is None else past_step(goal, found, tick)
    bounds = _bounds(goal, options, inexact, [relaxed.get(k, reach[k]) for k in inexact])
    # Where only the reach bounded an option that might beat it, its relaxed region now.
    more = request.relaxed_regions
    for n, k in enumerate(inexact):
        if k not in relaxed and _beats(goal, bounds[n], threshold):
            if clock is not None and clock.expired():
                break  # the rest keep their reach's bound (sound, looser)
            bounds[n] = _bounds(goal, options, [k], [more.of(options[k])])[0]
    best = float(bounds.max() if goal.maximise else bounds.min())
    if not _beats(goal, best, threshold):
        return result
    # The model's claim speaks for the safe parts of those options alone.
    if result.status == Status.INFEASIBLE:
        return replace(result, proof=result.proof.within_family(bound=result.bound))
    assert result.value is not None
    if not np.isfinite(best):  # an option the goal cannot bound: no bound at all
        return replace(result, proof=result.proof.within_family())
    bound = max(best, result.value) if goal.maximise else min(best, result.value)
    return replace(result, proof=result.proof.within_family(bound=bound))


def _bounds(goal: Goal, options: list[Option], ks: list[int],
            regions: list[shapely.Geometry]) -> np.ndarray:
    """Per option, its bound over its region: the worst (+-inf) where the region is empty,
    the best there is where the goal knows none."""
    worst = _worst(goal)
    bounds = np.where([r.is_empty for r in regions], worst,
                      goal.bounds([options[k] for k in ks], regions))
    return np.where(np.isnan(bounds), -worst, bounds)


def _worst(goal: Goal) -> float:
    return -np.inf if goal.maximise else np.inf


def _beats(goal: Goal, bound: float, threshold: float | None) -> bool:
    """Whether an option of this bound might beat the threshold (with no answer: whether it
    may have a legal centre at all, its region not empty)."""
    if threshold is None:
        return bool(bound != _worst(goal))
    return bool(bound > threshold) if goal.maximise else bool(bound < threshold)
