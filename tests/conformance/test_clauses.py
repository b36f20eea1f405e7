"""The conformance suite: the same tests for every registered clause (docs/architecture.md,
"The clause protocol"), parametrised over the registry
(constraints.core.profile.registered_clauses), so a newly registered clause gets them
without writing any:

- (its rule-example table is run with every other clause's by test_rule_examples.py;)
- encode sound against check: under a profile of that clause alone, every answer the search
  returns passes the checker (best_move re-checks it and raises on a mismatch);
- mask sound against check: every pose the batch mask passes, the checker passes;
- regions: the relaxed region of an option's end centres holds every legal end centre, and
  every centre of the sound region passes the clause;
- the off switch: with its literal off, the clause's rows constrain nothing (the optimum is
  the family's own).
The scenarios are the clause's own examples: they put the unit where the clause binds.
"""

from __future__ import annotations

from dataclasses import replace
from types import MappingProxyType

import numpy as np
import pytest
import shapely
from ortools.sat.python import cp_model

from constraints.core.clause import Clause, Judges
from constraints.core.profile import PROFILES, find_profile, registered_clauses
from constraints.core.scenario_io import scenario_from_json
from constraints.core.status import Status
from constraints.geometry.frame import Frame
from constraints.sat.lattice import Lattice
from constraints.t9a.checker import check_move
from constraints.t9a.move_io import move_from_json
from constraints.t9a.moves import StepKind
from constraints.t9a.ways_model import LEG_IN
from optimizer.batch import BatchJudge
from optimizer.search.model import build_search, solver_for
from optimizer.search.objectives import Objective
from optimizer.search.regions import CentreRegions
from optimizer.search.request import SearchRequest
from optimizer.search.solve import best_move
from optimizer.search.ways import ways_of
from optimizer.search.ways.snaking_ways import stages_of
from tests.conformance import toy_clause
from tests.depth import rows

toy_clause.register()
# T9A's clauses alone: the encodings, masks and regions below are T9A's search (other systems'
# clauses have their own conformance tests, e.g. test_whfb7_clauses.py).
# The Post-Combat Pivot's own clauses are searched by their own search (a Pivot alone), with
# their own suite (test_post_combat_clauses.py); the clauses it shares are tested here.
T9A_CLAUSES = {spec.id for profile in PROFILES.values() if profile.system == "t9a"
               for manoeuvre, specs in profile.manoeuvres.items()
               if manoeuvre != "post_combat_pivot" for spec in specs}
CLAUSES = {cid: spec for cid, spec in registered_clauses().items() if cid in T9A_CLAUSES}
IDS = sorted(CLAUSES)
COARSE = Lattice(inch=0.01, degree=15.0, advance_wheel_deg=15.0)
QUICK_EXAMPLES = 8


def examples_of(clause_id: str) -> list:
    """The clause's examples whose scenario's profile applies it to the move's manoeuvre."""
    spec = CLAUSES[clause_id]
    found = []
    for example in spec.clause.examples:
        profile = find_profile(example.scenario.get("rules", "t9a"))
        manoeuvre = example.move["manoeuvre"]
        if any(s.id == clause_id for s in profile.manoeuvres.get(manoeuvre, ())):
            found.append(example)
    return found


def alone(monkeypatch: pytest.MonkeyPatch, scenario, clause_id: str | None):
    """The scenario under a copy of its profile keeping `clause_id` only (None: no clause)."""
    return keeping(monkeypatch, scenario, {clause_id} if clause_id else set())


def keeping(monkeypatch: pytest.MonkeyPatch, scenario, clause_ids: set[str]):
    """The scenario under a copy of its profile keeping these clauses only."""
    profile = scenario.profile
    manoeuvres = {m: tuple(s for s in specs if s.id in clause_ids)
                  for m, specs in profile.manoeuvres.items()}
    name = f"{profile.name}-only-{'+'.join(sorted(clause_ids)) or None}"
    monkeypatch.setitem(PROFILES, name, replace(profile, name=name,
                                                manoeuvres=MappingProxyType(manoeuvres)))
    return replace(scenario, rules=name)


def cases(clause_id: str):
    for example in examples_of(clause_id):
        yield example, scenario_from_json(example.scenario), move_from_json(example.move)


def test_the_toy_clause_is_registered_through_its_profile_alone():
    assert toy_clause.TOY_ID in CLAUSES
    assert examples_of(toy_clause.TOY_ID)


