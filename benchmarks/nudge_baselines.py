"""A baseline for resolving nudges after a round of combat (seed 001), written apart from
`optimizer/nudge/least.py` and `order.py`: every order, and a fine grid of shifts per nudge.

It shares with the solver only what the rules fix and the project already judges: the
casualties' removal and re-forming (`constraints/t9a/clauses/casualties`), who is in contact
(`constraints.rank_and_file.combats.engagements`) and the exact checker of one nudge
(`constraints.t9a.clauses.nudge.checker.check_nudge`).

* **Orders.** The units to nudge (engaged before, not after re-forming, neither fleeing nor
  pursuing) by side, the Active Player's side first; every combination of one
  `itertools.permutations` per side, each replayed from the re-formed scenario with nothing
  remembered between orders.  A unit in contact when its turn comes is not moved.  The answer
  is the most units in combat; its order is the first one, in that enumeration, that reaches
  it (the owners' pick on a tie, as the solver makes it), and its distance is that order's
  sum of |s| + |f| over its nudges.
* **One nudge.** Shifts (s, f) in the unit's frame (s to its right, f forwards): the grid of
  step `GRID_IN` with |s|, |f| <= `WINDOW_IN`, plus, since exact contact is a measure-zero set
  on a grid, for each grid s every f where the shifted unit just touches an enemy it touched
  before (bisection on shapely's distance between grid neighbours on either side of contact),
  and likewise for each grid f every such s.  Candidates are judged by `check_nudge`, both
  orders of legs (forward first, then sideways first), in order of |s| + |f|; the first legal
  length wins, ties (within `TIE_IN`) by more previous enemies touched, then the shorter
  straight line.  Before `check_nudge`, candidates that cannot be legal are dropped by exact
  necessary conditions evaluated on all of them at once with shapely: the end must touch a
  previous enemy, must not reach into any other unit or impassable terrain deeper than the
  contact tolerance (so no leg can avoid passing through it), must not touch a new enemy and
  must stay on the table.  So the answer is the same as judging every candidate.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from itertools import permutations, product

import numpy as np
import shapely

from constraints.core.scenario import Pose, Scenario
from constraints.geometry.plane import unit_vector
from constraints.rank_and_file.combats import engagements
from constraints.rank_and_file.unit import Unit
from constraints.t9a.clauses.casualties.removal import (
    is_wiped_out,
    remove_casualties,
    remove_slots,
)
from constraints.t9a.clauses.casualties.unfreeze import unfreeze
from constraints.t9a.clauses.nudge.checker import check_nudge
from constraints.t9a.clauses.nudge.context import Leg, legs_of
from optimizer.nudge.losses import Loss

GRID_IN = 0.05        # the grid of shifts
WINDOW_IN = 3.0       # |s|, |f| at most this
BISECT_STEPS = 44     # 0.05" / 2**44 ~ 3e-15": contact well within the tolerance
TOUCH_IN = 1e-6       # the contact tolerance of the clauses (docs/architecture.md)
DEEP_IN = 2e-6        # an end this deep inside a blocker is illegal (beyond TOUCH_IN)
TIE_IN = 1e-9         # lengths this close are equal


@dataclass(frozen=True)
class GridNudge:
    """One nudge the grid found: the shift in the unit's frame, its legs, |s| + |f|, the
    straight-line length and the previous enemies its end touches."""

    unit: str
    sideways_in: float
    forward_in: float
    legs: tuple[Leg, ...]
    distance_in: float
    straight_in: float
    touched: tuple[str, ...]
    candidates: int      # shifts generated
    judged: int          # check_nudge calls


@dataclass
class BaselineAnswer:
    """The most units in combat over every order, the first order reaching it, its nudges
    and their total |s| + |f|, and how much work it took."""

    in_combat: int = -1
    order: tuple[str, ...] = ()
    nudges: tuple[GridNudge, ...] = ()
    distance_in: float = 0.0
    sides: list[list[str]] = field(default_factory=list)
    orders: int = 0          # orders replayed
    best_orders: int = 0     # orders reaching the most units in combat
    grid_nudges: int = 0     # grid searches run (no memoisation: repeated across orders)
    judged: int = 0          # check_nudge calls in all
    removed: tuple[str, ...] = ()


def exhaustive(scenario: Scenario, losses: Sequence[Loss]) -> BaselineAnswer:
    """Casualties, re-forming, then every order of nudges with grid nudges."""
    previous = engagements(scenario.units)
    reformed, removed = after_casualties(scenario, losses)
    sides = due_sides(reformed, previous)
    answer = BaselineAnswer(sides=sides, removed=removed)
    for per_side in product(*(permutations(side) for side in sides)):
        order = tuple(uid for side in per_side for uid in side)
        count, nudges = _replay(reformed, order, previous, answer)
        answer.orders += 1
        if count > answer.in_combat:
            answer.in_combat, answer.order, answer.nudges = count, order, nudges
            answer.distance_in = sum(n.distance_in for n in nudges)
            answer.best_orders = 0
        answer.best_orders += count == answer.in_combat
    return answer


def after_casualties(scenario: Scenario, losses: Sequence[Loss]
                     ) -> tuple[Scenario, tuple[str, ...]]:
    """The scenario with every unit's losses removed and the survivors re-formed (units
    wiped out leave it).  Counts and slots only (losses outside the Melee Phase choose a
    side, which this baseline does not search)."""
    by_unit = {loss.unit: loss for loss in losses}
    kept, removed = [], []
    for unit in scenario.units:
        loss = by_unit.get(unit.id)
        if loss is not None:
            if loss.outside_melee:
                raise ValueError("the baseline takes counts and slots, not outside_melee")
            unit = remove_slots(unit, loss.slots) if loss.slots \
                else remove_casualties(unit, loss.count)
        if is_wiped_out(unit):
            removed.append(unit.id)
        else:
            kept.append(unfreeze(unit))
    return Scenario(scenario.battlefield, tuple(kept), scenario.terrain, scenario.rules,
                    scenario.rule_options, scenario.active_player), tuple(removed)


def due_sides(scenario: Scenario, previous: Mapping[str, Mapping[str, str]]
              ) -> list[list[str]]:
    """Units engaged before and not now, neither fleeing nor pursuing, by player: the
    Active Player first, then the players as their first unit appears."""
    now = engagements(scenario.units)
    players = list(dict.fromkeys(u.player for u in scenario.units))
    if scenario.active_player in players:
        players.remove(scenario.active_player)
        players.insert(0, scenario.active_player)
    due = [u for u in scenario.units if u.id in previous and u.id not in now
           and u.state not in ("fleeing", "pursuing")]
    return [[u.id for u in due if u.player == p] for p in players]


def _replay(scenario: Scenario, order: tuple[str, ...],
            previous: Mapping[str, Mapping[str, str]], answer: BaselineAnswer
            ) -> tuple[int, tuple[GridNudge, ...]]:
    nudges = []
    for uid in order:
        if uid in engagements(scenario.units):
            continue
        found = grid_nudge(scenario, uid, previous[uid])
        answer.grid_nudges += 1
        answer.judged += found[1]
        if found[0] is None:
            continue
        nudge = found[0]
        unit = scenario.unit(uid)
        shift = sum((leg.shift(unit.pose.facing_deg) for leg in nudge.legs), np.zeros(2))
        centre = (unit.pose.centre[0] + float(shift[0]), unit.pose.centre[1] + float(shift[1]))
        scenario = scenario.with_unit(unit.with_pose(Pose(centre, unit.pose.facing_deg)))
        nudges.append(nudge)
    return len(engagements(scenario.units)), tuple(nudges)


# -- one nudge on the grid -------------------------------------------------------------------

def grid_nudge(scenario: Scenario, uid: str, previous: Mapping[str, str]
               ) -> tuple[GridNudge | None, int]:
    """The best grid nudge of `uid` (None when no candidate is legal) and the number of
    check_nudge calls it made."""
    unit = scenario.unit(uid)
    present = [e for e in previous if scenario.has_unit(e)]
    if not present:
        return None, 0
    shape = _Shifted(unit)
    enemies = [scenario.unit(e).boundary() for e in present]
    for geometry in enemies:
        shapely.prepare(geometry)
    ticks = np.round(np.arange(-round(WINDOW_IN / GRID_IN), round(WINDOW_IN / GRID_IN) + 1)
                     * GRID_IN, 12)
    s_grid, f_grid = (a.ravel() for a in np.meshgrid(ticks, ticks, indexing="ij"))
    grid_polys = shape.polygons(s_grid, f_grid)
    grid_gaps = [shapely.distance(grid_polys, e) for e in enemies]
    s_parts, f_parts = [s_grid], [f_grid]
    for enemy, gaps in zip(enemies, grid_gaps, strict=True):
        apart = (gaps > 0.0).reshape(len(ticks), len(ticks))
        for s_line, f_line in _contacts(shape, enemy, ticks, apart):
            s_parts.append(s_line)
            f_parts.append(f_line)
    s_all, f_all = np.concatenate(s_parts), np.concatenate(f_parts)
    extra = shape.polygons(s_all[len(s_grid):], f_all[len(s_grid):])
    polys = np.concatenate([grid_polys, extra])
    touching = np.stack([np.concatenate([gaps, shapely.distance(extra, e)]) <= TOUCH_IN
                         for e, gaps in zip(enemies, grid_gaps, strict=True)], axis=1)
    keep = np.asarray(touching.any(axis=1))
    keep[keep] = _possible(scenario, unit, present, shape, s_all[keep], f_all[keep],
                           polys[keep])
    idx = np.flatnonzero(keep)
    l1 = np.abs(s_all[idx]) + np.abs(f_all[idx])
    l2 = np.hypot(s_all[idx], f_all[idx])
    found: list[tuple[int, float, GridNudge]] = []
    judged = 0
    for k in np.lexsort((l2, l1)):
        if found and l1[k] > found[0][2].distance_in + TIE_IN:
            break
        i = idx[k]
        s, f = float(s_all[i]), float(f_all[i])
        for forward_first in ((True, False) if s != 0.0 and f != 0.0 else (True,)):
            legs = legs_of(f, s, forward_first)
            judged += 1
            if check_nudge(scenario, uid, previous, legs).legal:
                touched = tuple(sorted(e for e, t in zip(present, touching[i], strict=True)
                                       if t))
                found.append((-len(touched), float(l2[k]),
                              GridNudge(uid, s, f, legs, float(l1[k]), float(l2[k]), touched,
                                        len(s_all), 0)))
                break
    if not found:
        return None, judged
    best = min(found, key=lambda x: (x[0], x[1]))[2]
    return GridNudge(best.unit, best.sideways_in, best.forward_in, best.legs,
                     best.distance_in, best.straight_in, best.touched, len(s_all),
                     judged), judged


class _Shifted:
    """The unit's boundary shifted by (s, f) in its own frame, as shapely polygons."""

    def __init__(self, unit: Unit) -> None:
        fx, fy = unit_vector(unit.pose.facing_deg)
        self.right = np.array([fy, -fx])
        self.forward = np.array([fx, fy])
        self.corners = np.asarray(unit.corners(), dtype=float)
        centre = np.asarray(unit.pose.centre, dtype=float)
        # The same rectangle shrunk by DEEP_IN on every side: if it meets a blocker, the
        # blocker reaches deeper than DEEP_IN into the unit.
        rel = self.corners - centre
        local = np.stack([rel @ self.right, rel @ self.forward], axis=1)
        local = np.sign(local) * (np.abs(local) - DEEP_IN)
        self.inner = centre + local[:, :1] * self.right + local[:, 1:] * self.forward

    def shifts(self, s: np.ndarray, f: np.ndarray) -> np.ndarray:
        return s[:, None] * self.right[None, :] + f[:, None] * self.forward[None, :]

    def polygons(self, s: np.ndarray, f: np.ndarray, inner: bool = False) -> np.ndarray:
        base = self.inner if inner else self.corners
        return shapely.polygons(base[None, :, :] + self.shifts(s, f)[:, None, :])


