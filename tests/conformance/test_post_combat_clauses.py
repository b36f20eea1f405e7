"""The Post-Combat Pivot's conformance (docs/rules.md §11.9): its clauses (their rule examples
are run by test_rule_examples.py, with every other clause's), and the search sound and
lattice-exact against the checker on those examples: its answer is legal, and no
whole-degree pivot (nor the exact one asked for) that beats it is legal; INFEASIBLE only when
none is."""

from __future__ import annotations

import pytest

from constraints.core.profile import find_profile
from constraints.core.scenario_io import scenario_from_json
from constraints.core.status import Status
from constraints.geometry.plane import angle_between_deg
from constraints.t9a.checker import check_move
from constraints.t9a.moves import Manoeuvre, Move
from optimizer.post_combat import best_pivot
from optimizer.search.objectives import Objective
from optimizer.search.solve import best_move

SPECS = find_profile("t9a").manoeuvres["post_combat_pivot"]
OWN = [s for s in SPECS if s.id.startswith("t9a.post_combat_pivot.")]
CASES = [(spec, ex) for spec in OWN for ex in spec.clause.examples]
TOL = 1e-6


def test_the_manoeuvre_has_its_own_clauses_and_the_shared_end_on_the_table():
    assert [s.id for s in SPECS] == ["t9a.post_combat_pivot.unengaged",
                                     "t9a.post_combat_pivot.model_distance",
                                     "t9a.post_combat_pivot.unit_spacing",
                                     "t9a.table_edge.end"]


def _objectives(scenario, unit_id):
    centre = scenario.unit(unit_id).pose.centre
    return [Objective("target_pose", centre, 0.0), Objective("target_pose", centre, 200.0),
            Objective("face_point", (centre[0] + 10.0, centre[1] - 3.0)),
            Objective("face_point", (centre[0] - 4.0, centre[1] + 20.0))]


def _value(objective, verdict):
    from optimizer.post_combat import _value as exact
    return exact(objective, verdict.end_centre, verdict.end_facing_deg)


@pytest.mark.parametrize(("spec", "example"), CASES, ids=[f"{s.id}: {e.why}" for s, e in CASES])
def test_the_search_is_sound_and_best_on_its_lattice(spec, example):
    scenario = scenario_from_json(example.scenario)
    uid = example.move["unit"]
    unit = scenario.unit(uid)
    for objective in _objectives(scenario, uid):
        result = best_move(scenario, uid, "post_combat_pivot", objective, time_limit_s=60.0)
        assert result.status in (Status.OPTIMAL, Status.INFEASIBLE)
        legal = {}
        for k in range(-179, 181):
            verdict = check_move(scenario, Move(uid, Manoeuvre.POST_COMBAT_PIVOT,
                                                pivot_deg=float(k)))
            if verdict.legal:
                legal[k] = verdict
        if result.status == Status.INFEASIBLE:
            assert not legal and result.blocking
            continue
        assert check_move(scenario, result.move).legal
        assert result.value == pytest.approx(_value(objective, result.verdict), abs=1e-9)
        better = [k for k, v in legal.items()
                  if _value(objective, v) < result.value - 1e-9
                  and not _behind(unit, objective, v)]
        assert not better, (objective, better)


def _behind(unit, objective, verdict):
    """A face_point pose facing away from the point (the search ranks those last)."""
    if objective.name != "face_point":
        return False
    from constraints.geometry.frame import Frame
    return Frame(verdict.end_centre, verdict.end_facing_deg).point(objective.point)[1] < 0


def test_an_exact_facing_that_is_legal_is_met_exactly():
    [open_field] = [e for _, e in CASES if e.why == "a Pivot in the open"]
    scenario = scenario_from_json(open_field.scenario)
    centre = scenario.unit("u").pose.centre
    result = best_pivot(scenario, "u", Objective("target_pose", centre, 33.3))
    assert result.status == Status.OPTIMAL and result.bound == 0.0
    assert angle_between_deg(result.verdict.end_facing_deg, 33.3) < 1e-9
