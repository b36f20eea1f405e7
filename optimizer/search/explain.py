"""Reachability: can this unit end at this pose with this manoeuvre?  Answered by CP-SAT with
the steps that get there, or INFEASIBLE with the clauses that block it (an unsat core over
one assumption literal per clause: "why not")."""

from __future__ import annotations

import math
import time
from dataclasses import replace
from typing import Any

from ortools.sat.python import cp_model

from constraints.core.jsonread import number
from constraints.core.scenario import Scenario
from constraints.core.status import Status
from constraints.geometry.plane import Point, angle_between_deg
from constraints.sat.context import SearchTimeout
from constraints.sat.lattice import Lattice
from optimizer.dispatch import own_move, require
from optimizer.search.certify import certify
from optimizer.search.model import build_search, decode, recheck, solver_for
from optimizer.search.objectives import Objective
from optimizer.search.proof import Proof
from optimizer.search.request import SearchRequest, time_limit
from optimizer.search.solve import SearchResult, best_move

UNREACHABLE = "reachable"  # suffix of the pseudo-clause for the move family itself
REACH_BOXES = 100_000  # the relaxation's boxes judged to prove a pose out of every way's reach
REACH_EFFORT = 2.0     # the work budget of the search over more wheels, at most
MAX_TOLERANCE_IN = 100.0  # how far an end centre may miss the pose asked for


def reach(scenario: Scenario, unit_id: str, manoeuvre: str, centre: Point, facing_deg: float,
          *, tolerance_in: float | None = None, lattice: Lattice | None = None,
          time_limit_s: float | None = None) -> SearchResult:
    """A legal move ending at an end pose, or the clauses that rule it out.

    Parameters
    ----------
    scenario, unit_id, manoeuvre
        The unit and what it does.
    centre, facing_deg
        The end pose asked for (world inches, degrees).
    tolerance_in : float, optional
        How far (per axis) the end centre may miss `centre` (default half a lattice step);
        the facing may miss by half a lattice degree.
    lattice, time_limit_s
        The search's lattice and limit.

    Returns
    -------
    SearchResult
        OPTIMAL with a move that gets there; INFEASIBLE, proved for every way the rules
        allow, with the blocking clauses in `blocking` (a Reform: an unsat core on the
        lattice; an Advance or March: the budget and window clauses, whose bound over any
        number of wheels rules the pose out); NOT_FOUND when no way of one wheel (its
        unsat core in `blocking`) nor of up to `max_wheels` reaches it, and more are not
        ruled out; TIMEOUT.  A whfb7 move or march: the family's ways (`family["ways"]`),
        INFEASIBLE only where the family's relaxation (every way the rules allow) or a
        clause refusing every move (a march begun within 8" of an enemy) proves it.
    """
    started = time.perf_counter()
    require(scenario, "reach")
    lattice = lattice or Lattice()
    tolerance = lattice.inch / 2 if tolerance_in is None else \
        number(tolerance_in, "tolerance_in", minimum=0.0, maximum=MAX_TOLERANCE_IN)
    objective = Objective("target_pose", centre, facing_deg)
    time_limit_s = time_limit(time_limit_s)
    request = SearchRequest(scenario, unit_id, manoeuvre, objective, lattice, time_limit_s)
    start = request.unit.pose.centre
    deadline = started + time_limit_s
    try:
        search = build_search(request, guard_clauses=True,
                              only=lambda o: angle_between_deg(o.facing_deg, facing_deg)
                              <= lattice.degree / 2 + 1e-9,
                              reach_in=math.dist(start, centre) + 2 * tolerance + 1.0,
                              deadline=deadline, max_rows=request.model_rows)
    except SearchTimeout as stop:
        return SearchResult(objective, None, lattice, time.perf_counter() - started,
                            Proof(Status.TIMEOUT, stopped_by=stop.limit))
    enc, frame = search.ectx.enc, search.ectx.frame
    family = f"{scenario.profile.name}.{manoeuvre}.{UNREACHABLE}"
    if not enc.options:
        return SearchResult(objective, None, lattice, time.perf_counter() - started,
                            Proof(Status.INFEASIBLE), blocking=(family,))
    fx, fy = frame.point(centre)
    near = enc.sat_model.new_bool_var(family)
    for var, target in ((enc.right_ticks, fx), (enc.forward_ticks, fy)):
        lo, hi = math.ceil(enc.ticks(target - tolerance) - 1e-9), \
            math.floor(enc.ticks(target + tolerance) + 1e-9)
        enc.sat_model.add(var >= lo).only_enforce_if(near)
        enc.sat_model.add(var <= hi).only_enforce_if(near)
    literals = {**search.clause_lits, family: near}
    enc.sat_model.add_assumptions(list(literals.values()))
    solver = solver_for(max(0.05, deadline - time.perf_counter()), 1, request.effort)
    status = solver.solve(enc.sat_model)
    elapsed = time.perf_counter() - started
    if status in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        move = decode(search, solver)
        return SearchResult(objective, 0.0, lattice, elapsed, Proof(Status.OPTIMAL, bound=0.0),
                            move, recheck(scenario, move))
    if status != cp_model.INFEASIBLE:
        stopped = "deterministic_time" if solver.deterministic_time >= 0.999 * request.effort \
            else "wall_clock"
        return SearchResult(objective, None, lattice, elapsed,
                            Proof(Status.TIMEOUT, stopped_by=stopped))
    # The request itself is always part of the core; name it only when nothing else is,
    # i.e. when no way of the family reaches the pose whatever the other clauses say.
    core = set(solver.sufficient_assumptions_for_infeasibility())
    blocking = tuple(name for name, lit in search.clause_lits.items() if lit.index in core)
    found = SearchResult(objective, None, lattice, elapsed, Proof(Status.INFEASIBLE),
                         blocking=blocking or (family,))
    if request.relaxation is not None:
        return _beyond_one_wheel(request, found, tolerance, started)
    if not request.family.holds_every_way:
        # The family searched is not every way the rules allow (a whfb7 move's turns later
        # on) and no relaxation bounds the rest: nothing is proved beyond the family.
        return replace(found, proof=found.proof.within_family(_searched(request))).proved(
            family_claim=Status.INFEASIBLE)
    return found


