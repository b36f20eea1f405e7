"""Reform Move: centre travel, file change, viable formation, model paths (seed 000).

Their rule-example tables live with the clauses (`Clause.examples`) and run in the
conformance suite (tests/conformance); these are the cases that need more than a table.
"""

import itertools
from dataclasses import replace

import numpy as np
import pytest

from constraints.geometry.paths import PathFinder
from constraints.rank_and_file.formation import Formation
from constraints.t9a.checker import check_move
from constraints.t9a.moves import Move
from tests.support import Base, scenario, unit, wall

BLOCK = unit("u", models=20, files=5, centre=(36.0, 20.0), mobility=4.0)


def reform(u=BLOCK, files=None, centre=None, facing=None, rules="t9a", terrain=()):
    s = scenario(u, terrain=terrain, rules=rules)
    return check_move(s, Move(u.id, "reform", files=files, centre=centre, facing_deg=facing))


def test_rule_options_override_the_file_limit():
    s = scenario(replace(BLOCK, mobility_in=12.0), max_file_change=1)
    verdict = check_move(s, Move("u", "reform", files=7))
    assert "t9a.reform.file_change" in verdict.clauses()


def test_reform_keeps_the_rear_rank_centred():
    formation = Formation(5, 12).reformed(5)
    assert [slot for _, slot in formation.layout()][-2:] == [(2, 1), (2, 2)]


def _hop(mobility: float):
    """Light Troops hopping 8" over a short wall: the middle models must walk round it."""
    u = unit("u", models=5, files=5, centre=(20.0, 10.0), mobility=mobility, light_troops=True)
    low_wall = wall("wall", 19.0, 13.5, 21.0, 14.5)
    return reform(u, centre=(20.0, 18.0), terrain=(low_wall,))


def round_the_wall(clearance: float) -> float:
    """The middle model's path from (20, 10) to (20, 18) round the wall x 19..21, y 13.5..14.5
    grown by `clearance` with round corners: a tangent from the start to the circle about
    the corner (19, 13.5), the arc to the wall's side, along it (1"), and the mirror image to
    the end.  With d = |(20, 10) - (19, 13.5)| = sqrt(13.25), the tangent is
    sqrt(d^2 - c^2) and the arc turns pi - atan(3.5) - acos(c / d)."""
    d = np.sqrt(13.25)
    turn = np.pi - np.arctan(3.5) - np.arccos(clearance / d)
    return 2 * (np.sqrt(d * d - clearance**2) + clearance * turn) + 1.0


def test_model_paths_go_around_an_impassable_wall():
    verdict = _hop(5.0)
    assert verdict.legal
    # Straight lines would all be 8"; round the wall it is longer.  A 1" base keeps its centre
    # 0.5 + 0.5 = 1" from the wall (docs/rules.md §8.9), so the wall grows by 1" with round
    # corners: the middle model walking to its own slot covers round_the_wall(1) =
    # 8 + 2 pi - 4 atan(3.5) = 9.1132" (the grown outline's corners reach at most 0.001" past
    # the clearance, so the finder's length lies between the clearance's and 0.001" more's).
    finder = PathFinder([wall("w", 19.0, 13.5, 21.0, 14.5).shape], 1.0)
    middle = finder.lengths(np.array([[20.0, 10.0]]), np.array([[20.0, 18.0]]))[0, 0]
    assert round_the_wall(1.0) == pytest.approx(8 + 2 * np.pi - 4 * np.arctan(3.5))
    assert round_the_wall(1.0) <= middle <= round_the_wall(1.001)
    # The best assignment lets models swap slots and does better: the outer models walk
    # straight past the wall's sides (1" off: the infimum of the legal paths), and
    # the worst walks from (18, 10) up the side and round one corner to (20, 18):
    # 4.5 + (pi - 2 atan(3.5)) + 3.5 = 8 + pi - 2 atan(3.5) = 8.5566".
    starts = np.array([[18.0 + k, 10.0] for k in range(5)])
    lengths = finder.lengths(starts, starts + [0.0, 8.0])
    brute = min(max(lengths[i, p[i]] for i in range(5)) for p in itertools.permutations(range(5)))
    assert verdict.measurements["model_path"] == pytest.approx(brute)
    # The outline's corners lie at most 0.001" outside the arc it turns round (0.56 rad), so
    # the finder's path is longer than the round one by less than 0.001".
    bound = 8 + np.pi - 2 * np.arctan(3.5)
    assert bound <= brute <= bound + 0.001
    assert 8.0 < brute < middle


