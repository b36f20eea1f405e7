"""The CP-SAT encoding of every clause the t9a profile applies to Advance, March and Reform,
against the exact checker (docs/architecture.md, "The clause protocol"):

- agreement at the boundary: a scenario where the clause's limit binds, solved by `best_move`
  (which re-checks its answer), lands within a stated tolerance of the optimum worked out by
  hand from the rule;
- the off switch: the same request under a copy of the profile without the clause gets a
  strictly better optimum (or becomes feasible): the clause constrains something when it is
  on and nothing when it is off;
- `MoveEncoding.row`: every integer point the posted row accepts satisfies the float row.

Units stand on 1" bases (tests.support), so boundaries are exact decimal numbers.  Where the
tolerances come from:

- TICK: answers live on a lattice of 0.01" centre ticks, and a strict limit ("more than") or
  a row kept a hair short of a contact distance loses at most one tick;
- GON128 / GON64: discs ("within X") are inscribed 128-gons (Valid Final Position, Reform
  centre travel) or 64-gons (Reform model paths), which give up X (1 - cos(pi / n));
- a target off the lattice costs at most a tick's diagonal (sqrt(2) ticks) of rounding;
- FLOAT: measurements are floats of decimal inputs (constraints.limits.FLOAT_NOISE).
"""

from __future__ import annotations

import dataclasses
import math
from types import MappingProxyType

import numpy as np
import pytest
import shapely
from ortools.sat.python import cp_model
from shapely.geometry import Point, Polygon

from constraints.core.limits import FLOAT_NOISE
from constraints.core.profile import PROFILES
from constraints.sat.encoding import MoveEncoding
from constraints.sat.lattice import Lattice, inscribed_polygon
from constraints.sat.option import Option
from constraints.t9a.checker import check_move
from constraints.t9a.moves import Move
from optimizer.search.model import build_search, solver_for
from optimizer.search.objectives import Objective
from optimizer.search.request import SearchRequest
from optimizer.search.solve import best_move
from tests.support import scenario, unit, wall

TICK = 0.01
FLOAT = 1e-6
# Corner-to-corner spacing gives up the fan overshoot and the corner offsets' rounding, about
# one tick, on top of the lattice step (constraints/clauses/separation.py).
CORNER_LOSS = 2 * TICK
FORWARD = Objective("forward")
STRAIGHT = {"heading_window_deg": 0.0}  # only straight-ahead ways: a one-dimensional family
# Advance options at the 1 deg Pivot lattice are slow to prove; where the Pivot is not what a
# test is about, a coarse heading lattice keeps the same boundary.
COARSE = Lattice(degree=15.0, advance_wheel_deg=15.0)


def gon_loss(radius_in: float, sides: int) -> float:
    """What an inscribed regular polygon gives up of a disc: radius (1 - cos(pi / sides))."""
    return radius_in * (1.0 - math.cos(math.pi / sides))


def without(monkeypatch: pytest.MonkeyPatch, *clause_ids: str, base: str = "t9a") -> str:
    """Register (for this test only) a copy of profile `base` without the named clauses."""
    profile = PROFILES[base]
    manoeuvres = {m: tuple(spec for spec in specs if spec.id not in clause_ids)
                  for m, specs in profile.manoeuvres.items()}
    dropped = {spec.id for specs in profile.manoeuvres.values() for spec in specs} - \
        {spec.id for specs in manoeuvres.values() for spec in specs}
    assert dropped == set(clause_ids), f"unknown clause ids {set(clause_ids) - dropped}"
    name = f"{base}-without-" + "-".join(sorted(clause_ids))
    monkeypatch.setitem(PROFILES, name, dataclasses.replace(
        profile, name=name, manoeuvres=MappingProxyType(manoeuvres)))
    return name


def solve(s, manoeuvre, objective=FORWARD, lattice=None, unit_id="u"):
    # The one-wheel family: these tests hold its encodings to the checker (the K-wheel
    # model has its own, tests/optimizer/search/test_ways.py).
    result = best_move(s, unit_id, manoeuvre, objective, time_limit_s=120.0, lattice=lattice,
                       max_wheels=1)
    if result.found:
        assert result.verdict is not None and result.verdict.legal
        assert check_move(s, result.move).legal  # best_move re-checks; judge it once more
    return result


