"""The exact checker against the independent reference referee (tests/referee/referee.py).

1. Seeded random scenarios and moves: every clause's verdict must agree outside the
   referee's tolerance band (its interval [lo, hi] straddling the limit), and the checker's
   measurement must lie in that interval.
2. Scans across each clause's limit: a one-parameter family of moves; both must switch once,
   at the same place within the stated shift.  Random families do the same in general
   position.
3. Counts: each clause must have been compared on enough legal and broken cases, so an
   empty comparison cannot pass for agreement.

Walking paths follow the reading of docs/rules.md §8.9 as it is being rewritten: the base
keeps more than 0.5" from obstacles, so its centre keeps half the base's smaller side more.

Tolerances (worked out in tests/referee/referee.py and paths.py):
- sums, rectangles, assignments: 1e-7" (float drift only), so those scans switch at the
  very same step;
- the Front Facing's sweep, sampled every 0.01" of the fastest point: a sampled clearance
  overstates the true one by at most 0.005" (an overhang understates by as much), plus the
  checker's circumscribed arcs, 1e-5";
- walking paths: the graph's length lies between the true lengths at the clearance radius
  and at radius / cos(1.5 deg); the verdict is compared only where it holds for every radius
  within 0.5% of the rule's (the checker's rounding of the grown corners).
"""

from __future__ import annotations

import math
from dataclasses import replace

import numpy as np
import pytest

from constraints.core.scenario import Scenario
from constraints.t9a.moves import Manoeuvre, Move, forward, wheel
from tests.depth import rows
from tests.referee.compare import (
    Scan,
    Tally,
    assert_agree_where_settled,
    assert_switch_together,
    judge,
    scan,
    scan_all,
    switches,
)
from tests.referee.referee import SAMPLE_IN, corners, rule
from tests.referee.scenes import (
    box,
    field,
    make_unit,
    random_move,
    random_reform,
    random_scenario,
    rock,
)

SEED = 20250611
SCENARIOS = 40
MOVES_PER_SCENARIO = 10
REFORM_SCENARIOS = 30
REFORMS_PER_SCENARIO = 6
FAMILIES = 16  # random one-parameter families of 41 moves each
LEAST_EACH = 8  # compared cases per clause and verdict, at least
SAMPLED_SHIFT = SAMPLE_IN / 2 + 1e-5  # the sweep's band (see the module docstring)
PATH_CLAUSE = "t9a.reform.model_path"


def _random_moves(seed: int, scenarios: int, per: int, reforms_only: bool = False):
    rng = np.random.default_rng(seed)
    for s in range(scenarios):
        scenario = random_scenario(rng)
        mover = scenario.unit("u")
        for m in range(per):
            move = random_reform(rng, mover) if reforms_only else random_move(rng, mover)
            yield f"seed {seed} scenario {s} move {m}", scenario, move


@pytest.fixture(scope="module")
def random_tally() -> Tally:
    tally = Tally()
    for label, scenario, move in _random_moves(SEED, SCENARIOS, MOVES_PER_SCENARIO):
        judge(scenario, move, tally, skip=frozenset({PATH_CLAUSE}), label=label)
    return tally


def test_random_moves_agree_clause_by_clause(random_tally: Tally) -> None:
    print(f"\n{random_tally.moves} random moves in {SCENARIOS} scenarios\n"
          f"{random_tally.table()}")
    assert not random_tally.problems, "\n".join(random_tally.problems[:20])


def test_random_moves_compare_every_clause_both_ways(random_tally: Tally) -> None:
    clauses = set(random_tally.legal) | set(random_tally.broken)
    assert len(clauses) == 16  # every clause of docs/rules.md §9 but the end-pose searches
    # Random moves name no assignment, so characters never leave the front rank here: that
    # clause's broken cases are compared on its rule examples (tests/constraints/t9a/
    # test_front_rank.py).
    thin = {c: (random_tally.legal[c], random_tally.broken[c]) for c in clauses
            if c != "t9a.characters.front_rank"
            and min(random_tally.legal[c], random_tally.broken[c]) < LEAST_EACH}
    assert not thin, f"too few compared cases (legal, broken): {thin}"


