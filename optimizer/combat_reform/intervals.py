"""Which offsets along a flush line a whole unit may take: clear of what Unit Spacing keeps
it from, touching the enemies it touched before, on the battlefield (docs/rules.md §12)."""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from shapely.geometry import Polygon

from constraints.core.scenario import Scenario
from constraints.geometry.overlap import convex_parts, penetration
from optimizer.combat_reform.placement import Interval, Option, argmin, root

CONTACT_IN = 1e-6


@dataclass(frozen=True)
class Rule:
    """An interval of offsets that is required (`keep`) or forbidden, closed or open."""

    interval: Interval
    keep: bool
    closed: bool = True

    def holds(self, xs: np.ndarray) -> np.ndarray:
        lo, hi = self.interval
        inside = (xs >= lo) & (xs <= hi) if self.closed else (xs > lo) & (xs < hi)
        return inside if self.keep else ~inside


@dataclass(frozen=True)
class Spacing:
    """What keeps the reforming unit away: `spacing_in` from units outside the combat and
    impassable terrain; `combat_in` from units of the same combat (friends, and enemies it
    did not touch before, which it may not touch)."""

    spacing_in: float = 1.0
    combat_in: float = 0.5


def unit_rules(option: Option, scenario: Scenario, previous: dict[str, str],
               combat: frozenset[str], spacing: Spacing) -> list[Rule]:
    """The conditions on the whole unit's offset (the flush enemy's own edge aside)."""
    me, flush = option.unit, option.line.enemy
    rules: list[Rule] = [_on_table(option, scenario)]
    for other in scenario.units:
        if other.id in (me.id, flush):
            continue
        shape = other.boundary()
        if other.id in previous:  # touch it again, without overlapping it
            rules.append(Rule(_within_or_empty(option, shape, CONTACT_IN), keep=True))
            deep = _overlap(option, shape)
            if deep is not None:
                rules.append(Rule(deep, keep=False, closed=False))
            continue
        enemy = other.player != me.player
        gap = spacing.combat_in if other.id in combat else spacing.spacing_in
        near = option.within(shape, max(gap, CONTACT_IN) if enemy else gap)
        if near is not None:  # Unit Spacing is strict (A8): exactly the gap is too close
            rules.append(Rule(near, keep=False))
    for terrain in scenario.impassable():
        for part in convex_parts(terrain.shape):
            near = option.within(Polygon(part), spacing.spacing_in)
            if near is not None:
                rules.append(Rule(near, keep=False))
    return rules


def _within_or_empty(option: Option, shape: Polygon, gap: float) -> Interval:
    found = option.within(shape, gap)
    return found if found is not None else (math.inf, -math.inf)


def _overlap(option: Option, shape: Polygon) -> Interval | None:
    """Offsets at which the unit overlaps `shape` deeper than the contact tolerance (open:
    the overlap depth is concave in the offset)."""
    theirs = np.asarray(shape.exterior.coords[:-1])
    depth = lambda x: CONTACT_IN - penetration(  # noqa: E731
        np.asarray(option.boundary(x).exterior.coords[:-1]), theirs)
    lo, hi = option.touching
    best = argmin(depth, lo - 50.0, hi + 50.0)
    if depth(best) >= 0.0:
        return None
    return (root(depth, best, lo - 50.0), root(depth, best, hi + 50.0))


def _on_table(option: Option, scenario: Scenario) -> Rule:
    """The offsets at which every corner of the unit is on the battlefield."""
    field = scenario.battlefield

    def outside(x: float) -> float:
        c = np.asarray(option.boundary(x).exterior.coords[:-1])
        return float(max(-c.min(), (c[:, 0] - field.width_in).max(),
                         (c[:, 1] - field.depth_in).max()))
    lo, hi = option.touching
    best = argmin(outside, lo - 50.0, hi + 50.0)
    if outside(best) > 0.0:
        return Rule((math.inf, -math.inf), keep=True)
    return Rule((root(outside, best, lo - 50.0), root(outside, best, hi + 50.0)), keep=True)