def optimal(s, manoeuvre, objective=FORWARD, lattice=None):
    """The search's answer, proved best over the family's options (the one-wheel encodings'
    own claim; whether the rules' bound closes too is optimizer.search.certify's)."""
    result = solve(s, manoeuvre, objective, lattice)
    assert result.stats["options_status"] == "OPTIMAL", result.stats["options_status"]
    return result


def between(value: float, low: float, high: float) -> bool:
    return low - FLOAT <= value <= high + FLOAT


# --- Snaking distance: a March <= 2 x Mob, an Advance <= Mob, a wheel costs W sin(angle) ----

def test_march_distance_binds_at_twice_mobility():
    # Mob 4: forward <= 8.  Valid Final Position is widened (3 x Mob) so only the distance
    # binds; 8.00 is a lattice point and the row a <= 8 has exact coefficients.
    s = scenario(unit(mobility=4.0), final_position_mob=3.0)
    result = optimal(s, "march")
    assert between(result.value, 8.0 - TICK, 8.0)


def test_advance_distance_binds_at_mobility():
    s = scenario(unit(mobility=4.0))
    result = optimal(s, "advance", lattice=COARSE)
    assert between(result.value, 4.0 - TICK, 4.0)


# A wheel of 90 deg costs the whole 5" frontage, leaving 3" of the 8" March.  From (36, 10)
# facing +y, the wheel about the front-left corner (33.5, 11) puts the centre at (34.5, 13.5)
# facing -x; 3" on gives (31.5, 13.5).  Smaller wheels leave more distance but point away from
# a target level with that line far to the left: at 80 deg the centre gets to x = 31.89.
FAR_LEFT = Objective("target_distance", point=(0.0, 13.5))


def test_march_distance_counts_a_wheel_at_frontage_times_sine():
    s = scenario(unit(mobility=4.0))
    result = optimal(s, "march", FAR_LEFT)
    assert result.verdict.end_facing_deg == pytest.approx(180.0)
    # The end centre (31.5, 13.5) is a lattice point; rows rounded down lose at most a tick.
    assert between(result.value, 31.5, 31.5 + TICK)


def test_off_switch_march_distance(monkeypatch):
    rules = without(monkeypatch, "t9a.march.distance")
    on = optimal(scenario(unit(), final_position_mob=3.0), "march")
    off = optimal(scenario(unit(), rules=rules, final_position_mob=3.0), "march")
    # Without the distance only Valid Final Position (12") limits a straight March.
    assert off.value > on.value + 3.0
    assert between(off.value, 12.0 - gon_loss(12.0, 128) - TICK, 12.0)


def test_off_switch_advance_distance(monkeypatch):
    rules = without(monkeypatch, "t9a.advance.distance")
    on = optimal(scenario(unit()), "advance", lattice=COARSE)
    off = optimal(scenario(unit(), rules=rules), "advance", lattice=COARSE)
    assert off.value > on.value + 3.0


# --- Heading window -------------------------------------------------------------------------

def _wheel_triangle(t_deg: float, budget_in: float) -> Polygon | None:
    """End centres of 'forward a, wheel t, forward b' (a + 5 sin|t| + b <= budget) for the
    5 x 2 unit at (36, 10) facing +y, worked out here from the rule: the wheel turns about
    the inner front corner."""
    spare = budget_in - 5.0 * abs(math.sin(math.radians(t_deg)))
    if spare < 0:
        return None
    pivot = np.array([33.5, 11.0]) if t_deg >= 0 else np.array([38.5, 11.0])
    c, s = math.cos(math.radians(t_deg)), math.sin(math.radians(t_deg))
    arm = np.array([36.0, 10.0]) - pivot
    after = pivot + np.array([c * arm[0] - s * arm[1], s * arm[0] + c * arm[1]])
    first = np.array([0.0, 1.0])
    last = np.array([-s, c])  # heading 90 + t
    pts = [after, after + spare * first, after + spare * last]
    return Polygon(pts) if t_deg else shapely.LineString(pts[:2])


def test_heading_window_binds():
    # Window 30 deg (rule option): a target far to the left wants the whole window.
    s = scenario(unit(mobility=4.0), heading_window_deg=30.0)
    result = optimal(s, "march", FAR_LEFT)
    target = Point(FAR_LEFT.point)
    by_wheel = {t: _wheel_triangle(t, 8.0).distance(target) for t in np.arange(-30, 30.5, 0.5)}
    best_t = min(by_wheel, key=by_wheel.get)
    assert best_t == 30.0  # the scenario is what the test says it is: the window binds
    assert result.verdict.end_facing_deg == pytest.approx(120.0)
    # The optimum is a vertex of the option's triangle, off the lattice: the nearest accepted
    # lattice point is within two ticks' diagonal of it.
    assert between(result.value, by_wheel[30.0], by_wheel[30.0] + 2 * math.sqrt(2) * TICK)