def _searched(request: SearchRequest, found: SearchResult | None = None) -> dict[str, Any]:
    """What was searched: the search's own words when it ran (a family of its own, as
    whfb7's, says which ways), else ways of up to `max_wheels` wheels."""
    if found is not None and found.family:
        return dict(found.family)
    description = request.family.description
    return {"max_wheels": 1, "ways": description} if description else \
        {"max_wheels": request.max_wheels}


def _beyond_one_wheel(request: SearchRequest, found: SearchResult, tolerance: float,
                      started: float) -> SearchResult:
    """No one-wheel way reaches the pose.  INFEASIBLE only if no way with any number of
    wheels can (the relaxation's bound, docs/techniques.md §9: it then names the budget and
    window clauses); else the ways of up to max_wheels wheels, and NOT_FOUND when they
    reach it neither (more wheels, or these on another lattice, are not ruled out)."""
    relaxation = request.relaxation
    assert relaxation is not None
    # A way "reaches" the pose when its target_pose value is at most this.
    miss = math.hypot(math.sqrt(2.0) * tolerance, 0.1 * request.lattice.degree / 2)
    deadline = started + request.time_limit_s
    proof = certify(request.goal, relaxation, 2 * miss + 1e-6, miss + 1e-6,
                    max_boxes=REACH_BOXES, deadline=deadline)
    if proof.closed and proof.bound > miss:
        limits = request.limits
        named = tuple(by for by in (limits.clause_for("budget_in"),
                                    limits.clause_for("window_deg")) if by)
        return replace(found, elapsed_s=time.perf_counter() - started, blocking=named,
                       proof=replace(found.proof, bound_covers="any_wheels"))
    left = deadline - time.perf_counter()
    ways = best_move(request.scenario, request.unit_id, request.manoeuvre, request.objective,
                     lattice=request.lattice, time_limit_s=max(left, 0.01),
                     effort=min(request.effort, REACH_EFFORT))
    if ways.found and ways.value is not None and ways.value <= miss and \
            _on_pose(request, ways, tolerance):
        # The pose is reached: the objective's floor, nothing can do better.
        return replace(ways, value=0.0, elapsed_s=time.perf_counter() - started,
                       proof=replace(ways.proof, bound=0.0, bound_proves=True))
    family = _searched(request, ways) if request.family.description else \
        {"max_wheels": request.max_wheels}
    return replace(found, elapsed_s=time.perf_counter() - started,
                   proof=found.proof.within_family(family)).proved(
        family_claim=Status.NOT_FOUND)


def _on_pose(request: SearchRequest, result: SearchResult, tolerance: float) -> bool:
    """The answer's end within `tolerance` per axis of the unit's start frame (as the
    one-wheel model asks) and within half a lattice degree of the pose."""
    objective, verdict = request.objective, result.verdict
    assert verdict is not None and objective.point is not None
    assert objective.facing_deg is not None
    end, target = request.frame.point(verdict.end_centre), request.frame.point(objective.point)
    return max(abs(end[0] - target[0]), abs(end[1] - target[1])) <= tolerance + 1e-9 and \
        angle_between_deg(verdict.end_facing_deg, objective.facing_deg) <= \
        request.lattice.degree / 2 + 1e-9


def why_not(scenario: Scenario, move: Any, *, lattice: Lattice | None = None,
            time_limit_s: float | None = None) -> tuple[str, ...]:
    """The clauses that make the end pose of `move` unreachable (empty when it is reachable).

    The move's own end pose is used (from its steps, or as given); unlike the checker's
    violations, which judge one way, this asks whether *any* way in the family gets there.
    """
    system = require(scenario, "why_not")
    move = own_move(system, move)
    end = system.check(scenario, move)
    found = reach(scenario, move.unit, move.manoeuvre, end.end_centre, end.end_facing_deg,
                  lattice=lattice, time_limit_s=time_limit_s)
    return found.blocking
