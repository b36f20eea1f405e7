"""Best legal move by CP-SAT: derived data, variables, clause rows, objective, solve, re-check.

Every answer is re-judged by the exact checker before it is returned; a rejection is our bug
(`EncodingMismatchError`).  INFEASIBLE means proved on the stated lattice and move family
(constraints.options); a time-out without an answer is TIMEOUT, never "no legal move".
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from ortools.sat.python import cp_model

from constraints.core.scenario import Scenario
from constraints.core.verdict import Verdict
from constraints.errors import EncodingMismatchError
from constraints.geometry.frame import Frame
from constraints.geometry.plane import angle_between_deg, normalise_deg
from constraints.rank_and_file.family_limits import family_limits
from constraints.sat.context import EncodeContext, SearchTimeout
from constraints.sat.encoding import MoveEncoding
from constraints.sat.lattice import Lattice
from constraints.sat.option import Option
from constraints.t9a.checker import check_move, validate_move
from constraints.t9a.moves import Move, Step
from optimizer.families.options import legs
from optimizer.families.search_space import bound_in, options_for
from optimizer.search.incumbent import Incumbent, value_of
from optimizer.search.objectives import Objective, post_objective
from optimizer.search.prefilter import focus_discs, prefilter

DEFAULT_TIME_LIMIT_S = 10.0
# Half-width (ticks, per unit of |normal|_1) of the band that stands for an off-axis straight
# line (it then holds the rounded point of every point of the line).
BAND_TICKS = 0.5
# A band's "first leg >= 0" row is let off by this much so that rounding its irrational
# coefficients cannot exclude the start centre (a Pivot with no move).
BAND_BACK_TICKS = 0.001


@dataclass(frozen=True)
class SearchResult:
    """A search's answer: status, objective, lattice, time, and the move with its verdict."""

    status: str
    objective: Objective
    value: float | None
    bound: float | None
    lattice: Lattice
    elapsed_s: float
    move: Move | None = None
    verdict: Verdict | None = None
    blocking: tuple[str, ...] = ()
    stats: dict[str, Any] = field(default_factory=dict)

    @property
    def found(self) -> bool:
        return self.move is not None

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "status": self.status,
            "objective": {"name": self.objective.name, "value": _round(self.value),
                          "bound": _round(self.bound)},
            "lattice": self.lattice.to_json(), "elapsed_s": round(self.elapsed_s, 4),
            "move": self.move.to_json() if self.move else None,
            "verdict": self.verdict.to_json() if self.verdict else None}
        if self.blocking:
            out["blocking"] = list(self.blocking)
        return out


def _round(value: float | None) -> float | None:
    return None if value is None or not math.isfinite(value) else round(value, 6)


@dataclass
class Search:
    """One assembled model: the encoding, its context, and the clause literals."""

    scenario: Scenario
    unit_id: str
    manoeuvre: str
    lattice: Lattice
    ectx: EncodeContext
    clause_lits: dict[str, Any]