def test_off_switch_heading_window(monkeypatch):
    rules = without(monkeypatch, "t9a.march.heading_window", "t9a.advance.heading_window")
    on = optimal(scenario(unit(), heading_window_deg=30.0), "march", FAR_LEFT)
    off = optimal(scenario(unit(), rules=rules, heading_window_deg=30.0), "march", FAR_LEFT)
    assert off.value < on.value - 1.0
    assert between(off.value, 31.5, 31.5 + TICK)  # the 90 deg wheel of the test above


# --- Unit Spacing at the end: more than 1" ---------------------------------------------------

def _wall_ahead(gap_in: float):
    """A wall across the table, `gap_in` beyond the front (y = 11) of the unit at (36, 10)."""
    return wall("wall", 0.0, 11.0 + gap_in, 72.0, 12.0 + gap_in)


def test_unit_spacing_stops_a_march_just_over_an_inch_short():
    # Wall 3" ahead: the front must end more than 1" from it, so forward < 2 (strict).  No
    # wheel helps: any turn makes the unit deeper along the start facing.
    s = scenario(unit(), terrain=(_wall_ahead(3.0),))
    result = optimal(s, "march")
    assert between(result.value, 2.0 - TICK, 2.0) and result.value < 2.0
    assert result.verdict.measurements["clearance"] > 1.0


def test_unit_spacing_binds_a_reform():
    # Wall 2.5" ahead of the front: every 10-model formation is at least 2" deep along any
    # facing (1" bases, 2..8 files), so the centre stays more than 2" below the wall:
    # forward < 1.5 (the 2" centre travel does not bind).
    s = scenario(unit(), terrain=(_wall_ahead(2.5),))
    result = optimal(s, "reform", lattice=COARSE)
    assert between(result.value, 1.5 - TICK, 1.5) and result.value < 1.5


def test_off_switch_unit_spacing(monkeypatch):
    rules = without(monkeypatch, "t9a.unit_spacing")
    on = optimal(scenario(unit(), terrain=(_wall_ahead(3.0),)), "march")
    off = optimal(scenario(unit(), terrain=(_wall_ahead(3.0),), rules=rules), "march")
    # Only the Front Facing's 0.5" mid-move spacing is left: forward < 2.5.
    assert off.value > on.value + 0.4
    assert between(off.value, 2.5 - TICK, 2.5) and off.value < 2.5


# --- Front Facing spacing while snaking: more than 0.5" -------------------------------------

def test_front_spacing_binds_when_end_spacing_is_not_enforced(monkeypatch):
    # Without end spacing the Front Facing's sweep is what stops the unit: forward < 2.5.
    rules = without(monkeypatch, "t9a.unit_spacing")
    s = scenario(unit(), terrain=(_wall_ahead(3.0),), rules=rules, **STRAIGHT)
    result = optimal(s, "march")
    assert between(result.value, 2.5 - TICK, 2.5) and result.value < 2.5


def _rocks_beside(gap_in: float, bottom_in: float = 14.0):
    """Rocks 1" x 1" beside the path: `gap_in` left of the unit's left edge (x = 33.5), their
    bottom `bottom_in` up (the unit's front is at y = 11)."""
    return wall("rocks", 33.5 - gap_in - 1.0, bottom_in, 33.5 - gap_in, bottom_in + 1.0)


@pytest.mark.parametrize("gap", [0.52, 0.48])
def test_front_spacing_passing_rocks_at_the_boundary(gap):
    # Straight ahead only.  The front passes the rocks at exactly `gap`: 0.52 > 0.5 lets the
    # unit go the whole 8" (ending 3" past the rocks), 0.48 does not.  Then it must stop before
    # its front-left corner comes within 1" of the rocks' corner (33.5 - gap, 14):
    # (3 - a)^2 + gap^2 > 1, a < 3 - sqrt(1 - gap^2) = 2.1227 at 0.48.
    s = scenario(unit(), terrain=(_rocks_beside(gap),), final_position_mob=3.0, **STRAIGHT)
    result = optimal(s, "march")
    if gap > 0.5:
        assert between(result.value, 8.0 - TICK, 8.0)
    else:
        # Corner to corner: the rocks' 1" zone is a circumscribed polygon (fans every 7.5 deg,
        # 0.002") and the corner offsets are rounded to the tick (up to 0.007" on a diagonal
        # axis), so the last lattice point or the one before it.
        limit = 3.0 - math.sqrt(1.0 - gap**2)
        assert between(result.value, limit - CORNER_LOSS, limit) and result.value < limit


