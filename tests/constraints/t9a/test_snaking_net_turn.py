"""Runs of a known net turn (docs/techniques.md §9): two wheels of opposite signs cost at
least their net, so each run of a way is charged the least psi of its exact net (L_R, least
over a box's range of nets), and random sidesteps whose runs turn back within themselves,
beside a wall and a friend too (A20, A21), end inside every split box and below the bound."""

from __future__ import annotations

import math

import numpy as np
import pytest

from constraints.geometry.frame import Frame
from constraints.rank_and_file.kinematics import snake
from constraints.rank_and_file.snaking_reach import (
    MarchReach,
    SnakingShape,
    least_net_psi,
    least_psi,
    net_psi,
    psi_arc,
    psi_chord,
    psi_projected,
)
from constraints.rank_and_file.unit import Base
from constraints.sat.lattice import Lattice
from constraints.t9a.checker import check_move
from constraints.t9a.moves import Manoeuvre, Move, forward, wheel
from optimizer.search.certify import certify
from optimizer.search.objectives import Objective
from optimizer.search.request import SearchRequest
from tests.constraints.t9a.test_snaking_reach import (
    OBJECTIVES,
    _close_scene,
    _descend,
    _relaxed,
)
from tests.depth import rows
from tests.support import unit

PSIS = [psi_projected, psi_chord, psi_arc]


@pytest.mark.parametrize("psi", PSIS, ids=["projected", "chord", "arc"])
def test_two_wheels_of_opposite_signs_cost_at_least_their_net(psi):
    """psi(a) + psi(b) >= psi(a - b) for 0 <= b <= a <= 90 deg: what lets a run be charged
    its exact net turn (docs/techniques.md §9, "Runs of a known net turn")."""
    a, b = np.meshgrid(np.radians(np.linspace(0.0, 90.0, 721)),
                       np.radians(np.linspace(0.0, 90.0, 721)), indexing="ij")
    keep = b <= a
    gap = psi(a[keep]) + psi(b[keep]) - psi(a[keep] - b[keep])
    assert gap.min() >= -1e-12
    # It is tight for b = 0 and nearly so at a = 90 deg (T9A: sin 90 + sin 1 - sin 89).
    assert gap.max() > 0.1


@pytest.mark.parametrize("psi", PSIS, ids=["projected", "chord", "arc"])
def test_net_psi_is_the_least_psi_sum_of_wheels_with_that_net(psi):
    """Random wheels of at most R (<= 90 deg), either way: their psi-sum is at least
    L_R(|net|), and R's split into whole R's and the remainder costs exactly that."""
    rng = np.random.default_rng(31)
    for _ in range(4000):
        r = math.radians(float(rng.uniform(1.0, 90.0)))
        turns = rng.uniform(-r, r, int(rng.integers(1, 7)))
        net = abs(float(turns.sum()))
        least = float(net_psi(np.array([net]), np.array([r]), psi)[0])
        assert float(psi(np.abs(turns)).sum()) >= least - 1e-12, (turns, r)
        whole = math.floor(net / r)
        split = np.array([r] * whole + [net - whole * r])
        assert float(psi(split).sum()) == pytest.approx(least, abs=1e-12)


def test_the_old_charge_was_l_r_least_over_every_longer_turn():
    """m_R(x) is L_R's least over every y >= x: with R = 90 deg (T9A) every run of about 26.5
    to 90 deg was charged psi(90 deg) (a sidestep's first wheel of 86 deg; a wheel of 50 deg
    inside a range of 90), runs of less alike."""
    r90 = np.radians([90.0])
    for deg in (30.0, 50.0, 86.0):
        assert net_psi(np.radians([deg]), r90)[0] > least_psi(np.radians([deg]), r90)[0] + 0.02
        assert least_psi(np.radians([deg]), r90)[0] == pytest.approx(psi_projected(r90)[0])
    assert net_psi(np.radians([20.0]), r90)[0] == least_psi(np.radians([20.0]), r90)[0]


@pytest.mark.parametrize("psi", PSIS, ids=["projected", "chord", "arc"])
def test_least_net_psi_over_a_range_is_below_every_net_in_it(psi):
    rng = np.random.default_rng(32)
    lo = np.radians(rng.uniform(0.0, 200.0, 3000))
    hi = lo + np.radians(rng.choice([0.0, 1.0, 30.0, 120.0], 3000) * rng.uniform(0, 1, 3000))
    r = np.radians(rng.uniform(1.0, 90.0, 3000))
    least = least_net_psi(lo, hi, r, psi)
    x = lo[:, None] + (hi - lo)[:, None] * np.linspace(0.0, 1.0, 2001)[None, :]
    sampled = net_psi(x, r[:, None], psi).min(axis=1)
    assert np.all(least <= sampled + 1e-12)
    assert np.all(least >= sampled - 1e-3)  # the least is attained (within the sampling)


