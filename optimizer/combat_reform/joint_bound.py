"""A bound on the own models in contact of a group of units reformed jointly, every placement
of them taken, when their enemies' Facings all lie on one line (docs/rules.md §12.2, "Joint
reforms", the shared front).

The bound over every placement of `joint_status.group_bound` counts the lanes the enemy
edges can meet for all the units together at the narrowest base, and each unit's own most as
if it stood alone.  Here the units share the line: a relaxation of the reform solved
exactly on the line (one dimension), whose optimum no legal placement of the group exceeds.

* A unit that touches an enemy Facing along a segment is flush with its edge line (two
  rectangles with disjoint interiors meet along a segment only where a side of one lies on
  an edge of the other); every one of the group's enemy Facings lies on the one line, so a
  unit either stands flush on it, on the side away from the enemies, or touches each enemy
  it touches at one point: at most two of its models per enemy (`outside.not_flush`), and
  only when that keeps as many of its models in contact as before.
* Flush on the line, a unit is an interval [p, p + F w] along it: F lanes of width w
  (files of the base's width with its Front or Rear on the line, ranks of the base's depth
  with a flank), F from its legal formations.  A model touching an enemy model stands in a
  lane next to the line, one per lane (the nearest model in its lane, or across a gap the
  one behind it), so the unit's models in contact are at most its lanes that (a) meet an
  enemy edge, closed, grown by the contact tolerance, and (b) hold a centre some model of
  the unit can reach within its March Rate: the touching model's centre is in the lane's
  middle, at least half a base behind the line.  Units of the group may not overlap, so on
  the line their intervals are disjoint (to the contact tolerance).  Each must touch every
  enemy it touched before (its interval meets their edges) and keep as many models in
  contact as before (its count at least that).
* The optimum of that relaxation is found exactly: for every subset of the units flush on
  the line and every order of them along it, a sweep from left to right keeps the best total
  for every right end reached (a step function).  A unit's count is a sum of indicators of
  closed intervals of p (lane k counts where p + k w lies in one union of closed intervals,
  the same for every lane), so the best p for a unit given the units to its left is found at
  the left end of one of those intervals, at the least p its enemies allow, or pushed
  against the previous unit: moving p left to the greatest of those keeps every lane that
  counts and the best total to its left (docs/rules.md §12.2).

The enemy models touched are not bounded here (`group_everything` counts every model along
the edges)."""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from constraints.core.scenario import Scenario
from constraints.geometry.intervals import union_of
from constraints.rank_and_file.contact import LINE_IN, model_contacts
from constraints.rank_and_file.unit import Unit
from optimizer.combat_reform.placement import FlushLine, flush_line
from optimizer.combat_reform.prepare import (
    _march_rate,
    allowed_files,
    previous_enemies,
    rules_bound,
)
from optimizer.combat_reform.roles import Role, roles

# Slack on every comparison: contacts and overlaps within the checker's tolerances (10x its
# contact tolerance), and a March Rate measured a hair long, all in the bound's favour.
SLACK_IN = LINE_IN


@dataclass(frozen=True)
class Lanes:
    """One way of a unit flush on the line: F lanes of width w; `counts` holds the lane
    positions (one lane's left end) where the lane counts, as sorted disjoint closed
    intervals (starts, ends)."""

    lanes: int
    width: float
    starts: np.ndarray
    ends: np.ndarray


@dataclass(frozen=True)
class OnLine:
    """A unit of the group on the common line: its ways flush, the offsets p its enemies
    allow (its interval must meet each of their edges), the least count it must keep, its
    cap, and what it may reach touching the enemies at points only (None: not legal)."""

    ways: list[Lanes]
    meet: list[tuple[float, float]]  # each enemy edge it touched before, along the line
    before: int
    cap: int
    points: int | None


def shared_line_bound(scenario: Scenario, units: Sequence[Unit],
                      before: Sequence[dict[str, str]]) -> int | None:
    """At most how many of the units' models touch enemy models after their reforms, every
    placement of them taken (module docs); None when their enemies' Facings do not all lie
    on one line (or a unit has none)."""
    if not units or any(not b for b in before):
        return None
    first = next(iter(sorted(before[0].items())))
    common = flush_line(scenario.unit(first[0]), first[1])
    edges: list[list[tuple[float, float]]] = []
    for previous in before:
        mine = []
        for e, f in sorted(previous.items()):
            span = common.span_of(flush_line(scenario.unit(e), f))
            if not span:
                return None
            mine.append(span[0][2])
        edges.append(mine)
    every = sorted({e for mine in edges for e in mine})
    keeps = roles(scenario)
    on_line = [_on_line(scenario, u, previous, common, every, mine, keeps)
               for u, previous, mine in zip(units, before, edges, strict=True)]
    return _best(on_line)