def test_off_switch_front_spacing(monkeypatch):
    rules = without(monkeypatch, "t9a.snaking.front_spacing")
    terrain = (_rocks_beside(0.48),)
    on = optimal(scenario(unit(), terrain=terrain, final_position_mob=3.0, **STRAIGHT), "march")
    off = optimal(scenario(unit(), terrain=terrain, final_position_mob=3.0, rules=rules,
                           **STRAIGHT), "march")
    assert on.value < 2.2 and between(off.value, 8.0 - TICK, 8.0)


# --- Table edge: the Front Facing's path and the end position stay on the table -------------

@pytest.mark.parametrize("drop", ["t9a.table_edge.end", "t9a.table_edge.front", None])
def test_table_edge_binds_a_march(monkeypatch, drop):
    # The far edge 3" beyond the front.  On the table is inclusive, so 3.00 is legal; the
    # front's bound keeps a hair short of the edge and the end's corner rows keep half a tick
    # for rounding, so each may give up one tick.
    rules = without(monkeypatch, drop) if drop else "t9a"
    s = scenario(unit(), depth=14.0, rules=rules, final_position_mob=3.0, **STRAIGHT)
    result = optimal(s, "march")
    assert between(result.value, 3.0 - TICK, 3.0)


def test_table_edge_end_binds_a_reform():
    # Far edge 1.5" beyond the front: every formation is at least 2" deep along any facing,
    # so the centre ends at most 1.5" forward (inclusive).
    s = scenario(unit(), depth=12.5)
    result = optimal(s, "reform", lattice=COARSE)
    assert between(result.value, 1.5 - TICK, 1.5)


# One rank of 5 (5" x 1") facing 135 deg with its front-left corner at (30, 40) and the far
# edge at y = 44.5.  A 90 deg left wheel swings the front-right corner through the top of its
# circle, y = 40 + 5 = 45, off the table; the unit ends inside it (its top at 40 + 3.54 +
# 0.71 = 44.24).  The target is the centre after exactly that wheel.
DIAGONAL = unit(models=5, files=5, centre=(30.0 + 2.5 * math.sqrt(0.5) + 0.5 * math.sqrt(0.5),
                                             40.0 + 2.5 * math.sqrt(0.5) - 0.5 * math.sqrt(0.5)),
                facing=135.0)


def _after_wheel_90():
    arm = (DIAGONAL.pose.centre[0] - 30.0, DIAGONAL.pose.centre[1] - 40.0)
    return (30.0 - arm[1], 40.0 + arm[0])


def test_off_switch_table_edge_front(monkeypatch):
    rules = without(monkeypatch, "t9a.table_edge.front")
    target = Objective("target_distance", point=_after_wheel_90())
    on = optimal(scenario(DIAGONAL, depth=44.5), "march", target)
    off = optimal(scenario(DIAGONAL, depth=44.5, rules=rules), "march", target)
    # Off: the wheel itself, within a tick's diagonal (the target is not a lattice point).
    assert off.value <= math.sqrt(2) * TICK
    # On: the front may swing no further than y = 44.5, a wheel of asin(0.9) - 45 = 19.2 deg.
    assert on.value > off.value + 0.5
    assert on.verdict.end_facing_deg - 135.0 <= 19.2


def test_off_switch_table_edge_end(monkeypatch):
    # The unit's right edge at x = 71.9, 0.1" from the table's.  A left wheel of 30 deg swings
    # its rear-right corner to x = 66.9 + 5 cos 30 + 2 sin 30 = 72.23, off the table; the
    # target is the centre after exactly that wheel.
    rules = without(monkeypatch, "t9a.table_edge.end")
    u = unit(centre=(69.4, 10.0))
    c, s = math.cos(math.radians(30)), math.sin(math.radians(30))
    target = Objective("target_distance", point=(66.9 + 2.5 * c + s, 11.0 + 2.5 * s - c))
    on = optimal(scenario(u), "march", target)
    off = optimal(scenario(u, rules=rules), "march", target)
    assert off.value <= math.sqrt(2) * TICK
    assert on.value > off.value + 0.05