@pytest.fixture(scope="module")
def path_tally() -> tuple[Tally, int]:
    """Random Reforms, the model paths only, and how many of them walked round something."""
    tally, detours = Tally(), 0
    for label, scenario, move in _random_moves(SEED + 1, REFORM_SCENARIOS, REFORMS_PER_SCENARIO,
                                               reforms_only=True):
        _, ruling = judge(scenario, move, tally, only={PATH_CLAUSE}, label=label)
        detours += ruling.measures[PATH_CLAUSE].value > _straight(scenario, move) + 1e-6
    return tally, detours


def _straight(scenario: Scenario, move: Move) -> float:
    """The longest walk were nothing in the way: a longer one went round an obstacle."""
    alone = Scenario(scenario.battlefield, (scenario.unit(move.unit),), (), scenario.rules)
    return rule(alone, move).measures[PATH_CLAUSE].value


def test_random_reform_model_paths_agree(path_tally: tuple[Tally, int]) -> None:
    tally, detours = path_tally
    print(f"\n{tally.moves} random Reforms, {detours} with a walk round an obstacle\n"
          f"{tally.table()}")
    assert not tally.problems, "\n".join(tally.problems[:20])
    assert min(tally.legal[PATH_CLAUSE], tally.broken[PATH_CLAUSE]) >= LEAST_EACH
    assert detours >= LEAST_EACH


def _random_family(rng: np.random.Generator, scenario: Scenario) -> list[tuple[float, Move]]:
    """A random move stretched along one parameter: the length of a last forward step added
    to an Advance or March (0-6"), or the fraction of a Reform's centre travel (0-1.5)."""
    move = random_move(rng, scenario.unit("u"))
    if move.manoeuvre == Manoeuvre.REFORM:
        start, end = np.asarray(scenario.unit("u").pose.centre), np.asarray(move.centre)
        return [(t, replace(move, centre=tuple(start + t * (end - start))))
                for t in _steps(0.0, 1.5, 0.0375)]
    return [(t, replace(move, steps=(*move.steps, forward(t)))) for t in _steps(0.0, 6.0, 0.15)]


def test_random_families_switch_together() -> None:
    """Scans in general position: oblique rocks, units at odd angles, several wheels.  Where
    the referee is sure the verdicts agree, so each switch falls in the same step or in the
    referee's band; with no band the two switch as often."""
    rng, switched = np.random.default_rng(SEED + 2), 0
    families = rows(range(FAMILIES), 8)  # tests.depth
    for _ in families:
        scenario = random_scenario(rng)
        family = [(t, scenario, move) for t, move in _random_family(rng, scenario)]
        for found in scan_all(family).values():
            assert_agree_where_settled(found)
            if all(found.settled):
                assert switches(found.checker) == switches(found.referee), found.clause
            switched += switches(found.referee)
    print(f"\n{len(families)} random families, {switched} switches of a clause's verdict")
    assert switched >= len(families)


# -- scans across each limit -----------------------------------------------------------------


def _steps(lo: float, hi: float, step: float) -> list[float]:
    """lo, lo + step, ..., hi as the decimals they stand for."""
    return [round(lo + k * step, 9) for k in range(int(round((hi - lo) / step)) + 1)]


DEFAULT = make_unit()  # 5 x 2 on 1" bases at (36, 10) facing +y, Mob 4: front edge y = 11


def _march(*steps, files: int | None = None) -> Move:
    return Move("u", Manoeuvre.MARCH, tuple(steps), files=files)


def _advance(*steps, pivot: float = 0.0) -> Move:
    return Move("u", Manoeuvre.ADVANCE, tuple(steps), pivot_deg=pivot)


def _reform(**end) -> Move:
    return Move("u", Manoeuvre.REFORM, files=end.get("files"), centre=end.get("centre"),
                facing_deg=end.get("facing"))


