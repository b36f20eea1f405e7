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
from shapely.geometry import Point, Polygon

from constraints.core.profile import PROFILES
from constraints.sat.lattice import Lattice
from constraints.t9a.checker import check_move
from optimizer.search.model import build_search
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


def rocks_beside(gap_in: float, bottom_in: float = 14.0):
    """Rocks 1" x 1" beside the path: `gap_in` left of the unit's left edge (x = 33.5), their
    bottom `bottom_in` up (the unit's front is at y = 11)."""
    return wall("rocks", 33.5 - gap_in - 1.0, bottom_in, 33.5 - gap_in, bottom_in + 1.0)


@pytest.mark.parametrize("gap", [0.52, 0.48])
def test_front_spacing_passing_rocks_at_the_boundary(gap):
    # Straight ahead only.  The front passes the rocks at exactly `gap`: 0.52 > 0.5 lets the
    # unit go the whole 8" (ending 3" past the rocks), 0.48 does not.  Then it must stop before
    # its front-left corner comes within 1" of the rocks' corner (33.5 - gap, 14):
    # (3 - a)^2 + gap^2 > 1, a < 3 - sqrt(1 - gap^2) = 2.1227 at 0.48.
    s = scenario(unit(), terrain=(rocks_beside(gap),), final_position_mob=3.0, **STRAIGHT)
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
    terrain = (rocks_beside(0.48),)
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
