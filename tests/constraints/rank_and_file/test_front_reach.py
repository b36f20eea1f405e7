"""The front centre's reach by heading (constraints.rank_and_file.front_reach): every pose a
checker-legal way takes (after its Pivot, after each step, at its end) has its front centre
in a cell the reach marks for its heading, on random tables (walls, rocks, L and U shapes,
friends and enemies, units that start close: A20) and beside a wall with a friend touching
within the contact tolerance (A21) and rocks ahead, for random ways of up to four wheels; the
rule examples of `t9a.snaking.front_spacing` that pass keep their front in the reach; the
fine reach (bands of 1 deg, steps of 5, within the coarse reach) holds them too, and keeps a
boxed-in front behind a corner the coarse one lets it past; and a reach that bars more than
the proof allows is caught."""

from __future__ import annotations

import math
from dataclasses import replace

import numpy as np
import pytest

from benchmarks.random_requests import random_requests
from constraints.core.scenario_io import scenario_from_json
from constraints.geometry.frame import Frame
from constraints.rank_and_file.front_reach import FrontReach
from constraints.rank_and_file.snaking_reach import MarchReach
from constraints.rank_and_file.steps import StepKind
from constraints.t9a.checker import check_move
from constraints.t9a.clauses.movement.snaking_front_spacing import FrontSpacing
from constraints.t9a.examples import field, unit, wall
from constraints.t9a.move_io import move_from_json
from constraints.t9a.moves import Manoeuvre, Move, forward
from optimizer.search.front_cut import front_reach
from optimizer.search.objectives import Objective
from optimizer.search.request import SearchRequest
from tests.constraints.t9a.test_snaking_reach import _random_way
from tests.depth import rows
from tests.optimizer.search.test_end_cut import _close_scene_with_rocks

MOVES = [r for r in random_requests(60, 20261201) if r.manoeuvre != "reform"]


def _reach(scn, unit_id: str, manoeuvre: str, fine: bool = False) -> FrontReach | None:
    request = SearchRequest(scn, unit_id, manoeuvre, Objective("forward"))
    return front_reach(scn, request.unit, manoeuvre, request.relaxation, fine=fine)


def _missed(reach: FrontReach, scn, unit_id: str, verdict) -> list[tuple[float, float, float]]:
    """The poses of a legal way whose front centre lies in no cell the reach marks for its
    heading: (x, y, heading) in the start frame."""
    u = scn.unit(unit_id)
    frame = Frame(u.pose.centre, u.pose.facing_deg)
    missed = []
    for pose in verdict.poses:
        h = math.radians(pose.facing_deg)
        front = (pose.centre[0] + u.depth_in / 2.0 * math.cos(h),
                 pose.centre[1] + u.depth_in / 2.0 * math.sin(h))
        x, y = frame.point(front)
        turn = (pose.facing_deg - u.pose.facing_deg + 180.0) % 360.0 - 180.0
        heading = math.pi / 2.0 + math.radians(turn)
        marked = reach.fronts(heading - 1e-9, heading + 1e-9)
        # Every closed cell holding the point (it may lie on a border).
        ix = (x - reach.origin) / reach.cell
        iy = (y - reach.origin) / reach.cell
        cols = range(max(math.floor(ix - 1e-9), 0), min(math.floor(ix + 1e-9), reach.count - 1) + 1)
        rows = range(max(math.floor(iy - 1e-9), 0), min(math.floor(iy + 1e-9), reach.count - 1) + 1)
        if not any(marked[r, c] for r in rows for c in cols):
            missed.append((x, y, math.degrees(heading)))
    return missed


