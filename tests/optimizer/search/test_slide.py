"""The slide (optimizer/search/slide.py): the polish's last stage, a pattern search in headings
that repairs an illegal move by bisection back to the boundary of the legal ways.  First on
small problems whose answers are known (a wedge no equal-step move enters, an end facing
held), then on the two bench requests it was built for, judged by the exact checker."""

from __future__ import annotations

import itertools
from pathlib import Path

import pytest

from benchmarks.random_requests import random_requests
from constraints.core.scenario_io import load_scenario
from constraints.core.status import Status
from constraints.t9a.checker import check_move
from constraints.t9a.moves import Manoeuvre, Move, forward, wheel
from optimizer.search.clock import Clock
from optimizer.search.objectives import Objective
from optimizer.search.polish import Polish
from optimizer.search.request import SearchRequest
from optimizer.search.slide import Slide
from optimizer.search.solve import best_move

SEED = 20261201  # bench_random's requests


class Wedge:
    """Parameters (a wheel w, a leg l, taken as 0 below 0 as the polish's layout does): legal
    where l + 0.2 w <= 1 and 0 <= w <= 5; rank -w - 2 l.  From (0, 1) the legal ways that
    improve lie along l = 1 - 0.2 w: no parameter moved alone and no two moved by equal
    steps improve, and the best legal way is (5, 0), rank -5."""

    def __init__(self) -> None:
        self.checks = 0

    def judge(self, x: list[float]):
        self.checks += 1
        w, leg = x[0], max(0.0, x[1])
        if leg + 0.2 * w > 1.0 + 1e-12 or not 0.0 <= w <= 5.0:
            return None
        return -w - 2.0 * leg, (w, leg), None


def _slide(problem, free, turns, start, keeps=lambda scored: True, budget=400):
    slide = Slide(problem.judge, keeps, free, turns, lambda: problem.checks >= budget)
    return slide.run(start, problem.judge(start)[0], 0.5, 2.0 ** -12)


def test_no_move_of_one_or_two_equal_steps_improves_the_wedge() -> None:
    """What makes the slide needed: the pattern search's own moves all fail from (0, 1)."""
    wedge, rank = Wedge(), -2.0
    for step in (0.5, 0.1, 0.01):
        moves = [(a, 0.0) for a in (step, -step)] + [(0.0, b) for b in (step, -step)] + \
            list(itertools.product((step, -step), repeat=2))
        for dw, dl in moves:
            judged = wedge.judge([dw, 1.0 + dl])
            assert judged is None or judged[0] >= rank


def test_the_slide_follows_the_wedge_to_its_end() -> None:
    wedge = Wedge()
    found = _slide(wedge, [0, 1], [0], [0.0, 1.0])
    assert found is not None
    (rank, way, _), x = found
    assert wedge.judge(x) is not None and (x[0], max(0.0, x[1])) == way
    assert rank == pytest.approx(-5.0, abs=0.01)
    assert x[0] == pytest.approx(5.0, abs=0.01)
    assert wedge.checks <= 401


def test_the_slide_returns_only_ways_it_may_keep() -> None:
    """A way the caller would not keep (here: wheels beyond 3) never comes back, though it
    ranks better; the slide stops at the best way it may keep."""
    found = _slide(Wedge(), [0, 1], [0], [0.0, 1.0], keeps=lambda scored: scored[1][0] <= 3.0)
    assert found is not None
    (rank, way, _), _ = found
    assert way[0] <= 3.0 and rank == pytest.approx(-3.0 - 2.0 * 0.4, abs=0.01)


class HeldFacing:
    """Parameters (a wheel w1, a leg, a wheel w2): legal where the end facing w1 + w2 <= 10
    and w1 <= 8; rank -w1 - 0.1 (w1 + w2).  From (0, 0, 10) a wheel moved alone in angles
    breaks the end facing; as a heading it keeps it, and the best way is w1 = 8, w2 = 2."""

    def __init__(self) -> None:
        self.checks = 0

    def judge(self, x: list[float]):
        self.checks += 1
        w1, _, w2 = x
        if w1 + w2 > 10.0 + 1e-9 or w1 > 8.0:
            return None
        return -w1 - 0.1 * (w1 + w2), tuple(x), None