def test_scan_march_distance() -> None:
    found = scan("t9a.march.distance", [(d, field(DEFAULT), _march(forward(d)))
                                        for d in _steps(7.9, 8.1, 0.001)])
    assert_switch_together(found, 0.0)
    assert found.params[found.referee.index(True)] == 8.001  # exactly 2 x Mob is within


def test_scan_advance_distance_through_a_wheel() -> None:
    """1" forward, then a wheel of a 5" front: 1 + 5 sin(t) <= 4 up to t = asin(0.6)."""
    found = scan("t9a.advance.distance", [(t, field(DEFAULT), _advance(forward(1.0), wheel(t)))
                                          for t in _steps(36.6, 37.1, 0.002)])
    assert_switch_together(found, 0.0)
    assert abs(found.params[found.referee.index(True)] - math.degrees(math.asin(0.6))) < 0.002


def test_scan_heading_windows() -> None:
    pair = field(make_unit(models=2, files=2, mobility=10.0, centre=(36.0, 20.0)))
    march = scan("t9a.march.heading_window",
                 [(t, pair, _march(wheel(45.0), wheel(t))) for t in _steps(44.9, 45.1, 0.001)])
    assert_switch_together(march, 0.0)
    assert march.params[march.referee.index(True)] == 45.001  # exactly 90 deg is within
    # An Advance measures from the heading after its Pivot.
    advance = scan("t9a.advance.heading_window",
                   [(t, pair, _advance(wheel(-60.0), wheel(-t), pivot=-90.0))
                    for t in _steps(29.9, 30.1, 0.001)])
    assert_switch_together(advance, 0.0)


def test_scan_front_spacing_along_a_straight_leg() -> None:
    """Rocks to the right of the path of the front's right corner, g" away."""
    def case(g: float):
        stones = (box("rocks", 38.5 + g, 12.0, 40.5 + g, 13.0),)
        return g, field(DEFAULT, terrain=stones), _march(forward(3.0))
    found = scan("t9a.snaking.front_spacing", [case(g) for g in _steps(0.45, 0.55, 0.001)])
    assert_switch_together(found, SAMPLED_SHIFT + 0.001)


def test_scan_front_spacing_round_a_wheel() -> None:
    """A diamond of rocks pointing at the pivot, g" beyond the arc of the outer corner (the
    5" front wheels 60 deg left about (33.5, 11)); between two sampled angles."""
    def case(g: float):
        return g, field(DEFAULT, terrain=(_diamond((33.5, 11.0), 33.3, 5.0 + g, 0.4),)), \
            _march(wheel(60.0))
    found = scan("t9a.snaking.front_spacing", [case(g) for g in _steps(0.45, 0.55, 0.001)])
    assert_switch_together(found, SAMPLED_SHIFT + 0.001)


def _diamond(about: tuple[float, float], angle_deg: float, near: float, half: float):
    """A square standing on a corner, that corner `near` from `about` in direction
    `angle_deg`, the square lying beyond it."""
    u = np.array([math.cos(math.radians(angle_deg)), math.sin(math.radians(angle_deg))])
    n = np.array([-u[1], u[0]])
    centre = np.asarray(about) + (near + half) * u
    points = [centre - half * u, centre + half * n, centre + half * u, centre - half * n]
    return rock("diamond", [tuple(p) for p in points])


def test_scan_front_overhang_round_a_wheel() -> None:
    """A 5" front facing 45 deg wheels 90 deg left: its outer corner's arc reaches furthest
    right halfway, 5" right of the pivot corner; the table's width sweeps across that."""
    unit = make_unit(centre=(30.0, 20.0), facing=45.0)
    reach = corners((30.0, 20.0), 45.0, 5.0, 2.0)[0][0] + 5.0
    widths = _steps(round(reach, 3) - 0.02, round(reach, 3) + 0.02, 0.0005)
    found = scan("t9a.table_edge.front", [(w, field(unit, width=w), _march(wheel(90.0)))
                                          for w in widths])
    assert_switch_together(found, SAMPLED_SHIFT + 0.0005)


