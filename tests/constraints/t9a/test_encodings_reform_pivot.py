"""The CP-SAT encoding of the t9a Reform and Pivot clauses against the exact checker, as
tests/constraints/t9a/test_encodings.py tests the others (its docstring says where the
tolerances come from): agreement at the boundary and the off switch."""

from __future__ import annotations

import math

import pytest

from constraints.core.limits import FLOAT_NOISE
from constraints.sat.lattice import Lattice
from constraints.t9a.checker import check_move
from constraints.t9a.moves import Move
from optimizer.search.model import build_search
from optimizer.search.objectives import Objective
from optimizer.search.request import SearchRequest
from tests.constraints.t9a.test_encodings import (
    COARSE,
    FLOAT,
    FORWARD,
    TICK,
    between,
    gon_loss,
    optimal,
    solve,
    without,
)
from tests.support import scenario, unit, wall

# --- Reform: centre travel, file change, viable formation, model paths ----------------------

@pytest.mark.parametrize("bearing", [90.0, 37.0, -173.0])
def test_centre_travel_binds(bearing):
    # Half of Mob 4: the centre travels at most 2", so a target 30" away ends 28" away.  Off
    # the axes the best point of the 128-gon is not a lattice point: a tick's diagonal more.
    # (Other bearings lose more: see test_objective_distance_is_optimal_on_the_lattice.)
    b = math.radians(bearing)
    target = (36.0 + 30.0 * math.cos(b), 24.0 + 30.0 * math.sin(b))
    s = scenario(unit(centre=(36.0, 24.0)), width=200.0, depth=200.0)
    result = optimal(s, "reform", Objective("target_distance", point=target), COARSE)
    assert between(result.value, 28.0, 28.0 + gon_loss(2.0, 128) + math.sqrt(2) * TICK)


def test_off_switch_centre_travel(monkeypatch):
    rules = without(monkeypatch, "t9a.reform.centre_travel")
    target = Objective("target_distance", point=(36.0, 40.0))
    # The files are kept (max_file_change 0: no formation gets further, see
    # test_model_path_binds), which keeps the search small.
    on = optimal(scenario(unit(), max_file_change=0), "reform", target, COARSE)
    off = optimal(scenario(unit(), rules=rules, max_file_change=0), "reform", target, COARSE)
    # Off, model moves and corners (8") limit the Reform: 22" from the target.
    assert between(off.value, 22.0, 22.0 + gon_loss(8.0, 64) + TICK) and off.value < on.value


# 12 models of Height 3 (a Proper Rank is 3 wide), 6 files x 2 ranks.  The deepest formation
# puts the Front Facing furthest forward: front = centre (<= 12) + depth / 2.
FRONT_AHEAD = Objective("front_target_distance", point=(36.0, 40.0))


@pytest.mark.parametrize("rules, files, depth", [("t9a", {3}, 4.0), ("t9a-2025", {4, 5}, 3.0)])
def test_file_change_binds(rules, files, depth):
    # t9a: down to 6 - 3 = 3 files, 4 ranks deep; t9a-2025: down to 4 files, 3 ranks deep (as
    # are 5 files).  1 and 2 files are not viable at Height 3.
    s = scenario(unit(models=12, files=6, height=3), rules=rules)
    result = optimal(s, "reform", FRONT_AHEAD, COARSE)
    assert result.verdict.end_files in files
    expected = 40.0 - (12.0 + depth / 2)
    assert between(result.value, expected, expected + gon_loss(2.0, 128) + TICK)


def test_off_switch_file_change(monkeypatch):
    rules = without(monkeypatch, "t9a.reform.file_change", base="t9a-2025")
    u = unit(models=12, files=6, height=3)
    on = optimal(scenario(u, rules="t9a-2025"), "reform", FRONT_AHEAD, COARSE)
    off = optimal(scenario(u, rules=rules), "reform", FRONT_AHEAD, COARSE)
    # Off, 3 files (narrower is not viable at Height 3): the 4-deep formation of t9a.
    assert off.value < on.value - 0.4 and off.verdict.end_files == 3


def test_viable_formation_binds():
    # 10 models of Height 1: 3 files x 4 ranks is deeper than wide and narrower than a
    # Proper Rank (5); 4 files x 3 ranks is the deepest viable one.
    result = optimal(scenario(unit()), "reform", FRONT_AHEAD, COARSE)
    assert result.verdict.end_files == 4
    assert between(result.value, 26.5, 26.5 + gon_loss(2.0, 128) + TICK)


def test_off_switch_viable_formation(monkeypatch):
    rules = without(monkeypatch, "t9a.reform.viable_formation")
    on = optimal(scenario(unit()), "reform", FRONT_AHEAD, COARSE)
    off = optimal(scenario(unit(), rules=rules), "reform", FRONT_AHEAD, COARSE)
    # Off, 2 files x 5 ranks (a file change of 3): the front gets to 12 + 2.5.
    assert off.verdict.end_files == 2
    assert between(off.value, 25.5, 25.5 + gon_loss(2.0, 128) + TICK) and off.value < on.value


