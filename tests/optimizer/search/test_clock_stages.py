"""Every stage on best_move's path looks at the clock (issue 31's overruns: a stage that did not
ran seconds past the limit under load).  Deterministic: an expired clock (`Clock(0.0)`) or one
set back past a share of its limit, never a timed assertion; each test also shows the stage
doing its work with time left, so that the stop is the clock's."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

import optimizer.search.certified as certified_stage
import optimizer.search.prefilter as prefilter
from constraints.core.scenario_io import load_scenario
from constraints.core.status import Status
from constraints.t9a.moves import Manoeuvre, Move, forward, wheel
from optimizer import Objective
from optimizer.search.certify import Certificate
from optimizer.search.clock import PREFILTER_SHARE, Clock
from optimizer.search.geometric import geometric_answer
from optimizer.search.proof import Proof
from optimizer.search.regions import CentreRegions
from optimizer.search.request import SearchRequest
from optimizer.search.result import SearchResult
from optimizer.search.unproved import unproved
from optimizer.search.ways import ways_of
from tests.optimizer.search.test_inexact import inexact_result, wall_ahead_case
from tests.support import SCENARIOS, scenario, unit

# Issue 22's Advance among scattered terrain (tests/optimizer/search/test_limits.py).
ADVANCE = ("advance_over_time_limit.json", "hero", "advance",
           Objective("target_distance", (37.786, 36.0)))
ONE_WHEEL = (forward(1.0), wheel(20.0), forward(1.0))


def _request() -> SearchRequest:
    file, unit_id, manoeuvre, objective = ADVANCE
    return SearchRequest(load_scenario(SCENARIOS / file), unit_id, manoeuvre, objective)


def _move(request: SearchRequest) -> Move:
    return Move(request.unit_id, Manoeuvre(request.manoeuvre), steps=ONE_WHEEL)


def _set_back(clock: Clock, share: float) -> Clock:
    """`clock` as if made `share` of its limit ago."""
    clock.started -= share * clock.limit_s
    return clock


class _Counted:
    """Counts the regions cut (CentreRegions.within: every region passes through it)."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.cuts = 0
        within = CentreRegions.within

        def counted(regions, option, base):
            self.cuts += 1
            return within(regions, option, base)
        monkeypatch.setattr(CentreRegions, "within", counted)


def test_refining_the_wheel_stops_on_an_expired_clock(monkeypatch):
    """The Advance's wheel refined on the lattice's degree (ways.snaking.refine_wheel) cut no
    region once the limit has passed, and says the clock fired; with time left it does."""
    counted = _Counted(monkeypatch)
    request = _request()
    expired = Clock(0.0)
    assert ways_of(request.family).refine_wheel(request, _move(request), expired) is None
    assert counted.cuts == 0 and expired.fired
    live = Clock(600.0)
    ways_of(request.family).refine_wheel(request, _move(request), live)
    assert counted.cuts > 0 and not live.fired


def test_a_stage_after_the_model_uses_the_whole_limit_not_the_prefilters_share(monkeypatch):
    """geometric_answer stops at the prefilter's share before the model; after it (the wheel's
    refinement, the plainest answer) at the whole limit: past the share, it still works."""
    counted = _Counted(monkeypatch)
    request = _request()
    options, regions = request.options()
    bounds = request.goal.bounds(options, regions)
    past_share = _set_back(Clock(600.0), PREFILTER_SHARE + 0.1)
    assert geometric_answer(request, options, bounds, past_share).answer is None
    assert counted.cuts == 0 and past_share.fired
    whole = _set_back(Clock(600.0), PREFILTER_SHARE + 0.1)
    geometric_answer(request, options, bounds, whole, share=1.0)
    assert counted.cuts > 0 and not whole.fired


def test_the_sweep_cut_of_the_kept_options_stops_at_the_prefilters_share(monkeypatch):
    """prefilter._swept leaves every region as it was (still a relaxation) once the share
    has passed: no sweep cut is made."""
    request = _request()
    options, _ = request.options()
    keep = list(range(min(40, len(options))))
    relaxed = {k: request.relaxed_regions.of(options[k]) for k in keep}
    relaxed = {k: r for k, r in relaxed.items() if not r.is_empty}
    bounds = np.full(len(options), np.nan)
    made = []
    sweep_cut = CentreRegions.sweep_cut
    monkeypatch.setattr(CentreRegions, "sweep_cut",
                        lambda regions, option: made.append(option) or sweep_cut(regions, option))
    before = dict(relaxed)
    late = _set_back(Clock(600.0), PREFILTER_SHARE + 0.1)
    assert not prefilter._swept(request, options, keep, relaxed, bounds, late)
    assert made == [] and relaxed == before and np.isnan(bounds).all() and late.fired
    prefilter._swept(request, options, keep, relaxed, bounds, Clock(600.0))
    assert len(made) == len(before)


def _open_field() -> SearchRequest:
    """An Advance on an empty table: geometry finds its answer at once."""
    return SearchRequest(scenario(unit("u", centre=(36.0, 10.0))), "u", "advance",
                         Objective("target_distance", (40.0, 30.0)))


def _answer(request: SearchRequest) -> SearchResult:
    options, regions = request.options()
    found = geometric_answer(request, options, request.goal.bounds(options, regions)).answer
    assert found is not None
    move, verdict = found.move, found.verdict
    return SearchResult(request.objective, request.goal.exact(verdict), request.lattice, 0.0,
                        Proof(Status.FEASIBLE), move, verdict)


