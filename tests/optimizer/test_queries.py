"""The AI-facing queries: batch mask, lazy legal-move view, legal regions, reachability,
"why not", "nearest legal", and the `solve` / `moves` commands."""

import json

import numpy as np
import pytest

from constraints.core.scenario_io import load_scenario, save_scenario
from constraints.geometry.plane import signed_deg
from constraints.rank_and_file.ways import one_wheel_legs
from constraints.t9a.checker import check_move
from constraints.t9a.moves import Move, Step, forward, wheel
from optimizer import (
    BatchJudge,
    Lattice,
    is_legal,
    legal_moves,
    legal_region,
    nearest_legal,
    reach,
    why_not,
)
from optimizer.cli import main
from tests.support import ROOT, scenario, unit, wall

ROCKS = wall("rocks", 40.0, 14.0, 43.0, 16.0)
FIELD = scenario(unit("u", models=10, files=5, centre=(36.0, 10.0), mobility=4.0),
                 unit("foe", models=6, files=3, centre=(30.0, 18.0), facing=270.0,
                      player="blue"),
                 terrain=(ROCKS,))


def _way(judge: BatchJudge, centre, facing, pivot):
    heading = 90.0 + pivot
    delta = float(signed_deg(np.array(facing - heading)))
    a, b, ok = one_wheel_legs(judge.unit, np.array([centre]), np.array([heading]),
                               np.array([delta]))
    if not ok[0]:
        return None
    steps = (Step("forward", float(a[0])), Step("wheel", delta), Step("forward", float(b[0])))
    return Move("u", judge.manoeuvre, steps=tuple(s for s in steps if s.value), pivot_deg=pivot)


@pytest.mark.parametrize("manoeuvre", ["march", "advance"])
def test_batch_mask_is_sound_and_mostly_exact_for_snaking_moves(manoeuvre):
    judge = BatchJudge(FIELD, "u", manoeuvre)
    rng = np.random.default_rng(7)
    n = 300
    reach = 5.0 if manoeuvre == "march" else 2.5
    centres = np.array([36.0, 10.0 + reach]) + rng.uniform(-reach, reach, (n, 2))
    pivots = rng.choice([0.0, 10.0, -20.0], n) if manoeuvre == "advance" else np.zeros(n)
    facings = 90.0 + pivots + rng.uniform(-50, 50, n)
    mask = judge.mask(centres, facings, pivots=pivots)
    agree = legal = 0
    for k in range(n):
        move = _way(judge, centres[k], facings[k], float(pivots[k]))
        truth = move is not None and check_move(FIELD, move).legal
        assert not (mask[k] and not truth), (k, move)  # sound: never a false "legal"
        agree += mask[k] == truth
        legal += truth
    assert legal > 5  # the sample holds legal poses, so the test means something
    assert agree >= 0.95 * n


def test_batch_mask_is_sound_for_reforms():
    judge = BatchJudge(FIELD, "u", "reform")
    rng = np.random.default_rng(3)
    n = 200
    centres = np.array([36.0, 10.0]) + rng.uniform(-2.5, 2.5, (n, 2))
    facings = np.round(rng.uniform(0, 360, n))
    files = rng.integers(2, 9, n)
    mask = judge.mask(centres, facings, files=files)
    legal = 0
    for k in range(n):
        verdict = check_move(FIELD, Move("u", "reform", files=int(files[k]),
                                         centre=tuple(centres[k]), facing_deg=float(facings[k])))
        assert not (mask[k] and not verdict.legal), k
        legal += verdict.legal
    assert legal > 5 and mask.sum() > 5


def test_lazy_view_yields_distinct_legal_moves_and_counts_them():
    small = scenario(unit("u", models=4, files=2, centre=(36.0, 10.0), mobility=1.0))
    view = legal_moves(small, "u", "march", Lattice(inch=0.25, degree=15.0))
    moves = list(view)
    assert len(moves) == view.count() > 10
    assert len({json.dumps(m.to_json(), sort_keys=True) for m in moves}) == len(moves)
    assert all(is_legal(small, m) for m in moves)
    assert moves[0] in view
    assert Move("u", "march", steps=(forward(2.5),)) not in view  # more than 2 x Mob