def _contacts(shape: _Shifted, enemy: shapely.Polygon, ticks: np.ndarray, apart: np.ndarray
              ) -> list[tuple[np.ndarray, np.ndarray]]:
    """Shifts on grid lines where the unit just touches `enemy`: between every two grid
    neighbours of which one is apart and the other not, bisect to the apart side's last
    point (its distance to the enemy below 1e-14")."""
    found = []
    for axis in (0, 1):     # axis 1: f varies along a line of fixed s; axis 0: s varies
        a = apart if axis == 1 else apart.T
        line, k = np.nonzero(a[:, :-1] != a[:, 1:])
        if len(line) == 0:
            continue
        first_apart = a[line, k]
        out = np.where(first_apart, ticks[k], ticks[k + 1])     # apart side
        inside = np.where(first_apart, ticks[k + 1], ticks[k])  # touching or overlapping
        fixed = ticks[line]
        for _ in range(BISECT_STEPS):
            mid = (out + inside) / 2.0
            s, f = (fixed, mid) if axis == 1 else (mid, fixed)
            ok = shapely.distance(shape.polygons(s, f), enemy) > 0.0
            out = np.where(ok, mid, out)
            inside = np.where(ok, inside, mid)
        found.append((fixed, out) if axis == 1 else (out, fixed))
    return found