# --- Reorder: an Advance or March keeps its files -------------------------------------------

def test_reorder_files_agreement():
    s = scenario(unit())
    search = build_search(SearchRequest(s, "u", "march", FORWARD, COARSE))
    assert {o.files for o in search.ectx.options} == {5}
    result = optimal(s, "march", lattice=COARSE)
    assert result.move.files in (None, 5)
    asked = dataclasses.replace(result.move, files=4)
    assert check_move(s, asked).clauses() == ("t9a.reorder.files",)


def test_off_switch_reorder_files(monkeypatch):
    # A March's end formation is its start formation whatever `files` it names (the Reorder
    # only repositions models), so the clause cannot change an optimum: off, the checker
    # accepts the request it rejected, and the search finds the same move.
    rules = without(monkeypatch, "t9a.reorder.files")
    on_s, off_s = scenario(unit()), scenario(unit(), rules=rules)
    on, off = optimal(on_s, "march", lattice=COARSE), optimal(off_s, "march", lattice=COARSE)
    assert (on.move, on.value) == (off.move, off.value)
    asked = dataclasses.replace(on.move, files=4)
    assert not check_move(on_s, asked).legal and check_move(off_s, asked).legal


# --- Valid Final Position: every end corner within 2 x Mob of some start corner -------------

def test_valid_final_position_binds_a_march():
    # final_position_mob 1.5: corners within 6"; straight ahead every corner moves a.
    s = scenario(unit(), final_position_mob=1.5, **STRAIGHT)
    result = optimal(s, "march")
    assert between(result.value, 6.0 - gon_loss(6.0, 128) - TICK, 6.0)


def test_valid_final_position_binds_a_reform():
    # Centre travel and model moves widened (12", 24"): corners within 8" bind.  Each end
    # corner is at most 19" up (start corners at y <= 11) and every formation reaches at
    # least 1" above its centre, so the centre gets to y = 18 at best: 22" from (36, 40).
    s = scenario(unit(), reform_centre_mob=3.0, model_move_mob=6.0)
    result = optimal(s, "reform", Objective("target_distance", point=(36.0, 40.0)), COARSE)
    assert between(result.value, 22.0, 22.0 + gon_loss(8.0, 128) + TICK)


def test_off_switch_valid_final_position(monkeypatch):
    rules = without(monkeypatch, "t9a.valid_final_position")
    on = optimal(scenario(unit(), final_position_mob=1.5, **STRAIGHT), "march")
    off = optimal(scenario(unit(), final_position_mob=1.5, rules=rules, **STRAIGHT), "march")
    assert between(off.value, 8.0 - TICK, 8.0) and off.value > on.value + 1.5


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
    # binds: a 90 deg Pivot (value 0) is out of reach.
    s = scenario(unit(**NARROW), **WIDE_VFP)
    result = optimal(s, "advance", FACE_LEFT)
    assert not 88.85 < abs(result.move.pivot_deg) < 91.15
    assert 0.05 < result.value <= 0.2 + FLOAT


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
    # A wheel after the Pivot (the model of one 1 deg wheel) turns further, legally.
    assert result.value < result.stats["options_value"]
    assert not best < abs(result.move.pivot_deg) < 180.0 - best


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


# --- MoveEncoding.row: sound rounding of float rows -----------------------------------------

def _encoding() -> MoveEncoding:
    option = Option(0, 90.0, 90.0, 1, 1.0, 1.0)
    return MoveEncoding([option], Lattice(), 1.0)


def _random_row(rng: np.random.Generator):
    """Coefficients of very different sizes (some dropped as negligible), boxes inside the
    stated bounds on |var|, and a right-hand side anywhere in the row's range."""
    n = int(rng.integers(1, 4))
    coefs = rng.choice([-1.0, 1.0], n) * 10.0 ** rng.uniform(-3, 3, n)
    kind = rng.integers(0, 5)
    if kind == 0 and n > 1:
        coefs[0] *= 1e-11  # negligible next to the others
    elif kind == 1:
        coefs = np.round(coefs)  # integers (maybe 0)
    elif kind == 2:
        coefs = coefs / 3.0
    bounds = rng.integers(1, 40, n)
    boxes = []
    for b in bounds:
        lo, hi = sorted(rng.integers(-b, b + 1, 2))
        boxes.append((int(lo), int(hi)))
    reach = float(np.sum(np.abs(coefs) * bounds))
    if rng.random() < 0.5:
        rhs = float(rng.uniform(-1.1, 1.1) * reach)
    else:  # just below the row's value at a point of the box: that point is (barely) out
        point = [rng.integers(lo, hi + 1) for lo, hi in boxes]
        at = float(np.dot(coefs, point))
        rhs = at - abs(at) * 10.0 ** rng.uniform(-15, -9) - 1e-300
    return coefs, bounds, boxes, rhs


