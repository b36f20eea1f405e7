"""After the one-wheel search: the status the rules justify, and ways of up to K wheels where
the one-wheel answer does not already settle it.

1. A family that holds every way (a Reform, on the lattice) keeps the solver's status.
2. For an Advance or March, the answer is certified against the bound over every way with
   any number of wheels (optimizer.search.certify; an Advance's Pivots narrowed to those its
   own spacing clause may allow, optimizer.search.pivot_cut).  Within the tolerance: OPTIMAL, and no
   way of more wheels could do better by more than that, so none is searched.
3. Otherwise the family's model of ways with up to K wheels (every wheel on the lattice's
   degree; optimizer.search.ways.snaking_ways) searches: first, where the family has them, its
   candidate ways of two wheels (optimizer.search.ways.snaking_candidates: per heading sequence on a
   coarse grid, the polygon of end centres cut by the end-position rules, its best point
   judged by the checker, best first; then the lattice's degree round the best), any legal
   one better than the answer taking its place; then the ways through the
   relaxation's best points (templates: every stage's heading fixed, a small model each;
   one is not built when no legal way follows it, or when the region of its end centres
   left by the end-position rules cannot beat the answer so far); then one model of the
   headings near the templates and the answer (the whole family's model when there is
   neither), within its own share of the work budget, left out when an answer is known
   (a March's options hold every one-wheel way; an Advance's answer of one wheel has its
   wheel refined on the lattice's degree by exact geometry instead, the family's
   `refine_wheel`); the better answer is certified again (the same answer: the same
   certificate), with the early cap until the polish has run (optimizer.search.polish).
   OPTIMAL needs the bound; FEASIBLE carries it; no answer in the family is NOT_FOUND.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import numpy as np
from ortools.sat.python import cp_model

from constraints.core.status import Status
from constraints.core.verdict import Verdict
from constraints.errors import EncodingMismatchError
from constraints.sat.context import SearchTimeout
from optimizer.search.certified import Certificates, certified, relaxation_of
from optimizer.search.clock import Clock
from optimizer.search.model import recheck, solver_for
from optimizer.search.request import SearchRequest
from optimizer.search.result import SearchResult
from optimizer.search.template_screen import TemplateScreen
from optimizer.search.ways import ways_of

# The K-wheel models' share of the work budget (CP-SAT deterministic time), at most: per
# way shape tried (TEMPLATES of them), and for the neighbourhood after them (0.1 gave the
# same answers as 0.25 on ten bench cases in 30% less time; templates need 0.2: the S
# through gap.json got 0.985 instead of 0.851 with 0.1).
WAYS_EFFORT = 0.1
TEMPLATES = 8
TEMPLATE_EFFORT = 0.2
TEMPLATE_SPREAD = 6     # lattice steps between the relaxation points the shapes go through
NEIGHBOURHOOD = 10      # lattice steps round the templates' headings the last model holds
COARSE_POINTS = 50_000  # the first grid of the relaxation's parameters, at most
BEST_POINTS = 40        # points kept from each grid for the next, finer one
POINTS_CHUNK = 4096     # grid points judged between looks at the clock
STATUSES = {cp_model.OPTIMAL: Status.OPTIMAL, cp_model.FEASIBLE: Status.FEASIBLE,
            cp_model.INFEASIBLE: Status.INFEASIBLE}


def with_more_wheels(request: SearchRequest, result: SearchResult, clock: Clock,
                     certificates: Certificates | None = None) -> SearchResult:
    """`result` bounded, and bettered by ways of more wheels where it is not proved (the
    module docstring); `certificates` keeps the certificates made, for the stages after."""
    # The status of the search over the family's options (its encodings' own claim).
    result.stats.update({"options_status": str(result.status), "options_value": result.value})
    relaxation = request.relaxation
    if relaxation is None:
        return _unbounded(request, result)
    # The family searched: one wheel, until the model of more wheels runs.
    claimed = result.status
    result = replace(result, proof=result.proof.within_family(
        {"max_wheels": 1, **_described(request)}, bound=result.bound)).proved(
        family_claim=claimed)
    certificates = {} if certificates is None else certificates
    # The front's reach (end_cut.FRONT_CUT) only for an answer that is final: it costs a
    # second or two per request, and the first answers are mostly bettered below.
    bounded = certified(request, result, clock, certificates)
    if bounded.status == Status.OPTIMAL or result.status == Status.TIMEOUT or \
            clock.expired():  # (which remembers that the clock cut the search short)
        return bounded
    if request.family.holds_ways(request.max_wheels, request.lattice):
        return certified(request, result, clock, certificates, final=True)
    refined = _refined(request, result, clock)
    if refined is not None:  # an Advance's wheel on the lattice's degree
        result = refined
        bounded = certified(request, result, clock, certificates).proved(
            family_claim=Status.FEASIBLE)
        if bounded.status == Status.OPTIMAL:
            return bounded
    try:
        searched = _search_ways(request, result, clock, refined is not None)
    except SearchTimeout:
        clock.fired = True
        return bounded
    if searched is None:
        result.stats["ways"] = "not searched: a clause does not state what it judges"
        return bounded
    status, result = searched
    family = _family_status(status, result)
    if not family.found and not result.found:
        none = bounded.proof.none_in_family or family == Status.INFEASIBLE
        return bounded.proved(none_in_family=none, family_claim=family)
    final = certified(request, result, clock, certificates, final=True,
                      capped=True).proved(family_claim=family)
    # Proved under the rules: nothing a longer search could find, whatever cut it short.
    return final.proved(stopped_by=None) if final.status == Status.OPTIMAL else final


def _described(request: SearchRequest) -> dict[str, Any]:
    """What the family searches, where it says (a system's own family)."""
    described = request.family.description
    return {} if described is None else {"ways": described}


def _unbounded(request: SearchRequest, result: SearchResult) -> SearchResult:
    """No relaxation: the solver's status stands for a family that holds every way (on the
    lattice); for one that does not, OPTIMAL only at the objective's floor (no way can do
    better), FEASIBLE otherwise, and INFEASIBLE says nothing beyond the family (NOT_FOUND)."""
    claimed = result.status
    result = result.proved(family_claim=claimed)
    if request.family.holds_every_way:
        return result
    family, floor = {"max_wheels": 1, **_described(request)}, request.goal.floor
    if claimed == Status.OPTIMAL and result.value is not None and floor is not None \
            and abs(result.value - floor) <= request.tolerance:
        return replace(result, proof=result.proof.within_family(family).bounded(
            floor, "any_way", True, request.tolerance))
    bound = None if claimed == Status.OPTIMAL else result.bound
    return replace(result, proof=result.proof.within_family(family, bound=bound))


def _search_ways(request: SearchRequest, result: SearchResult, clock: Clock,
                 refined: bool = False) -> tuple[Status, SearchResult] | None:
    """The family's candidate ways of two wheels first (exact geometry per heading sequence,
    judged by the checker: a better answer screens more templates out); then the ways
    through the relaxation's best lattice points (each a small model of its
    headings, legs free; left out where `TemplateScreen` says so); then the ways near the
    templates and the answer (the whole model when there is neither), unless an answer is
    known and the one-wheel options held every one-wheel way (a March) or its wheel was
    `refined` on the degree (an Advance); None when the family will not model ways under
    these clauses.

    For a March the neighbourhood ran whatever the templates found until 2026-12-01: on the
    Marches of benchmarks/bench_solve.py and bench_wheels.py it never improved the answer and
    cost 0.2-1.4 s.  An Advance's options wheel on 15 deg: the family's `refine_wheel` takes
    its answer's wheel to the lattice's degree by exact geometry (about 0.1 s; the
    neighbourhood model took about 1 s, and gave worse answers on the bench's
    crowded-advance and rocks-advance); the neighbourhood still runs for an Advance whose
    answer it cannot refine (ways of several wheels)."""
    family, ways_search, wheels = request.family, ways_of(request.family), request.max_wheels
    if not ways_search.models_ways(request):
        return None
    candidate = ways_search.way_candidates(request, wheels, _rank(request, result), clock.deadline)
    clock.expired()  # the candidates stop at the deadline: a cut is the clock's
    if candidate is not None:  # a legal way of two wheels, better than the answer so far
        result = _better(request, result, candidate[:2])
        result.stats["ways_candidate"] = candidate[2]
    # A way search may choose its templates by its own points (whfb7's: `template_points`).
    points = _lattice_points(request, clock) if ways_search.template_points \
        else np.zeros((0, 0))
    templates = ways_search.way_templates(request, wheels, points, TEMPLATES, TEMPLATE_SPREAD)
    screen = TemplateScreen(request)
    skipped = 0
    for headings in templates:
        if screen.hopeless(headings, _rank(request, result)):
            skipped += 1
            continue
        template = ways_search.way_search(request, wheels, clock.deadline, [headings])
        if template is None:
            return None
        result = _better(request, result, _solved(request, template, clock,
                                                  TEMPLATE_EFFORT)[1])
    result.stats.update({"ways_templates": len(templates), "ways_templates_skipped": skipped})
    if result.move is not None and refined:
        result.stats["ways_status"] = "not run: an answer is known, its wheel refined"
        return Status.FEASIBLE, result.proved(family={"max_wheels": wheels})
    if result.move is not None and family.holds_ways(1, request.lattice):
        # The templates (or the one-wheel search) found an answer: they do not speak for
        # the family, so it is FEASIBLE.  (An Advance's options wheel on 15 deg: the
        # neighbourhood still refines its wheels on the lattice's degree, below.)
        result.stats["ways_status"] = "not run: an answer is known"
        return Status.FEASIBLE, result.proved(family={"max_wheels": wheels})
    # The ways near the templates and the answer, a neighbourhood, not the family, so its
    # OPTIMAL and INFEASIBLE speak of it alone (the whole model when there is neither).
    around = templates if templates or result.move is not None else None
    ways = ways_search.way_search(request, wheels, clock.deadline, around, NEIGHBOURHOOD,
                             result.move)
    if ways is None:
        return None
    result = result.proved(family={"max_wheels": wheels})
    effort = min(request.effort, WAYS_EFFORT)
    status, found = _solved(request, ways, clock, effort)
    result.stats.update({"ways_status": str(status), "ways_whole": ways.whole})
    if status not in (Status.OPTIMAL, Status.INFEASIBLE):
        result = result.proved(stopped_by="deterministic_time")  # the model's share ran out
    result = _better(request, result, found)
    if not ways.whole and status in (Status.OPTIMAL, Status.INFEASIBLE):
        status = Status.FEASIBLE if result.found else Status.NOT_FOUND
    return status, result


def _refined(request: SearchRequest, result: SearchResult,
             clock: Clock) -> SearchResult | None:
    """The answer with its wheel refined on the lattice's degree by the family's exact
    geometry, where it does that (an Advance: its options wheel on 15 deg), within the
    clock's limit; None otherwise."""
    found = None if result.move is None else \
        ways_of(request.family).refine_wheel(request, result.move, clock)
    if found is None:
        return None
    better = _better(request, result, found)
    return replace(better, stats={**better.stats, "wheel_refined": True})


def _solved(request: SearchRequest, ways: Any, clock: Clock,
            effort: float) -> tuple[Status, tuple[Any, Verdict] | None]:
    """One solve of a way model: its status and its move with the checker's verdict."""
    solver = solver_for(max(0.05, clock.left()), request.workers, effort)
    # The LP without cuts: the way rows' coefficients reach 1e9 and their right-hand sides
    # 1e15 (positions of 1e-9"); with CP-SAT's default cuts a template took 25 s of wall
    # clock for 0.2 of deterministic time, and with a fuller LP (level 2) one was called
    # INFEASIBLE though a legal way satisfies it (docs/techniques.md §10).
    solver.parameters.linearization_level = 1
    solver.parameters.cut_level = 0
    code, move = ways.solve(solver)
    if code == cp_model.MODEL_INVALID:
        raise EncodingMismatchError(f"invalid CP-SAT model: "
                                    f"{ways.enc.sat_model.validate()}")
    status = STATUSES.get(code, Status.TIMEOUT)
    if status not in (Status.OPTIMAL, Status.INFEASIBLE) and \
            solver.deterministic_time < 0.999 * effort:
        clock.fired = True  # the wall clock stopped it before its budget ran out
    return status, (None if move is None else (move, recheck(request.scenario, move)))


def _better(request: SearchRequest, result: SearchResult,
            found: tuple[Any, Verdict] | None) -> SearchResult:
    """The result with the found move instead, when it is better."""
    if found is None:
        return result
    goal, ranked = request.goal, _rank(request, result)
    if ranked is None or goal.better(goal.ranked(found[1]), ranked):
        return replace(result, value=goal.exact(found[1]), move=found[0], verdict=found[1])
    return result


def _rank(request: SearchRequest, result: SearchResult) -> float | None:
    """The answer's value as the search ranks answers (face_point: facing away last)."""
    return result.value if result.verdict is None else request.goal.ranked(result.verdict)


def _lattice_points(request: SearchRequest, clock: Clock) -> np.ndarray:
    """Lattice points (whole steps of every parameter of the relaxation) where it is best,
    best first (ties: most budget to spare): a coarse grid, then finer grids round the best
    points, down to one step; every grid's points are kept, so that the list spans the
    whole range (the relaxation knows no obstacle: its best shapes may all be blocked)."""
    relaxation = relaxation_of(request)
    assert relaxation is not None
    step = np.radians(request.lattice.degree)
    mids, halves = relaxation.initial()
    lo = np.round((mids - halves).min(axis=0) / step)
    hi = np.round((mids + halves).max(axis=0) / step)
    spacing = 1
    while np.prod((hi - lo) / spacing + 1) > COARSE_POINTS:
        spacing *= 2
    axes = [np.arange(a, b + 1, spacing) for a, b in zip(lo, hi, strict=True)]
    points = np.stack(np.meshgrid(*axes, indexing="ij"), -1).reshape(-1, len(lo))
    seen: list[tuple[np.ndarray, np.ndarray, np.ndarray]] = []
    while True:
        values, radius = _point_values(request, points * step, clock)
        keep = np.isfinite(values)
        seen.append((points[keep], values[keep], radius[keep]))
        order = np.lexsort((-radius[keep], values[keep]))[:BEST_POINTS]
        if spacing == 1 or not len(order):
            break
        spacing //= 2
        around = np.stack(np.meshgrid(*[(-spacing, 0, spacing)] * len(lo), indexing="ij"),
                          -1).reshape(-1, len(lo))
        best = points[keep][order]
        points = np.unique(np.clip((best[:, None, :] + around[None]).reshape(-1, len(lo)),
                                   lo, hi), axis=0)
    every, values, spare = (np.concatenate(a) for a in zip(*seen, strict=True))
    every, index = np.unique(every, axis=0, return_index=True)
    order = np.lexsort((-spare[index], values[index]))
    return every[order]


def _point_values(request: SearchRequest, points: np.ndarray,
                  clock: Clock) -> tuple[np.ndarray, np.ndarray]:
    """The relaxation's value (lower is better) and spare radius at each point of headings,
    judged POINTS_CHUNK at a time with a look at the clock between (SearchTimeout)."""
    relaxation = relaxation_of(request)
    assert relaxation is not None
    values, radius = [], []
    for start in range(0, len(points), POINTS_CHUNK):
        if clock.expired():
            raise SearchTimeout("the wall clock ran out while the way templates were drawn")
        chunk = points[start:start + POINTS_CHUNK]
        pieces = relaxation.pieces(chunk, np.zeros(chunk.shape))
        value = request.goal.piece_values(pieces)
        values.append(-value if request.goal.maximise else value)
        radius.append(pieces.radius)
    return np.concatenate(values), np.concatenate(radius)


def _family_status(ways: Status, result: SearchResult) -> Status:
    """The K-wheel family's status: the model's, except that a one-wheel answer the model
    could not express (its legs are whole LEG_IN) still counts as found."""
    if ways == Status.OPTIMAL:
        return Status.OPTIMAL
    if result.found:
        return Status.FEASIBLE
    return ways
