"""face_point's bound charges the penalty of facing away (optimizer.search.heading_goals,
docs/techniques.md §9 "Facing away"): random legal Advances and Marches of up to four wheels,
of a unit that starts close to a wall (A20) and touching a friend (A21), judged by the
checker.  The piece of every box holding a way bounds the way's value as the search ranks it
(the offset, plus the penalty when it ends facing away); a certificate made for an answer
that faces the point never claims a bound better than a legal way's rank; one made for an
answer facing away bounds every legal way's offset alone, as before."""

import math

import numpy as np
import pytest

from constraints.core.scenario_io import scenario_from_json
from constraints.core.status import Status
from constraints.sat.lattice import Lattice
from constraints.t9a.checker import check_move
from constraints.t9a.examples import field
from constraints.t9a.examples import unit as ex_unit
from constraints.t9a.examples import wall as ex_wall
from constraints.t9a.moves import Manoeuvre, Move
from optimizer.search.certify import certify
from optimizer.search.heading_goals import FacePoint
from optimizer.search.objectives import Objective
from optimizer.search.request import SearchRequest
from tests.constraints.t9a.test_snaking_reach import _random_way

WAYS = 10  # legal ways per seed


def _scene(rng: np.random.Generator):
    """Spears (x 33.5-38.5, y 9-11, facing +y) 0.3-0.9" in front of a wall, a friend touching
    their right flank within the contact tolerance (0.0005" apart)."""
    gap = float(rng.uniform(0.3, 0.9))
    return scenario_from_json(field(
        ex_unit(mobility=float(rng.uniform(3.0, 6.0))),
        ex_unit("f", models=5, files=5, centre=(41.0005, 10.106)),
        terrain=(ex_wall("wall", 30.0, 8.5 - gap, 42.0, 9.0 - gap),)))


def _way(rng: np.random.Generator) -> tuple[tuple, list[float]]:
    """Up to four wheels within 90 deg of the start heading, legs of up to 2"; the headings
    after each wheel (degrees from the start facing)."""
    return _random_way(rng, 90.0, int(rng.integers(0, 5)))


def _legal_ways(seed: int):
    """The scene, the manoeuvre, and up to WAYS legal ways: (verdict, relaxation parameters)."""
    rng = np.random.default_rng(9100 + seed)
    scn = _scene(rng)
    manoeuvre = "advance" if seed % 2 == 0 else "march"
    found = []
    for _ in range(200):
        if len(found) == WAYS:
            break
        pivot = float(rng.choice([0.0, rng.uniform(-180.0, 180.0)])) \
            if manoeuvre == "advance" else 0.0
        steps, headings = _way(rng)
        verdict = check_move(scn, Move("u", Manoeuvre(manoeuvre), steps, pivot_deg=pivot))
        if not verdict.legal:
            continue
        params = np.radians([headings[-1], min(headings), max(headings)])
        if manoeuvre == "advance":
            params = np.concatenate([[math.radians(pivot)], params])
        found.append((verdict, params))
    return scn, manoeuvre, found


def _goal(scn, manoeuvre: str, point: tuple[float, float]):
    request = SearchRequest(scn, "u", manoeuvre, Objective("face_point", point), Lattice(),
                            10.0, 1, 1.0, 0.01, 3)
    goal, relaxation = request.goal, request.relaxation
    assert isinstance(goal, FacePoint) and goal.penalise_away and relaxation is not None
    return goal, relaxation


def _points(rng: np.random.Generator) -> list[tuple[float, float]]:
    """Points ahead, beside and behind the unit (start centre 36, 10)."""
    return [(float(rng.uniform(20.0, 52.0)), float(rng.uniform(y0, y0 + 8.0)))
            for y0 in (0.5, 6.0, 14.0, 22.0)]


@pytest.mark.parametrize("seed", range(8))
def test_the_piece_of_every_box_holding_a_way_bounds_its_rank(seed):
    rng = np.random.default_rng(seed)
    scn, manoeuvre, ways = _legal_ways(seed)
    assert len(ways) >= 4
    away = ahead = 0
    for point in _points(rng):
        goal, relaxation = _goal(scn, manoeuvre, point)
        for verdict, params in ways:
            rank = goal.ranked(verdict)
            facing_away = rank >= 10_000.0
            away, ahead = away + facing_away, ahead + (not facing_away)
            for zero in (True, False, False):
                halves = np.zeros_like(params) if zero else \
                    rng.uniform(0.0, math.radians(4.0), len(params))
                mids = params + rng.uniform(-1.0, 1.0, len(params)) * halves
                value = goal.piece_values(relaxation.pieces(mids[None], halves[None]))[0]
                assert value <= rank + 1e-9, (seed, point, verdict.end_facing_deg, value, rank)
    assert away and ahead  # both kinds of way were bounded


@pytest.mark.parametrize("seed", range(8))
def test_no_legal_way_ranks_better_than_the_certificates_bound(seed):
    """The worst legal way facing the point as the answer: the certificate's bound is no
    better than any legal way's rank (those facing away rank by their offset + penalty, so
    its pieces facing away only may be charged it); the worst facing away as the answer: the
    bound is no better than any legal way's offset (the penalty is not charged)."""
    rng = np.random.default_rng(500 + seed)
    scn, manoeuvre, ways = _legal_ways(seed)
    tried = 0
    for point in _points(rng):
        goal, relaxation = _goal(scn, manoeuvre, point)
        verdicts = [v for v, _ in ways]
        for faces in (True, False):
            answers = [v for v in verdicts if (goal.ranked(v) < 10_000.0) == faces]
            if not answers:
                continue
            answer = max(answers, key=goal.exact)
            bounding = goal.bounding(answer)
            assert (bounding is goal) == faces and bounding.penalise_away == faces
            bound = certify(bounding, relaxation, goal.exact(answer), max_boxes=20_000).bound
            tried += 1
            for v in verdicts:
                value = goal.ranked(v) if faces else goal.exact(v)
                assert bound <= value + 1e-9, (seed, point, faces, bound, value)
    assert tried >= 4


def test_request_24s_march_is_proved_once_facing_away_is_charged():
    """bench_random's request 24 on an emptied table: the point 66 deg to the left, beyond
    the Reach of any way that keeps its facing within 90 deg of the start; the offset alone
    reaches 0 by ending with the point straight behind (facing away), which the objective
    ranks last.  The answer (a wheel of 90 deg) is now proved."""
    from dataclasses import replace

    from benchmarks.random_requests import random_requests
    from optimizer.search.solve import best_move

    r = random_requests(25)[24]
    scn = replace(r.scenario, terrain=(),
                  units=tuple(u for u in r.scenario.units if u.id == r.unit))
    result = best_move(scn, r.unit, r.manoeuvre, r.objective, time_limit_s=30.0)
    assert result.status == Status.OPTIMAL
    assert result.value == pytest.approx(1.1891, abs=1e-3)
    assert result.bound is not None and result.bound > 1.17
