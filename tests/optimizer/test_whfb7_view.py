"""The legal-move view for whfb7 (issue 12): the batch mask is the whfb7 checker's verdict on
each pose's way (random scenarios, rocks and friends close by, turns on the spot), the view
is sound (every move it yields is legal), iteration and `in` agree, and the queries
(`legal_region`, `nearest_legal`, `reach`, `why_not`) answer for whfb7 scenarios, saying
which ways they searched."""

from __future__ import annotations

import numpy as np
import pytest

from constraints.core.scenario_io import load_scenario, scenario_from_json
from constraints.core.status import Status
from constraints.errors import InvalidInputError
from constraints.rank_and_file.steps import forward, turn, wheel
from constraints.whfb7.checker import check_move
from constraints.whfb7.examples import field, unit, wall
from constraints.whfb7.mask_geometry import segment_distance
from constraints.whfb7.masks import WarhammerJudge
from constraints.whfb7.moves import Manoeuvre, WarhammerMove
from constraints.whfb7.ways import way_steps
from optimizer.queries import judge_for, legal_moves, legal_region, nearest_legal
from optimizer.search.explain import reach, why_not
from tests.depth import rows
from tests.support import ROOT

GOBLINS = ROOT / "examples" / "goblins.json"


def _scenario(rng: np.random.Generator) -> dict:
    """A unit (M 2-4) among rocks and a friend, none within 1" of it at the start."""
    while True:
        rocks = []
        for k in range(3):
            x, y = rng.uniform(30.0, 42.0), rng.uniform(11.5, 18.0)
            rocks.append(wall(f"r{k}", x, y, x + rng.uniform(0.5, 2.5), y + rng.uniform(0.5, 2)))
        friend = unit("f", models=4, files=2, facing=float(rng.uniform(0, 360)),
                      centre=(float(rng.uniform(30, 42)), float(rng.uniform(3.0, 6.0))))
        me = unit(models=int(rng.integers(6, 13)), files=int(rng.integers(2, 6)),
                  facing=float(rng.choice([90.0, 80.0, 105.0])),
                  movement=float(rng.uniform(2.0, 4.0)))
        data = field(me, friend, terrain=tuple(rocks), width=48.0,
                     depth=float(rng.uniform(15.0, 24.0)))
        try:
            scenario = scenario_from_json(data)
        except InvalidInputError:
            continue
        if check_move(scenario, WarhammerMove("u", Manoeuvre.MOVE)).legal:
            return data


def _random_ways(rng: np.random.Generator, scenario, manoeuvre: str, n: int):
    """n random ways of the family (turn, a, wheel, b), their executed end poses and the
    checker's verdicts."""
    turns = rng.choice([0.0, 90.0, -90.0, 180.0], n) if manoeuvre == "move" else np.zeros(n)
    centres, facings, legal = np.zeros((n, 2)), np.zeros(n), np.zeros(n, dtype=bool)
    for i in range(n):
        t = float(rng.choice(np.arange(-90.0, 91.0, 5.0)))
        a, b = float(rng.uniform(0.0, 5.0)), float(rng.uniform(0.0, 5.0))
        if rng.random() < 0.25:
            t, b = 0.0, 0.0
        move = WarhammerMove("u", Manoeuvre(manoeuvre), steps=way_steps(turns[i], a, t, b))
        verdict = check_move(scenario, move)
        centres[i], facings[i], legal[i] = verdict.end_centre, verdict.end_facing_deg, \
            verdict.legal
    return centres, facings, turns, legal


@pytest.mark.parametrize("seed", rows(range(3), 2))
@pytest.mark.parametrize("manoeuvre", ["move", "march"])
def test_the_mask_is_the_checkers_verdict(seed, manoeuvre):
    rng = np.random.default_rng(100 + seed)
    scenario = scenario_from_json(_scenario(rng))
    centres, facings, turns, legal = _random_ways(rng, scenario, manoeuvre, 80)
    judge = WarhammerJudge(scenario, "u", manoeuvre)
    ok = judge.mask(centres, facings, turns=turns)
    assert not (ok & ~legal).any(), "unsound: the mask passes a pose the checker refuses"
    assert (ok == legal).all()
    assert judge.confirmed <= 5  # the vectorised measures decide nearly every pose