def test_scan_table_edge_at_the_end() -> None:
    found = scan("t9a.table_edge.end", [(d, field(DEFAULT, depth=19.0), _march(forward(d)))
                                        for d in _steps(7.9, 8.1, 0.001)])
    assert_switch_together(found, 0.0)
    assert found.params[found.referee.index(True)] == 8.001  # touching the edge is on it


def test_scan_unit_spacing_at_the_end() -> None:
    """A foe g" beyond the front after a March of 8"."""
    def case(g: float):
        foe = make_unit("foe", centre=(36.0, 20.0 + g), facing=270.0, player="blue")
        return g, field(DEFAULT, foe), _march(forward(8.0))
    found = scan("t9a.unit_spacing", [case(g) for g in _steps(0.95, 1.05, 0.001)])
    assert_switch_together(found, 0.0)
    assert found.params[found.referee.index(False)] == 1.001  # exactly 1" is too close


def test_scan_valid_final_position() -> None:
    """A column of six 25 x 50 mm models turning in place: its corners swing out."""
    column = make_unit(models=6, files=1, base=(25.0, 50.0), centre=(36.0, 20.0), mobility=3.0)
    found = scan("t9a.valid_final_position",
                 [(t, field(column), _reform(facing=90.0 + t))
                  for t in _steps(60.3, 61.3, 0.002)])
    assert_switch_together(found, 0.0)


def test_scan_pivot_model_distance() -> None:
    """A line of ten pivoting: the best reordering still swings the ends (limit 4")."""
    line = make_unit(models=10, files=10, centre=(36.0, 20.0), mobility=2.0)
    found = scan("t9a.pivot.model_distance", [(t, field(line), _advance(pivot=t))
                                              for t in _steps(61.7, 62.7, 0.01)])
    assert_switch_together(found, 0.0)


def test_scan_pivot_unit_spacing() -> None:
    """Turned 90 deg the 5 x 2 block stands 2 wide and 5 deep, its rear at y = 7.5: rocks
    g" below that."""
    def case(g: float):
        stones = (box("rocks", 30.0, 6.5 - g, 42.0, 7.5 - g),)
        return g, field(DEFAULT, terrain=stones), _advance(pivot=90.0)
    found = scan("t9a.pivot.unit_spacing", [case(g) for g in _steps(0.45, 0.55, 0.001)])
    assert_switch_together(found, 0.0)
    assert found.params[found.referee.index(False)] == 0.501  # exactly 0.5" is too close


def test_scan_reform_centre_travel() -> None:
    block = field(make_unit(models=20, files=5, centre=(36.0, 20.0)))
    found = scan("t9a.reform.centre_travel",
                 [(d, block, _reform(centre=(36.0 + 0.6 * d, 20.0 + 0.8 * d)))
                  for d in _steps(1.9, 2.1, 0.001)])
    assert_switch_together(found, 0.0)
    light = field(make_unit(models=20, files=5, centre=(36.0, 20.0), light_troops=True))
    found = scan("t9a.reform.centre_travel", [(d, light, _reform(centre=(36.0, 20.0 + d)))
                                              for d in _steps(7.95, 8.05, 0.001)])
    assert_switch_together(found, 0.0)


def _files_scan(clause: str, scenario: Scenario, move_for, files: range) -> Scan:
    found = scan(clause, [(f, scenario, move_for(f)) for f in files])
    assert_agree_where_settled(found)
    assert all(found.settled)
    return found


def test_scan_reorder_files() -> None:
    found = _files_scan("t9a.reorder.files", field(DEFAULT),
                        lambda f: _march(forward(1.0), files=f), range(1, 11))
    assert [f for f, broken in zip(found.params, found.referee, strict=True) if not broken] == [5]


@pytest.mark.parametrize(("rules", "musician", "change"),
                         [("t9a", False, 3), ("t9a", True, 3), ("t9a-2025", False, 2),
                          ("t9a-2025", True, 4)])