def build_search(scenario: Scenario, unit_id: str, manoeuvre: str, lattice: Lattice,
                 guard_clauses: bool = False, only: Any = None,
                 reach_in: float = 0.0, deadline: float | None = None,
                 focus: dict[int, Any] | None = None) -> Search:
    """Derived data, variables and every clause's rows; `guard_clauses` puts each clause
    behind a literal (for unsat cores); `only` restricts the option list (a predicate);
    `reach_in` widens the centre variables' range (so a far request fails on a clause, not
    on a variable's domain); `focus` (by option index) is EncodeContext.focus."""
    validate_move(scenario, Move(unit_id, manoeuvre))
    unit = scenario.unit(unit_id)
    options, regions = options_for(scenario, unit, manoeuvre, lattice)
    kept = list(range(len(options)))
    if only is not None:
        kept = [k for k, o in enumerate(options) if only(o)]
        options = _reindexed([options[k] for k in kept])
        regions = [regions[k] for k in kept]
    focus = focus or {}
    enc = MoveEncoding(options, lattice, max(bound_in(regions), reach_in))
    ectx = EncodeContext(scenario, unit, manoeuvre, enc, regions, deadline,
                         focus={new: focus[old] for new, old in enumerate(kept) if old in focus})
    bands = [bool(o.info.get("band")) for o in options]
    band = BAND_TICKS if any(bands) else 0.0
    # A lattice point of the band lies within band x |normal|_1 <= band x sqrt(2) ticks of
    # the line on each axis, plus BAND_BACK along it (a first leg of -BAND_BACK is decoded as
    # 0): every row about a band option allows for that.
    enc.use_bands(bands, band * math.sqrt(2.0) + BAND_BACK_TICKS)
    enc.about_lattice_point = True
    for option, lit in zip(options, enc.option_vars, strict=True):
        # The family's own rows: legs never go backwards (a band: see constraints.options).
        on_band = bool(option.info.get("band"))
        width = band * (abs(option.reach[0].normal[0]) + abs(option.reach[0].normal[1])) \
            if on_band else 0.0
        for k, hp in enumerate(option.reach):
            room = width if k < 2 else (BAND_BACK_TICKS if on_band else 0.0)
            enc.centre_row(hp.normal, hp.rhs + room * enc.tick, [lit])
    enc.about_lattice_point = False
    clauses = scenario.profile.clauses(manoeuvre)
    if manoeuvre != "reform" and family_limits(clauses, unit).budget_in is None:
        _family_budget_rows(enc)  # no clause bounds the distance: the family's own budget
    lits: dict[str, Any] = {}
    for clause in clauses:
        if guard_clauses:
            enc.clause_lit = lits[clause.id] = enc.sat_model.new_bool_var(clause.id)
        clause.encode(ectx)
        enc.clause_lit = None
        ectx.check_time()
    return Search(scenario, unit_id, manoeuvre, lattice, ectx, lits)


def _family_budget_rows(enc: MoveEncoding) -> None:
    """a + b within the family's budget (constraints.options): the distance clause's row
    when the profile has one; without it the centre would leave the option's region, which
    encodings prune rows by (constraints.clauses.separation)."""
    for option, lit in zip(enc.options, enc.option_vars, strict=True):
        spare = option.info["budget_in"] - option.info["wheel_cost_in"]
        a, b = option.a_map, option.b_map
        enc.affine_row((a[0] + b[0], a[1] + b[1], a[2] + b[2]), spare, [lit])


def _reindexed(options: list[Option]) -> list[Option]:
    from dataclasses import replace

    return [replace(o, index=k) for k, o in enumerate(options)]


def solver_for(time_limit_s: float, workers: int = 1) -> cp_model.CpSolver:
    solver = cp_model.CpSolver()
    solver.parameters.max_time_in_seconds = time_limit_s
    solver.parameters.num_workers = workers
    solver.parameters.random_seed = 0
    solver.parameters.cp_model_probing_level = 0  # TECHNIQUES.md: 5-11x faster here
    # One presolve round: the models are small and pruned, and the later rounds cost more
    # than they saved (CP-SAT time on the bench cases: rocks-march 0.26 -> 0.19 s,
    # crowded-reform 0.40 -> 0.19 s, none slower).
    solver.parameters.max_presolve_iterations = 1
    return solver


