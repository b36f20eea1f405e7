"""Ways with legs of 0 beside the model's answer (optimizer.search.zero_legs): a unit that
starts close to a wall (A20) with no legal forward leg wheels clear of it instead of standing
still; every answer the stage gives is legal by the checker and has no leg."""

from __future__ import annotations

import pytest

from benchmarks.random_requests import random_requests
from constraints.core.system import find_system
from constraints.t9a.moves import StepKind
from optimizer.families.base import options_for
from optimizer.search.clock import Clock
from optimizer.search.request import SearchRequest
from optimizer.search.solve import best_move
from optimizer.search.zero_legs import MASK_CHUNK, zero_leg_answer
from tests.depth import rows

REQUESTS = random_requests(60)


def _request(seed: int) -> SearchRequest:
    r = REQUESTS[seed]
    return SearchRequest(r.scenario, r.unit, r.manoeuvre, r.objective)


def test_a_unit_close_to_a_wall_wheels_clear_of_it():
    """bench_random's request 53: the unit stands 0.25" from a wall by its front corner, so
    every forward leg is refused (A20: no nearer than it started); a wheel of 17 deg alone
    is legal and takes its centre 0.46" forward.  Standing still (0") was the answer."""
    request = _request(53)
    options, _ = options_for(request.scenario, request.unit, request.manoeuvre,
                             request.lattice)
    found = zero_leg_answer(request, options)
    assert found is not None
    _, _, value, move, verdict = found
    assert verdict.legal and value >= 0.45
    assert all(step.kind == StepKind.WHEEL for step in move.steps)
    # Its certificate runs to any wall clock (benchmarks/README.md: bench_random 53); the
    # zero-leg answer comes first, within 3 s on a busy machine.
    result = best_move(request.scenario, request.unit_id, request.manoeuvre, request.objective,
                       time_limit_s=6.0)
    assert result.verdict is not None and result.verdict.legal and result.value >= value - 1e-9


@pytest.mark.parametrize("seed", rows([s for s in range(60) if REQUESTS[s].manoeuvre != "reform"],
                                     7))
def test_every_zero_leg_answer_is_legal_and_has_no_leg(seed):
    request = _request(seed)
    options, _ = options_for(request.scenario, request.unit, request.manoeuvre,
                             request.lattice)
    found = zero_leg_answer(request, options)
    if found is None:
        return
    _, _, _, move, verdict = found
    again = find_system(request.scenario.rules).check(request.scenario, move)
    assert again.legal and verdict.legal
    assert not any(step.kind == StepKind.FORWARD for step in move.steps)


def test_the_mask_stops_when_the_clock_has_run_out():
    """bench_random's request 48 (a unit 0.42" before the wall it faces): its best zero-leg
    way is option 2336's.  With the clock run out, only the first MASK_CHUNK options are
    masked (the front-sweep judge took 10 s over 196's 4,680 options on a busy machine,
    past the limit): the answer, if any, is one of theirs."""
    request = _request(48)
    options, _ = options_for(request.scenario, request.unit, request.manoeuvre,
                             request.lattice)
    found = zero_leg_answer(request, options)
    assert found is not None and found[0] >= MASK_CHUNK
    clock = Clock(1e-9)
    stopped = zero_leg_answer(request, options, clock)
    assert stopped is None or stopped[0] < MASK_CHUNK
    assert clock.fired
