"""Answers without float noise (optimizer/search/tidy.py): legs cut down to a millionth of an
inch, angles rounded to a millionth of a degree, legs shorter than that dropped, neighbours of
one kind joined; the tidied move is judged again and replaces the answer only when legal."""

from __future__ import annotations

from constraints.rank_and_file.steps import Step, StepKind, turn
from constraints.t9a.checker import check_move
from constraints.t9a.moves import Move, forward, wheel
from optimizer import load_scenario
from optimizer.search.objectives import Objective
from optimizer.search.request import SearchRequest
from optimizer.search.solve import best_move
from optimizer.search.tidy import tidy_move, tidy_steps
from tests.support import ROOT


def test_noise_legs_are_dropped_and_neighbours_joined() -> None:
    steps = (forward(1.3322676295501878e-15), wheel(-59.0), forward(9.7816569847337))
    assert tidy_steps(steps) == (wheel(-59.0), forward(9.781656))
    assert tidy_steps((forward(1.0), wheel(1e-9), forward(2.0))) == (forward(3.0),)
    assert tidy_steps((wheel(10.0), wheel(5.0000000001))) == (wheel(15.0),)


def test_wheels_the_other_way_and_turns_are_kept_apart() -> None:
    assert tidy_steps((wheel(10.0), wheel(-10.0))) == (wheel(10.0), wheel(-10.0))
    assert tidy_steps((turn(90.0), turn(90.0))) == (turn(90.0), turn(90.0))


def test_wheels_that_would_turn_past_90_degrees_as_one_stay_two() -> None:
    """A way wheeling -45 then -54 (a forward leg of noise between) ended bench_random's
    request 17 on an empty table with a wheel of -99 deg, an InvalidInputError from the
    search (issue 31's measurements)."""
    steps = (wheel(-45.0), forward(1e-9), wheel(-54.0))
    assert tidy_steps(steps) == (wheel(-45.0), wheel(-54.0))
    assert tidy_steps((wheel(45.0), wheel(45.0))) == (wheel(90.0),)


def test_a_forward_leg_is_never_lengthened() -> None:
    (leg,) = tidy_steps((forward(0.9999999999),))
    assert leg == Step(StepKind.FORWARD, 0.999999) and leg.value <= 0.9999999999


def test_an_end_pose_is_rounded() -> None:
    move = Move("u", "reform", files=5, centre=(36.00000000001, 9.9999999999),
                facing_deg=90.00000000004)
    assert tidy_move(move) == Move("u", "reform", files=5, centre=(36.0, 10.0),
                                   facing_deg=90.0)


def test_an_answer_is_never_made_worse() -> None:
    """A rounding that costs value is not made: only the noise legs go."""
    scenario = load_scenario(ROOT / "examples" / "flank_march.json")
    objective = Objective("front_target_distance", (42.0, 18.5))
    result = best_move(scenario, "knights", "march", objective, time_limit_s=60)
    rounded = tidy_move(result.move)
    assert rounded != result.move
    verdict = check_move(scenario, rounded)
    goal = SearchRequest(scenario, "knights", "march", objective).goal
    assert not verdict.legal or goal.better(result.value, goal.exact(verdict))


def test_the_searched_answer_is_tidy_and_legal() -> None:
    """The flank example's March came back as forward 1.3e-15, wheel -59, forward
    9.7816569847337 (issue 26); the answer returned has no noise leg and is legal (its last
    leg is not cut down: 9.781656 would end further from the target)."""
    scenario = load_scenario(ROOT / "examples" / "flank_march.json")
    result = best_move(scenario, "knights", "march",
                       Objective("front_target_distance", (42.0, 18.5)), time_limit_s=60)
    assert result.move is not None and result.verdict is not None and result.verdict.legal
    assert all(abs(step.value) >= 1e-6 for step in result.move.steps)
    assert [s.kind for s in result.move.steps] == [StepKind.WHEEL, StepKind.FORWARD]
    assert check_move(scenario, result.move).legal
    kinds = [s.kind for s in result.move.steps]
    assert all(a != b for a, b in zip(kinds, kinds[1:], strict=False))
