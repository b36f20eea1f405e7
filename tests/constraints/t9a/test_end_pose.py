"""Advance and March moves given by their end pose (docs/rules.md §4.8): a way found is legal,
a proof is illegal naming its clause, and anything else is "not proved", never a false
violation."""

import json
import math

import numpy as np
import pytest

from constraints.core.verdict import Verdict, Violation
from constraints.geometry.plane import angle_between_deg
from constraints.rank_and_file.family_limits import family_limits
from constraints.rank_and_file.kinematics import snake
from constraints.t9a.checker import check_move
from constraints.t9a.moves import Move, Step, StepKind, forward, wheel
from tests.support import scenario, unit, wall

FREE = scenario(unit(mobility=4.0, centre=(36.0, 10.0)))  # 5" x 2", Mob 4, facing +y


def end_pose_of(s, manoeuvre: str, *steps: Step, pivot: float = 0.0) -> Move:
    """The end pose of a move given by steps, as a move given by that end pose."""
    executed = snake(s.unit("u"), pivot, steps)
    return Move("u", manoeuvre, centre=executed.end.centre, facing_deg=executed.end.facing_deg)


def executed(s, verdict: Verdict):
    """The trajectory of the steps a verdict names (its Pivot first, when there is one)."""
    pivot, steps = 0.0, []
    for step in verdict.steps or ():
        for kind, value in step.items():
            if kind == "pivot":
                pivot = value
            else:
                steps.append(Step(StepKind(kind), value))
    return snake(s.unit("u"), pivot, tuple(steps))


def assert_reaches(s, move: Move, verdict: Verdict) -> float:
    """The verdict's way ends on the asked pose to 1e-9; returns its Snaking distance."""
    assert move.centre is not None and move.facing_deg is not None
    way = executed(s, verdict)
    assert math.dist(way.end.centre, move.centre) <= 1e-9
    assert angle_between_deg(way.end.facing_deg, move.facing_deg) <= 1e-9
    return way.distance_in


def wheels_in(verdict: Verdict) -> int:
    return sum(1 for step in verdict.steps or () if "wheel" in step)


# -- the two cases of the issue ----------------------------------------------------------------

def test_a_pivot_then_one_wheel_is_found_with_one_wheel():
    # Was judged unreachable (t9a.advance.reachable, measured inf) when the Pivot and the
    # wheel were looked for on a 0.5 deg grid.
    steps = (forward(2.0), wheel(15.0), forward(1.0))
    move = end_pose_of(FREE, "advance", *steps, pivot=-7.6)
    original = snake(FREE.unit("u"), -7.6, steps).distance_in
    verdict = check_move(scenario(unit(mobility=4.5, centre=(36.0, 10.0))), move)
    assert verdict.legal and wheels_in(verdict) == 1
    assert assert_reaches(FREE, move, verdict) <= original + 1e-9


def test_a_pose_needing_just_under_the_budget_is_legal():
    # The cheapest way needs 4.49995" of a 4.5" Advance; gridded angles measured 4.502-4.518
    # and reported a false t9a.advance.distance violation.
    s = scenario(unit(mobility=4.5, centre=(36.0, 10.0)))
    lead = 4.49995 - 5.0 * math.sin(math.radians(15.0))
    move = end_pose_of(s, "advance", forward(lead), wheel(15.0), pivot=-7.6)
    verdict = check_move(s, move)
    assert verdict.legal
    assert assert_reaches(s, move, verdict) <= 4.49995 + 1e-9
    assert verdict.measurements["distance"] <= 4.49995 + 1e-9


# -- proofs ----------------------------------------------------------------------------------

def test_a_march_facing_100_deg_off_is_proved_illegal_by_the_heading_window():
    verdict = check_move(FREE, Move("u", "march", centre=(36.0, 12.0), facing_deg=190.0))
    assert verdict.status == "illegal"
    assert verdict.clauses() == ("t9a.march.heading_window",)
    assert verdict.violations[0].measured == pytest.approx(100.0)
    assert verdict.violations[0].limit == 90.0


def test_a_march_far_beyond_its_budget_is_proved_illegal_by_the_distance():
    verdict = check_move(FREE, Move("u", "march", centre=(36.0, 30.0), facing_deg=90.0))
    assert verdict.status == "illegal"
    distance = dict((v.clause, v) for v in verdict.violations)["t9a.march.distance"]
    assert distance.measured == pytest.approx(20.0) and distance.limit == 8.0
    assert set(verdict.clauses()) == {"t9a.march.distance", "t9a.valid_final_position"}


def test_an_advance_far_beyond_its_budget_is_proved_illegal_by_the_distance():
    s = scenario(unit(mobility=4.0, centre=(36.0, 10.0)), final_position_mob=10.0)
    verdict = check_move(s, Move("u", "advance", centre=(50.0, 10.0), facing_deg=0.0))
    assert verdict.clauses() == ("t9a.advance.distance",)
    assert 4.0 < verdict.violations[0].measured <= 14.0 + 1e-9  # the straight line is 14"


def test_a_march_whose_front_would_go_backwards_is_proved_illegal():
    verdict = check_move(FREE, Move("u", "march", centre=(36.0, 9.0), facing_deg=90.0))
    assert verdict.clauses() == ("t9a.march.distance",)
    assert verdict.violations[0].measured == math.inf


def test_end_position_violations_hold_for_every_way():
    foe = unit("foe", centre=(36.0, 17.5), facing=270.0, player="blue")
    s = scenario(unit(mobility=4.0, centre=(36.0, 10.0)), foe)
    verdict = check_move(s, Move("u", "march", centre=(36.0, 15.0), facing_deg=90.0))
    assert verdict.status == "illegal" and verdict.clauses() == ("t9a.unit_spacing",)
    assert verdict.steps is None


