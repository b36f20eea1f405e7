"""Best legal move by CP-SAT: a legal starting answer and pruning (optimizer.search.prefilter),
the model over the options that might beat it (optimizer.search.model), the objective, the
solve, the re-check.

Every answer is re-judged by the exact checker before it is returned; a rejection is our bug
(`EncodingMismatchError`).  Where the family searched holds fewer ways than the rules allow
(optimizer.families), OPTIMAL needs a bound over every way (optimizer.search.certify) within
the tolerance of the answer, and "none in the family" is NOT_FOUND, not INFEASIBLE; a
time-out without an answer is TIMEOUT, never "no legal move".
"""

from __future__ import annotations

import time
from dataclasses import replace
from typing import Any

import numpy as np
import shapely
from ortools.sat.python import cp_model

from constraints.core.scenario import Scenario
from constraints.core.status import Status
from constraints.core.system import find_system
from constraints.core.verdict import Verdict
from constraints.errors import EncodingMismatchError
from constraints.geometry.frame import Frame
from constraints.sat.context import SearchTimeout
from constraints.sat.encoding import MoveEncoding
from constraints.sat.lattice import Lattice
from optimizer.dispatch import require
from optimizer.families.base import options_for
from optimizer.search.certified import Certificates
from optimizer.search.clock import Clock
from optimizer.search.geometric import Checked
from optimizer.search.incumbent import Incumbent
from optimizer.search.model import Search, build_search, decode, recheck, solution, solver_for
from optimizer.search.more_wheels import with_more_wheels
from optimizer.search.objectives import Objective
from optimizer.search.polish import polished
from optimizer.search.prefilter import focus_discs, prefilter, worst_kept
from optimizer.search.proof import Proof
from optimizer.search.request import (
    DEFAULT_EFFORT,
    DEFAULT_MAX_WHEELS,
    DEFAULT_TIME_LIMIT_S,
    DEFAULT_TOLERANCE,
    SearchRequest,
    time_limit,
)
from optimizer.search.result import SearchResult
from optimizer.search.simplest import simplest
from optimizer.search.tidy import tidied
from optimizer.search.unproved import unproved
from optimizer.search.ways import own_search, ways_of
from optimizer.search.zero_legs import beside_zero_legs

__all__ = ["DEFAULT_TIME_LIMIT_S", "SearchResult", "best_move", "objective_value", "solve"]


def best_move(scenario: Scenario, unit_id: str, manoeuvre: str, objective: Objective, *,
              time_limit_s: float | None = None, lattice: Lattice | None = None,
              workers: int = 1, effort: float | None = None,
              tolerance: float = DEFAULT_TOLERANCE,
              max_wheels: int = DEFAULT_MAX_WHEELS) -> SearchResult:
    """The best legal `manoeuvre` of a unit for `objective`, proved on the lattice.

    Parameters
    ----------
    scenario, unit_id, manoeuvre
        The unit and what it does (`advance`, `march`, `reform`).
    objective
        What to optimise (optimizer.search.objectives).
    time_limit_s : float, optional
        A wall-clock cap on the whole search (seconds; default `DEFAULT_TIME_LIMIT_S`).
    lattice, workers
        The search's lattice (the default: 0.005" and 1 deg) and CP-SAT workers.
    effort : float, optional
        The deterministic work budget (CP-SAT's deterministic time; default
        `DEFAULT_EFFORT`).  The answer depends on it and not on the machine's load, unless
        the wall-clock cap fires first: the result's `stopped_by` says which limit, if any,
        ended the search.
    tolerance : float
        OPTIMAL means the answer is within this of a bound over every way the rules allow.
    max_wheels : int
        An Advance or March searches ways of up to this many wheels (1 to 8) where one
        wheel does not already reach the bound.

    Returns
    -------
    SearchResult
        OPTIMAL, FEASIBLE, INFEASIBLE, NOT_FOUND or TIMEOUT; with a move, re-checked as legal.
    """
    require(scenario, "best_move")
    own = own_search(scenario.profile, manoeuvre) if isinstance(manoeuvre, str) else None
    if own is not None:  # a Pivot alone: its own exact search
        return own(scenario, unit_id, objective, time_limit_s=time_limit(time_limit_s))
    return solve(SearchRequest(scenario, unit_id, manoeuvre, objective, lattice or Lattice(),
                               time_limit(time_limit_s), workers,
                               DEFAULT_EFFORT if effort is None else effort, tolerance,
                               max_wheels))


