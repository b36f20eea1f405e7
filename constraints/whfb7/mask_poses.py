"""What the whfb7 clauses' maskers read (constraints.core.clause.Masker): the judge's setting
with the geometry it shares between them, and the batch of move and march end poses.

A pose of a move or march is (end centre d, end facing, prefix): the way is the prefix (an
optional wheel, then an optional turn on the spot), forward a along f, one wheel t (the end
facing less the heading after the prefix, within +-90 deg), forward b along e.  Per prefix
the geometry (`WayGeometry`, built once per judge) holds the unit after it, the checker's own
parts of the area the start and prefix cover, the obstacle pieces in reach, and each piece's
Minkowski difference with the rectangle there (leg 1); per prefix and wheel, the wheel's
area (`WheelSweep`).  Each masker measures its clause on them and sorts every pose into
CLEAR, BLOCKED or UNDECIDED (a measure too close to its limit to call, left to the checker):
`WayBatch.record` keeps the worst verdict of every clause run on the batch, so the judge
(constraints.whfb7.masks) knows which poses are legal, which illegal and which the checker
must decide.  Reform poses are constraints.rank_and_file.poses.ReformPoses; their maskers
judge each (files, facing) with their clause's own check, on a context the setting shares.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from functools import cached_property

import numpy as np
import shapely
from shapely.geometry import Polygon

from constraints.core.clause import Clause, Masker, Stage
from constraints.core.limits import FLOAT_NOISE
from constraints.geometry.convex import ConvexPiece
from constraints.geometry.parts import nonempty
from constraints.rank_and_file.kinematics import arc, chord
from constraints.rank_and_file.poses import EndRectangles, MaskSetting, ReformPoses
from constraints.rank_and_file.sweeps import unit_sweep_parts
from constraints.rank_and_file.unit import Unit
from constraints.whfb7.context import WarhammerContext
from constraints.whfb7.mask_geometry import (
    BLOCKED,
    CLEAR,
    DISAGREE_IN,
    UNDECIDED,
    WheelSweep,
    minkowski_hull,
    way_offsets,
)
from constraints.whfb7.moves import Manoeuvre, WarhammerMove
from constraints.whfb7.way_poses import WayPoses, prefix_start, prefix_steps


class Verdicts:
    """Per pose: BLOCKED as soon as a measure certainly breaks its clause, UNDECIDED where
    one is too close to call, CLEAR otherwise."""

    def __init__(self, n: int) -> None:
        self.state = np.full(n, CLEAR, dtype=np.int8)

    def within(self, measured: np.ndarray, limit: float,
               rows: slice | np.ndarray = slice(None)) -> None:
        """A "within `limit`" clause (as constraints.core.limits.within), on `rows`."""
        self._apply(rows, measured <= limit + FLOAT_NOISE - DISAGREE_IN,
                    measured > limit + FLOAT_NOISE + DISAGREE_IN)

    def more_than(self, measured: np.ndarray, limit: float,
                  rows: slice | np.ndarray = slice(None)) -> None:
        """A "more than `limit`" clause (as constraints.core.limits.more_than), on `rows`."""
        self._apply(rows, measured > limit + FLOAT_NOISE + DISAGREE_IN,
                    measured <= limit + FLOAT_NOISE - DISAGREE_IN)

    def states(self, states: np.ndarray, rows: slice | np.ndarray = slice(None)) -> None:
        self._apply(rows, states == CLEAR, states == BLOCKED)

    def undecided(self, where: np.ndarray, rows: slice | np.ndarray = slice(None)) -> None:
        """Poses a masker cannot vouch for (outside what its geometry was built for)."""
        state = self.state[rows]
        state[where & (state == CLEAR)] = UNDECIDED
        self.state[rows] = state

    def _apply(self, rows: slice | np.ndarray, passes: np.ndarray, fails: np.ndarray) -> None:
        state = self.state[rows]
        state[fails] = BLOCKED
        state[(state == CLEAR) & ~passes & ~fails] = UNDECIDED
        self.state[rows] = state


def worst(one: np.ndarray, other: np.ndarray) -> np.ndarray:
    """Two clauses' verdicts on the same poses: BLOCKED over UNDECIDED over CLEAR."""
    return np.where((one == BLOCKED) | (other == BLOCKED), BLOCKED,
                    np.where((one == UNDECIDED) | (other == UNDECIDED), UNDECIDED, CLEAR)
                    ).astype(np.int8)


