"""The relaxation of every whfb7 move (constraints.whfb7.reach): random legal moves of
forward steps, wheels and turns in any order end inside the piece of their own parameters,
and inside every box round them (the pieces' growth covers the box); their parameters lie in
the first boxes."""

from __future__ import annotations

import math

import numpy as np
import pytest

from constraints.core.scenario_io import scenario_from_json
from constraints.geometry.pieces import facing_gap_deg, sector_distance
from constraints.rank_and_file.steps import forward, turn, wheel
from constraints.whfb7.checker import check_move
from constraints.whfb7.examples import field, unit
from constraints.whfb7.moves import Manoeuvre, WarhammerMove
from constraints.whfb7.reach import MoveReach


def _scenario(rng: np.random.Generator) -> dict:
    models = int(rng.integers(3, 21))
    return field(unit(models=models, files=int(rng.integers(1, min(models, 8) + 1)),
                      base=(float(rng.choice([20.0, 25.0, 40.0])),
                            float(rng.choice([20.0, 25.0, 40.0, 50.0]))),
                      centre=(36.0, 24.0), facing=float(rng.uniform(0.0, 360.0)),
                      movement=float(rng.uniform(3.0, 8.0))), width=72.0, depth=48.0)


def _steps(rng: np.random.Generator, budget: float, turn_cost: float, width: float):
    """A random sequence of up to six steps scaled to fit about the budget."""
    count = int(rng.integers(1, 7))
    kinds = rng.choice(["forward", "wheel", "turn"], size=count, p=[0.4, 0.35, 0.25])
    turns = int((kinds == "turn").sum())
    left = budget - turns * turn_cost
    if left < 0:
        return None
    scale = 1.0 - 1e-9 if rng.random() < 0.5 else rng.uniform(0.3, 1.0)  # all of it, often
    shares = rng.dirichlet(np.ones(count)) * left * scale
    steps = []
    for kind, share in zip(kinds, shares, strict=True):
        if kind == "turn":
            steps.append(turn(float(rng.choice([90.0, -90.0, 180.0]))))
        elif kind == "forward":
            steps.append(forward(float(share)))
        else:
            angle = min(90.0, math.degrees(share / width)) * rng.choice([-1.0, 1.0])
            steps.append(wheel(float(angle)))
    return tuple(steps)


def _inside(reach: MoveReach, mids: np.ndarray, halves: np.ndarray, centre, front,
            facing: float) -> None:
    pieces = reach.pieces(mids[None, :], halves[None, :])
    assert sector_distance(np.asarray(centre), pieces.centres())[0] <= 1e-7
    assert sector_distance(np.asarray(front), pieces)[0] <= 1e-7
    assert facing_gap_deg(pieces, facing)[0] <= 1e-6


@pytest.mark.parametrize("seed", range(6))
def test_random_legal_moves_end_inside_the_relaxation(seed):
    rng = np.random.default_rng(seed)
    checked = 0
    kinds_seen = set()
    while checked < 60:
        data = _scenario(rng)
        scenario = scenario_from_json(data)
        u = scenario.unit("u")
        budget, turn_cost = u.mobility_in, u.mobility_in / 4.0
        reach = MoveReach(u, budget, turn_cost)
        lo_hi = {}
        mids0, halves0 = reach.initial()
        for k in range(len(reach.kinds)):
            rows = np.round(mids0[:, 0]) == k
            lo_hi[k] = ((mids0[rows] - halves0[rows]).min(axis=0),
                        (mids0[rows] + halves0[rows]).max(axis=0))
        for _ in range(10):
            steps = _steps(rng, budget, turn_cost, u.width_in)
            if steps is None:
                continue
            verdict = check_move(scenario, WarhammerMove("u", Manoeuvre.MOVE, steps=steps))
            if not verdict.legal:
                continue
            point = reach.parameters(steps)
            assert point is not None
            kind = int(point[0])
            lo, hi = lo_hi[kind]
            assert np.all(point >= lo - 1e-9) and np.all(point <= hi + 1e-9)
            end = verdict.end_centre
            facing = verdict.end_facing_deg
            depth = _end_depth(scenario, steps)
            front = (end[0] + depth / 2 * math.cos(math.radians(facing)),
                     end[1] + depth / 2 * math.sin(math.radians(facing)))
            _inside(reach, point, np.zeros_like(point), end, front, facing)
            # A box round the point, of random half widths (never past the first boxes).
            halves = rng.uniform(0.0, 0.2, size=len(point)) * (hi - lo) / 2.0
            halves[0] = 0.0
            mids = np.clip(point + rng.uniform(-1.0, 1.0, size=len(point)) * halves,
                           lo + halves, hi - halves)
            halves = np.maximum(halves, np.abs(point - mids))
            _inside(reach, mids, halves, end, front, facing)
            checked += 1
            kinds_seen.add(reach.kinds[kind].turns)
    assert {0, 1} <= kinds_seen