# Mob 2 (model paths <= 4"), centre travel and corners widened (5", 10").  The search's
# incumbent pass is slow on wider discs (see test_best_move_keeps_its_time_limit).
# The files are kept (max_file_change 0), which keeps the search small: no other formation
# gets further (below).
PATHS_BIND = {"reform_centre_mob": 2.5, "final_position_mob": 5.0, "max_file_change": 0}


def test_model_path_binds():
    # Each model's path (2 x Mob = 4") binds.  In the same formation every model moves as far
    # as the centre; no formation does better (its front rank must be reached from the start
    # front rank, y = 10.5).  The encoding's travel disc is an inscribed 64-gon.  The model
    # cannot prove the latter: a turned formation's rows are safe discs (inexact), and its
    # region (the 5" centre travel) bounds it at 25", so the answer is FEASIBLE with that bound.
    s = scenario(unit(mobility=2.0), **PATHS_BIND)
    result = solve(s, "reform", Objective("target_distance", point=(36.0, 40.0)), COARSE)
    assert result.stats["options_status"] == "FEASIBLE"
    assert result.stats["inexact"] == ["t9a.reform.model_path"]
    assert result.verdict.measurements["model_path"] <= 4.0 + FLOAT_NOISE
    assert between(result.value, 26.0, 26.0 + gon_loss(4.0, 64) + TICK)
    assert between(result.bound, 25.0 - gon_loss(5.0, 128) - TICK, 25.0)


def test_off_switch_model_path(monkeypatch):
    rules = without(monkeypatch, "t9a.reform.model_path")
    target = Objective("target_distance", point=(36.0, 40.0))
    on = solve(scenario(unit(mobility=2.0), **PATHS_BIND), "reform", target, COARSE)
    off = optimal(scenario(unit(mobility=2.0), rules=rules, **PATHS_BIND), "reform", target,
                  COARSE)
    # Off, the 5" centre travel binds: 25" from the target.
    assert between(off.value, 25.0, 25.0 + gon_loss(5.0, 128) + TICK)
    assert off.value < on.value - 0.9


# --- Pivot: each model moves at most 2 x Mob; more than 0.5" from everything after it -------

# The Pivot clauses rule whole options out (one per Pivot angle), so their boundary is the
# set of Pivot angles they forbid: it must be exactly the set the checker rejects.

def _forbidden_pivots(s, clause_id: str, lattice: Lattice) -> set[float]:
    search = build_search(SearchRequest(s, "u", "advance", FORWARD, lattice))
    forbidden = search.ectx.enc.forbidden
    return {o.pivot_deg for o in search.ectx.options if forbidden.get(o.index) == clause_id}


def _rejected_pivots(s, clause_id: str) -> set[float]:
    return {float(p) for p in range(-179, 181)
            if clause_id in check_move(s, Move("u", "advance", pivot_deg=float(p))).clauses()}


# Three models in one rank (3" x 1"), Mob 0.7: models move at most 1.4".  A Pivot by p moves
# the end models 2 sin(p / 2), or, swapping them, 2 cos(p / 2): at most 1.4 for p <= 88.85 or
# p >= 91.15 deg.  Valid Final Position is widened (its corners are further out and would
# bind first).
NARROW = dict(models=3, files=3, mobility=0.7)
WIDE_VFP = {"final_position_mob": 10.0}
# Facing a heading: the target is the start centre and the heading 90 deg to the left, so the
# value is 0.1" per degree short of that heading (optimizer.objectives, target_pose) when the
# unit stays where it is (it has no wheel to spare).
FACE_LEFT = Objective("target_pose", point=(36.0, 10.0), facing_deg=180.0)


def test_pivot_model_distance_forbids_exactly_the_pivots_the_checker_rejects():
    s = scenario(unit(**NARROW), **WIDE_VFP)
    clause = "t9a.pivot.model_distance"
    forbidden = _forbidden_pivots(s, clause, Lattice())
    assert forbidden == _rejected_pivots(s, clause)
    assert {89.0, 90.0, 91.0, -89.0, -90.0, -91.0} <= forbidden
    assert not {88.0, 92.0, -88.0, -92.0} & forbidden


def test_pivot_model_distance_binds():
    # A Pivot alone does best at 88 or 92 deg (2 deg short, value 0.2).  A Pivot of 92 deg and
    # a 1 deg-lattice wheel back by 2 deg ends facing the heading with the centre moved
    # 0.055" (the least any Pivot outside the band and wheel back can do).  The clause still
    # binds: a 90 deg Pivot (value 0) is out of reach.  The polish (off the lattice) may
    # move the Pivot to the band's edge (88.85 deg and a wheel of 1.07: 0.031), never in it.
    s = scenario(unit(**NARROW), **WIDE_VFP)
    result = optimal(s, "advance", FACE_LEFT)
    assert not 89.0 <= abs(result.move.pivot_deg) <= 91.0
    assert check_move(s, result.move).legal
    assert 0.02 < result.value <= 0.2 + FLOAT


