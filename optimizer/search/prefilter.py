"""Before the search: a legal starting answer, and the options that might still beat it.

Bounds from each option's reach first; then, for the options these keep, bounds from their
relaxed regions of end centres (optimizer.regions: every legal end centre lies in one),
clipped to where the incumbent could be beaten, after a one-point screen for distance
objectives; a better incumbent is looked for inside the relaxed regions.  What the search
then proves optimal over the kept options is optimal over all (the dropped ones cannot beat
a legal answer the model also has).  `focus_discs` says, per kept option, which centres the
search still needs (constraints.encode_context.EncodeContext.focus).
"""

from __future__ import annotations

import math
import time
from typing import Any

import numpy as np
import shapely

from constraints.core.scenario import Scenario
from constraints.geometry.frame import Frame
from constraints.geometry.plane import unit_vector
from constraints.sat.lattice import Lattice
from constraints.sat.option import Option
from optimizer.batch import BatchJudge
from optimizer.search.incumbent import (
    DISTANCES,
    SHRINK,
    Incumbent,
    _angle_cost,
    _away_penalty,
    _target_shift,
    better,
    find_incumbent,
    option_bounds,
)
from optimizer.search.objectives import Objective, at_lattice_floor
from optimizer.search.regions import CentreRegions

EMPTY = shapely.Polygon()
# The starting answer is judged this much inside every limit, more than the encoding gives up
# (inscribed polygons, half-tick rounding, band slack), so it is a solution of the model.
INCUMBENT_MARGIN_IN = 0.03


def prefilter(scenario: Scenario, unit_id: str, manoeuvre: str, objective: Objective,
               lattice: Lattice, options: list[Option], regions: list,
               target: tuple[Any, Any], deadline: float) -> tuple[Incumbent | None, list, dict]:
    """A legal starting answer, the options that might beat it, and the kept options'
    relaxed regions, by `deadline` (the steps: this module's docstring; TECHNIQUES.md:
    per-heading geometry as a pre-filter)."""
    unit = scenario.unit(unit_id)
    frame = Frame(unit.pose.centre, unit.pose.facing_deg)
    point, facing = target
    judge = BatchJudge(scenario, unit_id, manoeuvre, margin_in=INCUMBENT_MARGIN_IN)
    bounds = option_bounds(objective, options, regions, point, facing)
    incumbent = find_incumbent(judge, frame, objective, options, regions, bounds, lattice.inch,
                               point, facing, deadline)
    if incumbent is not None and _unbeatable(objective, options, incumbent, point, lattice.inch):
        return incumbent, [incumbent.option], {}
    keep = kept_options(objective, bounds, incumbent, lattice.inch)
    keep = screened(judge, frame, objective, options, keep, regions, point, facing, incumbent,
                    lattice.inch)
    if len(keep) <= 1:
        return incumbent, keep, {}
    fine, relaxed = refined_bounds(CentreRegions(scenario, unit, manoeuvre, outer=True),
                                   objective, options, keep, point, facing, incumbent,
                                   lattice.inch, deadline)
    looked = [relaxed.get(k, EMPTY) for k in range(len(options))]
    again = find_incumbent(judge, frame, objective, options, looked, fine, lattice.inch,
                           point, facing, deadline)
    if again is not None and (incumbent is None or
                              better(objective, again.value, incumbent.value)):
        incumbent = again
    if incumbent is not None and _unbeatable(objective, options, incumbent, point, lattice.inch):
        return incumbent, [incumbent.option], relaxed
    finer = set(kept_options(objective, fine, incumbent, lattice.inch))
    return incumbent, [k for k in keep if k in finer], relaxed


def _unbeatable(objective: Objective, options: list[Option], incumbent: Incumbent,
                point: tuple[float, float] | None, tick: float) -> bool:
    """Whether the incumbent is at the lattice floor: no lattice centre of any option does
    better, so the search needs only its option."""
    return point is not None and at_lattice_floor(
        objective, options[incumbent.option], incumbent.centre, point, tick)


def kept_options(objective: Objective, bounds: np.ndarray, incumbent: Incumbent | None,
                 tick: float) -> list:
    """Indexes of the options that might beat the incumbent (all, without one)."""
    if incumbent is None:
        return list(range(len(bounds)))
    slack = _slack(incumbent.value, tick)
    with np.errstate(invalid="ignore"):
        beats = bounds >= incumbent.value - slack if objective.maximise else \
            bounds <= incumbent.value + slack
    keep = np.isnan(bounds) | beats
    keep[incumbent.option] = True
    return list(np.nonzero(keep)[0])


def _worst(objective: Objective, incumbent: Incumbent, tick: float) -> float:
    """The worst value an option may still reach and be kept (the incumbent's, less slack)."""
    slack = _slack(incumbent.value, tick)
    return incumbent.value - slack if objective.maximise else incumbent.value + slack


def _slack(value: float, tick: float) -> float:
    """How much better than the incumbent an option's bound must be to drop it.  The search's
    norm has integer directions (7e-4 relative, optimizer.objectives): twice that, so no
    option that could win in the search's terms is dropped; and a straight option's band lets
    the search's centre stray up to ~0.7 tick off its line."""
    return tick + 2e-3 * abs(value)