def _possible(scenario: Scenario, unit: Unit, present: list[str], shape: _Shifted,
              s: np.ndarray, f: np.ndarray, polys: np.ndarray) -> np.ndarray:
    """False where the end of the shift (s, f) breaks a clause whatever the legs: reaching
    into a unit or impassable terrain deeper than the contact tolerance (the last leg's sweep
    holds the end), touching a new enemy, or leaving the table."""
    ok = np.ones(len(s), dtype=bool)
    inner = shape.polygons(s, f, inner=True)
    for other in scenario.units:
        if other.id == unit.id:
            continue
        boundary = other.boundary()
        shapely.prepare(boundary)
        ok &= ~shapely.intersects(inner, boundary)
        if other.player != unit.player and other.id not in present:
            ok &= shapely.distance(polys, boundary) > TOUCH_IN
    for terrain in scenario.impassable():
        shape_t = terrain.shape
        shapely.prepare(shape_t)
        ok &= ~shapely.intersects(inner, shape_t)
    ends = shape.corners[None, :, :] + shape.shifts(s, f)[:, None, :]
    field_ = scenario.battlefield
    ok &= (ends.min(axis=(1, 2)) >= -TOUCH_IN) \
        & (ends[:, :, 0].max(axis=1) <= field_.width_in + TOUCH_IN) \
        & (ends[:, :, 1].max(axis=1) <= field_.depth_in + TOUCH_IN)
    return ok