def test_off_switch_pivot_model_distance(monkeypatch):
    # Five in one rank, Mob 0.8: after a 90 deg Pivot the best reordering still moves a model
    # sqrt(5) = 2.24" > 1.6".  The target is 0.8" to the left: Pivot 90 and advance 0.8.
    rules = without(monkeypatch, "t9a.pivot.model_distance")
    u = unit(models=5, files=5, mobility=0.8, centre=(36.0, 20.0))
    target = Objective("target_distance", point=(35.2, 20.0))
    lattice = Lattice(degree=5.0, advance_wheel_deg=5.0)
    on = optimal(scenario(u, **WIDE_VFP), "advance", target, lattice)
    off = optimal(scenario(u, rules=rules, **WIDE_VFP), "advance", target, lattice)
    assert off.value == pytest.approx(0.0, abs=FLOAT) and off.move.pivot_deg == 90.0
    assert on.value > off.value + 0.1


def _pivot_clearance_deg(height_in: float, gap_in: float) -> float:
    """Largest Pivot p (<= 90) of a 5" x 1" unit whose top, 2.5 sin p + 0.5 cos p above the
    centre, is more than `gap_in` below a wall `height_in` above the centre (bisection)."""
    lo, hi = 0.0, 90.0
    for _ in range(60):
        mid = (lo + hi) / 2
        top = 2.5 * math.sin(math.radians(mid)) + 0.5 * math.cos(math.radians(mid))
        lo, hi = (mid, hi) if height_in - top > gap_in else (lo, mid)
    return lo


# One rank of 5 (Mob 2: model moves never bind), a wall across the table 2.9" above its
# centre: after the Pivot the unit must be more than 0.5" below it.  End spacing is not
# enforced (its 1" would bind first).  No wheel: the lattice's only wheels (+-90 deg) cost
# more than the Advance.
WALL_ABOVE = wall("wall", 0.0, 12.9, 72.0, 14.0)
NO_WHEEL = Lattice(advance_wheel_deg=90.0)


def test_pivot_spacing_forbids_exactly_the_pivots_the_checker_rejects(monkeypatch):
    rules = without(monkeypatch, "t9a.unit_spacing")
    s = scenario(unit(models=5, files=5, mobility=2.0), terrain=(WALL_ABOVE,), rules=rules)
    clause = "t9a.pivot.unit_spacing"
    forbidden = _forbidden_pivots(s, clause, NO_WHEEL)
    assert forbidden == _rejected_pivots(s, clause)
    limit = _pivot_clearance_deg(2.9, 0.5)
    assert floor_ok(limit, forbidden)


def floor_ok(limit: float, forbidden: set[float]) -> bool:
    """The last lattice Pivot inside the limit is allowed, the next one is not (both sides)."""
    best = float(math.floor(limit))
    return best not in forbidden and best + 1 in forbidden and -best not in forbidden and \
        -best - 1 in forbidden


def test_pivot_spacing_binds(monkeypatch):
    rules = without(monkeypatch, "t9a.unit_spacing")
    s = scenario(unit(models=5, files=5, mobility=2.0), terrain=(WALL_ABOVE,), rules=rules)
    result = optimal(s, "advance", FACE_LEFT, NO_WHEEL)
    limit = _pivot_clearance_deg(2.9, 0.5)
    best = math.floor(limit)  # the 1 deg lattice
    # The Pivot-only options: the continuous optimum 0.1 (90 - limit) is one lattice degree
    # (0.1") better at most.
    assert result.stats["options_value"] == pytest.approx(0.1 * (90.0 - best))
    # A wheel after the Pivot (the model of one 1 deg wheel) turns further, legally; the
    # polish may move the Pivot off the lattice, up to the clause's own limit, not past it.
    assert result.value < result.stats["options_value"]
    assert not limit + 1e-6 < abs(result.move.pivot_deg) < 180.0 - limit - 1e-6


def test_off_switch_pivot_spacing(monkeypatch):
    # Rocks 0.4" above the top the unit has after a 90 deg Pivot, clear of its front.  The
    # target is 4" to the left: Pivot 90 and advance 4.
    rules = without(monkeypatch, "t9a.pivot.unit_spacing")
    rocks = wall("rocks", 36.2, 22.9, 36.8, 23.9)
    u = unit(models=5, files=5, centre=(36.0, 20.0))
    target = Objective("target_distance", point=(32.0, 20.0))
    lattice = Lattice(degree=5.0, advance_wheel_deg=45.0)
    on = optimal(scenario(u, terrain=(rocks,)), "advance", target, lattice)
    off = optimal(scenario(u, terrain=(rocks,), rules=rules), "advance", target, lattice)
    assert off.value == pytest.approx(0.0, abs=FLOAT) and off.move.pivot_deg == 90.0
    assert on.value > off.value + 0.1
