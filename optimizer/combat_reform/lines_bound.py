"""A bound over every legal placement of one unit whose enemies' Facings lie on more than one
line (docs/rules.md §12.2, "Enemies on several lines"): the pair (own models in contact,
enemy models touched), no legal reform beating it lexicographically.

The unit's family searches one line at a time and counts that line's contacts only, and the
classes of `outside.py` argue about one line; here every placement is split by which enemy
it touches along a segment:

* **none**: it touches each enemy at one point (two rectangles with disjoint interiors meet
  at a point or along a segment, along a segment only with a side of one on an edge of the
  other; along another Facing of the enemy the contact is in that Facing, which
  `combat_reform.same_enemies` refuses): at most two of its models and two of the enemy's
  per enemy (`outside.not_flush`), not legal where the reform must end aligned or keep more
  models in contact than that.
* **some enemy e along a segment**: a side of the unit lies on the line of e's Facing, the
  unit on the side away from e: one of `engaged_lines`, in some formation (any legal number
  of files, any of its Facings on the line, a gap in its rear rank or not) at some offset x
  along it.  For each such line, formation and x the own models in contact are at most
      - on the line: its lanes that meet an enemy edge of the line (closed, grown by the
        slack) and hold a centre some model can reach within its March Rate
        (`joint_bound._lanes`: a model touching stands in a lane next to the line, one per
        lane, directly or across a gap);
      - off the line, per enemy: its slots (every slot of the formation, occupied or not)
        whose base comes within the contact tolerance of the enemy's Unit Boundary (a model
        touching it directly has its base there; one touching across a gap in its own rear
        rank has the empty slot of its lane there; one slot per model), and at most two
        where that enemy's Facing is neither parallel nor perpendicular to the line (the
        unit, flush on the line, cannot lie on it: the contact is a point);
  and the enemy models touched at most the line's enemy models over the unit's extent plus,
  per enemy off the line, those along its Facing (two at a point).  x is limited to where
  the unit touches every enemy it touched before (`combat_reform.same_enemies`), and a
  count below the models in contact before is refused (`combat_reform.contact_count`).

Every term is a monotone function of indicators of closed intervals of x, so the greatest
value over x in the closed window [lo, hi] is reached at lo or at the left end of one of
those intervals (moving x left to the greatest such end keeps every interval that held it):
all of them are tried, so each line and formation's maximum is exact for this relaxation.

Tolerances: the argument is exact geometry; the comparisons are grown by `SLACK_IN` (ten
times the checker's contact tolerance), in the bound's favour.  As in `outside.py`, a unit
turned by less than the checker's tolerance takes as flush is taken as flush.
"""

from __future__ import annotations

import math

import numpy as np

from constraints.core.scenario import Scenario
from constraints.geometry.plane import unit_vector
from constraints.rank_and_file.contact import CONTACT_IN, LINE_IN, model_contacts
from constraints.rank_and_file.unit import Unit
from optimizer.combat_reform.joint_bound import SLACK_IN, Lanes, _lanes
from optimizer.combat_reform.placement import (
    OWN_TURN,
    FlushLine,
    Interval,
    Option,
    engaged_lines,
    flush_line,
)
from optimizer.combat_reform.prepare import _march_rate, allowed_files, line_models, rules_bound
from optimizer.combat_reform.roles import Role, roles

Pair = tuple[int, int]
# Two lines are parallel or perpendicular when the sine or cosine of their angle is below
# this (the unit flush on one may then lie on the other: no cap of two at a point).
SQUARE_SIN = 1e-6
NEAR_IN = CONTACT_IN + SLACK_IN