def _exact_lhs(coefs, point) -> float:
    from fractions import Fraction

    return sum(Fraction(float(c)) * int(v) for c, v in zip(coefs, point, strict=True))


def test_row_is_sound_and_loses_little():
    """Every integer point the posted row accepts passes the float row (exactly, in rational
    arithmetic), and every point that passes the float row with room (the row's documented
    rounding loss) is accepted."""
    from fractions import Fraction

    rng = np.random.default_rng(20240611)
    posted = 0
    for _ in range(600):
        coefs, bounds, boxes, rhs = _random_row(rng)
        enc = _encoding()
        variables = [enc.sat_model.new_int_var(lo, hi, f"v{k}") for k, (lo, hi) in
                     enumerate(boxes)]
        before = len(enc.sat_model.proto.constraints)
        enforce = [enc.sat_model.new_bool_var("on")] if rng.random() < 0.3 else []
        enc.row([(float(c), v, int(b)) for c, v, b in zip(coefs, variables, bounds,
                                                          strict=True)], rhs, enforce)
        new = list(enc.sat_model.proto.constraints)[before:]
        grid = np.stack(np.meshgrid(*[np.arange(lo, hi + 1) for lo, hi in boxes],
                                    indexing="ij"), -1).reshape(-1, len(boxes))
        float_lhs = grid @ coefs
        if not new:
            accepted = np.ones(len(grid), dtype=bool)  # nothing posted: every point
        else:
            assert len(new) == 1
            ct = new[0]
            if ct.has_bool_or():  # the row is false everywhere: it forbids the enforcement
                assert not ct.enforcement_literal
                assert sorted(-lit - 1 for lit in ct.bool_or.literals) == \
                    [lit.index for lit in enforce]
                accepted = np.zeros(len(grid), dtype=bool)
            else:
                assert list(ct.enforcement_literal) == [lit.index for lit in enforce]
                posted += 1
                index = {v.index: k for k, v in enumerate(variables)}
                ints = np.zeros(len(boxes), dtype=np.int64)
                for var, coef in zip(ct.linear.vars, ct.linear.coeffs, strict=True):
                    ints[index[var]] = coef
                domain = list(ct.linear.domain)  # (the proto's [-1] is not the last item)
                assert len(domain) == 2
                lo, hi = domain
                int_lhs = grid.astype(np.int64) @ ints
                accepted = (int_lhs >= lo) & (int_lhs <= hi)
        # Soundness: accepted points satisfy the float row (exactly where floats are close).
        doubtful = accepted & (float_lhs > rhs - 1e-6 * (1.0 + abs(rhs)))
        for point in grid[doubtful]:
            # Up to the checker's float allowance (constraints.limits: 1e-9", i.e. 1e-7 of a
            # tick, the rows' unit), a little of which MoveEncoding.row spends on float noise
            # in its own scaling.
            assert _exact_lhs(coefs, point) <= Fraction(rhs) + Fraction(1, 10**7), \
                (coefs, boxes, rhs, point)
        # Loss: at most (sum of bounds + 1) / scale in row units, scale = 1e5 / max |coef|
        # (twice the coefficients' rounding error, plus the floor), and twice the worst case
        # of the dropped terms (moved to the right-hand side, and still in the float row).
        largest = float(np.max(np.abs(coefs)))
        dropped = np.abs(coefs) <= 1e-9 * largest
        loss = largest * (float(np.sum(bounds)) + 1.0) / 1e5 + \
            2.0 * float(np.sum(np.abs(coefs[dropped]) * bounds[dropped]))
        roomy = float_lhs <= rhs - loss - 1e-9 * (1.0 + abs(rhs))
        assert accepted[roomy].all(), (coefs, boxes, rhs)
    assert posted > 200  # most rows were real constraints, not trivial ones


