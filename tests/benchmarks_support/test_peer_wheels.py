"""The per-heading geometry peer over ways of two wheels (benchmarks/baselines_peer_wheels.py):
its answers are legal moves of two wheels, its value is what the checker's end pose gives, and
on a sidestep in the open it does at least as well as the two-wheel brute force; the solver at
K = 3 does at least as well as it where more wheels win."""

from __future__ import annotations

import pytest

from benchmarks.baselines_peer_wheels import geometry_two_wheels
from benchmarks.baselines_wheels import brute_two_wheels
from constraints.core.scenario_io import load_scenario
from constraints.rank_and_file.steps import StepKind
from constraints.sat.lattice import Lattice
from constraints.t9a.checker import check_move
from optimizer.search.objectives import Objective
from optimizer.search.solve import best_move, objective_value
from tests.support import SCENARIOS

SIDESTEP = Objective("target_pose", (28.0, 17.0), 90.0)  # 5" ahead, 4" right, facing 90


@pytest.mark.parametrize("objective", [SIDESTEP, Objective("forward"),
                                       Objective("face_point", (10.0, 30.0))])
def test_the_peer_answers_a_legal_two_wheel_move(objective):
    scenario = load_scenario(SCENARIOS / "open.json")
    move, value, stats = geometry_two_wheels(scenario, "solo", "march", objective)
    assert move is not None and stats["checked"] >= 1
    verdict = check_move(scenario, move)
    assert verdict.legal
    assert sum(s.kind is StepKind.WHEEL for s in move.steps) == 2
    assert value == pytest.approx(objective_value(objective, scenario, verdict))


def test_the_peer_is_no_worse_than_the_brute_force_on_a_sidestep():
    scenario = load_scenario(SCENARIOS / "open.json")
    _, peer, _ = geometry_two_wheels(scenario, "solo", "march", SIDESTEP)
    _, brute, _ = brute_two_wheels(scenario, "solo", "march", SIDESTEP)
    assert peer is not None and brute is not None
    assert peer <= brute + 1e-9
    assert peer < 1.5  # a one-wheel way cannot come within 3" of it (benchmarks/README.md)


@pytest.mark.parametrize(("case", "unit", "objective"), [
    ("open.json", "solo", SIDESTEP),
    ("column.json", "column", Objective("target_pose", (25.0, 17.0), 90.0))])
def test_the_solver_is_no_worse_than_the_peer_where_more_wheels_win(case, unit, objective):
    # The bench's open-sidestep and column-shuffle, on which the solver at K = 3 was worse
    # than the peer before the search took its candidates (0.948 against 0.939, 1.432
    # against 1.194).
    scenario = load_scenario(SCENARIOS / case)
    _, peer, _ = geometry_two_wheels(scenario, unit, "march", objective)
    result = best_move(scenario, unit, "march", objective, max_wheels=3)
    assert peer is not None and check_move(scenario, result.move).legal
    assert result.value <= peer + Lattice().inch
