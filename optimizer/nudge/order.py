"""The order of nudges that keeps the most units in combat, proved by exhaustive search.

Seed 001: "Move Active Player's units first.  Move all units on each side, in the order that
allows the most units to remain in Combat.  If equal, the owner decides the order."  Each
unit's nudge is the least one given where the units moved before it stand (`least_nudge`), so
an order fixes the outcome; the search tries every order, merging orders that reach the same
positions (memoised on every unit's pose), so the best count is proved, and every order that
reaches it is an alternative for the owners.  A budget of least-nudge solves keeps it bounded:
past it the answer is the best order found, FEASIBLE, not proved.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field

import numpy as np

from constraints.core.scenario import Pose, Scenario
from constraints.rank_and_file.combats import engaged_ids
from constraints.rank_and_file.contact import contact_tolerance
from optimizer.nudge.least import NudgeFound, least_nudge

MAX_SOLVES = 20_000   # least-nudge solves per resolution (deterministic, not wall clock)
MAX_ALTERNATIVES = 10


@dataclass
class _Search:
    previous: Mapping[str, Mapping[str, str]]
    solves: int = 0
    exhausted: bool = False
    nudges: dict[tuple, NudgeFound | None] = field(default_factory=dict)
    best: dict[tuple, tuple[int, list[tuple[str, ...]]]] = field(default_factory=dict)


@dataclass(frozen=True)
class OrderFound:
    """The chosen order (units in the order considered), the nudges it makes, how many
    units end in combat, other orders that keep as many, and whether that is proved."""

    order: tuple[str, ...]
    nudges: tuple[NudgeFound, ...]
    in_combat: int
    alternatives: tuple[tuple[str, ...], ...]
    proved: bool
    solves: int
    scenario: Scenario


def best_order(scenario: Scenario, sides: list[list[str]],
               previous: Mapping[str, Mapping[str, str]]) -> OrderFound:
    """The best order of `sides` (each a list of unit ids; the Active Player's first)."""
    search = _Search(previous)
    count, orders = _explore(search, scenario, [tuple(s) for s in sides], ())
    chosen = orders[0] if orders else ()
    final, nudges = _replay(search, scenario, chosen)
    return OrderFound(chosen, nudges, count, tuple(orders[1:MAX_ALTERNATIVES + 1]),
                      not search.exhausted, search.solves, final)


def _key(scenario: Scenario) -> tuple:
    return tuple((u.id, u.pose.centre, u.pose.facing_deg) for u in scenario.units)


def _near_key(scenario: Scenario, uid: str, previous: Mapping[str, str]) -> tuple:
    """The poses a unit's least nudge depends on: its own and those of the units it could
    meet.  Every candidate shift ends on a configuration obstacle of an enemy touched before,
    so it is no longer than T (the farthest such enemy corner from the unit's centre plus the
    unit's half-diagonal); a nudge of two legs within the box [-T, T]^2 keeps the unit within
    sqrt(2) T of where it stands, so units farther than that (and a hair) cannot matter."""
    unit = scenario.unit(uid)
    centre = np.asarray(unit.pose.centre)
    reach = 0.0
    for enemy_id in previous:
        if scenario.has_unit(enemy_id):
            corners = np.asarray(scenario.unit(enemy_id).corners())
            reach = max(reach, float(np.hypot(*(corners - centre).T).max()))
    reach = math.sqrt(2.0) * (reach + math.hypot(unit.width_in, unit.depth_in) / 2.0) + 1e-3
    here = unit.boundary()
    return tuple((u.id, u.pose.centre, u.pose.facing_deg) for u in scenario.units
                 if u.id == uid or here.distance(u.boundary()) <= reach)


def _explore(search: _Search, scenario: Scenario, sides: list[tuple[str, ...]],
             done: tuple[str, ...]) -> tuple[int, list[tuple[str, ...]]]:
    """(most units in combat reachable from here, the orders of the rest that reach it)."""
    while sides and not sides[0]:
        sides = sides[1:]
    if not sides:
        return in_combat(scenario), [()]
    memo = (_key(scenario), tuple(sides))
    if memo in search.best:
        return search.best[memo]
    best, orders = -1, list[tuple[str, ...]]()
    for uid in sides[0]:
        rest = [tuple(u for u in sides[0] if u != uid)] + sides[1:]
        moved = _step(search, scenario, uid)
        count, tails = _explore(search, moved, rest, done + (uid,))
        if count > best:
            best, orders = count, []
        if count == best and len(orders) <= MAX_ALTERNATIVES:
            orders += [(uid,) + t for t in tails][: MAX_ALTERNATIVES + 1 - len(orders)]
    search.best[memo] = (best, orders)
    return best, orders


def _step(search: _Search, scenario: Scenario, uid: str) -> Scenario:
    found = _nudge(search, scenario, uid)
    if found is None:
        return scenario
    unit = scenario.unit(uid)
    return scenario.with_unit(unit.with_pose(Pose(found.verdict.end_centre,
                                                  unit.pose.facing_deg)))


def _nudge(search: _Search, scenario: Scenario, uid: str) -> NudgeFound | None:
    """The unit's least nudge here (None: in contact already, or no legal nudge)."""
    key = (uid, _near_key(scenario, uid, search.previous[uid]))
    if key not in search.nudges:
        engaged = uid in engaged_ids(scenario.units, contact_tolerance(scenario))
        if engaged or search.solves >= MAX_SOLVES:
            search.exhausted |= not engaged
            search.nudges[key] = None
        else:
            search.solves += 1
            search.nudges[key] = least_nudge(scenario, uid, search.previous[uid])
    return search.nudges[key]


def _replay(search: _Search, scenario: Scenario, order: tuple[str, ...]
            ) -> tuple[Scenario, tuple[NudgeFound, ...]]:
    nudges = []
    for uid in order:
        found = _nudge(search, scenario, uid)
        if found is not None and found.distance_in > 0.0:
            nudges.append(found)
        scenario = _step(search, scenario, uid)
    return scenario, tuple(nudges)


def in_combat(scenario: Scenario) -> int:
    """Units touching at least one enemy unit."""
    return len(engaged_ids(scenario.units, contact_tolerance(scenario)))