@pytest.mark.parametrize("clause_id", IDS)
def test_encode_is_sound_against_check(clause_id, monkeypatch):
    solved = 0
    # (tests.depth: a quick run takes a clause's first 8 examples; the Model Paths' 17 took
    # 34-58 s, each a Reform solved with every safe disc.)
    for _example, scenario, move in rows(cases(clause_id), QUICK_EXAMPLES):
        s = alone(monkeypatch, scenario, clause_id)
        end = check_move(scenario, move).end_centre
        objectives = [Objective("target_distance", end)]
        if move.manoeuvre.snaking:  # (a Reform's forward-most pose needs every safe disc)
            objectives.append(Objective("forward"))
        for objective in objectives:
            # best_move re-checks every answer under s's profile (this clause alone) and
            # raises EncodingMismatchError if it fails.
            result = best_move(s, move.unit, move.manoeuvre, objective, lattice=COARSE,
                               time_limit_s=120.0)
            assert result.status != Status.TIMEOUT
            if result.found:
                assert check_move(s, result.move).legal
                solved += 1
    assert solved


@pytest.mark.parametrize("clause_id", IDS)
def test_mask_is_sound_against_check(clause_id, monkeypatch):
    """Random end centres of random options: every one the mask passes, the checker passes."""
    rng = np.random.default_rng(len(clause_id))
    passed = 0
    for _example, scenario, move in cases(clause_id):
        s = alone(monkeypatch, scenario, clause_id)
        request = SearchRequest(s, move.unit, move.manoeuvre, Objective("forward"), COARSE)
        options, reach = request.options()
        judge = BatchJudge(s, move.unit, move.manoeuvre)
        for k in rng.choice(len(options), size=min(10, len(options)), replace=False):
            coords = shapely.get_coordinates(reach[k])
            centres = rng.dirichlet(np.ones(len(coords)), 30) @ coords
            ok = request.family.mask(judge, request.frame.world_array(centres), [options[k]],
                                     np.zeros(len(centres), dtype=int))
            for centre in centres[ok]:
                end = request.family.move(move.unit, request.frame, options[k], tuple(centre))
                assert check_move(s, end).legal, end
                passed += 1
    assert passed


def _sampled_centres(scenario, move, rng):
    """(option, frame centre, legal under the scenario's profile) for random end centres of
    random options of the move's family, on the coarse lattice."""
    request = SearchRequest(scenario, move.unit, move.manoeuvre, Objective("forward"), COARSE)
    options, reach = request.options()
    picks = rng.choice(len(options), size=min(12, len(options)), replace=False)
    for k in picks:
        coords = shapely.get_coordinates(reach[k])
        weights = rng.dirichlet(np.ones(len(coords)), 4)
        for centre in weights @ coords:
            end = request.family.move(move.unit, request.frame, options[k], tuple(centre))
            verdict = check_move(scenario, end)
            yield options[k], Frame(*_start(request)).point(verdict.end_centre), verdict.legal


def _start(request):
    return request.unit.pose.centre, request.unit.pose.facing_deg


@pytest.mark.parametrize("clause_id", IDS)
def test_regions_hold_the_legal_centres(clause_id, monkeypatch):
    """The relaxed region, with the cut by the way's sweep too, holds every legal end centre
    (with no region of its own, the clause leaves the family's reach, which must hold them
    too); where the clause has a sound region, every centre of it passes the clause."""
    rng = np.random.default_rng(len(clause_id))
    clause = CLAUSES[clause_id].clause
    has_region = clause.region is not Clause.region and clause.sound_regions
    for _example, scenario, move in cases(clause_id):
        s = alone(monkeypatch, scenario, clause_id)
        unit = s.unit(move.unit)
        outer = CentreRegions(s, unit, move.manoeuvre, outer=True, sweeps=True)
        inner = CentreRegions(s, unit, move.manoeuvre, outer=False)
        for option, centre, legal in _sampled_centres(s, move, rng):
            point = shapely.Point(centre)
            if legal:
                assert outer.of(option).distance(point) <= 1e-7, (option, centre)
            elif has_region and inner.of(option).buffer(-1e-7).contains(point):
                assert clause_id not in check_move(s, _move_to(s, move, option, centre)).clauses()


def _move_to(s, move, option, centre):
    request = SearchRequest(s, move.unit, move.manoeuvre, Objective("forward"), COARSE)
    return request.family.move(move.unit, request.frame, option, tuple(centre))


@pytest.mark.parametrize("clause_id", IDS)
def test_off_switch(clause_id, monkeypatch):
    """With its literal off, the clause's rows constrain nothing: the optimum equals that of
    the same search (same options: the clause still bounds the family) without its rows."""
    for _example, scenario, move in list(cases(clause_id))[:2]:
        s = alone(monkeypatch, scenario, clause_id)
        values = [off_optimum(s, move.unit, move.manoeuvre, encoded) for encoded in (True, False)]
        assert values[0] == values[1], (clause_id, values)