def lines_bound(scenario: Scenario, unit: Unit, previous: dict[str, str]) -> Pair | None:
    """The bound (module docs) for a unit whose enemies' Facings (`previous`) lie on more
    than one line; None when they lie on one (`outside.py` argues that case)."""
    lines = engaged_lines(scenario, previous)
    if len(lines) < 2:
        return None
    keeps = roles(scenario)
    pairs = set().union(*(model_contacts(unit, scenario.unit(e)) for e in previous))
    before = len({a for a, _ in pairs}) if Role.CONTACT_COUNT in keeps else 0
    n = unit.formation.model_count
    cap = min(n, rules_bound(scenario, unit, previous))
    facing_models = {e: len(line_models(scenario, flush_line(scenario.unit(e), f)
                                        .with_colinear([]), LINE_IN))
                     for e, f in previous.items()}
    found: list[Pair] = []
    if Role.ALIGNED not in keeps and 2 * len(previous) >= before:
        found.append((min(2 * len(previous), cap),
                      sum(min(2, m) for m in facing_models.values())))
    # Each line's formations, the most promising first; one whose quick bound (`_quick`)
    # cannot beat the best pair found is skipped: the maximum stays exact.
    work = []
    for line in lines:
        models = list(line_models(scenario, line, LINE_IN).values())
        lines_off = {e: square_lines(line, flush_line(scenario.unit(e), f))
                     for e, f in previous.items() if e not in {x for x, _, _ in line.spans}}
        for option in _options(scenario, unit, line):
            work.append((_quick(option, lines_off, facing_models, models, cap), option,
                         models))
    work.sort(key=lambda w: w[0], reverse=True)
    ways: dict[tuple[str, float, float], Lanes] = {}
    for quick, option, models in work:
        if found and quick <= max(found):
            break
        best = _flush(scenario, option, previous, facing_models, keeps, before, cap,
                      models, ways)
        if best is not None:
            found.append(best)
    return max(found, default=(0, 0))


def _quick(option: Option, off: dict[str, bool], facing_models: dict[str, int],
           models: list[Interval], cap: int) -> Pair:
    """An upper bound on `_flush` with no geometry: lanes of width s meet a closed stretch
    of length L in at most floor(L / s) + 2 of them (`_lanes_meeting`), an enemy off
    the line brings at most two models of each side at a point, else at most the slots on
    the formation's boundary and the models along its Facing."""
    rim = 2 * (option.files + option.ranks)
    own = _lanes_meeting(option) + sum(rim if square else 2 for square in off.values())
    enemy = len(models) + sum(facing_models[e] if square else min(2, facing_models[e])
                              for e, square in off.items())
    return min(own, cap), enemy


def _lanes_meeting(option: Option) -> int:
    """At most how many of the option's lanes meet the line's enemy edges grown by the
    slack on both sides, as `_flush` counts them (each edge, and the stretch over all)."""
    base = option.unit.base
    step = base.width_in if option.own in ("front", "rear") else base.depth_in
    spans = [s for _, _, s in option.line.spans]

    def meet(length: float) -> int:
        return math.floor((length + 2.0 * SLACK_IN) / step + 1e-9) + 2

    each = sum(meet(hi - lo) for lo, hi in spans)
    hull = meet(max(hi for _, hi in spans) - min(lo for lo, _ in spans))
    count = option.files if option.own in ("front", "rear") else option.ranks
    return min(count, each, hull)


def _options(scenario: Scenario, unit: Unit, line: FlushLine) -> list[Option]:
    """Every formation with every Facing of the unit on the line (searched by the family or
    not: its lanes are all counted as occupied)."""
    return [Option(unit, line, f, own) for f in allowed_files(scenario, unit)
            for own in OWN_TURN]