def test_past_the_limit_a_new_answer_reuses_the_certificate_made_before(monkeypatch):
    """The refined answer's certificate, once the limit has passed, is the one made before
    for the same goal (its bound holds for every legal way whatever the answer): no new
    certificate is started past the limit, and the answer is proved only if within the
    tolerance of that bound."""
    request = _open_field()
    result = _answer(request)
    assert result.value is not None
    earlier = Certificate(bound=result.value - 1.0, boxes=10, closed=False, timed_out=True)
    certificates = {(result.value + 0.5, True, False): earlier}

    def refused(*args, **kwargs):
        raise AssertionError("a certificate started past the limit")
    monkeypatch.setattr(certified_stage, "certify", refused)
    expired = Clock(0.0)
    certified = certified_stage.certified(request, result, expired, certificates)
    assert certified.bound == earlier.bound and certified.status == Status.FEASIBLE
    assert expired.fired
    # Not another goal's (face_point's own for the answer), nor with time left.
    assert certified_stage._made_before({(1.0, False, False): earlier}, (2.0, False, False)) is None
    with pytest.raises(AssertionError, match="past the limit"):
        certified_stage.certified(request, result, Clock(600.0), certificates)


@pytest.mark.parametrize("closed", [False, True])
def test_an_early_certificate_is_capped_and_final_only_once_closed(monkeypatch, closed):
    """A certificate for an answer that is not the search's last judges at most EARLY_BOXES
    boxes; the ways' answer's, capped the same until the polish has run, is that one where
    its cut never asked for the front's reach; the final one, for the same value, is made
    again with the full cap unless the early one closed (a capped one is looser than the
    final one may be)."""
    request = _open_field()
    result = _answer(request)
    assert result.value is not None
    caps = []

    def recorded(goal, relaxation, value, tolerance, max_boxes, deadline, cut, start):
        caps.append(max_boxes)
        return Certificate(bound=value - (0.0 if closed else 1.0), boxes=max_boxes,
                           closed=closed, cap=max_boxes)
    monkeypatch.setattr(certified_stage, "certify", recorded)
    certificates: dict = {}
    early = certified_stage.certified(request, result, Clock(600.0), certificates)
    assert early.stats["certificate_boxes"] == certified_stage.EARLY_BOXES
    capped = certified_stage.certified(request, replace(result, stats={}), Clock(600.0),
                                       certificates, final=True, capped=True)
    assert caps == [certified_stage.EARLY_BOXES]
    assert capped.stats["certificate_boxes"] == certified_stage.EARLY_BOXES
    final = certified_stage.certified(request, replace(result, stats={}), Clock(600.0),
                                      certificates, final=True)
    assert caps == ([certified_stage.EARLY_BOXES] if closed else
                    [certified_stage.EARLY_BOXES, certified_stage.MAX_BOXES])
    assert (final.status == Status.OPTIMAL) == closed


def test_past_the_limit_an_inexact_option_keeps_its_reachs_bound():
    """optimizer.search.unproved makes a relaxed region for an inexact option only while the
    clock runs: past the limit the option keeps its reach's bound (sound, looser), and an
    answer that bound beats is FEASIBLE with it, not OPTIMAL (the test_inexact case of a wall
    2.5" ahead, whose relaxed region would have kept the proof)."""
    request, options, regions, k, far, near = wall_ahead_case()
    answer = inexact_result(request, Status.OPTIMAL, far, [k])
    live = unproved(request, options, replace(answer, stats=dict(answer.stats)), regions, {},
                    Clock(600.0))
    assert live.status == Status.OPTIMAL
    late = unproved(request, options, replace(answer, stats=dict(answer.stats)), regions, {},
                    Clock(0.0))
    assert late.status == Status.FEASIBLE and late.bound == pytest.approx(near)


def test_a_certificate_stopped_within_a_round_keeps_its_parents_bounds(monkeypatch):
    """The certificate values a round's new boxes a chunk at a time: the deadline passing
    after the first chunk stops it (timed out), the children not valued keep their parents'
    bounds, so its bound is sound, no tighter than the whole certificate's."""
    import optimizer.search.certify as certify_module

    request = _request()
    relaxation, goal = request.relaxation, request.goal
    assert relaxation is not None
    answer = 30.0  # far worse than the relaxation: the certificate refines, round by round
    whole = certify_module.certify(goal, relaxation, answer, max_boxes=40_000)
    looks = iter([False, True])  # the round's first look passes, the next is late

    def late(deadline: float | None) -> bool:
        return deadline is not None and next(looks, True)
    monkeypatch.setattr(certify_module, "_late", late)
    monkeypatch.setattr(certify_module, "VALUE_CHUNK", 1)
    cut_short = certify_module.certify(goal, relaxation, answer, max_boxes=40_000,
                                       deadline=1.0)
    assert cut_short.timed_out and not cut_short.closed
    assert cut_short.bound <= whole.bound + 1e-12  # minimised: a bound no higher
    mids, halves = relaxation.initial()
    assert cut_short.boxes > len(mids)  # it did split a round
    # One child valued: every other keeps its parent's bound, so the bound is no higher
    # than the second-lowest first box's.
    first = certify_module._values(goal, relaxation, mids, halves, 1.0, answer - 0.01)
    assert cut_short.bound <= float(np.sort(first)[1]) + 1e-12
