"""The whfb7 search's per-option regions of end centres (optimizer.search.ways.whfb7_regions), as
T9A's relaxed regions are tested (test_regions.py): over random whfb7 scenarios (rocks, a
friend, an enemy, the table's edge, a gap between walls) and random ways of the searched
family (a turn or a wheel first, forward, one wheel, forward), every legal end centre lies in
its option's relaxed region (with and without the wheel's cells): the bound the search prunes
with, and claims OPTIMAL over the family by, is never above a legal move's value.

The legs are drawn at random in each option's reach; the whfb7 batch mask (the checker's
verdict per pose) sorts them, and every legal pose found outside a region is judged again by
the checker itself: the test fails on a move the checker passes.  The sound regions (whose
best points the search judges) lie within the relaxed ones.
"""

from __future__ import annotations

import numpy as np
import pytest
import shapely

from constraints.core.scenario_io import scenario_from_json
from constraints.whfb7.checker import check_move
from constraints.whfb7.examples import field, unit, wall
from constraints.whfb7.masks import WarhammerJudge
from constraints.whfb7.ways import option_pre_wheel, option_turn
from optimizer.families.snaking import end_centre
from optimizer.search.objectives import Objective
from optimizer.search.request import SearchRequest
from optimizer.search.ways.whfb7_prefix import PrefixRequest
from optimizer.search.ways.whfb7_regions import WayRegions
from tests.depth import rows
from tests.optimizer.search.test_whfb7_properties import _scenario

NEAR_IN = 1e-7     # a legal centre this near a region is in it (float noise)
OPTIONS = 24       # options drawn per scenario and prefix
LEGS = 60          # legs drawn per option


def _gap(seed: int) -> dict:
    """A unit before a 3" gap between two walls (bench_whfb7's), moved and turned a little."""
    rng = np.random.default_rng(500 + seed)
    walls = (wall("left", 24.0, 16.0, 34.5, 18.0), wall("right", 37.5, 16.0, 48.0, 18.0))
    return field(unit(movement=5.0, centre=(float(rng.uniform(34.0, 38.0)), 10.0),
                      facing=float(rng.uniform(80.0, 100.0))), terrain=walls)


def _edge(seed: int) -> dict:
    """A unit by the table's left edge."""
    rng = np.random.default_rng(700 + seed)
    return field(unit(centre=(float(rng.uniform(3.2, 5.0)), 10.0),
                      facing=float(rng.uniform(60.0, 120.0))))


# Each kind first (tests.depth: a quick run takes the first four).
SCENARIOS = [("gap", 0), ("edge", 0), ("random", 0), ("gap", 1), ("edge", 1)] + \
    [("random", s) for s in range(1, 4)]
BUILD = {"random": _scenario, "gap": _gap, "edge": _edge}


def _requests(scenario, manoeuvre: str, rng: np.random.Generator) -> list[SearchRequest]:
    """The family's request, and one of a random prefix (a wheel, and in a move a turn)."""
    objective = Objective("forward")
    request = SearchRequest(scenario, "u", manoeuvre, objective)
    turn = 0.0 if manoeuvre == "march" else float(rng.choice([0.0, 90.0, -90.0, 180.0]))
    pre = float(rng.choice([-40.0, -12.0, 7.0, 25.0]))
    prefix = PrefixRequest(scenario, "u", manoeuvre, objective, prefix=(pre, turn, 0.0))
    return [request, prefix]


@pytest.mark.parametrize("kind, seed", rows(SCENARIOS, 4))
@pytest.mark.parametrize("manoeuvre", ["march", "move"])
def test_every_legal_end_centre_lies_in_its_options_relaxed_region(kind, seed, manoeuvre):
    scenario = scenario_from_json(BUILD[kind](seed))
    rng = np.random.default_rng(seed)
    judge = WarhammerJudge(scenario, "u", manoeuvre)
    legal = cut = 0
    for request in _requests(scenario, manoeuvre, rng):
        options, _ = request.options()
        if not options:
            continue
        regions = WayRegions(scenario, "u", manoeuvre, request.frame)
        picked = rng.choice(len(options), size=min(OPTIONS, len(options)), replace=False)
        for k in picked:
            option = options[int(k)]
            ends = _ends(option, rng)
            n = len(ends)
            world = request.frame.world_array(ends)
            ok = judge.mask(world, np.full(n, option.facing_deg),
                            turns=np.full(n, option_turn(option)),
                            pre_wheels=np.full(n, option_pre_wheel(option)))
            legal += int(ok.sum())
            for cells in (False, True):
                region = regions.of(option, outer=True, cells=cells)
                far = _far(region, ends)
                cut += int((far & ~ok).sum())
                for centre in ends[far & ok]:
                    move = request.family.move("u", request.frame, option,
                                               (float(centre[0]), float(centre[1])))
                    assert not check_move(scenario, move).legal, \
                        (move.to_json(), "a legal end centre outside its relaxed region")
            sound = regions.of(option, outer=False)
            if not sound.is_empty:  # the sound region lies within the relaxed one
                corners = shapely.points(shapely.get_coordinates(sound))
                assert shapely.distance(regions.of(option, outer=True), corners).max() <= 1e-6
    if judge.blocked:  # a march begun within 8" of an enemy: nothing legal, regions empty
        assert legal == 0
        return
    assert legal > 0  # the test saw legal moves
    if kind != "random":
        assert cut > 0  # and, by the walls and the edge, the regions cut illegal ones


def _ends(option, rng: np.random.Generator) -> np.ndarray:
    """Random end centres of the option's way (legs a, b >= 0 within its spare budget;
    many on the budget's edge and on the legs' axes, where limits bind)."""
    spare = max(option.spare_in, 0.0)
    a = rng.uniform(0.0, spare, LEGS)
    b = rng.uniform(0.0, spare, LEGS) if option.wheel_deg else np.zeros(LEGS)
    over = a + b > spare
    a[over], b[over] = spare - b[over], spare - a[over]
    edge = rng.random(LEGS) < 0.3
    total = a + b
    scale = np.where(edge & (total > 0), spare / np.maximum(total, 1e-12), 1.0)
    a, b = a * scale, b * scale
    if option.wheel_deg:
        b[:5] = 0.0
    return np.array([end_centre(option, float(x), float(y)) for x, y in zip(a, b, strict=True)])


def _far(region, ends: np.ndarray) -> np.ndarray:
    """Which end centres lie more than NEAR_IN from the region (all, when it is empty)."""
    if region.is_empty:
        return np.ones(len(ends), dtype=bool)
    return shapely.distance(region, shapely.points(ends)) > NEAR_IN
