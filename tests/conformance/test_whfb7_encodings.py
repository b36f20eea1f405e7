"""The whfb7 clauses' CP-SAT rows against their checker (Warhammer Fantasy Battle 7th), the
counterpart of test_clauses.py's encode and off-switch tests for T9A:

- encode sound against check: under a profile of one clause alone, on the clause's own rule
  examples, every answer the search returns passes the checker (best_move re-checks it with
  the whfb7 checker and raises EncodingMismatchError on a mismatch), and some answer is found;
- the off switch: with its literal off, the clause's rows constrain nothing (the optimum is
  that of the same search without its rows).
"""

from __future__ import annotations

import pytest

from constraints.core.profile import find_profile
from constraints.core.scenario_io import scenario_from_json
from constraints.core.status import Status
from constraints.sat.lattice import Lattice
from constraints.whfb7.checker import check_move
from constraints.whfb7.move_io import move_from_json
from optimizer.search.objectives import Objective
from optimizer.search.solve import best_move
from tests.conformance.test_clauses import alone, off_optimum

PROFILE = find_profile("whfb7")
IDS = sorted({spec.id for specs in PROFILE.manoeuvres.values() for spec in specs})
COARSE = Lattice(inch=0.01, degree=15.0, advance_wheel_deg=15.0)


def cases(clause_id: str):
    """The clause's rule examples whose manoeuvre the profile judges by it."""
    for manoeuvre, specs in PROFILE.manoeuvres.items():
        if not any(s.id == clause_id for s in specs):
            continue
        spec = next(s for s in specs if s.id == clause_id)
        for example in spec.clause.examples:
            if example.move["manoeuvre"] == manoeuvre:
                yield scenario_from_json(example.scenario), move_from_json(example.move)


@pytest.mark.parametrize("clause_id", IDS)
def test_encode_is_sound_against_check(clause_id, monkeypatch):
    solved = 0
    for scenario, move in cases(clause_id):
        s = alone(monkeypatch, scenario, clause_id)
        end = check_move(scenario, move).end_centre
        for objective in (Objective("target_distance", end), Objective("forward")):
            result = best_move(s, move.unit, str(move.manoeuvre), objective, lattice=COARSE,
                               time_limit_s=120.0)
            assert result.status != Status.TIMEOUT
            if result.found:
                assert check_move(s, result.move).legal
                solved += 1
    assert solved, clause_id


@pytest.mark.parametrize("clause_id", IDS)
def test_off_switch(clause_id, monkeypatch):
    """With its literal off, the clause's rows constrain nothing."""
    for scenario, move in list(cases(clause_id))[:2]:
        s = alone(monkeypatch, scenario, clause_id)
        manoeuvre = str(move.manoeuvre)
        values = [off_optimum(s, move.unit, manoeuvre, encoded) for encoded in (True, False)]
        assert values[0] == values[1], (clause_id, values)