def solve(request: SearchRequest) -> SearchResult:
    """`best_move` of a request: incumbent and pruning, the model over the kept options, and
    the whole model again when the pruning argument does not hold."""
    clock = Clock(request.time_limit_s)
    refused = tuple(c.id for c in request.clauses
                    if c.refuses_every_move(request.scenario, request.unit))
    if refused:  # proved under the rules: no move of this manoeuvre is legal
        return SearchResult(request.objective, None, request.lattice, clock.elapsed(),
                            Proof(Status.INFEASIBLE, refused=True), blocking=refused)
    options, regions = options_for(request.scenario, request.unit, request.manoeuvre,
                                   request.lattice)
    still = _stand_still(request, options, clock)
    if still is not None:
        _tell(request, clock, *still)
    # A family's way search may start from its own answer (whfb7's: ways.whfb7_start).
    started = ways_of(request.family).starting_answer(request, options, regions, clock)
    if started is None:
        started = prefilter(request, options, regions, clock) if request.family.prefilters \
            else (None, list(range(len(options))), {})
    incumbent, keep, relaxed = started
    if incumbent is not None and _watched(clock):
        _tell_incumbent(request, clock, options, incumbent)
    # Centres beyond an option's focus disc cannot beat the incumbent: encodings may leave
    # them out (a Reform's model paths then need one safe disc, not nine).
    focus = focus_discs(request.goal, options, keep, incumbent, request.lattice.inch)
    if incumbent is not None and incumbent.checked:
        result = _beside_checked(request, keep, incumbent.checked, clock,
                                 [relaxed.get(k, regions[k]) for k in keep], focus)
    else:
        result = _solve_kept(request, keep, incumbent, clock,
                             [relaxed.get(k, regions[k]) for k in keep], focus)
    _tell(request, clock, result.move, result.verdict)
    if incumbent is not None and not incumbent.checked and len(keep) < len(options) and \
            not _proved(result, incumbent):
        # The incumbent (legal, found by the batch mask) is not a solution of the model, so
        # the pruning argument does not hold: search every option instead.
        result = _solve_kept(request, list(range(len(options))), None, clock, regions)
    if result.move is None:
        result = _fallback(request, options, result, incumbent, still, clock)
    # Geometry found no legal point: ways with legs of 0 (bounded work: one mask, 4 checks).
    if (incumbent is None or incumbent.checked is None) and not clock.expired():
        result = beside_zero_legs(request, options, result, clock)
    result = unproved(request, options, result, regions, relaxed, clock)
    result.stats.update({"options_total": len(options), "incumbent": incumbent is not None})
    certificates: Certificates = {}  # kept for the better answers' (optimizer.search.certified)
    result = with_more_wheels(request, result, clock, certificates)
    # Off the lattice: legs, wheels, Pivot.
    result = polished(request, result, clock, certificates)
    result = simplest(request, options, regions, result, clock, _solve_kept)
    result = tidied(request, result)  # no float noise
    stopped = "cancelled" if clock.cancelled() else "wall_clock" if clock.fired else None
    return result.proved(stopped_by=stopped or result.stopped_by)


def _watched(clock: Clock) -> bool:
    return clock.watch is not None and clock.watch.on_improved is not None


def _tell(request: SearchRequest, clock: Clock, move: Any, verdict: Verdict | None) -> None:
    """A legal answer found on the way, to whoever watches the search (optimizer.search.watch):
    told only when it beats the answers told before."""
    if not _watched(clock) or verdict is None or not verdict.legal:
        return
    assert clock.watch is not None
    value = request.goal.exact(verdict)

    def answer() -> dict[str, Any]:
        return {"objective": {"name": request.objective.name, "value": round(value, 6)},
                "elapsed_s": round(clock.elapsed(), 4), "move": move.to_json(),
                "verdict": verdict.to_json()}
    clock.watch.improved(value, request.objective.maximise, answer)


def _tell_incumbent(request: SearchRequest, clock: Clock, options: list,
                    incumbent: Incumbent) -> None:
    """The prefilter's answer, judged by the checker first when the batch mask found it."""
    if incumbent.checked is not None:
        _tell(request, clock, incumbent.checked.move, incumbent.checked.verdict)
        return
    move = request.family.move(request.unit_id, request.frame, options[incumbent.option],
                               incumbent.centre)
    _tell(request, clock, move, find_system(request.scenario.rules).check(request.scenario, move))