def test_the_mask_at_a_limit_agrees_with_the_checker():
    """Poses exactly 1" from a unit (and at the budget), a hair either side."""
    # A 4" move ends the front at y = 15, exactly 1" from the other's rear (y = 16).
    data = field(unit(), unit("other", centre=(36.0, 17.0), facing=270.0))
    scenario = scenario_from_json(data)
    judge = WarhammerJudge(scenario, "u", "move")
    poses = np.array([[36.0, 14.0], [36.0, 14.0 - 1e-7], [36.0, 14.0001], [36.0, 13.0]])
    ok = judge.mask(poses, np.full(4, 90.0))
    expected = [check_move(scenario, WarhammerMove("u", Manoeuvre.MOVE, steps=(
        forward(float(y - 10.0)),))).legal for _, y in poses]
    assert ok.tolist() == expected == [False, True, False, True]


def test_turns_and_march_refusals():
    scenario = scenario_from_json(field(unit()))
    poses, facings = np.array([[36.0, 10.0], [36.0, 10.0]]), np.array([90.0, 270.0])
    assert WarhammerJudge(scenario, "u", "move").mask(
        poses, facings, turns=[0.0, 180.0]).tolist() == [True, True]
    # A march may not turn (whfb7.march.no_turn); a wheel past 90 deg is no way of the family.
    assert WarhammerJudge(scenario, "u", "march").mask(
        poses, facings, turns=[0.0, 180.0]).tolist() == [True, False]
    assert not WarhammerJudge(scenario, "u", "march").mask(poses[:1], [270.0]).any()
    blocked = scenario_from_json(field(unit(), unit("foe", centre=(36.0, 18.0), facing=270.0,
                                                    player="blue")))
    judge = WarhammerJudge(blocked, "u", "march")
    assert not judge.mask(poses[:1], [90.0]).any() and not judge.way_passes(90.0, 0.0, 5)


def test_reform_poses_keep_the_centre():
    scenario = scenario_from_json(field(unit()))
    judge = WarhammerJudge(scenario, "u", "reform")
    ok = judge.mask([[36.0, 10.0], [36.0, 10.0], [36.1, 10.0]], [0.0, 0.0, 0.0],
                    files=[2, 11, 2])
    assert ok.tolist() == [True, False, False]


@pytest.mark.parametrize("bad, path", [
    ({"centres": [[1.0, 2.0, 3.0]]}, "centres"),
    ({"facings": [1.0, 2.0]}, "facings"),
    ({"facings": [float("nan")]}, "facings"),
    ({"turns": ["x"]}, "turns"),
])
def test_the_judge_names_a_bad_argument(bad, path):
    judge = WarhammerJudge(scenario_from_json(field(unit())), "u", "move")
    args = {"centres": [[36.0, 12.0]], "facings": [90.0]} | bad
    with pytest.raises(InvalidInputError) as err:
        judge.mask(args["centres"], args["facings"], turns=args.get("turns"))
    assert err.value.path == path


def test_a_whfb7_judge_needs_a_whfb7_scenario():
    t9a = load_scenario(ROOT / "examples" / "spears.json")
    with pytest.raises(InvalidInputError):
        WarhammerJudge(t9a, "spears", "march")
    assert type(judge_for(load_scenario(GOBLINS), "goblins", "move")) is WarhammerJudge


def test_segment_distance_is_exact():
    square = np.array([[0.0, 0.0], [1.0, 0.0], [1.0, 1.0], [0.0, 1.0]])
    p = np.array([[-2.0, 0.5], [2.0, 2.0], [0.5, 0.5], [3.0, -1.0]])
    q = np.array([[-1.0, 0.5], [3.0, 3.0], [0.5, 0.5], [3.0, 2.0]])
    assert segment_distance(p, q, square) == pytest.approx([1.0, np.sqrt(2.0), 0.0, 2.0])
    assert segment_distance(np.array([[-1.0, 0.5]]), np.array([[2.0, 0.5]]), square)[0] == 0.0


@pytest.fixture(scope="module")
def crowded():
    rng = np.random.default_rng(7)
    return scenario_from_json(_scenario(rng))


@pytest.mark.parametrize("manoeuvre", ["move", "march", "reform"])
def test_the_view_is_sound_and_iteration_and_in_agree(crowded, manoeuvre):
    view = legal_moves(crowded, "u", manoeuvre)
    moves = list(view)
    assert len(moves) == view.count() > 0
    rng = np.random.default_rng(1)
    for k in rng.choice(len(moves), size=min(60, len(moves)), replace=False):
        assert check_move(crowded, moves[k]).legal
        assert moves[k] in view