def best_move(scenario: Scenario, unit_id: str, manoeuvre: str, objective: Objective, *,
              time_limit_s: float = DEFAULT_TIME_LIMIT_S, lattice: Lattice | None = None,
              workers: int = 1) -> SearchResult:
    """The best legal `manoeuvre` of a unit for `objective`, proved on the lattice."""
    started = time.perf_counter()
    lattice = lattice or Lattice()
    validate_move(scenario, Move(unit_id, manoeuvre))
    unit = scenario.unit(unit_id)
    frame = Frame(unit.pose.centre, unit.pose.facing_deg)
    point = frame.point(objective.point) if objective.point is not None else None
    facing = None if objective.facing_deg is None else \
        90.0 + objective.facing_deg - unit.pose.facing_deg
    options, regions = options_for(scenario, unit, manoeuvre, lattice)
    incumbent, keep, relaxed = prefilter(scenario, unit_id, manoeuvre, objective, lattice,
                                          options, regions, (point, facing),
                                          started + time_limit_s / 2)
    # Centres beyond an option's focus disc cannot beat the incumbent: encodings may leave
    # them out (a Reform's model paths then need one safe disc, not nine).
    focus = focus_discs(objective, options, keep, point, facing, incumbent, lattice.inch)
    result = _solve_kept(scenario, unit_id, manoeuvre, lattice, objective, keep, incumbent,
                         (point, facing), time_limit_s, workers, started,
                         [relaxed.get(k, regions[k]) for k in keep], focus)
    if incumbent is not None and len(keep) < len(options) and not _proved(result, incumbent):
        # The incumbent (legal, found by the batch mask) is not a solution of the model, so
        # the pruning argument does not hold: search every option instead.
        result = _solve_kept(scenario, unit_id, manoeuvre, lattice, objective,
                             list(range(len(options))), None, (point, facing), time_limit_s,
                             workers, started, regions)
    if result.move is None and incumbent is not None and result.status == "TIMEOUT":
        result = _incumbent_result(scenario, unit_id, manoeuvre, frame, options[incumbent.option],
                                   incumbent, objective, lattice, started)
    result.stats.update({"options_total": len(options), "incumbent": incumbent is not None})
    return result


def _incumbent_result(scenario: Scenario, unit_id: str, manoeuvre: str, frame: Frame,
                      option: Option, incumbent: Incumbent, objective: Objective,
                      lattice: Lattice, started: float) -> SearchResult:
    """Time ran out before a proof: the legal starting answer, as FEASIBLE (anytime)."""
    move = option_move(unit_id, manoeuvre, frame, option, incumbent.centre)
    verdict = recheck(scenario, move)
    return SearchResult("FEASIBLE", objective, objective_value(objective, scenario, verdict),
                        None, lattice, time.perf_counter() - started, move, verdict)


def _solve_kept(scenario: Scenario, unit_id: str, manoeuvre: str, lattice: Lattice,
                objective: Objective, keep: list, incumbent: Incumbent | None,
                target: tuple[Any, Any], time_limit_s: float, workers: int,
                started: float, objective_regions: list,
                focus: dict[int, Any] | None = None) -> SearchResult:
    """CP-SAT over the options in `keep`; `objective_regions` (one per kept option, holding
    every legal end centre of it) bound the objective per option; `focus`: see
    EncodeContext.focus."""
    kept = set(keep)
    try:
        search = build_search(scenario, unit_id, manoeuvre, lattice,
                              only=lambda o: o.index in kept, deadline=started + time_limit_s,
                              focus=focus)
    except SearchTimeout:
        return SearchResult("TIMEOUT", objective, None, None, lattice,
                            time.perf_counter() - started)
    enc = search.ectx.enc
    post_objective(enc, objective, target[0], target[1], objective_regions)
    if incumbent is not None:
        _hint(enc, keep.index(incumbent.option), incumbent.centre)
    left = max(0.05, started + time_limit_s - time.perf_counter())
    solver = solver_for(left, workers)
    status = solver.solve(enc.sat_model)
    result = _result(search, solver, status, objective, started)
    if result.move is not None:
        option, centre = solution(search, solver)
        result.stats["search_value"] = float(value_of(objective, option, np.array([centre]),
                                                      target[0], target[1])[0])
    return result


def _proved(result: SearchResult, incumbent: Incumbent) -> bool:
    """Whether the pruned search's answer is at least as good as the incumbent (in the
    bound's units), so no pruned option could have done better."""
    found = result.stats.get("search_value")
    if result.status != "OPTIMAL" or found is None:
        return result.status not in ("OPTIMAL", "INFEASIBLE")  # FEASIBLE / TIMEOUT: as is
    # The search's objective rounds (integer norm directions, 1e-5 lateral coefficients).
    slack = 1e-4 + 2e-3 * abs(incumbent.value)
    if result.objective.maximise:
        return bool(found >= incumbent.value - slack)
    return bool(found <= incumbent.value + slack)


def _hint(enc: MoveEncoding, option: int, centre: tuple[float, float]) -> None:
    """Start the search from the incumbent (a legal lattice point)."""
    for k, lit in enumerate(enc.option_vars):
        enc.sat_model.add_hint(lit, k == option)
    enc.sat_model.add_hint(enc.i, round(centre[0] / enc.tick))
    enc.sat_model.add_hint(enc.j, round(centre[1] / enc.tick))