def off_optimum(scenario, unit_id: str, manoeuvre: str, encoded: bool) -> float:
    """The forward-most optimum with every clause literal off: with the clauses' rows
    (`encoded`) or without them (the same request, the same options)."""
    request = SearchRequest(scenario, unit_id, manoeuvre, Objective("forward"), COARSE)
    assert request.limits is not None  # the family's limits, with the clause
    if not encoded:
        request.__dict__["clauses"] = []  # the same request, its rows left out
    search = build_search(request, guard_clauses=True)
    for lit in search.clause_lits.values():
        search.enc.sat_model.add(lit == 0)
    request.goal.post(search.enc, search.ectx.centre_regions)
    solver = solver_for(600.0)  # a proof, however slow the machine
    assert solver.solve(search.enc.sat_model) == cp_model.OPTIMAL
    return solver.objective_value


# --- The model of ways with several wheels --------------------------------------------------

def _fixed_way(ways, move, step_deg: float) -> bool:
    """Fix the model's way to the move's (headings in lattice steps, legs in LEG_IN); False
    when the model cannot hold it (a heading outside its domain rules the way out)."""
    headings, legs = stages_of(move, step_deg)
    model = ways.enc.sat_model
    for stage, h in zip(ways.way.stages, headings, strict=False):
        if h not in stage.onehot:
            return False
        model.add(stage.onehot[h] == 1)
    for total, leg in zip(ways.way.leg_totals, legs, strict=False):
        model.add(total == leg)
    return True


def _on_lattice(move, step_deg: float) -> bool:
    """A way the model can hold: steps alone (no formation or pose of its own), on the
    lattice."""
    if (move.files, move.centre, move.facing_deg, move.assignment) != (None,) * 4:
        return False
    values = [(s.value / step_deg) if s.kind == StepKind.WHEEL else s.value / LEG_IN
              for s in move.steps] + [move.pivot_deg / step_deg]
    return all(abs(v - round(v)) < 1e-9 for v in values)


@pytest.mark.parametrize("clause_id", IDS)
def test_way_rows_are_sound_against_check(clause_id, monkeypatch):
    """The clause's rule examples as fixed ways of the several-wheel model, under the clause
    and the two that define the family (distance, heading window): wherever the model
    admits the way, the checker passes it."""
    admitted = judged = 0
    for _example, scenario, move in cases(clause_id):
        if not move.manoeuvre.snaking or not _on_lattice(move, 1.0):
            continue
        family = {s.id for s in scenario.profile.manoeuvres[move.manoeuvre]
                  if s.id.endswith((".distance", ".heading_window"))}
        s = keeping(monkeypatch, scenario, {clause_id} | family)
        wheels = max(1, sum(st.kind == StepKind.WHEEL for st in move.steps))
        request = SearchRequest(s, move.unit, move.manoeuvre, Objective("forward"),
                                max_wheels=wheels)
        ways = ways_of(request.family).way_search(request, wheels, deadline=float("inf"))
        if ways is None:  # a clause that does not say what it judges: no way search
            assert CLAUSES[clause_id].clause.judges == Judges.UNSTATED
            continue
        judged += 1
        if not _fixed_way(ways, move, 1.0):
            continue
        status, found = ways.solve(solver_for(600.0))  # a proof, however slow
        assert status in (cp_model.OPTIMAL, cp_model.INFEASIBLE), status
        if found is not None:
            admitted += 1
            assert check_move(s, move).legal, (clause_id, move)
            assert check_move(s, found).legal, (clause_id, found)
    # A clause of the way admits its legal examples (end-pose rows keep a lattice tick back,
    # and their examples sit on the limit).
    if judged and CLAUSES[clause_id].clause.judges == Judges.WAY:
        assert admitted or all(e.breaks for e in examples_of(clause_id)), clause_id


def test_a_clause_that_does_not_say_what_it_judges_keeps_the_way_search_off(monkeypatch):
    _example, scenario, move = next(cases(toy_clause.TOY_ID))
    s = keeping(monkeypatch, scenario, {toy_clause.TOY_ID, "t9a.march.distance",
                                        "t9a.march.heading_window"})
    result = best_move(s, move.unit, "march", Objective("forward"), time_limit_s=120.0)
    assert result.family == {"max_wheels": 1} and result.found
    assert result.status == Status.FEASIBLE or result.value - result.bound <= result.tolerance
