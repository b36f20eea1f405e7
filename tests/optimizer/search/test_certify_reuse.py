"""A certificate that starts from the boxes another one left (optimizer.search.certify's
`start`, optimizer.search.certified's `_left_before`): no legal way beats its bound, on random
tables with units that start close (A20) and a friend touching within the contact tolerance
(A21), for random legal ways of up to four wheels; it refuses boxes left for a better answer;
and on bench_random 30 it proves the polished answer from the boxes the answer before left,
judging none of its own where a certificate from nothing judges 45,828."""

from __future__ import annotations

import numpy as np
import pytest

from benchmarks.random_requests import random_requests
from constraints.core.scenario_io import load_scenario
from constraints.sat.lattice import Lattice
from optimizer.search.certified import Certificates, _left_before, relaxation_of
from optimizer.search.certify import MAX_BOXES, Boxes, Certificate, certify
from optimizer.search.end_cut import end_cut
from optimizer.search.objectives import Objective
from optimizer.search.request import SearchRequest
from tests.depth import rows
from tests.optimizer.search.test_end_cut import (
    _close_scene,
    _close_scene_with_rocks,
    _legal_ways,
    _objective,
)
from tests.support import SCENARIOS


def _worse(goal, value: float, by: float) -> float:
    return value - by if goal.maximise else value + by


def _beaten(goal, bound: float, value: float) -> bool:
    """Whether a legal way's `value` beats `bound` (the bound is unsound)."""
    return value > bound + 1e-9 if goal.maximise else value < bound - 1e-9


def _holds(left: Boxes, params: np.ndarray, value: float) -> None:
    """The way cannot be settled (it beats the target): some box left open holds its
    parameters, and every one that does is bounded by its (signed) value."""
    holding = np.all(np.abs(left.mids - params) <= left.halves + 1e-12, axis=1)
    assert holding.any()
    assert (left.values[holding] <= value + 1e-9).all()


@pytest.mark.parametrize("seed", rows(range(8), 3))
def test_no_legal_way_beats_a_bound_made_from_boxes_left_before(seed):
    """Three certificates in a row, as a search makes them: for an answer 0.06 worse than a
    legal way, capped so that it leaves boxes open; for one 0.02 worse, from those boxes (the
    cut of the lower target asked again of them); for the same answer again, from its boxes.
    No bound of the three is beaten by the way, each leaves it in an open box bounded by its
    value, and the third is no looser than the second (a box's halves keep its bound)."""
    rng = np.random.default_rng(9900 + seed)
    scn = _close_scene_with_rocks(rng) if seed % 2 else _close_scene(rng)
    manoeuvre = "advance" if seed % 4 < 2 else "march"
    started = 0
    for move, verdict, params in _legal_ways(rng, scn, "u", manoeuvre, 3, 120):
        request = SearchRequest(scn, "u", manoeuvre, _objective(rng, (36.0, 10.0)), Lattice(),
                                10.0, 1, 1.0, 0.01, 3)
        goal, relaxation = request.goal, request.relaxation
        value = goal.ranked(verdict)  # face_point facing away: with the penalty
        left, before = None, None
        for by, boxes in ((0.06, 3_000), (0.02, 6_000), (0.02, 6_000)):
            worse = _worse(goal, value, by)
            cut = end_cut(scn, request.unit, manoeuvre, goal, worse, 0.01,
                          relaxation=relaxation)
            made = certify(goal, relaxation, worse, 0.01, boxes, cut=cut, start=left)
            assert not _beaten(goal, made.bound, value), (move, goal.name, by, made.bound)
            assert made.left is not None
            _holds(made.left, params, -value if goal.maximise else value)
            if before is not None and by == before[0]:  # going on: never looser
                assert not _beaten(goal, before[1], made.bound), (move, goal.name, by)
            started += left is not None and len(left.values) > 0
            left, before = made.left, (by, made.bound)
    assert started >= 2  # the later certificates did start from open boxes


def test_boxes_left_for_a_better_answer_cannot_start_a_certificate():
    """A box settled for a lower target may be open for a higher one: refused."""
    request = SearchRequest(_close_scene(np.random.default_rng(1)), "u", "march",
                            Objective("forward"))
    first = certify(request.goal, request.relaxation, 5.0, 0.01, 2_000)
    assert first.left is not None
    sign = -1.0  # forward is maximised: its targets are signed
    assert first.left.target == pytest.approx(sign * 5.0 - 0.01)
    with pytest.raises(ValueError, match="better answer"):
        certify(request.goal, request.relaxation, 4.0, 0.01, 2_000, start=first.left)


def _made(value: float, loose: bool = False) -> Certificate:
    left = Boxes(np.zeros((1, 2)), np.ones((1, 2)), np.zeros(1), np.inf, value - 0.01, loose)
    return Certificate(value - 1.0, 2, False, left=left)