def test_the_path_not_the_straight_line_is_what_is_limited():
    verdict = _hop(4.15)  # 2 x Mob = 8.3: the straight 8" would pass, the path does not
    assert verdict.clauses() == ("t9a.reform.model_path",)
    assert verdict.violations[0].measured > 8.3
    assert len(verdict.violations[0].witness) > 2  # the path bends round the wall


def test_without_obstacles_paths_are_straight_lines():
    finder = PathFinder([], 0.5)
    a, b = np.array([[0.0, 0.0]]), np.array([[3.0, 4.0]])
    assert finder.lengths(a, b)[0, 0] == 5.0


def test_grown_obstacles_keep_the_full_clearance():
    import shapely

    square = shapely.box(0, 0, 2, 2)
    finder = PathFinder([square], 0.5)
    assert finder.region.covers(square.buffer(0.5, quad_segs=64))
    # Going round a 2" square from (-1, 1) to (3, 1): the path hugs the grown corners, round
    # with radius c: a tangent to the circle about (0, 0) (d = sqrt(2): sqrt(2 - c^2) long),
    # the arc down to the bottom (3 pi / 4 - acos(c / d)), 2" along the bottom, and the
    # mirror image.  The outline's corners reach at most 0.001" past c = 0.5.
    def round_the_square(c: float) -> float:
        d = np.sqrt(2.0)
        return 2 * (np.sqrt(2.0 - c * c) + c * (3 * np.pi / 4 - np.arccos(c / d))) + 2.0
    a, b = np.array([[-1.0, 1.0]]), np.array([[3.0, 1.0]])
    length = finder.lengths(a, b)[0, 0]
    assert round_the_square(0.5) <= length <= round_the_square(0.501)


def test_a_unit_starting_in_contact_with_rocks_may_reform_away_from_them():
    # Rocks touching the front of a unit on 20 mm bases: the front models' centres start
    # 0.39" from the rocks, inside the 0.5" mid-move zone.  A20 (RULES 2.3.2.4): towards
    # the rocks the unit started touching, its models need only not overlap them, so the
    # Reform away is legal (it once was "stranded").
    u = unit("u", models=10, files=5, centre=(20.0, 10.0), mobility=4.0, base=Base(20, 20))
    front = 10.0 + 20 / 25.4
    rocks = wall("rocks", 18.0, front, 22.0, front + 1.0)
    verdict = reform(u, files=6, centre=(20.0, 8.5), facing=120.0, terrain=(rocks,))
    assert "t9a.reform.model_path" not in verdict.clauses()
    assert verdict.measurements["model_path"] < 8.0


def test_paths_bend_round_a_courtyard_wall_with_a_hole():
    import shapely

    ring = shapely.box(0, 0, 10, 10).difference(shapely.box(1, 1, 9, 9))
    finder = PathFinder([ring], 0.5)
    inside, outside = np.array([[5.0, 5.0]]), np.array([[5.0, 12.0]])
    assert finder.lengths(inside, outside)[0, 0] == np.inf  # walled in
    a, b = np.array([[2.0, 2.0]]), np.array([[8.0, 8.0]])
    assert finder.lengths(a, b)[0, 0] == pytest.approx(np.hypot(6.0, 6.0))