def _on_line(scenario: Scenario, unit: Unit, previous: dict[str, str], common: FlushLine,
             every: list[tuple[float, float]], mine: list[tuple[float, float]],
             keeps: frozenset[Role]) -> OnLine:
    own_before = 0
    if Role.CONTACT_COUNT in keeps:
        own_before = len({a for a, _ in _pairs(scenario, unit, previous)})
    n = unit.formation.model_count
    cap = min(n, rules_bound(scenario, unit, previous))
    files = allowed_files(scenario, unit)
    # Lanes of the base's width (a Front or Rear on the line) or depth (a flank); across
    # the line the base's other side.
    base = unit.base
    kinds = {(f, base.width_in, base.depth_in) for f in files}
    kinds |= {(math.ceil(n / f), base.depth_in, base.width_in) for f in files}
    starts = unit.model_positions()
    along = (starts - common.a) @ common.right
    behind = (starts - common.a) @ common.out
    reach = _march_rate(scenario, unit)
    ways = [_lanes(f, w, d, every, along, behind, reach) for f, w, d in sorted(kinds)]
    aligned = Role.ALIGNED in keeps
    points = min(2 * len(previous), cap)
    legal_points = not aligned and points >= own_before
    meet = mine if Role.SAME_ENEMIES in keeps else []
    return OnLine(ways, meet, own_before, cap,
                  points if legal_points else None)


def _pairs(scenario: Scenario, unit: Unit, previous: dict[str, str]) -> set[tuple[str, str]]:
    return set().union(*(model_contacts(unit, scenario.unit(e)) for e in previous))


def _lanes(lanes: int, w: float, d: float, every: list[tuple[float, float]],
           along: np.ndarray, behind: np.ndarray, reach: float) -> Lanes:
    """Where a lane's left end x may stand for the lane to count: the lane [x, x + w] meets
    an enemy edge, and its middle x + w / 2, at least d / 2 behind the line, is within the
    March Rate of some model's start."""
    meet = [(lo - SLACK_IN - w, hi + SLACK_IN) for lo, hi in every]
    if math.isinf(reach):
        near = [(-math.inf, math.inf)]
    else:
        gap = np.maximum(0.0, d / 2.0 - behind)
        room = reach * reach - gap * gap
        ok = room >= -1e-9
        half = np.sqrt(np.maximum(room[ok], 0.0)) + SLACK_IN
        near = union_of(list(zip(along[ok] - half - w / 2.0, along[ok] + half - w / 2.0,
                               strict=True)))
    both = union_of([(max(a, c), min(b, e)) for a, b in meet for c, e in near
                   if max(a, c) <= min(b, e)])
    return Lanes(lanes, w, np.array([a for a, _ in both]), np.array([b for _, b in both]))


def _count(way: Lanes, ps: np.ndarray) -> np.ndarray:
    """At each offset p, how many of the way's lanes count (lane k's left end p + k w)."""
    x = ps[:, None] + way.width * np.arange(way.lanes)[None, :]
    i = np.searchsorted(way.starts, x, side="right") - 1
    inside = (i >= 0) & (x <= way.ends[np.maximum(i, 0)])
    return inside.sum(axis=1)


def _best(units: list[OnLine]) -> int:
    """The relaxation's optimum: every subset flush on the line, every order of it."""
    best = -1
    n = len(units)
    for flush in itertools.product((True, False), repeat=n):
        rest = 0
        for u, f in zip(units, flush, strict=True):
            if not f:
                rest = -10**9 if u.points is None else rest + u.points
        if rest < 0:
            continue
        chosen = [u for u, f in zip(units, flush, strict=True) if f]
        for order in itertools.permutations(chosen):
            best = max(best, rest + _sweep(list(order)))
    return max(best, 0)


def _sweep(order: list[OnLine]) -> int:
    """Units flush on the line in this order, left to right: the best total (module docs),
    -1e9 when they cannot stand so."""
    ends = np.array([-math.inf])  # the best total with the last right end at most ends[i]
    vals = np.array([0], dtype=np.int64)
    for u in order:
        new_ends, new_vals = [], []
        for way in u.ways:
            width = way.lanes * way.width
            lo = max((a - SLACK_IN - width for a, _ in u.meet), default=-math.inf)
            hi = min((b + SLACK_IN for _, b in u.meet), default=math.inf)
            if lo > hi:
                continue
            starts = (way.starts[:, None] - way.width * np.arange(way.lanes)[None, :]).ravel()
            pushed = ends[np.isfinite(ends)] - SLACK_IN
            ps = np.unique(np.concatenate([starts, pushed, [lo] if math.isfinite(lo) else []]))
            ps = ps[(ps >= lo) & (ps <= hi)]
            if not len(ps):
                continue
            count = np.minimum(_count(way, ps), u.cap)
            at = np.searchsorted(ends, ps + SLACK_IN, side="right") - 1
            ok = (count >= u.before) & (at >= 0)
            new_ends.append(ps[ok] + width)
            new_vals.append(count[ok] + vals[np.maximum(at[ok], 0)])
        if not u.meet and u.before <= 0:
            # Bound to no enemy and no count: it may stand away from the others, with none.
            new_ends.append(ends)
            new_vals.append(vals)
        if not new_ends or not sum(len(e) for e in new_ends):
            return -10**9
        e, v = np.concatenate(new_ends), np.concatenate(new_vals)
        by = np.argsort(e, kind="stable")
        ends, vals = e[by], np.maximum.accumulate(v[by])
    return int(vals[-1])


def group_units_bound(scenario: Scenario, ids: Sequence[str]) -> int | None:
    """`shared_line_bound` of the units named, their enemies as they stand (for tests)."""
    units = [scenario.unit(u) for u in ids]
    return shared_line_bound(scenario, units, [previous_enemies(scenario, u) for u in units])