def test_corner_row_is_sound_for_the_true_corner():
    """A corner row is posted on the centre ticks plus the corner's rounded offset (in
    1/CORNER_SUBTICKS ticks): every centre it accepts must put the true corner within the
    float row, and it may give up at most the offset's rounding plus the row's."""
    from fractions import Fraction

    from constraints.sat.encoding import CORNER_SUBTICKS, ROW_SCALE
    from constraints.sat.option import corner_offset

    rng = np.random.default_rng(7)
    for _ in range(60):
        facing = float(rng.uniform(0.0, 360.0))
        width, depth = (float(x) for x in rng.uniform(0.5, 6.0, 2))
        option = Option(0, facing, facing, 1, width, depth)
        enc = MoveEncoding([option], Lattice(), 0.2)
        corner = int(rng.integers(0, 4))
        angle = rng.uniform(0.0, 2 * np.pi)
        normal = (float(np.cos(angle)), float(np.sin(angle)))
        offset = corner_offset(option, corner)
        centre_at = float(rng.uniform(-0.15, 0.15))  # the row's boundary crosses the box
        rhs = centre_at + normal[0] * offset[0] + normal[1] * offset[1]
        before = len(enc.sat_model.proto.constraints)
        enc.corner_row(corner, normal, rhs)
        new = list(enc.sat_model.proto.constraints)[before:]
        assert len(new) == 1
        row = new[0].linear
        values = {enc.right_ticks.index: None, enc.forward_ticks.index: None,
                  enc.corner_dx[corner].index: round(CORNER_SUBTICKS * offset[0] / enc.tick),
                  enc.corner_dy[corner].index: round(CORNER_SUBTICKS * offset[1] / enc.tick)}
        ticks = np.arange(-enc.bound, enc.bound + 1)
        i, j = (a.reshape(-1) for a in np.meshgrid(ticks, ticks, indexing="ij"))
        lhs = np.zeros(len(i), dtype=np.int64)
        for var, coef in zip(row.vars, row.coeffs, strict=True):
            fixed = values[var]
            at = {enc.right_ticks.index: i, enc.forward_ticks.index: j}
            lhs += coef * at.get(var, fixed)
        accepted = (lhs >= row.domain[0]) & (lhs <= row.domain[1])
        true_lhs = normal[0] * (i * enc.tick + offset[0]) + normal[1] * (j * enc.tick + offset[1])
        for k in np.flatnonzero(accepted & (true_lhs > rhs - 1e-6)):
            tick = Fraction(enc.tick)
            exact = Fraction(normal[0]) * (int(i[k]) * tick + Fraction(offset[0])) + \
                Fraction(normal[1]) * (int(j[k]) * tick + Fraction(offset[1]))
            assert exact <= Fraction(rhs) + Fraction(1, 10**9)
        # Loss: the offsets' rounding, taken off the row (0.5 / CORNER_SUBTICKS tick per axis)
        # and perhaps against it as much again, plus the row's own rounding.
        bounds = 2 * enc.bound + enc.magnitude[enc.corner_dx[corner].name] + \
            enc.magnitude[enc.corner_dy[corner].name] + 1
        row_loss = max(abs(normal[0]), abs(normal[1])) * bounds / ROW_SCALE
        loss = (1.0 / CORNER_SUBTICKS * (abs(normal[0]) + abs(normal[1])) + row_loss) * enc.tick
        assert accepted[true_lhs <= rhs - loss].all()
        assert not accepted.all() and accepted.any()


def test_centre_rows_post_exactly_what_centre_row_posts():
    """The vectorised rows are the scalar ones, bit for bit (axis normals, negligible
    components, rows true or false everywhere, enforced or not)."""
    rng = np.random.default_rng(11)
    angles = np.concatenate([rng.uniform(0.0, 2 * np.pi, 300), np.arange(8) * np.pi / 4])
    normals = np.stack([np.cos(angles), np.sin(angles)], axis=1)
    normals[:20, 1] *= 1e-12  # a component negligible next to the other
    normals[20:30] *= 1e-3
    rhs = rng.uniform(-1.5, 1.5, len(normals))  # the centre box is +-1.0": some trivial rows
    for enforced in (False, True):
        one, many = _encoding(), _encoding()
        lits = [[e.sat_model.new_bool_var("on")] if enforced else [] for e in (one, many)]
        for n, r in zip(normals, rhs, strict=True):
            one.centre_row((float(n[0]), float(n[1])), float(r), lits[0])
        many.centre_rows(normals, rhs, lits[1])
        assert [str(c) for c in one.sat_model.proto.constraints] == \
            [str(c) for c in many.sat_model.proto.constraints]