def _stand_still(request: SearchRequest, options: list,
                 clock: Clock) -> tuple[Any, Verdict] | None:
    """Standing still, judged by the checker (the answer of last resort when legal).  Its
    cost sets the clock's reserve: re-checking the search's answer costs about as much."""
    k = request.family.stand_still(options, request.unit)
    if k is None:
        return None
    started = time.perf_counter()
    move = request.family.move(request.unit_id, request.frame, options[k], (0.0, 0.0))
    verdict = find_system(request.scenario.rules).check(request.scenario, move)
    clock.reserve_s = min(RESERVE_FACTOR * (time.perf_counter() - started),
                          RESERVE_SHARE * clock.limit_s)
    return move, verdict


# The clock keeps back this many times the cost of one check, at most this share of the limit.
RESERVE_FACTOR = 2.0
RESERVE_SHARE = 0.25


def _fallback(request: SearchRequest, options: list, result: SearchResult,
              incumbent: Incumbent | None, still: tuple[Any, Verdict] | None,
              clock: Clock) -> SearchResult:
    """No move from the model: a legal starting answer, if there is one, as FEASIBLE.  The
    incumbent (found by the batch mask) when the search was cut short; standing still when
    the checker passes it, even against an INFEASIBLE of the model (whose rows are
    conservative: they may miss a legal pose right at a limit, and then INFEASIBLE is not
    a proof)."""
    answers = []
    if incumbent is not None and result.status == Status.TIMEOUT:
        move = request.family.move(request.unit_id, request.frame, options[incumbent.option],
                                   incumbent.centre)
        answers.append((move, find_system(request.scenario.rules).check(request.scenario,
                                                                         move)))
    if still is not None:
        answers.append(still)
    for move, verdict in answers:
        if verdict.legal:  # an answer from outside the model: FEASIBLE, whatever it claimed
            return replace(result.proved(bound=None), value=request.goal.exact(verdict),
                           elapsed_s=clock.elapsed(), move=move, verdict=verdict)
    return result


def _beside_checked(request: SearchRequest, keep: list, checked: Checked, clock: Clock,
                    objective_regions: list, focus: dict[int, Any]) -> SearchResult:
    """CP-SAT over the options that might beat a legal answer found by exact geometry (none:
    no model), and the better of the two.  No option left out can beat the answer by more
    than a lattice step (its relaxed region holds every legal end centre of it), so the
    family's status is the model's over the rest (OPTIMAL when it has none)."""
    found = SearchResult(request.objective, request.goal.exact(checked.verdict),
                         request.lattice, clock.elapsed(), Proof(Status.OPTIMAL), checked.move,
                         checked.verdict, stats={"options": 0, "geometric": True,
                                                 "search_value": checked.value})
    if not keep:
        return found.proved(bound=found.value)
    worst = worst_kept(request.goal, checked.value, request.lattice.inch)
    result = _solve_kept(request, keep, None, clock, objective_regions, focus, worst)
    status = result.status if result.status in (Status.OPTIMAL, Status.FEASIBLE) else \
        Status.OPTIMAL if result.status == Status.INFEASIBLE else Status.FEASIBLE
    best = result if result.move is not None and request.goal.better(
        result.stats["search_value"], checked.value) else found
    stats = {**result.stats, "geometric": best is found,
             "search_value": best.stats["search_value"]}
    proof = Proof(status, bound=best.value if status == Status.OPTIMAL else None,
                  stopped_by=result.stopped_by)
    return replace(best, proof=proof, stats=stats, elapsed_s=clock.elapsed())


def _solve_kept(request: SearchRequest, keep: list, incumbent: Incumbent | None,
                clock: Clock, objective_regions: list,
                focus: dict[int, Any] | None = None,
                worst: float | None = None) -> SearchResult:
    """CP-SAT over the options in `keep`; `objective_regions` (one per kept option, holding
    every legal end centre of it) bound the objective per option; `focus`: see
    EncodeContext.focus."""
    kept = set(keep)
    try:
        search = build_search(request, only=lambda o: o.index in kept, deadline=clock.deadline,
                              focus=focus, max_rows=request.model_rows)
    except SearchTimeout as stop:
        clock.fired |= stop.limit == "wall_clock"
        return SearchResult(request.objective, None, request.lattice, clock.elapsed(),
                            Proof(Status.TIMEOUT, stopped_by=stop.limit),
                            stats={"model": str(stop)})
    enc = search.enc
    post_objective(request, enc, objective_regions, worst)
    if incumbent is not None:
        _hint(enc, keep.index(incumbent.option), incumbent.centre)
    solver = solver_for(max(0.05, clock.left()), request.workers, request.effort)
    status = solver.solve(enc.sat_model)
    result = _result(search, solver, status, clock)
    result.stats["model_rows"] = enc.rows
    if result.move is not None:
        option, centre = solution(search, solver)
        result.stats["search_value"] = float(request.goal.values(option, np.array([centre]))[0])
    return result