def _legal(rng: np.random.Generator, scn, unit_id: str, manoeuvre: str, wanted: int,
           tries: int) -> list:
    advance = manoeuvre == "advance"
    found: list = []
    for _ in range(tries):
        if len(found) == wanted:
            break
        pivot = float(rng.choice([0.0, rng.uniform(-15.0, 15.0), rng.uniform(-180.0, 180.0)])) \
            if advance else 0.0
        steps, _ = _random_way(rng, float(rng.choice([30.0, 90.0])), int(rng.integers(0, 5)))
        if rng.uniform() < 0.6:  # the rest of the budget straight on: the reach's far end
            steps += (forward(max(_left(scn, unit_id, manoeuvre, steps) - 1e-6, 0.0)),)
        verdict = check_move(scn, Move(unit_id, Manoeuvre(manoeuvre), steps, pivot_deg=pivot))
        if verdict.legal and verdict.poses:
            found.append(verdict)
    return found


def _left(scn, unit_id: str, manoeuvre: str, steps) -> float:
    """The budget a way's steps leave (legs by length, wheels W sin |angle|)."""
    u = scn.unit(unit_id)
    spent = sum(s.value if s.kind == StepKind.FORWARD else u.width_in
                * math.sin(math.radians(abs(s.value))) for s in steps)
    return u.mobility_in * (1.0 if manoeuvre == "advance" else 2.0) - spent


@pytest.mark.parametrize("k", rows(range(len(MOVES)), 4))
def test_every_pose_of_a_legal_way_lies_in_the_reach_on_random_tables(k):
    """Both reaches: the coarse one, and (a March's, where its live cells stay within its
    window) the fine one within it."""
    request = MOVES[k]
    reach = _reach(request.scenario, request.unit, request.manoeuvre)
    if reach is None:
        pytest.skip("nothing the front must clear")
    fine = _reach(request.scenario, request.unit, request.manoeuvre, fine=True)
    rng = np.random.default_rng(4100 + k)
    for verdict in _legal(rng, request.scenario, request.unit, request.manoeuvre, 4, 80):
        assert not _missed(reach, request.scenario, request.unit, verdict)
        assert fine is None or not _missed(fine, request.scenario, request.unit, verdict)


@pytest.mark.parametrize("seed", rows(range(10), 4))
def test_every_pose_lies_in_the_reach_beside_a_wall_and_a_friend(seed):
    """A unit 0.3-0.9" in front of a wall (A20: kept at its start distance), a friend
    touching its flank within the contact tolerance (A21: no overlap deeper than it), rocks
    ahead; a March's fine reach too."""
    rng = np.random.default_rng(4500 + seed)
    scn = _close_scene_with_rocks(rng)
    manoeuvre = "advance" if seed % 2 == 0 else "march"
    reach = _reach(scn, "u", manoeuvre)
    assert reach is not None
    assert min(reach.limits) < 0  # the touched friend: kept, less the contact tolerance
    fine = _reach(scn, "u", manoeuvre, fine=True)
    checked = 0
    for verdict in _legal(rng, scn, "u", manoeuvre, 5, 200):
        assert not _missed(reach, scn, "u", verdict)
        assert fine is None or not _missed(fine, scn, "u", verdict)
        checked += 1
    assert checked >= 2


def test_a_fine_reach_keeps_a_boxed_in_front_behind_a_corner():
    """bench_random 113: impassable terrain ahead of the front's right end, whose corner a
    wheel either way sweeps the front's end into.  The coarse reach (steps that turn up to
    15 deg, bands of 5) lets F past the corner; the fine one, within it, does not: it holds
    far fewer cells, none more than 5" ahead of the start front (the coarse: more than 10"),
    and every legal way's poses still lie in it."""
    request = random_requests(114, 20261201)[113]
    coarse = _reach(request.scenario, request.unit, request.manoeuvre)
    fine = _reach(request.scenario, request.unit, request.manoeuvre, fine=True)
    assert coarse is not None and fine is not None
    _, ys = fine._centres()
    front_y = request.scenario.unit(request.unit).depth_in / 2.0
    assert ys[coarse.fronts(0.0, math.pi)].max() > front_y + 10.0  # past the corner
    assert ys[fine.fronts(0.0, math.pi)].max() < front_y + 5.0
    assert fine.layers.sum() < coarse.layers.sum()
    rng = np.random.default_rng(113)
    verdicts = _legal(rng, request.scenario, request.unit, request.manoeuvre, 4, 300)
    assert verdicts
    for verdict in verdicts:
        assert not _missed(fine, request.scenario, request.unit, verdict)