def test_row_with_exact_integers_keeps_its_boundary():
    # x + 2y <= 7 has exact coefficients: the posted row loses nothing.
    enc = _encoding()
    x = enc.sat_model.new_int_var(-10, 10, "x")
    y = enc.sat_model.new_int_var(-10, 10, "y")
    enc.row([(1.0, x, 10), (2.0, y, 10)], 7.0)
    enc.sat_model.maximize(x + 2 * y)
    solver = cp_model.CpSolver()
    assert solver.solve(enc.sat_model) == cp_model.OPTIMAL
    assert solver.objective_value == 7


# --- Bugs found while writing these tests, fixed since: each test guards its fix -----------

def test_advance_pivot_then_straight_on_has_lattice_points():
    s = scenario(unit())
    assert check_move(s, Move("u", "advance", pivot_deg=45.0)).legal  # Pivot, stay put
    search = build_search(SearchRequest(s, "u", "advance", FORWARD),
                          only=lambda o: o.pivot_deg == 45.0 and o.wheel_deg == 0.0)
    status = solver_for(600.0).solve(search.ectx.enc.sat_model)  # a proof, however slow
    assert status in (cp_model.OPTIMAL, cp_model.FEASIBLE)


def test_best_move_never_reports_infeasible_while_a_legal_move_is_known():
    # Open table; face 45 deg further left without moving: Pivot 45 does it exactly.
    s = scenario(unit())
    assert check_move(s, Move("u", "advance", pivot_deg=45.0)).legal
    result = solve(s, "advance", Objective("target_pose", point=(36.0, 10.0), facing_deg=135.0),
                   Lattice(degree=5.0, advance_wheel_deg=15.0))
    assert result.found and result.value == pytest.approx(0.0, abs=FLOAT)


def test_spacing_is_judged_corner_to_corner():
    # Rocks 0.48" left of the unit's left edge and 1" above its front: the front-left corner is
    # hypot(0.48, 1) = 1.109" from the rocks' corner.  Straight ahead only: a < 0.1227.
    s = scenario(unit(), terrain=(_rocks_beside(0.48, bottom_in=12.0),), **STRAIGHT)
    assert check_move(s, Move("u", "march")).legal
    result = solve(s, "march")
    assert result.stats["options_status"] == "OPTIMAL"
    limit = 1.0 - math.sqrt(1.0 - 0.48**2)
    assert between(result.value, limit - CORNER_LOSS, limit)


def test_objective_distance_is_optimal_on_the_lattice():
    # A Reform towards a target 30" away at bearing -117 deg: the best lattice centre inside
    # the travel 128-gon is 28.0019" from it; before the fix the solver answered 28.0407" and
    # called it optimal.
    b = math.radians(-117.0)
    target = (36.0 + 30.0 * math.cos(b), 24.0 + 30.0 * math.sin(b))
    s = scenario(unit(centre=(36.0, 24.0)), width=200.0, depth=200.0)
    ticks = np.arange(-200, 201)
    grid = np.stack(np.meshgrid(ticks, ticks, indexing="ij"), -1).reshape(-1, 2) * TICK
    inside = np.all(grid @ np.array([hp.normal for hp in inscribed_polygon(2.0, 128)]).T <=
                    inscribed_polygon(2.0, 128)[0].rhs, axis=1)
    dist = np.hypot(*(grid[inside] + (36.0, 24.0) - target).T)
    best = grid[inside][int(np.argmin(dist))]
    witness = Move("u", "reform", files=5, centre=(36.0 + best[0], 24.0 + best[1]),
                   facing_deg=90.0)
    assert check_move(s, witness).legal
    result = optimal(s, "reform", Objective("target_distance", point=target), COARSE)
    # Documented precision of the objective's norm: 0.008% (256-gon) + 0.07% (its integer
    # directions) of the distance.
    assert result.value <= float(dist.min()) + 7.8e-4 * 28.0 + FLOAT


def test_best_move_keeps_its_time_limit():
    """A limit too short for the search: the wall clock stops it and the answer says so (no
    timed assertion: how long it took depends on the machine)."""
    s = scenario(unit(mobility=2.0), reform_centre_mob=5.0, final_position_mob=5.0)
    result = best_move(s, "u", "reform", Objective("target_distance", point=(36.0, 40.0)),
                       time_limit_s=1e-3, lattice=COARSE)
    assert result.stopped_by == "wall_clock"
    assert str(result.status) not in ("OPTIMAL", "INFEASIBLE")
    assert result.move is None or check_move(s, result.move).legal
