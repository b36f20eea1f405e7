"""BatchJudge.mask on Advance and March poses: the same verdicts, bit for bit, as a plain
(N, 4, 2) formulation of its checks, and sound against the checker; the fast paths (chunks,
bounding-box and axis filters, the sweep short cut, the margin) change nothing."""


import numpy as np
import pytest
from shapely import Polygon

import constraints.geometry.batch as batch_poses
import constraints.rank_and_file.ways as ways_np
from constraints.core.scenario_io import load_scenario
from constraints.geometry.convex import convex_distance, overhang
from constraints.geometry.plane import forward_vectors, signed_deg
from constraints.geometry.plane import rectangle_corners_array as rectangle_corners
from constraints.geometry.wheel import wheel_shifts
from constraints.rank_and_file.ways import WayBounds, one_wheel_legs
from constraints.sat.separation import STRICT_IN
from constraints.sat.sweep_bounds import first_leg_clear, first_leg_on_table
from constraints.t9a.checker import check_move
from constraints.t9a.moves import Move, Step
from optimizer.batch import BatchJudge
from tests.support import SCENARIOS, scenario, unit, wall

# A wall across the whole table just ahead: its vertices are far, its edge is not.
LONG_WALL = scenario(unit("u", models=10, files=5, centre=(36.0, 20.5), mobility=4.0),
                     terrain=(wall("w", -10.0, 23.5, 82.0, 23.8),))


def _clause(judge: BatchJudge, name: str):
    """The judge's clause `t9a.<name>` or `t9a.<manoeuvre>.<name>`, or None."""
    return judge.clauses.get(f"t9a.{name}", judge.clauses.get(f"t9a.{judge.manoeuvre}.{name}"))


def reference_mask(judge: BatchJudge, centres: np.ndarray, facings: np.ndarray,
                   pivots: np.ndarray) -> np.ndarray:
    """The batch mask's checks written plainly: (N, 4, 2) corners, norms, the sweep always."""
    unit, field, tol = judge.unit, judge.scenario.battlefield, judge.tol
    heading = unit.pose.facing_deg + pivots
    delta = signed_deg(facings - heading)
    a, b, ok = one_wheel_legs(judge.unit, centres, heading, delta)
    if (distance := _clause(judge, "distance")) is not None:
        cost = a + b + unit.width_in * np.abs(np.sin(np.radians(delta)))
        ok &= cost <= distance.limit_in(unit) + tol
    if (window := _clause(judge, "heading_window")) is not None:
        ok &= np.abs(delta) <= float(window.params["window_deg"]) + 1e-9
    corners = rectangle_corners(centres, facings, unit.width_in, unit.depth_in)
    if (vfp := _clause(judge, "valid_final_position")) is not None:
        reach = np.linalg.norm(corners[:, :, None, :] - judge.start_corners[None, None],
                               axis=-1).min(axis=2).max(axis=1)
        ok &= reach <= vfp.limit_in(unit) + tol
    if _clause(judge, "table_edge.end") is not None:
        ok &= overhang(corners, field.width_in, field.depth_in) <= tol
    ok &= _spacing_ok(judge, corners, "unit_spacing")
    ways, way = np.unique(np.stack([pivots, delta], axis=1), axis=0, return_inverse=True)
    way = way.reshape(-1)
    back = forward_vectors(facings) * b[:, None]
    fronts = np.stack([corners[:, 0] - back, corners[:, 1] - back, corners[:, 1],
                       corners[:, 0]], axis=1)
    if (front := _clause(judge, "snaking.front_spacing")) is not None:
        gap = float(front.params["spacing_in"]) + STRICT_IN + judge.margin_in
        ok &= a <= first_leg_clear(unit, ways, judge.pieces, gap)[way]
        ok &= _spacing_ok(judge, fronts, "snaking.front_spacing")
    if _clause(judge, "table_edge.front") is not None:
        ok &= a <= first_leg_on_table(unit, ways, field)[way]
        ok &= overhang(fronts, field.width_in, field.depth_in) <= tol
    return ok


def _spacing_ok(judge: BatchJudge, polys: np.ndarray, tail: str) -> np.ndarray:
    clause = _clause(judge, tail)
    if clause is None:
        return np.ones(len(polys), dtype=bool)
    # "More than": past the limit by the float noise, and by the judge's margin.
    need = float(clause.params["spacing_in"]) + 1e-9 + judge.margin_in
    return _clear(polys, judge.pieces, need)


def _clear(polys: np.ndarray, pieces, need: float) -> np.ndarray:
    return np.all([convex_distance(polys, p.vertices) > need for p in pieces], axis=0)