def test_len_of_a_view_says_why_not_and_truth_stops_at_the_first_move():
    small = scenario(unit("u", models=4, files=2, centre=(36.0, 10.0), mobility=1.0))
    view = legal_moves(small, "u", "march", Lattice(inch=0.25, degree=15.0))
    with pytest.raises(TypeError, match=r"view\.count\(\)"):
        len(view)
    assert view and len(list(view)) == view.count()


def test_membership_agrees_with_iteration():
    """`in` answers what iteration yields: every yielded move is in the view; a legal move
    whose end lies off the view's lattice is not (though `is_legal` says it is legal)."""
    small = scenario(unit("u", models=4, files=2, centre=(36.0, 10.0), mobility=1.0))
    view = legal_moves(small, "u", "march", Lattice(inch=0.25, degree=15.0))
    assert all(move in view for move in view)
    off = Move("u", "march", steps=(forward(0.1),))
    assert is_legal(small, off) and off not in view
    assert Move("u", "march", steps=(forward(0.25),)) in view


def test_legal_region_holds_straight_ahead_and_not_the_far_side():
    region = legal_region(FIELD, "u", "march", 90.0)
    import shapely

    assert region.contains(shapely.Point(36.0, 14.0))  # a 4" straight March
    assert not region.contains(shapely.Point(36.0, 19.0))  # 9": too far


def test_reach_gives_the_steps_or_the_blocking_clauses():
    found = reach(FIELD, "u", "march", (36.0, 16.0), 90.0)
    assert found.status == "OPTIMAL" and found.verdict is not None and found.verdict.legal
    assert found.move is not None and found.move.steps == (Step("forward", 6.0),)
    too_far = reach(FIELD, "u", "march", (36.0, 19.0), 90.0)
    assert too_far.status == "INFEASIBLE"
    assert "t9a.march.distance" in too_far.blocking
    assert why_not(FIELD, Move("u", "march", steps=(forward(9.0),))) == too_far.blocking


def test_reach_beyond_one_wheel_finds_a_sidestep_or_proves_none_exists():
    spears = load_scenario(ROOT / "examples" / "spears.json")
    # Where wheel -30, forward 3, wheel +30 ends: no single wheel ends there facing 90.
    end = check_move(spears, Move("spears", "march", steps=(
        wheel(-30.0), forward(3.0), wheel(30.0)))).end_centre
    found = reach(spears, "spears", "march", end, 90.0, tolerance_in=0.01)
    assert found.status == "OPTIMAL" and found.verdict.legal
    assert sum(s.kind == "wheel" for s in found.move.steps) >= 2
    assert max(abs(a - b) for a, b in zip(found.verdict.end_centre, end, strict=True)) <= 0.0101
    # 6" to the right and 2" forward, facing 90: beyond any way of an 8" March (the bound
    # over every number of wheels rules it out, and names the clauses it rests on).
    none = reach(spears, "spears", "march", (42.0, 12.0), 90.0)
    assert none.status == "INFEASIBLE" and none.bound_covers == "any_wheels"
    assert none.blocking == ("t9a.march.distance", "t9a.march.heading_window")


def test_reach_names_the_centre_travel_of_a_far_reform():
    found = reach(FIELD, "u", "reform", (36.0, 14.0), 0.0)
    assert found.status == "INFEASIBLE" and found.blocking == ("t9a.reform.centre_travel",)


def test_nearest_legal_pose_beside_an_illegal_request():
    result = nearest_legal(FIELD, "u", "march", (36.0, 21.0), 90.0)
    assert result.status == "OPTIMAL" and result.verdict is not None
    # Straight ahead 8" is the closest: 3" short of the request (lattice: within 0.01").
    assert result.value == pytest.approx(3.0, abs=0.011)


def _files(tmp_path, s, name="s.json"):
    path = tmp_path / name
    save_scenario(s, path)
    return str(path)