@pytest.mark.parametrize("manoeuvre", ["move", "march"])
def test_in_is_false_off_the_view(crowded, manoeuvre):
    """Moves ending off the view lattice, or illegal ones on it, are not in the view; a
    lattice pose is in it exactly when the mask passes it."""
    view = legal_moves(crowded, "u", manoeuvre)
    rng = np.random.default_rng(2)
    turns = rng.choice([0.0, 90.0, -90.0, 180.0], 40) if manoeuvre == "move" else np.zeros(40)
    for i in range(40):  # random legs: off the lattice
        move = WarhammerMove("u", Manoeuvre(manoeuvre), steps=way_steps(
            turns[i], float(rng.uniform(0.0, 2.0)) + 0.0123, 1.0, 0.0456))
        assert move not in view
    too_far = WarhammerMove("u", Manoeuvre(manoeuvre), steps=(forward(30.0),))
    assert not check_move(crowded, too_far).legal and too_far not in view
    assert WarhammerMove("u", Manoeuvre.MOVE, steps=(turn(90.0),)) not in \
        legal_moves(crowded, "u", "march")
    assert "not a move" not in view
    # Lattice poses of a few options: `in` is the checker's verdict on the family's move.
    for k in rng.choice(len(view.options), size=6, replace=False):
        option = view.options[k]
        for centre in [(0.0, 1.0), (0.1, 2.0), (-0.3, 0.5), (0.0, 3.0)]:
            move = view.family.move("u", view.frame, option, centre)
            verdict = check_move(crowded, move)
            on = np.allclose(view.frame.point(verdict.end_centre), centre, atol=1e-6)
            if on and verdict.legal:
                assert move in view


def test_membership_is_by_end_pose_on_the_lattice():
    """A move ending on the view lattice is in the view; one a hair off it is not."""
    scenario = scenario_from_json(field(unit(models=16, files=4)))  # 4 x 4: turns keep files
    view = legal_moves(scenario, "u", "move")
    straight = WarhammerMove("u", Manoeuvre.MOVE, steps=(forward(1.0),))
    assert straight in view
    assert WarhammerMove("u", Manoeuvre.MOVE, steps=(forward(1.05),)) not in view


def test_legal_region_and_nearest_legal():
    scenario = load_scenario(GOBLINS)
    region = legal_region(scenario, "goblins", "march", 90.0)
    assert region.area > 0 and region.bounds[3] <= 18.0 + 0.1  # 8" at most, straight ahead
    assert legal_region(scenario, "goblins", "march", 270.0).is_empty
    found = nearest_legal(scenario, "goblins", "reform", (24.0, 10.0), 0.0)
    assert found.status == Status.OPTIMAL and check_move(scenario, found.move).legal


def test_reach_and_why_not():
    scenario = load_scenario(GOBLINS)
    found = reach(scenario, "goblins", "march", (24.0, 16.0), 90.0)
    assert found.status == Status.OPTIMAL and check_move(scenario, found.move).legal
    far = reach(scenario, "goblins", "march", (24.0, 30.0), 90.0)
    assert far.status == Status.INFEASIBLE and far.blocking == ("whfb7.march.distance",)
    too_far = WarhammerMove("goblins", Manoeuvre.MARCH, steps=(forward(20.0),))
    assert why_not(scenario, too_far) == ("whfb7.march.distance",)
    blocked = scenario_from_json(field(unit(), unit("foe", centre=(36.0, 18.0), facing=270.0,
                                                    player="blue")))
    assert reach(blocked, "u", "march", (36.0, 12.0), 90.0).blocking == \
        ("whfb7.march.blocked",)
    assert why_not(scenario, WarhammerMove("goblins", Manoeuvre.MARCH, steps=(
        forward(1.0), wheel(10.0), forward(1.0)))) == ()


def test_reach_beyond_the_family_is_not_infeasible():
    """A turn after a forward step is no way of the family: not found, never INFEASIBLE."""
    scenario = load_scenario(GOBLINS)
    later = WarhammerMove("goblins", Manoeuvre.MOVE, steps=(forward(2.0), turn(90.0)))
    verdict = check_move(scenario, later)
    assert verdict.legal
    found = reach(scenario, "goblins", "move", verdict.end_centre, verdict.end_facing_deg)
    assert found.status in (Status.OPTIMAL, Status.NOT_FOUND)
    if found.status == Status.NOT_FOUND:
        assert found.family  # what was searched, as the search says it