def _flush(scenario: Scenario, option: Option, previous: dict[str, str],
           facing_models: dict[str, int], keeps: frozenset[Role], before: int, cap: int,
           models: list[Interval], ways: dict[tuple[str, float, float], Lanes]
           ) -> Pair | None:
    """The most (own, enemy) of `option` over its offsets (module docs), None when no
    offset is legal."""
    line, unit = option.line, option.unit
    along_in = option.along_in
    on_line = {e for e, _, _ in line.spans}
    # The window: touching every enemy it touched before.
    lo, hi = -math.inf, math.inf
    off: list[tuple[str, Unit]] = []
    for e in sorted(previous):
        enemy = scenario.unit(e)
        if e in on_line:
            span = next(s for ee, _, s in line.spans if ee == e)
            touch: Interval | None = (span[0] - along_in - SLACK_IN, span[1] + SLACK_IN)
        else:
            off.append((e, enemy))
            touch = option.within(enemy.boundary(), NEAR_IN)
        if touch is None:
            if Role.SAME_ENEMIES in keeps:
                return None
            continue
        if Role.SAME_ENEMIES in keeps:
            lo, hi = max(lo, touch[0]), min(hi, touch[1])
    if lo > hi:
        return None
    # On the line: each lane, where it meets an enemy edge and a model can reach it.
    base = unit.base
    step, across = ((base.width_in, base.depth_in) if option.own in ("front", "rear")
                    else (base.depth_in, base.width_in))
    key = (line.enemy, step, across)
    if key not in ways:
        starts = unit.model_positions()
        ways[key] = _lanes(1, step, across, [s for _, _, s in line.spans],
                           (starts - line.a) @ line.right, (starts - line.a) @ line.out,
                           _march_rate(scenario, unit))
    way = ways[key]
    lane_ivs = [[(float(a - left), float(b - left)) for a, b in
                 zip(way.starts, way.ends, strict=True)] for left, _ in option.lanes()]
    # Off the line: each slot of the formation's boundary near the enemy.
    slot_ivs: list[tuple[list[Interval], int | None]] = []
    rim = _rim_corners(option) if off else np.empty((0, 4, 2))
    enemy_const = 0
    for e, enemy in off:
        square = square_lines(line, flush_line(enemy, previous[e]))
        if not square and Role.ALIGNED in keeps:
            return None  # touched at a point: not aligned with it
        theirs = np.asarray(enemy.boundary().exterior.coords[:-1])
        lo_s, hi_s = batch_within(rim, theirs, line.right, NEAR_IN)
        near = [(float(a), float(b)) for a, b in zip(lo_s, hi_s, strict=True)
                if not math.isnan(a)]
        slot_ivs.append((near, None if square else 2))
        enemy_const += facing_models[e] if square else min(2, facing_models[e])
    enemy_ivs = [(lo_m - SLACK_IN - along_in, hi_m + SLACK_IN)
                 for lo_m, hi_m in models]
    lefts = [iv[0] for ivs in lane_ivs for iv in ivs]
    lefts += [iv[0] for ivs, _ in slot_ivs for iv in ivs] + [iv[0] for iv in enemy_ivs]
    # lo itself, and every left end inside the window (anywhere when it is unbounded).
    xs = np.array([x for x in [lo, *lefts, 0.0] if lo <= x <= hi and math.isfinite(x)])
    own = np.zeros(len(xs), dtype=np.int64)
    for ivs in lane_ivs:
        own += _any(ivs, xs)
    for ivs, most in slot_ivs:
        c = _count(ivs, xs)
        own += c if most is None else np.minimum(c, most)
    own = np.minimum(own, cap)
    theirs_n = enemy_const + _count(enemy_ivs, xs)
    ok = own >= before
    if not ok.any():
        return None
    return max((int(a), int(b)) for a, b in zip(own[ok], theirs_n[ok], strict=True))


def _count(ivs: list[Interval], xs: np.ndarray) -> np.ndarray:
    """At each x, how many of the closed intervals hold it."""
    found = np.zeros(len(xs), dtype=np.int64)
    for a, b in ivs:
        found += (xs >= a) & (xs <= b)
    return found


def _any(ivs: list[Interval], xs: np.ndarray) -> np.ndarray:
    hit = np.zeros(len(xs), dtype=bool)
    for a, b in ivs:
        hit |= (xs >= a) & (xs <= b)
    return hit.astype(np.int64)


def unalignable(scenario: Scenario, previous: dict[str, str]) -> bool:
    """Whether the reform must end aligned with every enemy it touches
    (`combat_reform.aligned`, profile `t9a-2025`) while two of the enemy Facings it must
    touch (`combat_reform.same_enemies`) lie on lines neither parallel nor perpendicular:
    the unit's sides go two ways at right angles, so it cannot be flush with both, and no
    reform is legal."""
    keeps = roles(scenario)
    if not {Role.ALIGNED, Role.SAME_ENEMIES} <= keeps:
        return False
    lines = engaged_lines(scenario, previous)
    return any(not square_lines(a, b) for i, a in enumerate(lines) for b in lines[i + 1:])


