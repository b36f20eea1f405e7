"""End poses reached by ways whose forward legs vanish (issue 22, part 5).

Two wheels with no forward step between them (or none at all) are ways like any other.  At
such a way all three legs of `way_problem.evaluate` vanish together: an end pose written to
9 decimals then solves to legs a rounding below zero, which were refused ("NOT PROVED"), and
its residual, pointing anywhere, made the bound over every way infinite ("its front would
move backwards").  Both now hold within the end pose's reach (end_pose.REACH_IN).
"""

from __future__ import annotations

import math

from hypothesis import assume, given, settings
from hypothesis import strategies as st

from constraints.rank_and_file.family_limits import family_limits
from constraints.rank_and_file.kinematics import snake
from constraints.rank_and_file.unit import Base
from constraints.t9a.checker import check_move
from constraints.t9a.end_pose import REACH_IN, _problem, _reach_slack
from constraints.t9a.moves import Move, forward, wheel
from constraints.t9a.snaking_bound import least_distance
from tests.support import scenario, unit

# The issue's case: from (36, 24) facing 90, 5 files of 20 models on 20 mm bases, Mob 4.
ISSUE = scenario(unit("u", models=20, files=5, base=Base(20, 20), centre=(36.0, 24.0),
                      facing=90.0, mobility=4.0))


def test_two_wheels_in_a_row_to_a_pose_written_to_9_decimals_is_legal():
    move = Move("u", "march", centre=(35.832498156, 24.645039022), facing_deg=80.637)
    verdict = check_move(ISSUE, move)
    assert verdict.legal, verdict.not_proved
    wheels = [s["wheel"] for s in verdict.steps or () if "wheel" in s]
    assert [round(w, 3) for w in wheels] == [-13.878, 4.515]
    assert not any("forward" in s for s in verdict.steps or ())
    assert verdict.measurements["distance"] < 1.26
    end = snake(ISSUE.unit("u"), 0.0, tuple(wheel(w) for w in wheels)).end
    assert math.dist(end.centre, move.centre) <= REACH_IN


def test_the_same_way_given_by_its_steps_is_legal_and_cheap():
    verdict = check_move(ISSUE, Move("u", "march", steps=(wheel(-13.877), wheel(4.514))))
    assert verdict.legal
    assert 1.25 < verdict.measurements["distance"] < 1.26


@st.composite
def zero_leg_ways(draw) -> tuple:
    """A unit and a legal-looking way of one or two wheels whose forward legs are often
    zero (all three, sometimes), for a March or an Advance with a Pivot."""
    files, ranks = draw(st.integers(1, 7)), draw(st.integers(1, 4))
    u = unit("u", models=files * ranks, files=files, base=Base(20, 20), centre=(100.0, 100.0),
             facing=draw(st.floats(0, 360)), mobility=6.0)
    wheels = [draw(st.floats(-40, 40).filter(lambda a: abs(a) > 0.5))
              for _ in range(draw(st.integers(1, 2)))]
    legs = [draw(st.sampled_from([0.0, 0.0, 0.0, 0.7, 2.0])) for _ in range(len(wheels) + 1)]
    steps = []
    for leg, angle in zip(legs, wheels, strict=False):
        if leg:
            steps.append(forward(leg))
        steps.append(wheel(angle))
    if legs[-1]:
        steps.append(forward(legs[-1]))
    manoeuvre = draw(st.sampled_from(["march", "advance"]))
    pivot = draw(st.floats(-120, 120)) if manoeuvre == "advance" else 0.0
    return u, manoeuvre, pivot, tuple(steps), draw(st.booleans())


@settings(max_examples=80, deadline=None)
@given(zero_leg_ways())
def test_legal_ways_with_zero_legs_are_found_from_their_end_pose(case):
    u, manoeuvre, pivot, steps, rounded = case
    s = scenario(u, width=200.0, depth=200.0)
    by_steps = check_move(s, Move("u", manoeuvre, pivot_deg=pivot, steps=steps))
    assume(by_steps.legal)
    end = snake(u, pivot, steps).end
    centre = end.centre
    if rounded:  # as a user writes it
        centre = (round(centre[0], 9), round(centre[1], 9))
    move = Move("u", manoeuvre, centre=centre, facing_deg=end.facing_deg)
    verdict = check_move(s, move)
    assert verdict.legal, (verdict.clauses(), verdict.not_proved)
    # The bound over every way holds below this one's distance.
    limits = family_limits(s.profile.clauses(move.manoeuvre), u)
    problem = _problem(u, move, limits)
    assert least_distance(problem, _reach_slack(problem)) <= \
        by_steps.measurements["distance"] + 1e-9