def test_a_heading_moved_alone_keeps_the_end_facing() -> None:
    held = HeldFacing()
    slide = Slide(held.judge, lambda scored: True, [0, 1, 2], [0, 2], lambda: False)
    assert slide.headings([3.0, 0.5, 4.0]) == [3.0, 0.5, 7.0]
    assert slide.angles(slide.headings([3.0, 0.5, 4.0])) == [3.0, 0.5, 4.0]
    found = _slide(held, [0, 1, 2], [0, 2], [0.0, 0.0, 10.0])
    assert found is not None
    (_, _, _), x = found
    assert x[0] == pytest.approx(8.0, abs=0.01) and x[0] + x[2] == pytest.approx(10.0, abs=1e-6)


# bench_random's 54 and 80: the first polish's answers, and what a proof needs (below the
# best point of the relaxation their certificates valued, less nothing: that point bounds
# what any refinement proves, so an answer above it by more than 0.01 cannot be proved).
PRESSED = [
    (54, (wheel(-16.02350308362875), forward(0.3945735436108224), wheel(0.647253482690077)),
     5.6437),
    (80, (wheel(0.06137530824085899), forward(0.3419211383524079), wheel(-26.93739179381248)),
     9.0550 + 0.01),
]


@pytest.mark.parametrize(("index", "steps", "needs"), PRESSED)
def test_the_bench_answers_the_pattern_search_leaves_pressed_slide_past_them(
        index: int, steps, needs: float) -> None:
    """54 (face_point: held at the facing beyond which the point is behind, and 1" from a
    wall) and 80 (target_distance, 1" from a wall): the pattern search stops there; the
    slide finds a legal way better by what the certificate needs, the same on every run."""
    bench = random_requests(index + 1, SEED)[index]
    request = SearchRequest(bench.scenario, bench.unit, bench.manoeuvre, bench.objective)
    move = Move(bench.unit, bench.manoeuvre, steps)
    verdict = check_move(bench.scenario, move)
    assert verdict.legal
    runs = [Polish(request, move, verdict, Clock(600.0), slide=True).run() for _ in range(2)]
    assert runs[0] is not None and runs[1] is not None and runs[0][0] == runs[1][0]
    better, judged, checks = runs[0]
    again = check_move(bench.scenario, better)
    assert again.legal and judged.legal and checks <= 401
    assert request.goal.exact(again) < needs < request.goal.exact(verdict)


def test_bench_request_80_is_proved_after_the_slide() -> None:
    bench = random_requests(81, SEED)[80]
    result = best_move(bench.scenario, bench.unit, bench.manoeuvre, bench.objective,
                       time_limit_s=60)
    assert check_move(bench.scenario, result.move).legal
    assert result.stats["polished"]["slid"]["from"] == pytest.approx(9.0694, abs=1e-3)
    assert result.value < 9.0650
    assert result.status == Status.OPTIMAL


def test_an_answer_held_by_its_budget_and_the_table_edge_slides_with_its_last_leg() -> None:
    """bench_solve's edge-march: forward 0.1179, wheel 67, forward 13.1641 spends the whole
    16" and touches the table edge with its end and its front's path.  Better ways shorten the
    first leg, close the wheel by about five times as many degrees and lengthen the last leg,
    all at once (forward 0.003, wheel 66.4, forward 13.2912 is legal at 0.4034): no move with
    one repair keeps both, the slide with the last leg taking the budget's rest does."""
    scenario = load_scenario(Path(__file__).resolve().parents[3] / "benchmarks" / "scenarios"
                             / "edge.json")
    objective = Objective("front_target_distance", (1.0, 20.0))
    request = SearchRequest(scenario, "knights", "march", objective)
    move = Move("knights", Manoeuvre.MARCH,
                (forward(0.1178957042454214), wheel(67.0), forward(13.164078153670602)))
    verdict = check_move(scenario, move)
    assert verdict.legal and request.goal.exact(verdict) == pytest.approx(0.4306, abs=1e-4)
    assert verdict.measurements["distance"] == pytest.approx(16.0, abs=1e-4)
    runs = [Polish(request, move, verdict, Clock(600.0), slide=True).run() for _ in range(2)]
    assert runs[0] is not None and runs[1] is not None and runs[0][0] == runs[1][0]
    better, judged, checks = runs[0]
    again = check_move(scenario, better)
    assert again.legal and judged.legal and checks <= 803  # (two a candidate, one tidy)
    assert request.goal.exact(again) < 0.4035