def reachable_poses(judge: BatchJudge, n: int, seed: int, pivot_choices=(0.0,)):
    """n poses reached by a random one-wheel way (pivot, wheel, legs), near the distance
    limit so that many are close to it: (centres, facings, pivots)."""
    unit, rng = judge.unit, np.random.default_rng(seed)
    pivots = rng.choice(np.asarray(pivot_choices, dtype=float), n)
    wheels = np.where(rng.random(n) < 0.2, 0.0, np.round(rng.uniform(-90, 90, n)))
    heading = unit.pose.facing_deg + pivots
    budget = 2 * unit.mobility_in - unit.width_in * np.abs(np.sin(np.radians(wheels)))
    a = rng.uniform(0.0, 1.0, n) * np.maximum(budget, 0.0) * 1.05
    b = np.where(wheels == 0, 0.0, rng.uniform(0.0, 1.0, n) * np.maximum(budget - a, 0.0))
    shift = np.where((wheels != 0)[:, None], wheel_shifts(
        unit.width_in, unit.depth_in, heading, wheels), 0.0)
    centres = (np.asarray(unit.pose.centre) + a[:, None] * forward_vectors(heading) + shift
               + b[:, None] * forward_vectors(heading + wheels))
    return np.round(centres, 2), heading + wheels, pivots


CASES = [("battle.json", "guard", "march", 0.0), ("battle.json", "guard", "march", 0.03),
         ("battle.json", "orcs", "advance", 0.0), ("rocks.json", "band", "march", 0.0),
         ("rocks.json", "raiders", "advance", 0.03), ("crowded.json", "mid", "march", 0.0),
         ("edge.json", "knights", "advance", 0.0), ("open.json", "solo", "march", 0.0)]


@pytest.mark.parametrize(("file", "unit_id", "manoeuvre", "margin"), CASES)
def test_mask_equals_the_plain_formulation(file, unit_id, manoeuvre, margin):
    judge = BatchJudge(load_scenario(SCENARIOS / file), unit_id, manoeuvre, margin_in=margin)
    pivots = (0.0,) if manoeuvre == "march" else (0.0, 15.0, -45.0, 90.0, 180.0)
    centres, facings, turns = reachable_poses(judge, 3000, seed=len(file), pivot_choices=pivots)
    mask = judge.mask(centres, facings, pivots=turns)
    expected = reference_mask(judge, centres, facings, turns)
    assert min(expected.sum(), (~expected).sum()) > 50  # both verdicts are well represented
    np.testing.assert_array_equal(mask, expected)


def test_chunks_change_nothing(monkeypatch):
    judge = BatchJudge(load_scenario(SCENARIOS / "battle.json"), "guard", "advance")
    centres, facings, pivots = reachable_poses(judge, 2000, seed=5, pivot_choices=(0.0, 30.0))
    whole = judge.mask(centres, facings, pivots=pivots)
    monkeypatch.setattr(batch_poses, "CHUNK", 97)
    np.testing.assert_array_equal(judge.mask(centres, facings, pivots=pivots), whole)
    assert judge.mask(centres[:0], facings[:0], pivots=pivots[:0]).shape == (0,)


def _move(judge: BatchJudge, centre, facing: float, pivot: float) -> Move | None:
    heading = judge.unit.pose.facing_deg + pivot
    delta = float(signed_deg(np.array(facing - heading)))
    a, b, ok = one_wheel_legs(judge.unit, np.array([centre]), np.array([heading]),
                               np.array([delta]))
    if not ok[0]:
        return None
    steps = (Step("forward", float(a[0])), Step("wheel", delta), Step("forward", float(b[0])))
    return Move(judge.unit.id, judge.manoeuvre, steps=tuple(s for s in steps if s.value),
                pivot_deg=pivot)


@pytest.mark.parametrize(("scene", "unit_id", "manoeuvre"),
                         [("battle.json", "guard", "march"), ("rocks.json", "band", "advance"),
                          (LONG_WALL, "u", "march")])
def test_mask_true_means_the_checker_agrees(scene, unit_id, manoeuvre):
    s = load_scenario(SCENARIOS / scene) if isinstance(scene, str) else scene
    judge = BatchJudge(s, unit_id, manoeuvre)
    pivots = (0.0,) if manoeuvre == "march" else (0.0, 20.0, -60.0)
    centres, facings, turns = reachable_poses(judge, 200, seed=11, pivot_choices=pivots)
    mask = judge.mask(centres, facings, pivots=turns)
    legal = 0
    for k in range(len(mask)):
        move = _move(judge, centres[k], float(facings[k]), float(turns[k]))
        truth = move is not None and check_move(s, move).legal
        assert truth or not mask[k], (k, move)  # sound: never a false "legal"
        legal += truth
    assert legal >= 5 and mask.sum() >= 5  # the sample means something