def square_lines(a: FlushLine, b: FlushLine) -> bool:
    """Whether the lines are parallel or perpendicular (to `SQUARE_SIN`)."""
    cross = abs(float(a.right[0] * b.right[1] - a.right[1] * b.right[0]))
    dot = abs(float(a.right @ b.right))
    return min(cross, dot) <= SQUARE_SIN


def _rim_corners(option: Option) -> np.ndarray:
    """(slots, 4, 2): the corners of the bases of the slots on the formation's boundary at
    x = 0 (an inner slot's base is a base away from any shape outside the unit)."""
    last_r, last_f = option.ranks - 1, option.files - 1
    rim = [i for i, (r, f) in enumerate(option.slots()) if r in (0, last_r) or f in (0, last_f)]
    centres = option.origins[rim]
    fx, fy = unit_vector(option.facing_deg)
    fwd, right = np.array([fx, fy]), np.array([fy, -fx])
    w, d = option.unit.base.width_in / 2.0, option.unit.base.depth_in / 2.0
    signs = np.array([(-1, 1), (1, 1), (1, -1), (-1, -1)], dtype=float)
    offs = signs[:, 0:1] * w * right[None, :] + signs[:, 1:2] * d * fwd[None, :]
    return centres[:, None, :] + offs[None, :, :]


def batch_within(mine: np.ndarray, theirs: np.ndarray, r: np.ndarray,
                 gap: float) -> tuple[np.ndarray, np.ndarray]:
    """`placement.shifted_within` for many convex polygons at once (`mine`: (S, k, 2)
    vertices in order, `theirs`: (m, 2)): arrays lo, hi (NaN where never within).  The set
    of x is the line x * r inside the Minkowski difference of the two grown by `gap`, one
    interval since that is convex; its ends lie on the grown hull's boundary, which is
    covered by the discs round the vertex differences and the bands along the segments
    joining a vertex of one to an edge of the other (the hull's edges are among them), and
    each of those lies inside the grown difference: the hull of their intervals is the
    interval, with no hull built."""
    d = theirs[None, :, None, :] - mine[:, None, :, :]  # (S, m, k, 2)
    nrm = np.array([r[1], -r[0]])
    along, off = d @ r, d @ nrm
    room = gap * gap - off * off
    root = np.sqrt(np.where(room >= 0.0, room, np.nan))
    los = [(along - root).reshape(len(mine), -1)]
    his = [(along + root).reshape(len(mine), -1)]
    for a, b in ((d, np.roll(d, -1, axis=1)), (d, np.roll(d, -1, axis=2))):
        seg = b - a
        length = np.hypot(seg[..., 0], seg[..., 1])
        u = seg / length[..., None]
        n = np.stack([u[..., 1], -u[..., 0]], axis=-1)
        lo1, hi1 = _linear(u @ r, -(a * u).sum(-1), 0.0, length)
        lo2, hi2 = _linear(n @ r, -(a * n).sum(-1), -gap, gap)
        lo, hi = np.maximum(lo1, lo2), np.minimum(hi1, hi2)
        bad = ~(lo <= hi)
        los.append(np.where(bad, np.nan, lo).reshape(len(mine), -1))
        his.append(np.where(bad, np.nan, hi).reshape(len(mine), -1))
    lo_all, hi_all = np.concatenate(los, axis=1), np.concatenate(his, axis=1)
    empty = np.all(np.isnan(lo_all), axis=1)
    with np.errstate(all="ignore"):
        lo_s = np.where(empty, np.nan, np.nanmin(np.where(empty[:, None], 0.0, lo_all), 1))
        hi_s = np.where(empty, np.nan, np.nanmax(np.where(empty[:, None], 0.0, hi_all), 1))
    return lo_s, hi_s


def _linear(c: np.ndarray, d: np.ndarray, lo: float | np.ndarray,
            hi: float | np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The x with lo <= c x + d <= hi, elementwise: (-inf, inf) or NaN where c is 0."""
    flat = np.abs(c) < 1e-15
    safe = np.where(flat, 1.0, c)
    a, b = (lo - d) / safe, (hi - d) / safe
    inside = (lo <= d) & (d <= hi)
    return (np.where(flat, np.where(inside, -np.inf, np.nan), np.minimum(a, b)),
            np.where(flat, np.where(inside, np.inf, np.nan), np.maximum(a, b)))
