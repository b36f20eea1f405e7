"""Flush placements of a reforming unit: its Front against an enemy Facing's edge.

A unit placed flush against the edge a -> b of an enemy Facing faces the enemy (its facing is
the edge's inward normal), its front edge lies on the edge's line, and one number places it:
x, how far its front-left corner stands from a, measured along the unit's own right.  Every
condition of a Combat Reform is then an interval of x (a model within its March Rate of
where it stood; a front-rank model touching the enemy's edge; an enemy model touched; the
unit clear of, or touching, another unit), so the offsets worth trying are the ends of those
intervals and one point inside each gap between consecutive ends (`Offsets`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from functools import cached_property

import numpy as np
from shapely.geometry import MultiPoint, Polygon

from constraints.core.scenario import Pose, Scenario
from constraints.geometry.plane import local_to_world, unit_vector
from constraints.rank_and_file.contact import facing_edges
from constraints.rank_and_file.formation import Slot
from constraints.rank_and_file.unit import Unit

Interval = tuple[float, float]


@dataclass(frozen=True)
class FlushLine:
    """An enemy Facing's edge and the frame of a unit placed flush against it: `right`
    runs along the edge (the placed unit's right), `out` away from the enemy (the placed
    unit's rear); the edge spans [lo, hi] along `right`, measured from `a`."""

    enemy: str
    facing: str
    a: np.ndarray
    right: np.ndarray
    out: np.ndarray
    lo: float
    hi: float
    # Every enemy Facing touched before whose edge lies on this line (this one included):
    # (enemy id, its Facing, its span along `right`).
    spans: tuple[tuple[str, str, Interval], ...] = ()

    def with_colinear(self, others: list[FlushLine]) -> FlushLine:
        """This line, with the spans of the other lines that lie on it."""
        spans = [(self.enemy, self.facing, (self.lo, self.hi))]
        spans += [s for o in others if o.enemy != self.enemy for s in self.span_of(o)]
        return replace(self, spans=tuple(spans))

    def span_of(self, other: FlushLine) -> list[tuple[str, str, Interval]]:
        """`other`'s edge as a span of this line, when it lies on it (else nothing)."""
        gap = float((other.a - self.a) @ self.out)
        if abs(gap) > 1e-6 or float(other.out @ self.out) < 0.999999:
            return []
        start = float((other.a - self.a) @ self.right)
        ends = sorted((start + other.lo, start + other.hi))
        return [(other.enemy, other.facing, (ends[0], ends[1]))]

    @property
    def facing_deg(self) -> float:
        """The placed unit's facing: towards the enemy."""
        return math.degrees(math.atan2(-self.out[1], -self.out[0])) % 360.0


def flush_line(enemy: Unit, facing: str) -> FlushLine:
    a, b = (np.asarray(p, dtype=float) for p in facing_edges(enemy)[facing])
    along = (b - a) / float(np.hypot(*(b - a)))
    inward = np.asarray(enemy.pose.centre) - a
    out = np.array([along[1], -along[0]])
    if float(out @ inward) > 0.0:
        out = -out
    # The placed unit faces -out; its right is the facing turned clockwise.
    facing_vec = -out
    right = np.array([facing_vec[1], -facing_vec[0]])
    ends = sorted((0.0, float((b - a) @ right)))
    return FlushLine(enemy.id, facing, a, right, out, ends[0], ends[1])


# A disc^2 this close below 0 is a tangent: the rounding of exactly `radius` (square inches).
TANGENT = 1e-9

# How far the unit turns from facing the enemy so that this Facing of its own touches it.
OWN_TURN = {"front": 0.0, "right": 90.0, "rear": 180.0, "left": -90.0}


@dataclass(frozen=True)
class Option:
    """A formation of `files` files for the reforming unit on `line`, its Facing `own`
    flush against the enemy's edge."""

    unit: Unit
    line: FlushLine
    files: int
    own: str = "front"

    @cached_property
    def ranks(self) -> int:
        return math.ceil(self.unit.formation.model_count / self.files)

    @property
    def width_in(self) -> float:
        return self.files * self.unit.base.width_in

    @property
    def depth_in(self) -> float:
        return self.ranks * self.unit.base.depth_in

    @property
    def along_in(self) -> float:
        """The unit's extent along the line."""
        return self.width_in if self.own in ("front", "rear") else self.depth_in

    @property
    def across_in(self) -> float:
        return self.depth_in if self.own in ("front", "rear") else self.width_in

    @property
    def facing_deg(self) -> float:
        return (self.line.facing_deg + OWN_TURN[self.own]) % 360.0

    def slots(self) -> list[Slot]:
        return [(r, f) for r in range(self.ranks) for f in range(self.files)]

    def slot_origin(self, slot: Slot) -> np.ndarray:
        """The slot's centre when x = 0 (the unit's extent along the line starting at `a`)."""
        rank, file = slot
        base = self.unit.base
        right = (file + 0.5) * base.width_in - self.width_in / 2.0
        fwd = self.depth_in / 2.0 - (rank + 0.5) * base.depth_in
        return np.asarray(local_to_world(self.pose(0.0).centre, self.facing_deg, right, fwd))

    def pose(self, x: float) -> Pose:
        centre = self.line.a + (x + self.along_in / 2.0) * self.line.right \
            + self.across_in / 2.0 * self.line.out
        return Pose((float(centre[0]), float(centre[1])), self.facing_deg)

    def boundary(self, x: float) -> Polygon:
        fl = self.line.a + x * self.line.right
        w, d = self.along_in * self.line.right, self.across_in * self.line.out
        return Polygon([tuple(fl), tuple(fl + w), tuple(fl + w + d), tuple(fl + d)])

    @property
    def touching(self) -> Interval:
        """Offsets at which the unit touches an edge on the line (a corner counts)."""
        spans = [s for _, _, s in self.line.spans] or [(self.line.lo, self.line.hi)]
        return (min(lo for lo, _ in spans) - self.along_in, max(hi for _, hi in spans))

    def touches(self, span: Interval) -> Interval:
        """Offsets at which the unit touches the edge `span`."""
        return (span[0] - self.along_in, span[1])

    def lanes(self) -> list[Interval]:
        """The lanes of models facing the line, as intervals along it when x = 0: files for
        the Front or Rear against it, ranks for a flank.  A lane touches the enemy through
        its model next to the line, or, where that slot is empty (the rear rank's gaps),
        across the gap through the one behind it (RULES §2.6.2), so its contact depends on
        the offset alone."""
        return list(self._lanes)

    @cached_property
    def _lanes(self) -> tuple[Interval, ...]:
        count = self.files if self.own in ("front", "rear") else self.ranks
        base = self.unit.base
        step = base.width_in if self.own in ("front", "rear") else base.depth_in
        found = []
        for lane in range(count):
            mid = float((self.slot_origin(self.lane_slot(lane)) - self.line.a) @ self.line.right)
            found.append((mid - step / 2.0, mid + step / 2.0))
        return tuple(found)

    def lane_slot(self, lane: int) -> Slot:
        """The slot next to the line in `lane`."""
        if self.own == "front":
            return (0, lane)
        if self.own == "rear":
            return (self.ranks - 1, lane)
        return (lane, self.files - 1 if self.own == "right" else 0)

    def lane_of(self, slot: Slot) -> int | None:
        """The lane whose model next to the line stands in `slot`, if it does."""
        rank, file = slot
        if self.own == "front":
            return file if rank == 0 else None
        if self.own == "rear":
            return file if rank == self.ranks - 1 else None
        edge = self.files - 1 if self.own == "right" else 0
        return rank if file == edge else None

    def lane_contact(self, lane: int, span: Interval) -> Interval:
        """Offsets at which `lane` touches the edge `span`."""
        lo, hi = self._lanes[lane]
        return (span[0] - hi, span[1] - lo)

    @cached_property
    def origins(self) -> np.ndarray:
        """(slots, 2): every slot's centre when x = 0, in `slots()` order (computed once:
        the search asks for them at every offset)."""
        return self.slot_centres(0.0)

    def slot_centres(self, x: float) -> np.ndarray:
        """(slots, 2): every slot's centre at offset x, with the arithmetic of
        `Unit.slot_centre` on `pose(x)` (the checker's, to the last bit)."""
        base = self.unit.base
        slots = np.array(self.slots(), dtype=float).reshape(-1, 2)
        right = (slots[:, 1] + 0.5) * base.width_in - self.width_in / 2.0
        fwd = self.depth_in / 2.0 - (slots[:, 0] + 0.5) * base.depth_in
        centre = self.pose(x).centre
        fx, fy = unit_vector(self.facing_deg)  # as `local_to_world`, the same arithmetic
        return np.stack([centre[0] + right * fy + fwd * fx,
                         centre[1] + right * -fx + fwd * fy], axis=1)

    def reach_windows(self, starts: np.ndarray, radius: float) -> tuple[np.ndarray, np.ndarray]:
        """(models, slots) arrays lo, hi: the offsets at which each slot's centre is within
        `radius` of each model's start (`reach` for all of them at once; NaN where none).
        A line touching the circle (a model straight behind a slot, exactly `radius` back)
        gives its one point, not nothing (`TANGENT`)."""
        v = starts[:, None, :] - self.origins[None, :, :]
        along = v @ self.line.right
        off = v @ np.array([self.line.right[1], -self.line.right[0]])  # no cancellation
        disc = radius * radius - off * off
        disc = np.where((disc < 0.0) & (disc > -TANGENT), 0.0, disc)
        root = np.sqrt(np.where(disc < 0.0, np.nan, disc))
        return along - root, along + root

    def reach(self, start: np.ndarray, slot: Slot, radius: float) -> Interval | None:
        """Offsets at which the slot's centre is within `radius` of `start`."""
        v = start - self.slot_origin(slot)
        along = float(v @ self.line.right)
        disc = along * along - float(v @ v) + radius * radius
        if disc < 0.0:
            return None
        root = math.sqrt(disc)
        return (along - root, along + root)

    def within(self, shape: Polygon, gap: float) -> Interval | None:
        """Offsets at which the unit's boundary comes within `gap` of `shape` (convex;
        closed), or None.  The unit at x is its placement at 0 moved by x along the line, so
        x is in when the point x * right lies within `gap` of the shape's Minkowski
        difference with the unit at 0 (convex: one interval).  That grown set is the union
        of a disc round each vertex and a band along each edge; the line meets each in an
        interval computed exactly, and their hull is the answer (it replaced a golden-section
        search 20x slower, which also missed the overlapping interval when gap is 0)."""
        mine = np.asarray(self.boundary(0.0).exterior.coords[:-1])
        return shifted_within(mine, np.asarray(shape.exterior.coords[:-1]), self.line.right,
                              gap)


def shifted_within(mine: np.ndarray, theirs: np.ndarray, r: np.ndarray,
                   gap: float) -> Interval | None:
    """The x at which the convex polygon `mine` (its vertices), moved by x * r (a unit
    vector), comes within `gap` of the convex polygon `theirs` (closed), or None
    (`Option.within`, for any convex shape of the unit's: a slot's base too)."""
    hull = MultiPoint((theirs[:, None, :] - mine[None, :, :]).reshape(-1, 2)).convex_hull
    pts = np.asarray(hull.exterior.coords[:-1] if isinstance(hull, Polygon)
                     else hull.coords)
    normal = np.array([r[1], -r[0]])
    found: list[Interval] = []
    along, off = pts @ r, pts @ normal  # off: no cancellation near a tangent
    for a, d in zip(along, gap * gap - off * off, strict=True):
        if d >= 0.0:
            found.append((float(a - math.sqrt(d)), float(a + math.sqrt(d))))
    for a, b in zip(pts, np.roll(pts, -1, axis=0), strict=True):
        length = float(np.hypot(*(b - a)))
        if length < 1e-12:
            continue
        u = (b - a) / length
        n = np.array([u[1], -u[0]])
        found += _band(_linear(float(r @ u), -float(a @ u), 0.0, length),
                       _linear(float(r @ n), -float(a @ n), -gap, gap))
    if not found:
        return None
    return (min(lo for lo, _ in found), max(hi for _, hi in found))


def _linear(c: float, d: float, lo: float, hi: float) -> Interval | None:
    """The x with lo <= c x + d <= hi: an interval, every x, or None."""
    if abs(c) < 1e-15:
        return (-math.inf, math.inf) if lo <= d <= hi else None
    a, b = (lo - d) / c, (hi - d) / c
    return (min(a, b), max(a, b))


def _band(along: Interval | None, across: Interval | None) -> list[Interval]:
    """Where both hold: the line inside an edge's band (empty list when nowhere)."""
    if along is None or across is None:
        return []
    lo, hi = max(along[0], across[0]), min(along[1], across[1])
    return [(lo, hi)] if lo <= hi else []


def offsets(intervals: list[Interval], window: Interval,
            more: np.ndarray | None = None) -> np.ndarray:
    """The ends of `intervals` (and the values `more`, NaN ignored) inside `window`, the
    window's ends, and one point inside each gap between consecutive ends: every cell on
    which the conditions do not change is represented."""
    return cells(interval_ends(intervals, window, more))


def interval_ends(intervals: list[Interval], window: Interval,
                  more: np.ndarray | None = None) -> np.ndarray:
    """The sorted distinct ends of `intervals` and the values `more` inside `window`, with
    the window's ends (NaN never inside)."""
    listed = np.concatenate([np.array(window, dtype=float),
                             np.asarray(intervals, dtype=float).reshape(-1),
                             np.empty(0) if more is None else np.asarray(more, dtype=float)])
    return np.unique(listed[(listed >= window[0]) & (listed <= window[1])])


def cells(ends: np.ndarray) -> np.ndarray:
    """The sorted ends and one point inside each gap between consecutive ones."""
    mids = (ends[:-1] + ends[1:]) / 2.0
    both = np.empty(len(ends) + len(mids))
    both[0::2], both[1::2] = ends, mids  # sorted: a <= (a + b) / 2 <= b in floating point
    return distinct(both)


def distinct(ordered: np.ndarray) -> np.ndarray:
    """A sorted array without its repeats (`np.unique` without sorting it again: ends a
    rounding apart have their mid on one of them)."""
    if len(ordered) < 2:
        return ordered
    return ordered[np.concatenate([[True], np.diff(ordered) > 0.0])]


def merged(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """The distinct values of two sorted arrays, sorted (a stable sort merges two runs in
    linear time)."""
    return distinct(np.sort(np.concatenate([a, b]), kind="stable"))


def engaged_lines(scenario: Scenario, previous: dict[str, str]) -> list[FlushLine]:
    """The lines of the enemy Facings touched before, those whose edges lie on one line
    searched together (as one line with several spans)."""
    lines = [flush_line(scenario.unit(e), f) for e, f in sorted(previous.items())]
    found: list[FlushLine] = []
    seen: set[str] = set()
    for line in lines:
        if line.enemy in seen:
            continue  # its edge lies on a line listed already
        line = line.with_colinear(lines)
        seen.update(e for e, _, _ in line.spans)
        found.append(line)
    return found