def post_objective(request: SearchRequest, enc: MoveEncoding,
                   regions: list[shapely.Geometry], worst: float | None = None) -> None:
    """The objective on the model (the goal posts itself)."""
    request.goal.post(enc, regions, worst)


def _proved(result: SearchResult, incumbent: Incumbent) -> bool:
    """Whether the pruned search's answer is at least as good as the incumbent (in the
    bound's units), so no pruned option could have done better."""
    found = result.stats.get("search_value")
    if result.status != Status.OPTIMAL or found is None:
        return result.status not in (Status.OPTIMAL, Status.INFEASIBLE)  # FEASIBLE / TIMEOUT
    # The search's objective rounds (integer norm directions, 1e-5 lateral coefficients).
    slack = 1e-4 + 2e-3 * abs(incumbent.value)
    if result.objective.maximise:
        return bool(found >= incumbent.value - slack)
    return bool(found <= incumbent.value + slack)


def _hint(enc: MoveEncoding, option: int, centre: tuple[float, float]) -> None:
    """Start the search from the incumbent (a legal lattice point)."""
    for k, lit in enumerate(enc.option_vars):
        enc.sat_model.add_hint(lit, k == option)
    enc.sat_model.add_hint(enc.right_ticks, round(centre[0] / enc.tick))
    enc.sat_model.add_hint(enc.forward_ticks, round(centre[1] / enc.tick))


STATUSES = {cp_model.OPTIMAL: Status.OPTIMAL, cp_model.FEASIBLE: Status.FEASIBLE,
            cp_model.INFEASIBLE: Status.INFEASIBLE}


def _result(search: Search, solver: cp_model.CpSolver, status: Any,
            clock: Clock) -> SearchResult:
    request = search.request
    name = STATUSES.get(status, Status.TIMEOUT)
    if status == cp_model.MODEL_INVALID:
        raise EncodingMismatchError(f"invalid CP-SAT model: {search.enc.sat_model.validate()}")
    stats: dict[str, Any] = {
        "options": len(search.ectx.options), "wall_s": solver.wall_time,
        "deterministic_time": solver.deterministic_time, "branches": solver.num_branches}
    stopped = _stopped_by(solver, name, request.effort, clock)
    if search.enc.inexact:  # rows that keep a safe part only (see `_unproved`)
        stats["inexact"] = sorted(set(search.enc.inexact.values()))
        # In the request's numbering: `unproved` bounds those options by their regions (the
        # model's own numbering named other options, and an OPTIMAL stood unproved).
        stats["inexact_options"] = sorted(search.request_index(k) for k in search.enc.inexact)
    if not name.found:
        return SearchResult(request.objective, None, request.lattice, clock.elapsed(),
                            Proof(name, stopped_by=stopped), stats=stats)
    move = decode(search, solver)
    verdict = recheck(request.scenario, move)
    value = request.goal.exact(verdict)
    bound = value if name == Status.OPTIMAL else None
    return SearchResult(request.objective, value, request.lattice, clock.elapsed(),
                        Proof(name, bound=bound, stopped_by=stopped), move, verdict,
                        stats=stats)


def _stopped_by(solver: cp_model.CpSolver, status: Status, effort: float,
                clock: Clock) -> str | None:
    """Which limit ended an unproved solve: the deterministic budget, or the wall clock."""
    if status in (Status.OPTIMAL, Status.INFEASIBLE):
        return None
    if solver.deterministic_time >= 0.999 * effort:
        return "deterministic_time"
    clock.fired = True
    return "wall_clock"


def objective_value(objective: Objective, scenario: Scenario, verdict: Verdict) -> float:
    """The objective of a judged end pose, exactly (inches, or inches forward)."""
    unit = scenario.unit(verdict.unit)
    return objective.goal(Frame(unit.pose.centre, unit.pose.facing_deg)).exact(verdict)
