"""The relaxation of every Advance and March with any number of wheels
(constraints.rank_and_file.snaking_reach): random ways of up to six wheels, executed step by
step, end inside the piece of every box holding their parameters; and the examples the bound's
argument rests on."""

import math

import numpy as np
import pytest

from constraints.core.scenario_io import scenario_from_json
from constraints.geometry.frame import Frame
from constraints.geometry.pieces import ReachPieces, facing_gap_deg, sector_distance, sector_support
from constraints.rank_and_file.kinematics import Costs, arc, chord, snake
from constraints.rank_and_file.snaking_reach import (
    AdvanceReach,
    MarchReach,
    SnakingShape,
    least_psi,
    psi_arc,
    psi_chord,
    psi_projected,
)
from constraints.rank_and_file.unit import Base
from constraints.sat.lattice import Lattice
from constraints.t9a.checker import check_move
from constraints.t9a.examples import field
from constraints.t9a.examples import unit as ex_unit
from constraints.t9a.examples import wall as ex_wall
from constraints.t9a.moves import Manoeuvre, Move, forward, wheel
from optimizer.search.certify import ROUND_BOXES, STUCK_BOXES, _split, certify
from optimizer.search.objectives import Objective
from optimizer.search.request import SearchRequest
from tests.depth import rows
from tests.support import unit

OBJECTIVES = ("target_distance", "front_target_distance", "target_pose", "forward",
              "face_point")


def _random_way(rng: np.random.Generator, window: float, wheels: int):
    """Steps of a way that keeps its heading within `window` of the start (the budget is
    whatever it costs): (steps, headings after each wheel)."""
    steps, heading, headings = [], 0.0, [0.0]
    for _ in range(wheels):
        if rng.uniform() < 0.6:
            steps.append(forward(float(rng.uniform(0.0, 2.0))))
        turn = float(rng.uniform(max(-90.0, -window - heading), min(90.0, window - heading)))
        steps.append(wheel(turn))
        heading += turn
        headings.append(heading)
    if rng.uniform() < 0.7:
        steps.append(forward(float(rng.uniform(0.0, 2.0))))
    return tuple(steps), headings


def _box(rng: np.random.Generator, params: np.ndarray, zero: bool):
    """A box holding `params`: the point itself, or a random box around it."""
    if zero:
        return params[None, :], np.zeros((1, len(params)))
    halves = rng.uniform(0.0, math.radians(4.0), len(params))
    return (params + rng.uniform(-1.0, 1.0, len(params)) * halves)[None, :], halves[None, :]


def _relaxed(u, pivot: float, steps, headings: list[float], window: float, advance: bool):
    """The way, its parameters in its family's relaxation (the Pivot first for an Advance:
    the end heading, the least and the greatest heading), and that relaxation, with the
    way's own distance as the budget."""
    way = snake(u, pivot, steps)
    shape = SnakingShape(u.pose.centre, u.pose.facing_deg, u.width_in, u.depth_in,
                         way.distance_in + 1e-9, window)
    params = np.radians([headings[-1], min(headings), max(headings)])
    if advance:
        params = np.concatenate([[math.radians(pivot)], params])
    return way, params, AdvanceReach(shape) if advance else MarchReach(shape)


@pytest.mark.parametrize("seed", range(40))
def test_every_random_way_ends_inside_the_piece_of_its_box(seed):
    rng = np.random.default_rng(seed)
    files, ranks = int(rng.integers(1, 8)), int(rng.integers(1, 5))
    u = unit(models=files * ranks, files=files, centre=(50.0, 50.0),
             facing=float(rng.uniform(0.0, 360.0)))
    window = float(rng.choice([30.0, 60.0, 90.0]))
    advance = seed % 2 == 0
    pivot = float(rng.uniform(-180.0, 180.0)) if advance else 0.0
    steps, headings = _random_way(rng, window, int(rng.integers(0, 7)))
    way, params, reach = _relaxed(u, pivot, steps, headings, window, advance)
    end = way.end
    h = math.radians(end.facing_deg)
    front = np.asarray(end.centre) + u.depth_in / 2.0 * np.array([math.cos(h), math.sin(h)])
    for zero in (True, False, False):
        pieces = reach.pieces(*_box(rng, params, zero), hull=True)
        assert not pieces.empty[0]
        assert sector_distance(front, pieces)[0] <= 1e-9
        assert sector_distance(np.asarray(end.centre), pieces.centres())[0] <= 1e-9
        off = abs((end.facing_deg - pieces.facing[0] + 180.0) % 360.0 - 180.0)
        assert off <= pieces.spread[0] + 1e-9


