"""The front centre's cone (constraints.rank_and_file.front_cone): every state a checker-legal
March takes, at its steps and along its wheels, has its front centre in the reach of the
window of headings the way visits, on random tables (walls, rocks, L and U shapes, friends and
enemies, units that start close: A20) and beside a wall with a friend touching within the
contact tolerance (A21) and rocks ahead; and on bench_solve's gap (two walls, a 5.4" gap) the
cone refuses the sidesteps its window cannot make and holds the search's answer."""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pytest
import shapely

from benchmarks.random_requests import random_requests
from constraints.core.scenario_io import load_scenario
from constraints.geometry.frame import Frame
from constraints.rank_and_file.front_cone import FrontCone
from constraints.t9a.checker import check_move
from constraints.t9a.moves import Manoeuvre, Move, forward, wheel
from optimizer.search.front_cut import front_cone
from optimizer.search.objectives import Objective
from optimizer.search.request import SearchRequest
from tests.constraints.rank_and_file.test_front_reach import _legal
from tests.depth import rows
from tests.optimizer.search.test_end_cut import _close_scene_with_rocks

MARCHES = [r for r in random_requests(60, 20261201) if r.manoeuvre == "march"]
GAP = Path(__file__).resolve().parents[3] / "benchmarks" / "scenarios" / "gap.json"


def _cone(scn, unit_id: str) -> FrontCone | None:
    request = SearchRequest(scn, unit_id, "march", Objective("forward"))
    return front_cone(scn, request.unit, "march", request.relaxation)


def _fronts(scn, unit_id: str, verdict) -> tuple[np.ndarray, float, float]:
    """The way's front centres (start frame), at its poses and every 0.5 deg along each
    wheel (about the inner front corner), and the least and most heading it visits."""
    u = scn.unit(unit_id)
    frame = Frame(u.pose.centre, u.pose.facing_deg)
    rho = u.width_in / 2.0
    first = verdict.poses[0]
    out = [np.asarray(frame.point(_front(first, u.depth_in)))]
    headings = [math.pi / 2.0 + math.radians(first.facing_deg - u.pose.facing_deg)]
    for a, b in zip(verdict.poses, verdict.poses[1:], strict=False):
        ta, tb = (math.pi / 2.0 + math.radians((p.facing_deg - u.pose.facing_deg + 180.0)
                                               % 360.0 - 180.0) for p in (a, b))
        fa, fb = (np.asarray(frame.point(_front(p, u.depth_in))) for p in (a, b))
        headings += [ta, tb]
        if abs(tb - ta) < 1e-12:  # a leg: F moves straight
            out += [fa, fb]
            continue
        side = 1.0 if tb > ta else -1.0  # turning left: the left corner is the pivot
        pivot = fa - side * rho * np.array([math.sin(ta), -math.cos(ta)])
        for t in np.linspace(ta, tb, max(2, math.ceil(abs(tb - ta) / math.radians(0.5)) + 1)):
            out.append(pivot + side * rho * np.array([math.sin(t), -math.cos(t)]))
        assert np.allclose(out[-1], fb, atol=1e-6)  # the wheel as the checker made it
    return np.array(out), min(headings), max(headings)


def _front(pose, depth: float) -> tuple[float, float]:
    h = math.radians(pose.facing_deg)
    return pose.centre[0] + depth / 2.0 * math.cos(h), pose.centre[1] + depth / 2.0 * math.sin(h)


def _outside(cone: FrontCone, scn, unit_id: str, verdict) -> int:
    """How many of a legal way's front centres lie outside the reach of its window (0 where
    the window is not inside (0, pi): no reach)."""
    points, lo, hi = _fronts(scn, unit_id, verdict)
    reach = cone.reach(lo, hi)
    if reach is None:
        return 0
    return int((shapely.distance(reach, shapely.points(points)) > 1e-9).sum())


@pytest.mark.parametrize("k", rows(range(len(MARCHES)), 5))
def test_every_front_of_a_legal_march_lies_in_its_window_s_reach(k):
    request = MARCHES[k]
    cone = _cone(request.scenario, request.unit)
    if cone is None:
        pytest.skip("nothing the front must clear")
    rng = np.random.default_rng(5100 + k)
    for verdict in _legal(rng, request.scenario, request.unit, "march", 4, 80):
        assert _outside(cone, request.scenario, request.unit, verdict) == 0


@pytest.mark.parametrize("seed", rows(range(8), 4))
def test_every_front_lies_in_the_reach_beside_a_wall_and_a_friend(seed):
    """A20 (the wall kept at its start distance) and A21 (the touched friend less the contact
    tolerance)."""
    rng = np.random.default_rng(5500 + seed)
    scn = _close_scene_with_rocks(rng)
    cone = _cone(scn, "u")
    assert cone is not None and min(cone.limits) < 0
    checked = 0
    for verdict in _legal(rng, scn, "u", "march", 5, 200):
        assert _outside(cone, scn, "u", verdict) == 0
        checked += 1
    assert checked >= 2


def test_the_gap_refuses_what_its_window_cannot_reach():
    """gap.json: the block's front (4") must pass a 5.4" gap 2.7" to its right, 9" ahead.
    Within 22 deg of the start its front centre cannot reach (4, 15) (start frame: the
    target pose's); within 25 deg it can (the cone knows no budget); the search's answer
    (wheels of -30 and 28 deg) keeps every front in the reach of its window."""
    scn = load_scenario(GAP)
    cone = _cone(scn, "block")
    assert cone is not None
    target = shapely.Point(4.0, 15.0)
    up = math.pi / 2.0
    for degrees, refused in ((19.0, True), (22.0, True), (25.0, False)):
        reach = cone.reach(up - math.radians(degrees), up + math.radians(1.0))
        assert (shapely.distance(reach, target) > 1.0) == refused
    answer = Move("block", Manoeuvre.MARCH, (forward(0.6915), wheel(-30.0), forward(6.5285),
                                             wheel(28.0), forward(4.902)))
    verdict = check_move(scn, answer)
    assert verdict.legal
    assert _outside(cone, scn, "block", verdict) == 0