@dataclass(frozen=True)
class PrefixStart:
    """A prefix's part of every way that begins with it."""

    unit: Unit                      # after the prefix, where leg 1 starts
    parts: list[shapely.Geometry]   # what the start and prefix cover (the checker's parts)
    bounds: tuple[float, float, float, float]
    pieces: list[ConvexPiece]       # obstacle pieces in reach of any way from there
    leg_one: list[np.ndarray]       # each one's Minkowski difference with the rectangle


class WayGeometry:
    """The geometry every move and march masker of one judge reads, built once."""

    def __init__(self, unit: Unit, budget: float, wheel_chord: bool, turn_in: float,
                 pieces: list[ConvexPiece], gap: float) -> None:
        self.unit, self.budget, self.wheel_chord, self.turn_in = unit, budget, wheel_chord, turn_in
        self.pieces, self.gap = pieces, gap
        self._starts: dict[tuple[float, float], PrefixStart] = {}
        self._wheels: dict[tuple[float, float, float, float], WheelSweep] = {}

    def start(self, prefix: tuple[float, float]) -> PrefixStart:
        if prefix not in self._starts:
            start = prefix_start(self.unit, prefix)
            # Measured as the checker measures: part by part, never over a union.
            parts = unit_sweep_parts(self.unit, prefix_steps(prefix))
            b = shapely.bounds(np.asarray(nonempty(parts), dtype=object))
            bounds = (b[:, 0].min(), b[:, 1].min(), b[:, 2].max(), b[:, 3].max())
            half_diagonal = math.hypot(start.width_in, start.depth_in) / 2.0
            reach = self.budget + 3.0 * half_diagonal + self.gap + 0.1
            centre = shapely.Point(start.pose.centre)
            near = [p for p in self.pieces
                    if shapely.distance(centre, Polygon(p.vertices)) <= reach]
            offsets = np.asarray(start.corners()) - np.asarray(start.pose.centre)
            self._starts[prefix] = PrefixStart(
                start, parts, bounds, near, [minkowski_hull(p.vertices, offsets) for p in near])
        return self._starts[prefix]

    def wheel_cost(self, start: Unit, wheel_deg: float) -> float:
        cost = chord if self.wheel_chord else arc
        return cost(start.width_in, wheel_deg) if wheel_deg else 0.0

    def prefix_cost(self, prefix: tuple[float, float]) -> float:
        """What the prefix costs: its wheel (the unit's own frontage) and its turn."""
        return self.wheel_cost(self.unit, prefix[0]) + (self.turn_in if prefix[1] else 0.0)

    def wheel_sweep(self, prefix: tuple[float, float], wheel_deg: float,
                    gap: float | None = None) -> WheelSweep:
        """The wheel's area at a = 0 and what comes within `gap` (default the profile's 1")
        of it, for every a the budget leaves (built once per prefix, wheel and gap)."""
        gap = self.gap if gap is None else gap
        key = (*prefix, wheel_deg, gap)
        if key not in self._wheels:
            start = self.start(prefix)
            spare = self.budget - self.wheel_cost(start.unit, wheel_deg) - \
                self.prefix_cost(prefix)
            self._wheels[key] = WheelSweep(start.unit, wheel_deg, max(spare, 0.0) + 1e-6,
                                           [p.vertices for p in start.pieces],
                                           gap + FLOAT_NOISE)
        return self._wheels[key]


@dataclass
class WarhammerMaskSetting(MaskSetting):
    """A whfb7 judge's setting: the shared geometry of ways, and the contexts of reforms."""

    geometry: WayGeometry | None = None
    _reforms: dict[tuple[int, float], WarhammerContext] = field(default_factory=dict)

    def ways(self) -> WayGeometry:
        if self.geometry is None:
            raise TypeError("a reform's setting has no geometry of ways")
        return self.geometry

    def reformed(self, files: int, facing_deg: float) -> WarhammerContext:
        """The context of the reform to `files` facing `facing_deg` (one per key: every
        reform clause reads the same end unit)."""
        key = (files, round(facing_deg % 360.0, 9))
        if key not in self._reforms:
            move = WarhammerMove(self.unit.id, Manoeuvre.REFORM, files=files,
                                 facing_deg=facing_deg % 360.0)
            self._reforms[key] = WarhammerContext(self.scenario, move)
        return self._reforms[key]


def whfb7_setting(setting: MaskSetting) -> WarhammerMaskSetting:
    if not isinstance(setting, WarhammerMaskSetting):
        raise TypeError(f"a whfb7 clause masks for a whfb7 judge, not {type(setting).__name__}")
    return setting