@pytest.mark.parametrize("seed", range(30))
@pytest.mark.parametrize("cost, psi", [(arc, psi_arc), (chord, psi_chord)], ids=["arc", "chord"])
def test_warhammer_wheels_end_inside_too(seed, cost, psi):
    """Warhammer's wheels cost the outer corner's arc (or its chord), and nothing keeps its
    heading within a window: ways of up to eight wheels turn past 180 degrees."""
    rng = np.random.default_rng(1000 + seed)
    files, ranks = int(rng.integers(1, 8)), int(rng.integers(1, 5))
    u = unit(models=files * ranks, files=files, centre=(50.0, 50.0),
             facing=float(rng.uniform(0.0, 360.0)))
    steps, headings = _random_way(rng, 300.0, int(rng.integers(0, 9)))
    way = snake(u, 0.0, steps, Costs(cost))
    window = max(abs(h) for h in headings)
    shape = SnakingShape(u.pose.centre, u.pose.facing_deg, u.width_in, u.depth_in,
                         way.distance_in + 1e-9, window, psi)
    params = np.radians([headings[-1], min(headings), max(headings)])
    end = way.end
    h = math.radians(end.facing_deg)
    front = np.asarray(end.centre) + u.depth_in / 2.0 * np.array([math.cos(h), math.sin(h)])
    for zero in (True, False):
        pieces = MarchReach(shape).pieces(*_box(rng, params, zero), hull=True)
        assert not pieces.empty[0]
        assert sector_distance(front, pieces)[0] <= 1e-9


def test_the_arc_costs_more_than_the_projection_so_reaches_less():
    u = unit(models=10, files=5, centre=(50.0, 50.0), facing=90.0)
    params = np.radians([[60.0, 0.0, 60.0]])
    radii = [MarchReach(SnakingShape(u.pose.centre, 90.0, u.width_in, u.depth_in, 16.0, 90.0,
                                     psi)).pieces(params, np.zeros_like(params)).radius[0]
             for psi in (psi_projected, psi_chord, psi_arc)]
    assert radii[0] > radii[1] > radii[2]
    # One wheel of 60 degrees, nothing more: the budget left is what the wheel did not cost.
    assert radii[2] == pytest.approx(16.0 - u.width_in * math.radians(60.0))


# -- examples ----------------------------------------------------------------------------------

def test_least_psi_is_the_cheapest_split_into_turns_of_at_most_r():
    r = np.array([math.radians(90.0)])
    psi = lambda x: math.sin(x) - x / 2  # noqa: E731
    # psi falls past 60 deg: 120 deg or more costs at least two turns of 90 (not 90 + 30),
    # 78 deg or more at least one of 90.
    assert least_psi(np.radians([120.0]), r)[0] == pytest.approx(2 * psi(math.pi / 2))
    assert 2 * psi(math.pi / 2) < psi(math.pi / 2) + psi(math.radians(30.0))
    assert least_psi(np.radians([78.0]), r)[0] == pytest.approx(psi(math.pi / 2))
    assert least_psi(np.radians([40.0]), np.radians([20.0]))[0] == \
        pytest.approx(2 * psi(math.radians(20.0)))



def test_the_sidestep_of_the_techniques_note_is_certified():
    """5 files of 20 mm, 4 ranks, Mob 4, March (8") from (36, 10) facing 90 to (40, 16)
    facing 90: wheel -31.164, forward 3.925, wheel +31.164 ends 1.5252" away, and no way
    with any number of wheels does better than that by 0.01"."""
    u = unit(models=20, files=5, centre=(36.0, 10.0), facing=90.0, base=Base(20.0, 20.0))
    shape = SnakingShape(u.pose.centre, 90.0, u.width_in, u.depth_in, 8.0, 90.0)
    way = snake(u, 0.0, (wheel(-31.164), forward(3.925), wheel(31.164)))
    assert way.distance_in <= 8.0 + 1e-3
    goal = Objective("target_pose", (40.0, 16.0), 90.0).goal(Frame((36.0, 10.0), 90.0))
    value = math.dist(way.end.centre, (40.0, 16.0))
    assert value == pytest.approx(1.5252, abs=5e-4)
    certificate = certify(goal, MarchReach(shape), value)
    assert certificate.closed and value - 0.01 <= certificate.bound <= value


class _SidewaysAtFacing:
    """How far left a March ends at exactly its start facing (a goal for `certify`)."""

    maximise = True

    def piece_values(self, pieces: ReachPieces) -> np.ndarray:
        left = sector_support(np.array([0.0, 1.0]), pieces.centres())
        return np.where(facing_gap_deg(pieces, 0.0) > 0.0, -np.inf, left)