# -- neither ---------------------------------------------------------------------------------

def test_a_pose_reachable_only_with_three_wheels_is_not_proved():
    s = scenario(unit(mobility=4.0, centre=(36.0, 20.0)))
    steps = (wheel(20.0), wheel(-8.0), wheel(-85.0))
    assert check_move(s, Move("u", "march", steps=steps)).legal
    verdict = check_move(s, end_pose_of(s, "march", *steps))
    assert verdict.status == "not_proved" and not verdict.legal
    assert verdict.violations == ()
    assert "three or more wheels" in (verdict.not_proved or "")
    out = verdict.to_json()
    assert out["legal"] is None and out["not_proved"] == verdict.not_proved


def test_a_clause_broken_on_every_way_searched_is_not_a_proof():
    # Every way with at most two wheels sweeps its front through the wall; that proves
    # nothing about the ways not searched.
    s = scenario(unit(mobility=4.0, centre=(36.0, 10.0)),
                 terrain=(wall("wall", 30.0, 13.0, 42.0, 13.5),))
    verdict = check_move(s, Move("u", "march", centre=(36.0, 16.0), facing_deg=90.0))
    assert verdict.status == "not_proved" and verdict.violations == ()
    assert "t9a.snaking.front_spacing" in (verdict.not_proved or "")


# -- random legal moves, given by their end pose -----------------------------------------------

def _random_move(rng: np.random.Generator, manoeuvre: str, wheels: int):
    """A legal move with `wheels` wheels of a random unit in the open field."""
    while True:
        files, ranks = int(rng.integers(2, 7)), int(rng.integers(1, 5))
        u = unit(models=files * ranks, files=files, centre=(100.0, 100.0),
                 facing=float(rng.uniform(0.0, 360.0)), mobility=float(rng.uniform(3.0, 6.0)))
        s = scenario(u, width=200.0, depth=200.0)
        t1 = float(rng.uniform(-90.0, 90.0))
        t2 = float(rng.uniform(max(-90.0, -90.0 - t1), min(90.0, 90.0 - t1)))
        legs = rng.uniform(0.0, 3.0, 3) * (rng.uniform(size=3) < 0.7)
        angles = (t1, t2) if wheels == 2 else (t1, 0.0)
        steps = tuple(x for x in (forward(legs[0]), wheel(angles[0]), forward(legs[1]),
                                  wheel(angles[1]), forward(legs[2])) if x.value != 0.0)
        pivot = float(rng.uniform(-180.0, 180.0)) if manoeuvre == "advance" else 0.0
        original = Move("u", manoeuvre, steps=steps, pivot_deg=pivot)
        if check_move(s, original).legal:
            return s, original


@pytest.mark.parametrize("seed", range(24))
def test_random_legal_moves_given_by_their_end_pose_are_found_legal_and_no_dearer(seed):
    rng = np.random.default_rng(seed)
    manoeuvre = "march" if seed % 2 else "advance"
    s, original = _random_move(rng, manoeuvre, wheels=1 + seed // 2 % 2)
    cost = snake(s.unit("u"), original.pivot_deg, original.steps).distance_in
    move = end_pose_of(s, manoeuvre, *original.steps, pivot=original.pivot_deg)
    verdict = check_move(s, move)
    assert verdict.legal, verdict.not_proved
    assert assert_reaches(s, move, verdict) <= cost + 1e-9


# -- the verdict's three states ----------------------------------------------------------------

def _verdict(violations=(), not_proved=None) -> Verdict:
    return Verdict("u", "march", (0.0, 0.0), 90.0, 5, (), violations, {},
                   not_proved=not_proved)


def test_verdict_states_and_json():
    broken = Violation("t9a.march.distance", 9.0, 8.0, "in", "too far")
    assert _verdict().status == "legal" and _verdict().legal
    assert _verdict((broken,)).status == "illegal" and not _verdict((broken,)).legal
    unproved = _verdict(not_proved="searched two wheels")
    assert unproved.status == "not_proved" and not unproved.legal
    assert json.loads(json.dumps(unproved.to_json()))["legal"] is None
    assert "not_proved" not in _verdict().to_json()
    with pytest.raises(ValueError):
        _verdict((broken,), "both")


def test_family_limits_name_the_clause_that_set_each_limit():
    s = FREE
    limits = family_limits(s.profile.clauses("march"), s.unit("u"))
    assert limits.clause_for("budget_in") == "t9a.march.distance"
    assert limits.clause_for("window_deg") == "t9a.march.heading_window"
    assert limits.clause_for("centre_reach_in") is None


def test_the_command_line_prints_not_proved_and_exits_1(tmp_path, capsys):
    from constraints.core.scenario_io import save_scenario
    from optimizer.cli import main

    s = scenario(unit(mobility=4.0, centre=(36.0, 20.0)))
    move = end_pose_of(s, "march", wheel(20.0), wheel(-8.0), wheel(-85.0))
    scenario_file, move_file = tmp_path / "s.json", tmp_path / "m.json"
    save_scenario(s, scenario_file)
    move_file.write_text(json.dumps(move.to_json()), encoding="utf-8")
    assert main(["check", str(scenario_file), str(move_file)]) == 1
    text = capsys.readouterr().out
    assert "u march: NOT PROVED" in text and "not proved: searched" in text
    assert main(["check", str(scenario_file), str(move_file), "--json"]) == 1
    out = json.loads(capsys.readouterr().out)
    assert out["legal"] is None and out["violations"] == [] and out["not_proved"]