def _end_depth(scenario, steps) -> float:
    from constraints.whfb7.context import WarhammerContext
    return WarhammerContext(scenario, WarhammerMove("u", Manoeuvre.MOVE,
                                                    steps=steps)).end_unit.depth_in


WAYS = [
    (turn(90.0), forward(3.0)),
    (forward(3.0), turn(-90.0)),
    (turn(180.0), wheel(20.0), forward(1.0)),
    (wheel(-10.0), turn(90.0), wheel(15.0), forward(0.5)),
    (forward(1.0), turn(180.0), forward(1.5), wheel(-5.0)),
    (turn(90.0), turn(90.0), forward(2.0)),
    (turn(90.0), forward(1.0), turn(-90.0), forward(0.9)),
    (wheel(12.0), forward(0.5), wheel(-12.0)),
]


@pytest.mark.parametrize("steps", WAYS)
@pytest.mark.parametrize("files", [3, 4, 5])
def test_set_moves_end_inside_and_turns_then_straight_on_the_edge(steps, files):
    """Moves using the whole budget (M4: a turn costs 1"), with a full and an incomplete rear
    rank (10 models on 3, 4 or 5 files); a turn then a straight leg ends on the piece's edge
    (the relaxation is exact there)."""
    scenario = scenario_from_json(field(unit(models=10, files=files, movement=4.0)))
    u = scenario.unit("u")
    reach = MoveReach(u, 4.0, 1.0)
    verdict = check_move(scenario, WarhammerMove("u", Manoeuvre.MOVE, steps=steps))
    assert verdict.legal, verdict.violations
    point = reach.parameters(steps)
    facing = verdict.end_facing_deg
    depth = _end_depth(scenario, steps)
    end = verdict.end_centre
    front = (end[0] + depth / 2 * math.cos(math.radians(facing)),
             end[1] + depth / 2 * math.sin(math.radians(facing)))
    _inside(reach, point, np.zeros_like(point), end, front, facing)
    if steps == WAYS[0]:
        beyond = (end[0] + 0.01 * math.cos(math.radians(facing)),
                  end[1] + 0.01 * math.sin(math.radians(facing)))
        pieces = reach.pieces(point[None, :], np.zeros((1, len(point))))
        assert sector_distance(np.asarray(beyond), pieces.centres())[0] == \
            pytest.approx(0.01, abs=1e-6)


@pytest.mark.parametrize("tau", [90.0, -90.0, 180.0])
@pytest.mark.parametrize("files", [3, 4, 5])
def test_a_turn_a_wheel_and_the_rest_straight_ends_on_the_edge(tau, files):
    """Turn, wheel 20 deg, forward with what is left: the end lies on its piece's edge (0.01"
    further on is 0.01" out), so the bound over such moves is exact."""
    scenario = scenario_from_json(field(unit(models=10, files=files, movement=4.0)))
    u = scenario.unit("u")
    reach = MoveReach(u, 4.0, 1.0)
    width = turned_width(u, tau)
    steps = (turn(tau), wheel(-20.0), forward(3.0 - width * math.radians(20.0) - 1e-9))
    verdict = check_move(scenario, WarhammerMove("u", Manoeuvre.MOVE, steps=steps))
    assert verdict.legal, verdict.violations
    point = reach.parameters(steps)
    pieces = reach.pieces(point[None, :], np.zeros((1, len(point))))
    end, facing = verdict.end_centre, math.radians(verdict.end_facing_deg)
    assert sector_distance(np.asarray(end), pieces.centres())[0] <= 1e-7
    beyond = (end[0] + 0.01 * math.cos(facing), end[1] + 0.01 * math.sin(facing))
    assert sector_distance(np.asarray(beyond), pieces.centres())[0] == \
        pytest.approx(0.01, abs=1e-6)


def turned_width(u, tau: float) -> float:
    from constraints.rank_and_file.turns import turned
    return turned(u, tau).width_in