def test_a_march_shifts_sideways_no_more_than_the_sidestep_corollary():
    """At unchanged facing the sideways shift is at most the largest W(1 - cos t) +
    (B - 2 W sin t) sin t over affordable t (2 W sin t <= B) (docs/techniques.md §9),
    reached by wheel, forward, wheel back."""
    u = unit(models=10, files=5, centre=(0.0, 0.0), facing=0.0)  # facing +x: left is +y
    width, budget = u.width_in, 8.0
    t = np.radians(np.linspace(0.0, 90.0, 90_001))
    t = t[2 * width * np.sin(t) <= budget]
    shift = width * (1 - np.cos(t)) + (budget - 2 * width * np.sin(t)) * np.sin(t)
    best = float(np.max(shift))
    shape = SnakingShape((0.0, 0.0), 0.0, width, u.depth_in, budget, 90.0)
    certificate = certify(_SidewaysAtFacing(), MarchReach(shape), best)  # type: ignore[arg-type]
    assert certificate.closed and best <= certificate.bound <= best + 0.01
    angle = float(t[np.argmax(shift)])
    legs = budget - 2 * width * math.sin(angle)
    way = snake(u, 0.0, (wheel(math.degrees(angle)), forward(legs), wheel(-math.degrees(angle))))
    assert way.end.centre[1] == pytest.approx(best, abs=1e-6)


@pytest.mark.parametrize("claimed", [1.6, 2.5])
def test_a_certificate_that_cannot_close_stops_early_and_stays_sound(claimed):
    """The sidestep above with an answer worse than its best way (1.5252): a point of the
    relaxation beats the answer, so no refinement can close; the certificate stops within
    STUCK_BOXES (or once its bound is within the tolerance of that point), its bound still
    below every legal way and below the point it reached; the best way's own value still
    closes."""
    u = unit(models=20, files=5, centre=(36.0, 10.0), facing=90.0, base=Base(20.0, 20.0))
    shape = SnakingShape(u.pose.centre, 90.0, u.width_in, u.depth_in, 8.0, 90.0)
    goal = Objective("target_pose", (40.0, 16.0), 90.0).goal(Frame((36.0, 10.0), 90.0))
    stuck = certify(goal, MarchReach(shape), claimed)
    assert not stuck.closed and stuck.reached is not None
    assert stuck.reached < claimed - 0.01
    assert stuck.boxes <= STUCK_BOXES + 2 * ROUND_BOXES
    assert stuck.bound <= stuck.reached and stuck.bound <= 1.5252
    full = certify(goal, MarchReach(shape), 1.5252)  # closes: the best way's own value
    assert full.closed and (full.reached is None or full.reached >= 1.5252 - 0.01)


# -- the certificate's own boxes, and legal ways beside walls and friends ----------------------

def _inside(reach, mids, halves, way, u, tag):
    pieces = reach.pieces(mids, halves, hull=True)
    end = way.end
    h = math.radians(end.facing_deg)
    front = np.asarray(end.centre) + u.depth_in / 2.0 * np.array([math.cos(h), math.sin(h)])
    assert not pieces.empty[0], tag
    assert sector_distance(front, pieces)[0] <= 1e-9, tag
    assert sector_distance(np.asarray(end.centre), pieces.centres())[0] <= 1e-9, tag
    off = abs((end.facing_deg - pieces.facing[0] + 180.0) % 360.0 - 180.0)
    assert off <= pieces.spread[0] + 1e-9, tag