def refined_bounds(relaxed: CentreRegions, objective: Objective, options: list[Option],
                   keep: list, point: tuple[float, float] | None, frame_facing: float | None,
                   incumbent: Incumbent | None, tick: float,
                   deadline: float | None = None) -> tuple[np.ndarray, dict[int, shapely.Geometry]]:
    """Bounds of the kept options from their relaxed regions of end centres (every legal end
    centre lies in one, optimizer.regions), and those regions; an option with an empty
    region has no legal move (bound +-inf).  Options not reached before `deadline` keep
    NaN (the caller keeps them).

    With an incumbent, each region is first clipped to where the objective could beat it
    (a disc about the target, a half-plane, a strip): the shapes stay small and cheap, and
    the bound is unchanged for every option that might beat the incumbent."""
    bounds = np.full(len(options), np.nan)
    regions: dict[int, shapely.Geometry] = {}
    for k in keep:
        if deadline is not None and time.perf_counter() > deadline:
            break
        clip = None if incumbent is None else \
            _clip(objective, options[k], _worst(objective, incumbent, tick), point, frame_facing)
        region = relaxed.of(options[k], clip)
        if region.is_empty:
            bounds[k] = -np.inf if objective.maximise else np.inf
            continue
        regions[k] = region
        bounds[k] = option_bounds(objective, [options[k]], [region], point, frame_facing)[0]
    return bounds, regions


FAR_IN = 10_000.0  # "unbounded" for the clips' half-planes and strips


def _clip(objective: Objective, option: Option, worst: float, point: tuple[float, float] | None,
          frame_facing: float | None) -> shapely.Geometry:
    """The frame centres where the option's objective (as option_bounds bounds it) is no
    worse than `worst`: every centre outside it is worse (a relaxation: circumscribed)."""
    if objective.name == "forward":
        return shapely.box(-FAR_IN, worst, FAR_IN, FAR_IN)
    assert point is not None
    if objective.name == "face_point":
        width = worst - _away_penalty(option, point)
        if width < 0:
            return shapely.Polygon()
        f = np.array(unit_vector(option.frame_facing_deg))
        r = np.array([f[1], -f[0]])
        p = np.asarray(point, dtype=float)
        return shapely.Polygon([p + FAR_IN * f + width * r, p - FAR_IN * f + width * r,
                                p - FAR_IN * f - width * r, p + FAR_IN * f - width * r])
    radius = (worst - _angle_cost(option, objective, frame_facing)) / SHRINK
    if radius < 0:
        return shapely.Polygon()
    sx, sy = _target_shift(option, objective)
    sides = 32
    return shapely.Point(point[0] - sx, point[1] - sy).buffer(
        radius / math.cos(math.pi / sides), quad_segs=sides // 4)


def screened(judge: BatchJudge, frame: Frame, objective: Objective, options: list[Option],
             keep: list, reach: list, point: tuple[float, float] | None,
             frame_facing: float | None, incumbent: Incumbent | None, tick: float) -> list:
    """The kept options that may still beat the incumbent, by a vectorised test of one point
    each (distance objectives only; others pass as they are).

    To beat it, an option's centre must lie within rho of its target point c (rho from the
    incumbent's value, as `_clip`).  Moving the centre by rho changes every end-position
    measure by at most rho, so if c itself fails those rules with every limit rho more
    lenient, or lies more than rho outside the option's reach, no centre of the option can
    beat the incumbent."""
    if incumbent is None or objective.name not in DISTANCES or not keep:
        return keep
    opts = [options[k] for k in keep]
    centres, rho = _target_discs(objective, opts, point, frame_facing, incumbent, tick)
    ok = rho >= 0
    near = shapely.distance(np.asarray([reach[k] for k in keep], dtype=object),
                            shapely.points(centres))
    ok &= near <= rho
    todo = np.flatnonzero(ok)
    if len(todo):
        ok[todo] = judge.end_positions(
            frame.world_array(centres[todo]), np.array([opts[n].facing_deg for n in todo]),
            np.array([opts[n].width_in for n in todo]),
            np.array([opts[n].depth_in for n in todo]), float(rho[todo].max()))
    ok[keep.index(incumbent.option)] = True
    return [k for k, good in zip(keep, ok, strict=True) if good]


def _target_discs(objective: Objective, opts: list[Option], point: tuple[float, float] | None,
                  frame_facing: float | None, incumbent: Incumbent,
                  tick: float) -> tuple[np.ndarray, np.ndarray]:
    """Per option, the disc (frame centre, radius; negative: none) holding every centre
    where its distance objective could beat the incumbent (circumscribing `_clip`)."""
    assert point is not None
    worst = _worst(objective, incumbent, tick)
    shifts = np.array([_target_shift(o, objective) for o in opts]).reshape(-1, 2)
    angles = np.array([_angle_cost(o, objective, frame_facing) for o in opts])
    # Circumscribed like the clip, and a hair more for float noise.
    rho = (worst - angles) / SHRINK / math.cos(math.pi / 32) + 1e-9
    return np.asarray(point, dtype=float) - shifts, rho


def focus_discs(objective: Objective, options: list[Option], keep: list,
                point: tuple[float, float] | None, frame_facing: float | None,
                incumbent: Incumbent | None, tick: float) -> dict[int, tuple[tuple[float, float],
                                                                           float]]:
    """Per kept option, the disc of centres the search still needs (distance objectives
    with an incumbent; empty otherwise): see constraints.encode_context.EncodeContext.focus."""
    if incumbent is None or objective.name not in DISTANCES or not keep:
        return {}
    centres, rho = _target_discs(objective, [options[k] for k in keep], point, frame_facing,
                                 incumbent, tick)
    return {int(k): ((float(c[0]), float(c[1])), float(r))
            for k, c, r in zip(keep, centres, rho, strict=True) if r >= 0}