def test_scan_reform_file_change(rules: str, musician: bool, change: int) -> None:
    unit = make_unit(models=30, files=6, centre=(36.0, 24.0), mobility=12.0, musician=musician)
    found = _files_scan("t9a.reform.file_change", field(unit, rules=rules),
                        lambda f: _reform(files=f), range(1, 14))
    kept = [f for f, broken in zip(found.params, found.referee, strict=True) if not broken]
    assert kept == list(range(6 - change, 6 + change + 1))


@pytest.mark.parametrize("height", range(6))
@pytest.mark.parametrize(("models", "files"), [(9, 3), (12, 2), (4, 4), (30, 6), (7, 1)])
def test_scan_reform_viable_formation(height: int, models: int, files: int) -> None:
    unit = make_unit(models=models, files=files, centre=(36.0, 24.0), mobility=20.0,
                     height=height)
    _files_scan("t9a.reform.viable_formation", field(unit, width=120.0, depth=60.0),
                lambda f: _reform(files=f), range(1, models + 3))


def test_scan_model_path_in_the_open() -> None:
    """Light Troops in one rank hop d" ahead: every model walks straight (limit 8")."""
    line = make_unit(models=5, files=5, centre=(20.0, 10.0), light_troops=True)
    found = scan(PATH_CLAUSE, [(d, field(line), _reform(centre=(20.0, 10.0 + d)))
                               for d in _steps(7.95, 8.05, 0.001)])
    assert_switch_together(found, 0.0)


# A single model on a 25 x 50 mm base: its centre keeps 0.984 / 2 + 0.5 = 0.992" from
# obstacles (docs/rules.md §8.9 as being rewritten: half the base's smaller side plus 0.5").
NARROW = make_unit(models=1, files=1, base=(25.0, 50.0), centre=(20.0, 10.0), mobility=3.6,
                   light_troops=True)
NARROW_RADIUS = 25.0 / 25.4 / 2 + 0.5
# The checker may round the grown corners: its switch may move as far as a radius 0.5% off
# the rule's moves it (a gap's width by twice that); the referee's band spans both sides,
# plus its own circumscribed corners (1 - cos 1.5 deg).
PATH_SHIFT = 2 * 0.005 * NARROW_RADIUS + 0.001
PATH_BAND = 2 * (2 * 0.005 + 1 - math.cos(math.radians(1.5))) * NARROW_RADIUS + 0.001


def test_scan_model_path_through_a_gap() -> None:
    """Two long walls leave a gap of w" on the model's way 7" ahead: it passes straight when
    its base clears both walls, w >= its smaller side + 2 x 0.5"; round the walls is far
    beyond its 7.2" (the switch at 1" would be the centre kept 0.5" away)."""
    def case(w: float):
        walls = (box("left", 5.0, 13.0, 20.0 - w / 2, 14.0),
                 box("right", 20.0 + w / 2, 13.0, 35.0, 14.0))
        return w, field(NARROW, terrain=walls), _reform(centre=(20.0, 17.0))
    found = scan(PATH_CLAUSE, [case(w) for w in _steps(1.94, 2.03, 0.001)])
    assert_switch_together(found, PATH_SHIFT, PATH_BAND)
    assert abs(switch_at(found) - 2 * NARROW_RADIUS) <= PATH_SHIFT


def switch_at(found: Scan) -> float:
    return found.params[next(k for k in range(1, len(found.params))
                             if found.checker[k] != found.checker[k - 1])]


def test_scan_model_path_round_a_corner() -> None:
    """A diamond of rocks points at the middle of a 7" walk from g" to its right: the
    centre bends round the corner on a circle of the walking radius (not a mitre), and the
    longer walk breaks the 7.2" limit once the corner is close enough."""
    def case(g: float):
        stone = _diamond((20.0 + g, 13.5), 0.0, 0.0, 0.5)
        return g, field(NARROW, terrain=(stone,)), _reform(centre=(20.0, 17.0))
    found = scan(PATH_CLAUSE, [case(g) for g in _steps(0.05, 0.3, 0.002)])
    assert_switch_together(found, PATH_SHIFT + 0.002, PATH_BAND + 0.002)
