"""The CP-SAT model of one search, as the OR-tools samples build theirs: derived data (the
family's options and regions), variables (constraints.sat.encoding), the family's own rows,
every clause's rows; then the solver's settings, and reading a solution back as a move that
the exact checker judges again.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

from ortools.sat.python import cp_model

from constraints.core.system import find_system
from constraints.core.verdict import Verdict
from constraints.errors import EncodingMismatchError
from constraints.sat.context import EncodeContext, SearchTimeout
from constraints.sat.encoding import MoveEncoding
from constraints.sat.option import Option
from optimizer.families.base import bound_in
from optimizer.search.request import SearchRequest
from optimizer.search.watch import current


@dataclass
class Search:
    """One assembled model: the request, the encoding with its context, clause literals."""

    request: SearchRequest
    ectx: EncodeContext
    clause_lits: dict[str, Any]
    # The request's index of each model option (`build_search(only=...)` numbers the kept
    # options 0, 1, ...); None: all of them, in order
    kept: tuple[int, ...] | None = None

    @property
    def enc(self) -> MoveEncoding:
        return self.ectx.enc

    def request_index(self, k: int) -> int:
        """The request's index of the model's option `k`."""
        return k if self.kept is None else self.kept[k]


def build_search(request: SearchRequest, *, guard_clauses: bool = False,
                 only: Callable[[Option], bool] | None = None, reach_in: float = 0.0,
                 deadline: float | None = None,
                 focus: dict[int, Any] | None = None, max_rows: int | None = None) -> Search:
    """Derived data, variables and every clause's rows; `guard_clauses` puts each clause
    behind a literal (for unsat cores); `only` restricts the option list (a predicate);
    `reach_in` widens the centre variables' range (so a far request fails on a clause, not
    on a variable's domain); `focus` (by option index) is EncodeContext.focus; past the
    `deadline` (time.perf_counter) or `max_rows` rows, SearchTimeout."""
    _look(deadline)
    watch = current()
    options, regions = request.options()
    kept = list(range(len(options)))
    if only is not None:
        kept = [k for k, o in enumerate(options) if only(o)]
        options = [replace(options[k], index=n) for n, k in enumerate(kept)]
        regions = [regions[k] for k in kept]
    focus = focus or {}
    enc = MoveEncoding(options, request.lattice, max(bound_in(regions), reach_in),
                       watch=None if deadline is None else lambda: _look(deadline))
    ectx = EncodeContext(request.scenario, request.unit, request.manoeuvre, enc, regions,
                         deadline,
                         focus={new: focus[old] for new, old in enumerate(kept) if old in focus},
                         max_rows=max_rows, stop=None if watch is None else watch.stopped)
    request.family.post_rows(enc, request.limits)
    lits: dict[str, Any] = {}
    for clause in request.clauses:
        if guard_clauses:
            lits[clause.id] = enc.sat_model.new_bool_var(clause.id)
            with enc.guarded_by(lits[clause.id]):
                clause.encode(ectx)
        else:
            clause.encode(ectx)
        ectx.check_time()
    return Search(request, ectx, lits, None if only is None else tuple(kept))


def _look(deadline: float | None) -> None:
    """SearchTimeout once `deadline` (time.perf_counter) has passed."""
    if deadline is not None and time.perf_counter() > deadline:
        raise SearchTimeout("the time limit ran out while building the model")
    watch = current()
    if watch is not None and watch.stopped.is_set():
        raise SearchTimeout("the search was stopped while building the model")


def solver_for(time_limit_s: float, workers: int = 1,
               effort: float | None = None) -> cp_model.CpSolver:
    """A solver capped by a wall clock (`time_limit_s`) and, when given, by deterministic
    work (`effort`, CP-SAT's deterministic time): with one worker, the same model and effort
    give the same answer whatever the load, as long as the wall clock does not fire."""
    solver = cp_model.CpSolver()
    solver.parameters.max_time_in_seconds = time_limit_s
    if effort is not None:
        solver.parameters.max_deterministic_time = effort
    solver.parameters.num_workers = workers
    solver.parameters.random_seed = 0
    solver.parameters.cp_model_probing_level = 0  # docs/techniques.md §1: 5-11x faster here
    # One presolve round: the models are small and pruned, and the later rounds cost more
    # than they saved (CP-SAT time on the bench cases: rocks-march 0.26 -> 0.19 s,
    # crowded-reform 0.40 -> 0.19 s, none slower).
    solver.parameters.max_presolve_iterations = 1
    watch = current()
    if watch is not None:  # a streaming client that goes away stops the solve
        watch.solving(solver)
    return solver


def solution(search: Search, solver: cp_model.CpSolver) -> tuple[Option, tuple[float, float]]:
    """The solved option and end centre (start-frame inches)."""
    enc = search.enc
    k = next(k for k, lit in enumerate(enc.option_vars) if solver.boolean_value(lit))
    ticks = (solver.value(enc.right_ticks), solver.value(enc.forward_ticks))
    return enc.options[k], enc.centre_in(ticks)


def decode(search: Search, solver: cp_model.CpSolver) -> Any:
    """The move of the solved option and centre, written as a move file writes it."""
    option, centre = solution(search, solver)
    request = search.request
    return request.family.move(request.unit_id, request.frame, option, centre)


def recheck(scenario: Any, move: Any) -> Verdict:
    """The exact checker's verdict on a move the search returns: illegal is our bug."""
    verdict: Verdict = find_system(scenario.rules).check(scenario, move)
    if not verdict.legal:
        raise EncodingMismatchError(
            f"the solver's {move.manoeuvre} of {move.unit} breaks "
            f"{', '.join(v.clause + ' (' + v.message + ')' for v in verdict.violations)}; "
            f"move {move.to_json()}")
    return verdict