def test_a_long_walls_edge_counts_not_its_far_vertices():
    """Marching into a wall across the table: the end is past it, the front's path is not."""
    judge = BatchJudge(LONG_WALL, "u", "march")
    steps = np.array([0.5, 6.0, 8.0])
    mask = judge.mask(np.stack([np.full(3, 36.0), 20.5 + steps], axis=1), np.full(3, 90.0))
    legal = [check_move(LONG_WALL, Move("u", "march", steps=(Step("forward", float(s)),))).legal
             for s in steps]
    assert legal == [True, False, False]
    assert mask.tolist() == [True, False, False]


@pytest.mark.parametrize("angle", [20.0, 45.0, 90.0])
def test_the_margin_holds_near_an_obstacle(angle):
    """A small rock off the end's front-right corner, 0.02" further than Unit Spacing asks:
    legal, mask-legal without a margin, not with 0.03" (the far test once let it through
    unmeasured at 20 degrees), and mask-legal again 0.05" further."""
    u = unit("u", models=10, files=5, centre=(36.0, 10.0), mobility=4.0)  # 5" x 2"
    end = (np.array([[36.0, 14.0]]), np.array([90.0]))
    move = Move("u", "march", steps=(Step("forward", 4.0),))
    verdicts = []
    for extra in (0.02, 0.05):
        d = 1.0 + extra  # Unit Spacing is 1"
        x, y = 38.5 + d * np.cos(np.radians(angle)), 15.0 + d * np.sin(np.radians(angle))
        s = scenario(u, terrain=(wall("r", x, y, x + 0.1, y + 0.1),))
        assert check_move(s, move).legal
        verdicts += [BatchJudge(s, "u", "march", margin_in=m).mask(*end)[0] for m in (0.0, 0.03)]
    assert verdicts == [True, False, True, True]


def test_kernels_equal_their_plain_forms():
    """The struct-of-arrays kernels against the (N, 4, 2) forms, bit for bit, on random
    rectangles; the exact distance against shapely's."""
    rng = np.random.default_rng(3)
    judge = BatchJudge(load_scenario(SCENARIOS / "rocks.json"), "band", "advance")
    n = 4000
    centres = rng.uniform(0.0, 60.0, (n, 2))
    facings, pivots = np.round(rng.uniform(0, 360, n)), np.zeros(n)
    ways = ways_np.group_ways(judge.unit, facings, pivots)
    xs, ys = ways_np.end_corners(ways, ways.inverse, centres[:, 0], centres[:, 1])
    corners = rectangle_corners(centres, facings, judge.unit.width_in, judge.unit.depth_in)
    np.testing.assert_array_equal(np.stack([xs.T, ys.T], axis=-1), corners)
    far = np.linalg.norm(corners[:, :, None] - judge.start_corners[None, None], axis=-1)
    np.testing.assert_array_equal(batch_poses.farthest_nearest(xs, ys, judge.start_corners),
                                  far.min(axis=2).max(axis=1))
    boxes = batch_poses.Boxes.of(xs, ys)
    np.testing.assert_array_equal(boxes.overhang_ok(48.0, 40.0, 0.5),
                                  overhang(corners, 48.0, 40.0) <= 0.5)
    axes = (ways.f[0][ways.inverse], ways.f[1][ways.inverse])
    todo = rng.random(n) < 0.9
    clear = batch_poses.clear_of(xs, ys, boxes, axes, judge.pieces, 0.7, todo)
    assert 0 < clear.sum() < todo.sum()
    np.testing.assert_array_equal(clear, todo & _clear(corners, judge.pieces, 0.7))
    piece = judge.pieces[0]
    sample = corners[:300]
    expected = [piece.shape.distance(Polygon(p)) for p in sample]
    np.testing.assert_allclose(convex_distance(sample, piece.vertices), expected, atol=1e-9)



def test_way_bounds_compute_each_way_once_and_survive_a_reset(monkeypatch):
    computed = []

    def compute(ways):
        computed.extend(map(tuple, ways))
        return ways[:, 0] + 10 * ways[:, 1]

    bounds = WayBounds(compute)
    assert bounds(np.array([0.0, 1.0]), np.array([2.0, 3.0])).tolist() == [20.0, 31.0]
    assert bounds(np.array([1.0, 5.0]), np.array([3.0, -1.0])).tolist() == [31.0, -5.0]
    assert len(computed) == 3  # (1, 3) was known
    monkeypatch.setattr(WayBounds, "LIMIT", 4)  # the next new ways overflow: start afresh
    got = bounds(np.array([0.0, 7.0, 8.0, 1.0]), np.array([2.0, 0.0, 0.0, 3.0]))
    assert got.tolist() == [20.0, 7.0, 8.0, 31.0]