def _result(search: Search, solver: cp_model.CpSolver, status: Any, objective: Objective,
            started: float) -> SearchResult:
    name = {cp_model.OPTIMAL: "OPTIMAL", cp_model.FEASIBLE: "FEASIBLE",
            cp_model.INFEASIBLE: "INFEASIBLE"}.get(status, "TIMEOUT")
    if status == cp_model.MODEL_INVALID:
        raise EncodingMismatchError(f"invalid CP-SAT model: {search.ectx.enc.sat_model.validate()}")
    stats = {"options": len(search.ectx.options), "wall_s": solver.wall_time,
             "branches": solver.num_branches}
    if name not in ("OPTIMAL", "FEASIBLE"):
        return SearchResult(name, objective, None, None, search.lattice,
                            time.perf_counter() - started, stats=stats)
    move = decode(search, solver)
    verdict = recheck(search.scenario, move)
    value = objective_value(objective, search.scenario, verdict)
    bound = value if name == "OPTIMAL" else None
    return SearchResult(name, objective, value, bound, search.lattice,
                        time.perf_counter() - started, move, verdict, stats=stats)


def solution(search: Search, solver: cp_model.CpSolver) -> tuple[Option, tuple[float, float]]:
    """The solved option and end centre (start-frame inches)."""
    enc = search.ectx.enc
    k = next(k for k, lit in enumerate(enc.option_vars) if solver.boolean_value(lit))
    return enc.options[k], enc.centre_in((solver.value(enc.i), solver.value(enc.j)))


def decode(search: Search, solver: cp_model.CpSolver) -> Move:
    """The move of the solved option and centre, written as FORMAT.md steps."""
    option, centre = solution(search, solver)
    return move_of(search, option, centre)


def move_of(search: Search, option: Option, centre: tuple[float, float]) -> Move:
    """The move an option takes to a frame end centre."""
    return option_move(search.unit_id, search.manoeuvre, search.ectx.frame, option, centre)


def option_move(unit_id: str, manoeuvre: str, frame: Frame, option: Option,
                centre: tuple[float, float]) -> Move:
    """The move of `option` ending at a start-frame centre, as FORMAT.md steps."""
    if manoeuvre == "reform":
        return Move(unit_id, "reform", files=option.files, centre=frame.world(centre),
                    facing_deg=normalise_deg(option.facing_deg))
    a, b = legs(option, centre)
    steps = [Step("forward", a), Step("wheel", option.wheel_deg), Step("forward", b)]
    return Move(unit_id, manoeuvre, steps=tuple(s for s in steps if s.value != 0.0),
                pivot_deg=option.pivot_deg)


def recheck(scenario: Scenario, move: Move) -> Verdict:
    verdict = check_move(scenario, move)
    if not verdict.legal:
        raise EncodingMismatchError(
            f"the solver's {move.manoeuvre} of {move.unit} breaks "
            f"{', '.join(v.clause + ' (' + v.message + ')' for v in verdict.violations)}; "
            f"move {move.to_json()}")
    return verdict


def objective_value(objective: Objective, scenario: Scenario, verdict: Verdict) -> float:
    """The objective of a judged end pose, exactly (inches, or inches forward)."""
    unit = scenario.unit(verdict.unit)
    if objective.name == "forward":
        return Frame(unit.pose.centre, unit.pose.facing_deg).point(verdict.end_centre)[1]
    assert objective.point is not None
    if objective.name == "front_target_distance":
        fl, fr = verdict.end_corners[0], verdict.end_corners[1]
        return math.dist(((fl[0] + fr[0]) / 2, (fl[1] + fr[1]) / 2), objective.point)
    if objective.name == "face_point":
        frame = Frame(verdict.end_centre, verdict.end_facing_deg)
        return abs(frame.point(objective.point)[0])
    distance = math.dist(verdict.end_centre, objective.point)
    if objective.name == "target_pose":
        assert objective.facing_deg is not None
        turn = angle_between_deg(verdict.end_facing_deg, objective.facing_deg)
        return math.hypot(distance, 0.1 * turn)
    return distance