@pytest.mark.parametrize(("made", "key", "wanted"), [
    # The last made, for a worse answer: its boxes.
    ({(6.0, True, True): _made(6.0), (5.5, True, True): _made(5.5)}, (5.4, True, True), 5.5),
    # One made for a better answer is passed over.
    ({(6.0, True, True): _made(6.0), (5.0, True, True): _made(5.0)}, (5.4, True, True), 6.0),
    # As is one valued by plain pieces, uncut (stuck: looser than a new start).
    ({(6.0, True, True): _made(6.0), (5.5, True, True): _made(5.5, True)}, (5.4, True, True),
     6.0),
    # One for the same answer, with the front's reach or without as this one (the capped
    # one, for the full cap); not one made without the reach for one with it (bench_random
    # 60).
    ({(5.4, True, True): _made(5.4)}, (5.4, True, True), 5.4),
    ({(5.4, True, False): _made(5.4)}, (5.4, True, True), None),
    ({(6.0, True, False): _made(6.0)}, (5.4, True, True), None),
    ({(6.0, True, False): _made(6.0)}, (5.4, True, False), 6.0),
    # And another goal's (face_point's own for its answer), either way round.
    ({(6.0, False, True): _made(6.0)}, (5.4, True, True), None),
    ({(6.0, True, True): _made(6.0)}, (5.4, False, True), None),
])
def test_the_boxes_a_certificate_starts_from(made: Certificates, key, wanted):
    request = SearchRequest(_close_scene(np.random.default_rng(2)), "u", "march",
                            Objective("target_distance", (36.0, 20.0)))
    left = _left_before(made, key, request.goal)
    assert (None if left is None else left.target + 0.01) == \
        (None if wanted is None else pytest.approx(wanted))


def test_bench_random_30s_polished_answer_is_proved_from_the_boxes_left_before():
    """bench_random 30 (a March): its ways' answer 5.5158 is not proved (the polished answer
    beats it by more than the tolerance), and its certificate leaves boxes open; the
    polished 5.5022 is proved from them with few boxes of its own judged (the cut of its
    lower target settles them), where a certificate from nothing judges tens of thousands,
    to the same bound."""
    case = random_requests(31, 20261201)[30]
    request = SearchRequest(case.scenario, case.unit, case.manoeuvre, case.objective)
    goal, relaxation = request.goal, relaxation_of(request)

    def certificate(value: float, start: Boxes | None = None) -> Certificate:
        cut = end_cut(request.scenario, request.unit, request.manoeuvre, goal, value, 0.01,
                      relaxation=relaxation)
        return certify(goal, relaxation, value, 0.01, cut=cut, start=start)

    answer, polished = 5.51577841082287, 5.502192578006969
    before = certificate(answer)
    assert not before.proves(answer, 0.01) and before.left is not None
    assert len(before.left.values) > 10_000 and not before.left.loose
    again = certificate(polished, before.left)
    fresh = certificate(polished)
    assert again.proves(polished, 0.01) and fresh.proves(polished, 0.01)
    assert again.closed and again.boxes < fresh.boxes // 10
    assert again.bound == pytest.approx(fresh.bound, abs=1e-9)


def test_a_capped_certificate_asked_for_the_full_cap_goes_on_from_its_boxes():
    """rocks.json's band, Advance forward, its answer 4.8704 (bench_solve's rocks-advance,
    proved by the cut: test_end_cut): capped at 2,000 boxes the certificate stops short;
    asked again with the full cap from the boxes it left, it proves the answer, judging no
    more boxes in all than a certificate from nothing."""
    scn = load_scenario(SCENARIOS / "rocks.json")
    request = SearchRequest(scn, "band", "advance", Objective("forward"), Lattice(), 10.0, 1,
                            1.0, 0.01, 3)
    goal, relaxation, value = request.goal, request.relaxation, 4.870432

    def certificate(boxes: int, start: Boxes | None = None) -> Certificate:
        cut = end_cut(scn, request.unit, "advance", goal, value, 0.01)
        return certify(goal, relaxation, value, 0.01, boxes, cut=cut, start=start)

    capped = certificate(2_000)
    assert not capped.closed and not capped.stuck and capped.cap == 2_000
    assert capped.left is not None
    full = certificate(MAX_BOXES, capped.left)
    fresh = certificate(MAX_BOXES)
    assert full.proves(value, 0.01) and fresh.proves(value, 0.01)
    assert capped.boxes + full.boxes <= fresh.boxes


def test_going_on_keeps_the_bounds_the_escalated_cut_raised():
    """bench_random 91 (an Advance): the ways' answer's capped certificate, its cut escalated
    to the front's reach, raises open boxes' bounds (to 6.0956); the polished answer's
    certificate goes on from those boxes with a new cut that has not escalated, and its
    halves keep their parents' bounds: its bound is no looser (it fell to 3.9882 when each
    half had only its own)."""
    case = random_requests(92, 20261201)[91]
    request = SearchRequest(case.scenario, case.unit, case.manoeuvre, case.objective)
    goal, relaxation = request.goal, relaxation_of(request)

    def certificate(value: float, boxes: int, start: Boxes | None = None) -> Certificate:
        cut = end_cut(request.scenario, request.unit, request.manoeuvre, goal, value, 0.01,
                      relaxation=relaxation)
        return certify(goal, relaxation, value, 0.01, boxes, cut=cut, start=start)

    capped = certificate(6.367765154133031, 30_000)
    assert capped.left is not None and capped.bound > 6.09
    going_on = certificate(6.36335869535588, 20_000, capped.left)
    assert going_on.bound >= capped.bound - 1e-9