def test_open_sidestep_relaxation_meets_its_answer():
    """bench_solve's open-sidestep (5 files of 20 mm, March 8" from (24, 12) facing 90 to
    (28, 17) facing 90): forward 0.128, wheel -88, wheel +90 spends the whole budget, and the
    relaxation at its parameters (h, p, q) = (2, -88, 2) leaves exactly the forward step
    (m_R charged the wheel of 88 deg as one of 90: 0.066" more); the certificate against the
    way's value closes."""
    u = unit(models=20, files=5, centre=(24.0, 12.0), facing=90.0, base=Base(20.0, 20.0))
    steps = (forward(0.128), wheel(-88.0), wheel(90.0))
    way = snake(u, 0.0, steps)
    assert way.distance_in == pytest.approx(8.0, abs=1e-3)
    shape = SnakingShape(u.pose.centre, 90.0, u.width_in, u.depth_in, 8.0, 90.0)
    params = np.radians([[2.0, -88.0, 2.0]])
    radius = MarchReach(shape).pieces(params, np.zeros_like(params)).radius[0]
    assert radius == pytest.approx(8.0 - way.distance_in + 0.128, abs=1e-9)
    goal = Objective("target_pose", (28.0, 17.0), 90.0).goal(Frame((24.0, 12.0), 90.0))
    value = math.hypot(math.dist(way.end.centre, (28.0, 17.0)), 0.1 * 2.0)
    assert value == pytest.approx(0.9021, abs=2e-3)
    certificate = certify(goal, MarchReach(shape), value)
    assert certificate.closed and value - 0.01 <= certificate.bound <= value


@pytest.mark.parametrize("seed", rows(range(40), 20))
def test_sidesteps_whose_runs_turn_back_end_inside_each_box(seed):
    """Runs charged their exact net turn (L_R, docs/techniques.md §9): ways of up to four
    wheels shaped as sidesteps whose runs turn back within themselves (a wheel of 30-90 deg,
    a small wheel back, on to the far side, back towards the start), spending exactly their
    budget, end inside the piece of every box of the certificate's splits."""
    rng = np.random.default_rng(9000 + seed)
    files, ranks = int(rng.integers(2, 8)), int(rng.integers(1, 5))
    u = unit(models=files * ranks, files=files, centre=(50.0, 50.0),
             facing=float(rng.uniform(0.0, 360.0)))
    steps, headings = _sidestep(rng, 90.0)
    way, params, reach = _relaxed(u, 0.0, steps, headings, 90.0, False)
    _descend(rng, reach, params, way, u, seed)


def _sidestep(rng: np.random.Generator, window: float):
    """Steps of a way of three or four wheels whose first run turns back within itself: a
    wheel of 30-90 deg, a small one back, on (within the window), back towards the start;
    forward legs between at random.  (steps, headings after each wheel)."""
    side = float(rng.choice([-1.0, 1.0]))
    first = float(rng.uniform(30.0, min(90.0, window)))
    turns = [side * first, -side * float(rng.uniform(0.0, 0.3)) * first]
    heading = sum(turns)
    turns.append(float(rng.uniform(max(-90.0, -window - heading), min(90.0, window - heading))))
    heading += turns[-1]
    if rng.uniform() < 0.7:
        turns.append(float(np.clip(-heading * rng.uniform(0.5, 1.0), -90.0, 90.0)))
    steps, headings = [], [0.0]
    for turn in turns:
        if rng.uniform() < 0.5:
            steps.append(forward(float(rng.uniform(0.0, 1.5))))
        steps.append(wheel(turn))
        headings.append(headings[-1] + turn)
    return tuple(steps), headings



@pytest.mark.parametrize("seed", range(8))
def test_legal_sidesteps_beside_a_wall_and_a_friend_stay_inside_and_below_the_bound(seed):
    """The close scene (A20: 0.3-0.9" before a wall; A21: a friend touching within the
    contact tolerance): checker-legal sidesteps whose runs turn back within themselves lie in
    every split box of a relaxation whose budget is exactly their length, and no certificate
    against an answer 0.02 worse (the scene's own relaxation) claims a bound past them."""
    rng = np.random.default_rng(11000 + seed)
    scn = _close_scene(rng)
    advance, manoeuvre = False, "march"  # an Advance's budget (its rate) rarely buys three wheels
    u = scn.unit("u")
    legal = 0
    for _ in range(400):
        if legal == 4:
            break
        steps, headings = _sidestep(rng, 90.0)
        steps = (forward(float(rng.uniform(0.0, 1.0))),) + steps
        verdict = check_move(scn, Move("u", Manoeuvre(manoeuvre), steps))
        if not verdict.legal:
            continue
        legal += 1
        way, params, reach = _relaxed(u, 0.0, steps, headings, 90.0, advance)
        _descend(rng, reach, params, way, u, (seed, legal))
        name = OBJECTIVES[int(rng.integers(len(OBJECTIVES)))]
        objective = Objective(name) if name == "forward" else Objective(
            name, (float(rng.uniform(25, 47)), float(rng.uniform(5, 25))),
            float(rng.uniform(0, 360)) if name == "target_pose" else None)
        request = SearchRequest(scn, "u", manoeuvre, objective, Lattice(), 10.0, 1, 1.0,
                                0.01, 3)
        goal = request.goal
        assert request.relaxation is not None
        value = goal.exact(verdict)
        worse = value - 0.02 if goal.maximise else value + 0.02
        bound = certify(goal.bounding(verdict), request.relaxation, worse,
                        max_boxes=20_000).bound
        assert (bound >= value - 1e-9) if goal.maximise else (bound <= value + 1e-9), \
            (seed, steps, name, value, bound)
    assert legal >= 2
