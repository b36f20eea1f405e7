"""Batch legality of whfb7 end poses (the legal-move views' mask): many end poses in, a
boolean per pose out, equal to the whfb7 checker's verdict on the way the pose names.

The judge is the combination of its clauses' maskers (constraints.core.clause.Masker; each
whfb7 clause's `masker`, on the poses and shared geometry of constraints.whfb7.mask_poses),
run in stage order: the turn refused, the march blocked, the distance, the table edge, the 1"
rule.  A masker sorts each pose into CLEAR, BLOCKED or UNDECIDED (a measure within
DISAGREE_IN of its limit, an undecided wheel cell); a pose some masker blocks is illegal,
one every masker clears is legal, and the rest are judged by the checker itself, on the
very move the pose names: so the mask is the checker's verdict on every pose, the
vectorised measures deciding all but a handful.  A pose of a move or march is (end centre,
end facing, prefix): the way is the searched family's (optimizer.families.whfb7), its prefix
(an optional wheel, then an optional turn on the spot; a march's prefix never turns),
forward a, one wheel t (the end facing less the heading after the prefix, within +-90 deg),
forward b.  A reform (the centre kept) is judged per (files, facing) by each reform clause's
own check.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from constraints.core.clause import Masker, Stage
from constraints.core.limits import FLOAT_NOISE
from constraints.core.scenario import Scenario, validate_manoeuvre
from constraints.errors import InvalidInputError
from constraints.geometry.convex import ConvexPiece, convex_pieces
from constraints.geometry.frame import Frame
from constraints.rank_and_file.family_limits import family_limits
from constraints.rank_and_file.poses import ReformPoses
from constraints.rank_and_file.unit import Unit
from constraints.whfb7.checker import check_move
from constraints.whfb7.mask_geometry import BLOCKED, CLEAR, UNDECIDED, WheelSweep
from constraints.whfb7.mask_poses import (
    Verdicts,
    WarhammerMaskSetting,
    WayBatch,
    WayGeometry,
)
from constraints.whfb7.moves import Manoeuvre, WarhammerMove
from constraints.whfb7.way_poses import WORLD, WayPoses, steps_of, turn_poses, way_poses

__all__ = ["Verdicts", "WarhammerJudge"]


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
        self.table = scenario.battlefield
        self.confirmed = 0  # poses the checker decided (the measures too close to call)
        geometry = None if manoeuvre == "reform" else WayGeometry(
            self.unit, self.limits.budget_or(2.0 * self.unit.mobility_in),
            bool(self.limits.wheel_chord), self.limits.turn_in or 0.0, self.pieces, self.gap)
        self.setting = WarhammerMaskSetting(
            scenario, self.unit, manoeuvre, 0.0, FLOAT_NOISE, self.pieces,
            np.asarray(self.unit.corners()),
            Frame(self.unit.pose.centre, self.unit.pose.facing_deg), self.limits, geometry)
        found = [c.masker(self.setting) for c in clauses]
        self.maskers: list[Masker] = sorted((m for m in found if m is not None),
                                            key=lambda m: m.stage)
        self._states: dict[tuple[float, float], int] = {}

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
        for rows, poses in self.batches(centres, facings, chosen_turns, pres):
            ok[rows] = self._ways_mask(poses)
        return ok

    def batches(self, centres: np.ndarray, facings: np.ndarray,
                turns: np.ndarray | None = None, pre_wheels: np.ndarray | None = None) \
            -> list[tuple[np.ndarray, WayBatch]]:
        """The poses whose ways exist, per prefix: their rows and their batch."""
        groups, _ = turn_poses(self.unit, centres, facings, turns, pre_wheels)
        found = []
        for rows, poses in groups:
            alive = np.flatnonzero(poses.exists)
            found.append((rows[alive], self._batch(poses.subset(alive), centres[rows[alive]])))
        return found

    def way_passes(self, facing_deg: float, pivot_deg: float, files: int) -> bool:
        """Whether poses of this facing, turn (`pivot_deg`) and files may be legal at all:
        the clauses that judge the way alone (Stage.WAY: a march begun within 8" of an
        enemy, or one that turns, never is; nor a turn whose front rank cannot hold the
        command group) pass it."""
        if self.manoeuvre == "reform":
            return True
        prefix = (0.0, float(pivot_deg))
        # (the stage reads the prefix alone: the unit's own ways stand in for the turned's)
        centre = np.asarray([self.unit.pose.centre], dtype=float)
        batch = self._batch(way_poses(self.unit, prefix, centre, np.array([facing_deg])),
                            centre)
        for masker in self.maskers:
            if masker.stage == Stage.WAY:
                masker.judge(batch, np.ones(1, dtype=bool))
        return bool(batch.state[0] != BLOCKED)

    # -- moves and marches -------------------------------------------------------------------

    def _batch(self, poses: WayPoses, centres: np.ndarray) -> WayBatch:
        return WayBatch(self.setting.ways(), poses, centres)

    def judged(self, batch: WayBatch, least: Stage = Stage.WAY) -> np.ndarray:
        """The maskers (of stage `least` on) in stage order on the batch: each pose's worst
        verdict (the poses one blocks are left out of the later ones)."""
        state = np.full(len(batch), BLOCKED, dtype=np.int8)
        live = np.arange(len(batch))
        for masker in self.maskers:
            if masker.stage < least or not len(batch):
                continue
            masker.judge(batch, np.ones(len(batch), dtype=bool))
            keep = np.flatnonzero(batch.state != BLOCKED)
            if len(keep) < len(batch):
                live, batch = live[keep], batch.subset(keep)
        state[live] = batch.state
        return state

    def _ways_mask(self, batch: WayBatch) -> np.ndarray:
        """The maskers' verdicts; the checker's on the poses they leave undecided."""
        state = self.judged(batch)
        result = state == CLEAR
        ways = batch.poses.ways
        for row in np.flatnonzero(state == UNDECIDED):
            move = WarhammerMove(self.unit.id, Manoeuvre(self.manoeuvre), steps=steps_of(
                batch.prefix, float(batch.a[row]), float(ways.delta[ways.inverse[row]]),
                float(batch.b[row])))
            result[row] = check_move(self.scenario, move).legal
            self.confirmed += 1
        return result

    def start_of(self, prefix: tuple[float, float]) \
            -> tuple[Unit, int, list[ConvexPiece], list[np.ndarray]]:
        """The unit after the prefix; the prefix's own state (CLEAR, BLOCKED or UNDECIDED:
        the maskers of the end and the area covered on the way that stops after it); the
        obstacle pieces in reach of any way from there, and each one's Minkowski difference
        with the rectangle there (leg 1)."""
        start = self.setting.ways().start(prefix)
        if prefix not in self._states:
            centre = np.asarray([start.unit.pose.centre], dtype=float)
            poses = way_poses(start.unit, prefix, centre,
                              np.array([start.unit.pose.facing_deg]))
            self._states[prefix] = int(self.judged(self._batch(poses, centre), Stage.END)[0])
        return start.unit, self._states[prefix], start.pieces, start.leg_one

    def wheel_sweep(self, start: Unit, prefix: tuple[float, float], wheel_deg: float,
                    pieces: list[ConvexPiece]) -> WheelSweep:
        """The wheel's area at a = 0 and what it meets (built once per prefix and wheel;
        `start` and `pieces` are the prefix's, as `start_of` gives them)."""
        return self.setting.ways().wheel_sweep(prefix, wheel_deg)

    # -- reforms -----------------------------------------------------------------------------

    def _reforms_mask(self, centres: np.ndarray, facings: np.ndarray,
                      files: np.ndarray) -> np.ndarray:
        """A reform keeps the centre: a pose elsewhere is no reform; the reform clauses'
        maskers judge each (files, facing) once."""
        poses, ok = ReformPoses.of(self.unit, centres, facings, files, FLOAT_NOISE)
        ok &= np.hypot(*(centres - np.asarray(self.unit.pose.centre)).T) <= 1e-9
        for masker in self.maskers:
            ok = masker.judge(poses, ok)
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

