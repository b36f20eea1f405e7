"""Which offsets along a flush line a whole unit may take: clear of what Unit Spacing keeps
it from, touching the enemies it touched before, on the battlefield (docs/rules.md §12)."""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from shapely.geometry import Polygon

from constraints.core.scenario import Scenario
from constraints.geometry.overlap import convex_parts, edge_normals
from optimizer.combat_reform.placement import Interval, Option


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


def unit_rules(option: Option, scenario: Scenario, previous: dict[str, str],
               combat: frozenset[str], spacing_in: float | None) -> list[Rule]:
    """The conditions on the whole unit's offset (the flush enemy's own edge aside), as the
    checker's clauses judge them (constraints/t9a/clauses/combat_reform/): never overlapping
    anything; touching again every enemy touched before; never touching a new enemy; more
    than `spacing_in` from units outside the combat and from impassable terrain, unless it
    stood within that of them before (then only not touching them); units of the same combat
    set no distance.  `spacing_in` None: Unit Spacing ignored (profile `t9a-2025`)."""
    me, touch = option.unit, scenario.contact_tolerance  # A21: closer than it is contact
    on_line = {e for e, _, _ in option.line.spans} | {option.line.enemy}
    rules: list[Rule] = [_on_table(option, scenario)]
    rules += [Rule(option.touches(span), keep=True) for _, _, span in option.line.spans]
    for other in scenario.units:
        if other.id == me.id or other.id in on_line:
            continue
        shape = other.boundary()
        deep = _overlap(option, shape)
        if deep is not None:
            rules.append(Rule(deep, keep=False, closed=False))
        if other.id in previous:  # touching exactly: the checker's tolerance stays unused
            rules.append(Rule(_within_or_empty(option, shape, 0.0), keep=True))
        elif other.player != me.player:
            rules += _forbid(option, shape, touch)  # no new enemy contact
        if other.id not in combat and spacing_in is not None:
            rules += _forbid(option, shape, _gap(me.boundary(), shape, spacing_in, touch))
    for terrain in scenario.impassable():
        for part in convex_parts(terrain.shape):
            piece = Polygon(part)
            deep = _overlap(option, piece)
            if deep is not None:
                rules.append(Rule(deep, keep=False, closed=False))
            if spacing_in is not None:
                rules += _forbid(option, piece, _gap(me.boundary(), piece, spacing_in, touch))
    return rules


def _gap(before: Polygon, shape: Polygon, spacing_in: float, touch: float) -> float:
    """Unit Spacing's distance: strict (A8), so exactly it is too close; only touching (within
    the contact tolerance `touch`) is forbidden where the unit already stood within it
    (RULES §2.3.2.4)."""
    return touch if before.distance(shape) <= spacing_in else spacing_in


def _forbid(option: Option, shape: Polygon, gap: float) -> list[Rule]:
    near = option.within(shape, gap)
    return [] if near is None else [Rule(near, keep=False)]


def _within_or_empty(option: Option, shape: Polygon, gap: float) -> Interval:
    found = option.within(shape, gap)
    return found if found is not None else (math.inf, -math.inf)


def _overlap(option: Option, shape: Polygon) -> Interval | None:
    """Offsets at which the unit overlaps `shape` (convex) at all: by the separating axis
    theorem, where its projection overlaps the shape's on every axis (the two shapes' edge
    normals), an open interval; its ends are exact touches."""
    theirs = np.asarray(shape.exterior.coords[:-1])
    mine = np.asarray(option.boundary(0.0).exterior.coords[:-1])
    lo, hi = -math.inf, math.inf
    for n in np.concatenate([edge_normals(mine), edge_normals(theirs)]):
        k = float(option.line.right @ n)
        u, t = mine @ n, theirs @ n
        if abs(k) < 1e-15:
            if u.max() <= t.min() or u.min() >= t.max():
                return None
            continue
        ends = sorted(((t.min() - u.max()) / k, (t.max() - u.min()) / k))
        lo, hi = max(lo, ends[0]), min(hi, ends[1])
    return (lo, hi) if lo < hi else None


def _on_table(option: Option, scenario: Scenario) -> Rule:
    """The offsets at which every corner of the unit is on the battlefield (each corner moves
    along the line: a linear interval per corner and axis)."""
    field = scenario.battlefield
    corners = np.asarray(option.boundary(0.0).exterior.coords[:-1])
    lo, hi = -math.inf, math.inf
    for axis, size in ((0, field.width_in), (1, field.depth_in)):
        k = float(option.line.right[axis])
        for c in corners[:, axis]:
            if abs(k) < 1e-15:
                if not 0.0 <= c <= size:
                    return Rule((math.inf, -math.inf), keep=True)
                continue
            ends = sorted(((0.0 - c) / k, (size - c) / k))
            lo, hi = max(lo, ends[0]), min(hi, ends[1])
    return Rule((lo, hi), keep=True)