def test_cli_solve_json_follows_the_format(tmp_path, capsys):
    path = _files(tmp_path, FIELD)
    code = main(["solve", path, "--unit", "u", "--manoeuvre", "march", "--forward", "--json"])
    out = json.loads(capsys.readouterr().out)
    assert code == 0 and out["status"] == "OPTIMAL"
    assert out["lattice"]["inch"] == Lattice().inch and out["lattice"]["degree"] == 1.0
    assert out["verdict"]["legal"] is True
    assert set(out["objective"]) == {"name", "value", "bound", "bound_covers", "tolerance",
                                     "gap"}
    assert out["objective"]["bound_covers"] == "any_wheels"
    assert out["objective"]["gap"] <= out["objective"]["tolerance"]
    assert out["family"] == {"max_wheels": 1, "status": "OPTIMAL"}  # one wheel sufficed
    move_file = tmp_path / "m.json"
    move_file.write_text(json.dumps(out["move"]), encoding="utf-8")
    assert main(["check", path, str(move_file)]) == 0  # `check` accepts the answer
    capsys.readouterr()
    result_file = tmp_path / "r.json"
    result_file.write_text(json.dumps(out), encoding="utf-8")
    picture = tmp_path / "r.png"
    assert main(["render", path, str(result_file), "-o", str(picture), "--region"]) == 0
    assert picture.read_bytes()[:4] == b"\x89PNG"


def test_cli_solve_infeasible_exits_one(tmp_path, capsys):
    boxed = scenario(unit("u", models=4, files=2, centre=(36.0, 10.0), mobility=4.0),
                     terrain=(wall("w", 34.0, 11.6, 38.0, 12.5),))
    path = _files(tmp_path, boxed)
    code = main(["solve", path, "--unit", "u", "--manoeuvre", "march", "--target", "36,30",
                 "--json"])
    out = json.loads(capsys.readouterr().out)
    # Boxed in by the wall: no way of the family gets out, and more wheels are not ruled out.
    assert out["status"] in ("OPTIMAL", "FEASIBLE", "NOT_FOUND")
    assert code == (0 if out["status"] in ("OPTIMAL", "FEASIBLE") else 1)


def test_cli_solve_max_wheels(capsys):
    spears = str(ROOT / "examples" / "spears.json")
    ask = ["solve", spears, "--unit", "spears", "--manoeuvre", "march", "--target", "40,16",
           "--facing", "90", "--json"]
    assert main([*ask, "--max-wheels", "1"]) == 0
    one = json.loads(capsys.readouterr().out)
    assert one["family"]["max_wheels"] == 1 and one["status"] == "FEASIBLE"
    assert len([s for s in one["move"]["steps"] if "wheel" in s]) <= 1
    assert main(ask) == 0
    three = json.loads(capsys.readouterr().out)
    assert three["family"]["max_wheels"] == 3
    assert three["objective"]["value"] <= 1.6 < one["objective"]["value"]
    assert main([*ask, "--max-wheels", "9"]) == 2
    assert "--max-wheels" in capsys.readouterr().err


def test_cli_moves_lists_legal_moves(tmp_path, capsys):
    path = _files(tmp_path, FIELD)
    assert main(["moves", path, "--unit", "u", "--manoeuvre", "march", "--limit", "5",
                 "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    listed = out["moves"]
    assert len(listed) == 5 and out["family"] == {"max_wheels": 1}  # one-wheel ways only
    assert main(["solve", path, "--unit", "nobody", "--manoeuvre", "march", "--forward"]) == 2


def test_the_view_s_memory_does_not_grow_with_the_region():
    """A view judges a region a tile at a time, so what it holds is bounded whatever the
    region's size: a 1,200" square (1.4e8 lattice points at 0.1") comes in tiles of at most
    TILE x TILE points, lazily; and a long Light Troops Reform gives its first moves at
    once, within a few MB."""
    import itertools
    import tracemalloc

    import shapely

    from optimizer.queries import TILE

    view = legal_moves(FIELD, "u", "reform")
    tiles = list(itertools.islice(view._lattice_tiles(shapely.box(-600, -600, 600, 600)), 3))
    assert [len(tile) for tile in tiles] == [TILE * TILE] * 3
    far = scenario(unit("u", models=10, files=5, centre=(36.0, 24.0), mobility=20.0,
                        light_troops=True))
    tracemalloc.start()
    try:
        first = list(itertools.islice(legal_moves(far, "u", "reform"), 5))
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert len(first) == 5 and all(is_legal(far, m) for m in first)
    assert peak < 64 * 2**20, f"peak {peak / 2**20:.1f} MB"