def _passing_examples():
    return [e for e in FrontSpacing.examples if not e.breaks]


@pytest.mark.parametrize("example", _passing_examples(), ids=lambda e: e.why[:40])
def test_the_rule_examples_that_pass_keep_their_front_in_the_reach(example):
    """`t9a.snaking.front_spacing`'s examples from the rule text that pass (rocks 0.6" to the
    side, a hair more than 0.5", the rear swinging across rocks, a friend's flank touched):
    each pose's front centre is marked."""
    scn = scenario_from_json(example.scenario)
    move = move_from_json(example.move)
    verdict = check_move(scn, move)
    # What the reach leans on holds (the example may break other clauses: the end position).
    assert not [v for v in verdict.violations if v.clause == FrontSpacing.id
                or "distance" in v.clause or "heading_window" in v.clause]
    reach = _reach(scn, move.unit, str(example.move["manoeuvre"]))
    if reach is None:
        pytest.skip("nothing the front must clear (A20 leaves it out)")
    assert not _missed(reach, scn, move.unit, verdict)


def test_a_wall_across_the_way_keeps_the_front_before_it():
    """A 52" wall 2" ahead of a March of 8": no front centre beyond it at any heading (the
    reach cuts what the relaxation's sectors pass through)."""
    scn = scenario_from_json(field(unit(), terrain=(wall("w", 10.0, 13.0, 62.0, 14.0),)))
    reach = _reach(scn, "u", "march")
    assert reach is not None
    marked = reach.fronts(0.0, math.pi)
    _, ys = reach._centres()
    # The wall's near side is 3" ahead of the start centre (start frame); the front's centre
    # stays more than 0.5" before it, give or take the reach's rounding.
    assert marked.any() and ys[marked].max() < 3.0
    assert ys[marked].max() > 1.5  # it does move forward


def test_a_march_with_no_window_goes_straight_to_the_wall():
    """A profile whose March may not turn (a window of 0) has one band of one heading: the
    reach is made (it once divided by the band's width) and runs straight up to the wall."""
    scn = scenario_from_json(field(unit(), terrain=(wall("w", 10.0, 13.0, 62.0, 14.0),)))
    request = SearchRequest(scn, "u", "march", Objective("forward"))
    straight = MarchReach(replace(request.relaxation.shape, window_deg=0.0))
    reach = front_reach(scn, request.unit, "march", straight)
    assert reach is not None
    marked = reach.fronts(math.pi / 2.0, math.pi / 2.0)
    xs, ys = reach._centres()
    assert marked.any() and 1.5 < ys[marked].max() < 3.0
    assert np.abs(xs[marked]).max() < 1.0  # no sideways drift without a turn


def test_barring_more_than_the_proof_allows_is_caught(monkeypatch):
    """The same check on a reach whose barred cells are grown by 0.4" (the front may pass
    rocks 0.6" to its side: a legal way's front lies there) finds the legal way outside."""
    example = next(e for e in FrontSpacing.examples if "0.6" in e.why)
    verdict = check_move(scenario_from_json(example.scenario), move_from_json(example.move))
    assert not [v for v in verdict.violations if v.clause == FrontSpacing.id]
    scn = scenario_from_json(example.scenario)
    sound = _reach(scn, "u", "march")
    assert sound is not None and not _missed(sound, scn, "u", verdict)
    original = FrontReach._barred

    def barred_more(self: FrontReach) -> np.ndarray:
        self.margin += 0.4
        return original(self)
    monkeypatch.setattr(FrontReach, "_barred", barred_more)
    again = scenario_from_json(example.scenario)  # a new scenario: a new reach
    unsound = _reach(again, "u", "march")
    assert unsound is not None and _missed(unsound, again, "u", verdict)
