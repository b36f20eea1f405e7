"""Batch legality of whfb7 end poses (the legal-move views' mask): many end poses in, a
boolean per pose out, equal to the whfb7 checker's verdict on the way the pose names.

A pose of a move or march is (end centre, end facing, prefix): the way is the searched
family's (optimizer.families.whfb7), its prefix (an optional wheel, then an optional turn on
the spot; a march's prefix never turns), forward a, one wheel t (the end facing less the
heading after the prefix, within +-90 deg), forward b.  The area the
checker judges (constraints.rank_and_file.sweeps.unit_sweep) is the union of
- the start and the prefix: fixed per prefix, measured once with the checker's own shape;
- leg 1, the start rectangle R1 slid by a along f: its distance to a convex obstacle piece P
  is the distance from the segment of centres [o, o + a f] to the Minkowski difference
  P (+) (-R1) (exact: a convex polygon), and its bounds are R1's and R1 + a f's;
- the wheel's area W + a f (W: the checker's own wheel area at a = 0): its distance to P is
  1-Lipschitz in a, so cells of a are sorted into clear, blocked and (below a millionth of
  an inch wide) undecided; its bounds are W's shifted by a f;
- leg 2, the wheeled rectangle slid along e from the wheel's end q to the end centre d: the
  segment [q, d] against P (+) (-Rt).
Each measure is compared with its clause's limit as the checker compares it; a measure
within DISAGREE_IN of the limit (or an undecided wheel cell) is left to the checker itself,
on the very move the pose names: so the mask is the checker's verdict on every pose, the
vectorised measures deciding all but a handful.  A march begun within 8" of an enemy is
refused whole; a reform (the centre kept) is judged per (files, facing) by the checker.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import shapely
from shapely.geometry import Polygon

from constraints.core.limits import FLOAT_NOISE
from constraints.core.scenario import Scenario, validate_manoeuvre
from constraints.errors import InvalidInputError
from constraints.geometry.convex import ConvexPiece, convex_pieces
from constraints.geometry.parts import least_distance, nonempty
from constraints.rank_and_file.family_limits import family_limits
from constraints.rank_and_file.kinematics import arc, chord
from constraints.rank_and_file.sweeps import unit_sweep_parts
from constraints.rank_and_file.unit import Unit
from constraints.whfb7.checker import check_move
from constraints.whfb7.mask_geometry import (
    BLOCKED,
    CLEAR,
    DISAGREE_IN,
    UNDECIDED,
    WheelSweep,
    cell_states,
    minkowski_hull,
    overhang,
    rect_overhang,
    segment_distance,
    way_offsets,
)
from constraints.whfb7.moves import Manoeuvre, WarhammerMove
from constraints.whfb7.way_poses import (
    WORLD,
    WayPoses,
    prefix_start,
    prefix_steps,
    steps_of,
    turn_poses,
)


class Verdicts:
    """Per pose: BLOCKED as soon as a measure certainly breaks its clause, UNDECIDED where
    one is too close to call, CLEAR otherwise."""

    def __init__(self, n: int) -> None:
        self.state = np.full(n, CLEAR, dtype=np.int8)

    def within(self, measured: np.ndarray, limit: float, rows: Any = slice(None)) -> None:
        """A "within `limit`" clause (as constraints.core.limits.within), on `rows`."""
        self._apply(rows, measured <= limit + FLOAT_NOISE - DISAGREE_IN,
                    measured > limit + FLOAT_NOISE + DISAGREE_IN)

    def more_than(self, measured: np.ndarray, limit: float, rows: Any = slice(None)) -> None:
        """A "more than `limit`" clause (as constraints.core.limits.more_than), on `rows`."""
        self._apply(rows, measured > limit + FLOAT_NOISE + DISAGREE_IN,
                    measured <= limit + FLOAT_NOISE - DISAGREE_IN)

    def states(self, states: np.ndarray, rows: Any = slice(None)) -> None:
        self._apply(rows, states == CLEAR, states == BLOCKED)

    def _apply(self, rows: Any, passes: np.ndarray, fails: np.ndarray) -> None:
        state = self.state[rows]
        state[fails] = BLOCKED
        state[(state == CLEAR) & ~passes & ~fails] = UNDECIDED
        self.state[rows] = state


class WarhammerJudge:
    """Judge many end poses of one whfb7 unit's manoeuvre at once (the whfb7 counterpart of
    optimizer.batch.BatchJudge: same `mask`, `way_passes`)."""

    def __init__(self, scenario: Scenario, unit_id: str, manoeuvre: str) -> None:
        if not isinstance(scenario, Scenario):
            raise InvalidInputError(f"expected a Scenario, got {type(scenario).__name__}",
                                    path="scenario")
        if scenario.profile.system != "whfb7":
            raise InvalidInputError(f"a whfb7 batch judge needs a whfb7 scenario; this one is "
                                    f"rules {scenario.rules!r}", path="scenario")
        validate_manoeuvre(scenario, unit_id, manoeuvre, "unit_id", "manoeuvre")
        self.scenario, self.manoeuvre = scenario, manoeuvre
        self.unit: Unit = scenario.unit(unit_id)
        clauses = scenario.profile.clauses(manoeuvre)
        self.limits = family_limits(clauses, self.unit)
        self.blocked = any(c.refuses_every_move(scenario, self.unit) for c in clauses)
        self.clauses = clauses
        self.gap = float(scenario.profile.param("spacing_in"))
        self.pieces: list[ConvexPiece] = []
        for label, shape in scenario.obstacles_for(unit_id):
            self.pieces += convex_pieces(label, shape, WORLD)
        self.obstacles = [shape for _, shape in scenario.obstacles_for(unit_id)]
        self.table = scenario.battlefield
        self.confirmed = 0  # poses the checker decided (the measures too close to call)
        self._starts: dict[tuple[float, float],
                           tuple[Unit, int, list[ConvexPiece], list[np.ndarray]]] = {}
        self._wheels: dict[tuple[float, float, float], WheelSweep] = {}
        self._reforms: dict[tuple[int, float], bool] = {}

    # -- the public mask ---------------------------------------------------------------------

    def mask(self, centres: Any, facings: Any, *, turns: Any = None,
             pre_wheels: Any = None, files: Any = None) -> np.ndarray:
        """Whether each end pose is legal: the checker's verdict on the way the pose names.

        Parameters
        ----------
        centres : array (N, 2)
            End centres, world inches.
        facings : array (N,)
            End facings, degrees.
        turns : array (N,) or float, optional
            A move's turn on the spot at the start (0, 90, -90 or 180; default 0); the way
            is then forward, one wheel (within 90 deg), forward.
        pre_wheels : array (N,) or float, optional
            A wheel before that turn (within 90 deg; default none).
        files : array (N,) or int, optional
            A reform's end files (default: the unit's own); ignored for a move or march.
        """
        centres = _array(centres, "centres", (-1, 2))
        facings = _array(facings, "facings", (len(centres),))
        if self.manoeuvre == "reform":
            chosen = np.full(len(facings), self.unit.files) if files is None else \
                _array(files, "files", facings.shape)
            if (chosen != np.round(chosen)).any() or (chosen < 1).any():
                raise InvalidInputError("expected whole numbers of files >= 1", path="files")
            return self._reforms_mask(centres, facings, chosen.astype(int))
        chosen_turns = None if turns is None else _array(turns, "turns", facings.shape)
        pres = None if pre_wheels is None else _array(pre_wheels, "pre_wheels", facings.shape)
        ok = np.zeros(len(facings), dtype=bool)
        if self.blocked:
            return ok
        groups, _ = turn_poses(self.unit, centres, facings, chosen_turns, pres)
        for rows, poses in groups:
            if self._turn_refused(poses.prefix[1]):
                continue  # a turn in a march, a turn whose front rank is too narrow
            ok[rows] = self._ways_mask(poses, centres[rows])
        return ok

    def way_passes(self, facing_deg: float, pivot_deg: float, files: int) -> bool:
        """Whether poses of this facing, turn (`pivot_deg`) and files may be legal at all (a
        march begun within 8" of an enemy, or one that turns, never is; nor a turn whose
        front rank cannot hold the command group)."""
        if self.manoeuvre == "reform":
            return True
        return not self.blocked and not self._turn_refused(pivot_deg)

    def _turn_refused(self, angle_deg: float) -> bool:
        return any(c.refuses_turn(self.unit, angle_deg) for c in self.clauses)

    # -- moves and marches -------------------------------------------------------------------

    def start_of(self, prefix: tuple[float, float]) \
            -> tuple[Unit, int, list[ConvexPiece], list[np.ndarray]]:
        """The unit after the prefix; the start and prefix's own state (CLEAR, BLOCKED or
        UNDECIDED, by the checker's own area); the obstacle pieces in reach of any way from
        there, and each one's Minkowski difference with the rectangle there (leg 1)."""
        if prefix not in self._starts:
            start = prefix_start(self.unit, prefix)
            # Measured as the checker measures: part by part, never over a union.
            parts = unit_sweep_parts(self.unit, prefix_steps(prefix))
            verdicts = Verdicts(1)
            # Signed (negative inside), as before: a clamped reach of 0 would sit at the limit
            # and leave every pose of the prefix to the checker.
            b = shapely.bounds(np.asarray(nonempty(parts), dtype=object))
            bounds = (b[:, 0].min(), b[:, 1].min(), b[:, 2].max(), b[:, 3].max())
            verdicts.within(np.array([overhang(bounds, self.table)]), 0.0)
            if self.obstacles:
                verdicts.more_than(np.array([least_distance(
                    parts, [("", o) for o in self.obstacles])[0]]), self.gap)
            budget = self.limits.budget_or(2.0 * self.unit.mobility_in)
            half_diagonal = math.hypot(start.width_in, start.depth_in) / 2.0
            reach = budget + 3.0 * half_diagonal + self.gap + 0.1
            centre = shapely.Point(start.pose.centre)
            near = [p for p in self.pieces
                    if shapely.distance(centre, Polygon(p.vertices)) <= reach]
            offsets = np.asarray(start.corners()) - np.asarray(start.pose.centre)
            self._starts[prefix] = (start, int(verdicts.state[0]), near,
                                    [minkowski_hull(p.vertices, offsets) for p in near])
        return self._starts[prefix]

    def _ways_mask(self, poses: WayPoses, centres: np.ndarray) -> np.ndarray:
        prefix = poses.prefix
        start, state, pieces, leg_one = self.start_of(prefix)
        ok = poses.exists.copy()
        if state == BLOCKED or not ok.any():
            return np.zeros(len(ok), dtype=bool)
        alive = np.flatnonzero(ok)
        p = poses.subset(alive)
        verdicts = Verdicts(len(alive))
        if state == UNDECIDED:
            verdicts.state[:] = UNDECIDED
        ways, inv = p.ways, p.ways.inverse
        delta = ways.delta
        cost = np.array([self._wheel_cost(start, float(t)) for t in delta])[inv]
        spent = cost + self._prefix_cost(prefix)
        budget = self.limits.budget_or(2.0 * self.unit.mobility_in)
        verdicts.within(p.a + spent + p.b, budget)
        origin = np.asarray(start.pose.centre)
        f = ways.fp[:, inv].T                     # (n, 2) forward before the wheel
        leg_end = origin + p.a[:, None] * f       # the centre after leg 1
        q = leg_end + ways.shift[:, inv].T        # after the wheel
        d = centres[alive]
        rect0 = np.asarray(start.corners())
        # The table: leg 1, the wheel, leg 2 (each part's bounds; the checker's overhang is
        # that of their union).
        over = rect_overhang(rect0, origin, leg_end, self.table)
        end_offsets = way_offsets(ways)               # (K, 4, 2)
        order = np.argsort(inv, kind="stable")
        by_way = np.split(order, np.searchsorted(inv[order], np.arange(1, len(delta))))
        for k in range(len(delta)):
            rows = by_way[k]
            if not len(rows):
                continue
            offsets = end_offsets[k]
            over[rows] = np.maximum(over[rows], rect_overhang(
                offsets, np.zeros(2), q[rows], self.table))
            over[rows] = np.maximum(over[rows], rect_overhang(
                offsets, np.zeros(2), d[rows], self.table))
            if delta[k]:
                sweep = self.wheel_sweep(start, prefix, float(delta[k]), pieces)
                over[rows] = np.maximum(over[rows], sweep.overhang(p.a[rows], self.table))
        verdicts.within(over, 0.0)
        # The 1" rule, piece by piece.
        for j, piece in enumerate(pieces):
            verdicts.more_than(segment_distance(origin[None, :], leg_end, leg_one[j]),
                               self.gap)
            for k in range(len(delta)):
                rows = by_way[k]
                if not len(rows):
                    continue
                zone = minkowski_hull(piece.vertices, end_offsets[k])
                verdicts.more_than(segment_distance(q[rows], d[rows], zone), self.gap, rows)
                if delta[k]:
                    sweep = self.wheel_sweep(start, prefix, float(delta[k]), pieces)
                    verdicts.states(cell_states(sweep.cells(j), p.a[rows]), rows)
        result = verdicts.state == CLEAR
        undecided = np.flatnonzero(verdicts.state == UNDECIDED)
        for n in undecided:
            k = inv[n]
            move = WarhammerMove(self.unit.id, Manoeuvre(self.manoeuvre),
                                 steps=steps_of(prefix, float(p.a[n]), float(delta[k]),
                                                float(p.b[n])))
            result[n] = check_move(self.scenario, move).legal
            self.confirmed += 1
        out = np.zeros(len(ok), dtype=bool)
        out[alive] = result
        return out

    def _wheel_cost(self, start: Unit, wheel_deg: float) -> float:
        cost = chord if self.limits.wheel_chord else arc
        return cost(start.width_in, wheel_deg) if wheel_deg else 0.0

    def _prefix_cost(self, prefix: tuple[float, float]) -> float:
        """What the prefix costs: its wheel (the unit's own frontage) and its turn."""
        return self._wheel_cost(self.unit, prefix[0]) + \
            ((self.limits.turn_in or 0.0) if prefix[1] else 0.0)

    def wheel_sweep(self, start: Unit, prefix: tuple[float, float], wheel_deg: float,
               pieces: list[ConvexPiece]) -> WheelSweep:
        """The wheel's area at a = 0 and what it meets (built once per prefix and wheel)."""
        key = (*prefix, wheel_deg)
        if key not in self._wheels:
            budget = self.limits.budget_or(2.0 * self.unit.mobility_in)
            spare = budget - self._wheel_cost(start, wheel_deg) - self._prefix_cost(prefix)
            self._wheels[key] = WheelSweep(start, wheel_deg, max(spare, 0.0) + 1e-6,
                                           [p.vertices for p in pieces],
                                           self.gap + FLOAT_NOISE)
        return self._wheels[key]

    # -- reforms -----------------------------------------------------------------------------

    def _reforms_mask(self, centres: np.ndarray, facings: np.ndarray,
                      files: np.ndarray) -> np.ndarray:
        """A reform keeps the centre: a pose elsewhere is no reform; each (files, facing) is
        judged once by the checker."""
        start = np.asarray(self.unit.pose.centre)
        ok = np.hypot(*(centres - start).T) <= 1e-9
        ok &= files <= self.unit.formation.model_count
        for n in np.flatnonzero(ok):
            key = (int(files[n]), round(float(facings[n]) % 360.0, 9))
            if key not in self._reforms:
                move = WarhammerMove(self.unit.id, Manoeuvre.REFORM, files=key[0],
                                     facing_deg=float(facings[n]) % 360.0)
                self._reforms[key] = check_move(self.scenario, move).legal
            ok[n] = self._reforms[key]
        return ok


def _array(values: Any, name: str, shape: tuple[int, ...]) -> np.ndarray:
    """`values` as finite floats of `shape` (a scalar is broadcast; -1 takes any length)."""
    try:
        array = np.asarray(values, dtype=float)
    except (TypeError, ValueError):
        raise InvalidInputError(f"expected an array of numbers of shape {shape}",
                                path=name) from None
    if array.ndim == 0 and -1 not in shape:
        array = np.broadcast_to(array, shape)
    elif array.size == 0 and shape[0] == -1:
        array = array.reshape(0, *shape[1:])
    elif array.shape == shape[1:] and shape[0] == -1:
        array = array.reshape(1, *shape[1:])
    if array.ndim != len(shape) or any(want not in (-1, got)
                                       for want, got in zip(shape, array.shape, strict=True)):
        raise InvalidInputError(f"expected shape {tuple('N' if s == -1 else s for s in shape)}"
                                f", got {array.shape}", path=name)
    if not np.isfinite(array).all() or (np.abs(array) > 1e6).any():
        raise InvalidInputError("expected finite numbers of magnitude at most 1e6", path=name)
    return array