class WayBatch(EndRectangles):
    """Move and march end poses of one prefix whose ways exist, with the verdicts so far."""

    def __init__(self, geometry: WayGeometry, poses: WayPoses, centres: np.ndarray,
                 state: np.ndarray | None = None) -> None:
        self.geometry, self.poses, self.d = geometry, poses, centres
        self.state = np.full(len(centres), CLEAR, dtype=np.int8) if state is None else state
        self.tol = FLOAT_NOISE

    def __len__(self) -> int:
        return len(self.d)

    def subset(self, rows: np.ndarray) -> WayBatch:
        return WayBatch(self.geometry, self.poses.subset(rows), self.d[rows], self.state[rows])

    def record(self, ok: np.ndarray, verdicts: Verdicts) -> np.ndarray:
        """Keep one clause's verdicts; the poses in `ok` it certainly passes."""
        self.state = worst(self.state, verdicts.state)
        return ok & (verdicts.state == CLEAR)

    @property
    def prefix(self) -> tuple[float, float]:
        return self.poses.prefix

    @property
    def a(self) -> np.ndarray:
        return self.poses.a

    @property
    def b(self) -> np.ndarray:
        return self.poses.b

    @property
    def delta(self) -> np.ndarray:
        """Each way's wheel (signed degrees)."""
        return self.poses.ways.delta

    @cached_property
    def start(self) -> PrefixStart:
        return self.geometry.start(self.prefix)

    @cached_property
    def origin(self) -> np.ndarray:
        return np.asarray(self.start.unit.pose.centre)

    @cached_property
    def leg_end(self) -> np.ndarray:
        """(n, 2) the centre after leg 1."""
        ways = self.poses.ways
        return self.origin + self.a[:, None] * ways.fp[:, ways.inverse].T

    @cached_property
    def q(self) -> np.ndarray:
        """(n, 2) the centre after the wheel (where leg 2 starts)."""
        ways = self.poses.ways
        return self.leg_end + ways.shift[:, ways.inverse].T

    @cached_property
    def end_offsets(self) -> np.ndarray:
        """(K, 4, 2) each way's end rectangle's corners from its centre."""
        return way_offsets(self.poses.ways)

    @cached_property
    def by_way(self) -> list[tuple[int, np.ndarray]]:
        """(way, its rows) for every way some pose takes."""
        inv = self.poses.ways.inverse
        order = np.argsort(inv, kind="stable")
        split = np.split(order, np.searchsorted(inv[order], np.arange(1, len(self.delta))))
        return [(k, rows) for k, rows in enumerate(split) if len(rows)]

    @cached_property
    def corners(self) -> tuple[np.ndarray, np.ndarray]:
        points = self.end_offsets[self.poses.ways.inverse] + self.d[:, None, :]
        return points[:, :, 0].T.copy(), points[:, :, 1].T.copy()

    @cached_property
    def axes(self) -> tuple[np.ndarray, np.ndarray]:
        ways = self.poses.ways
        return ways.f[0][ways.inverse], ways.f[1][ways.inverse]


def turn_masker(clause: Clause, setting: MaskSetting) -> Masker:
    """A clause that refuses ways by their turn on the spot alone (`Clause.refuses_turn`):
    every pose of a refused prefix is BLOCKED, exactly."""
    unit = setting.unit

    def judge(poses: WayBatch, ok: np.ndarray) -> np.ndarray:
        verdicts = Verdicts(len(poses))
        if clause.refuses_turn(unit, poses.prefix[1]):
            verdicts.state[:] = BLOCKED
        return poses.record(ok, verdicts)
    return Masker(clause.id, Stage.WAY, judge)


def reform_masker(clause: Clause, setting: MaskSetting) -> Masker:
    """A reform clause's masker: each (files, facing) judged once by the clause's own check
    (a reform keeps the centre: its pose is the key), exact."""
    shared = whfb7_setting(setting)
    passed: dict[tuple[int, float], bool] = {}

    def judge(poses: ReformPoses, ok: np.ndarray) -> np.ndarray:
        good = np.zeros(len(poses.groups), dtype=bool)
        for g in np.unique(poses.inv[ok]):
            files, facing = int(poses.groups[g][0]), float(poses.groups[g][1])
            key = (files, round(facing % 360.0, 9))
            if key not in passed:
                passed[key] = not clause.check(shared.reformed(files, facing)).violations
            good[g] = passed[key]
        return ok & good[poses.inv]
    return Masker(clause.id, Stage.END, judge)