def _child_holding(mid: np.ndarray, half: np.ndarray, params: np.ndarray,
                   weights: np.ndarray, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    """The box (one row) split as the certificate splits it (`_split`), and one of its
    halves holding the way's parameters `params`, drawn at random where both do."""
    low_high = _split(mid, half, weights)
    child = np.all(np.abs(low_high[0] - params) <= low_high[1] + 1e-12, axis=1)
    pick = int(np.flatnonzero(child)[rng.integers(child.sum())])
    return low_high[0][pick:pick + 1], low_high[1][pick:pick + 1]


@pytest.mark.parametrize("seed", rows(range(60), 30))
def test_every_random_way_ends_inside_each_box_of_the_certificates_splits(seed):
    """The boxes the certificate judges (the initial grid, then halves along the parameter
    that moves a piece most: one side of h = 0, so pieces without a margin, or across it)
    hold every way whose parameters they hold, down to boxes a millionth of a degree wide;
    ways of up to four wheels, some turning back to exactly their start heading (h = 0) or
    to the window's edge."""
    rng = np.random.default_rng(5000 + seed)
    files, ranks = int(rng.integers(1, 8)), int(rng.integers(1, 5))
    u = unit(models=files * ranks, files=files, centre=(50.0, 50.0),
             facing=float(rng.uniform(0.0, 360.0)))
    window = float(rng.choice([30.0, 45.0, 60.0, 90.0]))
    advance = seed % 2 == 0
    pivot = float(rng.uniform(-180.0, 180.0)) if advance else 0.0
    steps, headings = _random_way(rng, window, int(rng.integers(0, 5)))
    if seed % 5 == 1 and len(headings) > 1:  # back to the start heading: h = 0 exactly
        steps += (wheel(float(np.clip(-headings[-1], -90.0, 90.0))),)
        headings.append(headings[-1] + float(np.clip(-headings[-1], -90.0, 90.0)))
    way, params, reach = _relaxed(u, pivot, steps, headings, window, advance)
    _descend(rng, reach, params, way, u, seed)


def _descend(rng, reach, params, way, u, tag):
    """The way inside the piece of every box holding its parameters, from the first grid
    down a random chain of the certificate's splits to boxes of about 1e-9."""
    mids, halves = reach.initial()
    holds = np.all(np.abs(mids - params) <= halves + 1e-12, axis=1)
    assert holds.any()
    for k in np.flatnonzero(holds)[:2]:  # a way on a boundary lies in both neighbours
        box_mid, box_half = mids[k:k + 1], halves[k:k + 1]
        for depth in range(60):
            _inside(reach, box_mid, box_half, way, u, (tag, depth))
            if (box_half * reach.weights).max() < 1e-9:
                break
            box_mid, box_half = _child_holding(box_mid, box_half, params, reach.weights, rng)


def _close_scene(rng: np.random.Generator):
    """A unit 0.3-0.9" in front of a wall (A20, the wall behind it) with a shallow friend
    touching its right flank within the contact tolerance (A21: 0.0005" apart), on 1" bases:
    spears (x 33.5-38.5, y 9-11) facing +y."""
    gap = float(rng.uniform(0.3, 0.9))
    return scenario_from_json(field(
        ex_unit(mobility=float(rng.uniform(3.0, 6.0))),
        ex_unit("f", models=5, files=5, centre=(41.0005, 10.106)),
        terrain=(ex_wall("wall", 30.0, 8.5 - gap, 42.0, 9.0 - gap),)))


@pytest.mark.parametrize("seed", range(12))
def test_no_legal_way_beside_a_wall_and_a_friend_beats_the_bound(seed):
    """End to end: random ways of up to four wheels of a unit that starts close to a wall
    (A20) and touching a friend (A21), judged by the checker; for each legal one, the
    certificate against a worse answer (its value + 1) has a bound no better than the way's
    value, for every objective (the box holding the way is never settled)."""
    rng = np.random.default_rng(7000 + seed)
    scn = _close_scene(rng)
    advance = seed % 2 == 0
    manoeuvre = "advance" if advance else "march"
    u = scn.unit("u")
    budget = u.mobility_in * (1.0 if advance else 2.0)
    legal = 0
    for _ in range(120):
        if legal == 6:
            break
        pivot = float(rng.choice([0.0, rng.uniform(-10.0, 10.0), rng.uniform(-180.0, 180.0)])) \
            if advance else 0.0
        steps, _ = _random_way(rng, float(rng.choice([30.0, 90.0])), int(rng.integers(0, 5)))
        move = Move("u", Manoeuvre(manoeuvre), steps, pivot_deg=pivot)
        verdict = check_move(scn, move)
        if not verdict.legal:
            continue
        legal += 1
        name = OBJECTIVES[int(rng.integers(len(OBJECTIVES)))]
        objective = Objective(name, (float(rng.uniform(25, 47)), float(rng.uniform(5, 25))),
                              float(rng.uniform(0, 360)) if name == "target_pose" else None)
        if name == "forward":
            objective = Objective(name)
        request = SearchRequest(scn, "u", manoeuvre, objective, Lattice(), 10.0, 1, 1.0,
                                0.01, 3)
        goal, relaxation = request.goal, request.relaxation
        assert isinstance(relaxation, AdvanceReach | MarchReach)
        assert relaxation.shape.budget == pytest.approx(budget)
        value = goal.exact(verdict)
        worse = value - 1.0 if goal.maximise else value + 1.0
        # (face_point: an answer facing as the way does, ways facing away charged if it faces
        # the point, optimizer.search.heading_goals.FacePoint.bounding)
        bound = certify(goal.bounding(verdict), relaxation, worse, max_boxes=20_000).bound
        assert (bound >= value - 1e-9) if goal.maximise else (bound <= value + 1e-9), \
            (seed, move, name, value, bound)
    assert legal >= 3

