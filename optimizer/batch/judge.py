"""Batch legality for game AIs: N candidate end poses in, a boolean mask out, vectorised.

`BatchJudge` asks each clause of the manoeuvre for its masker once (constraints.core.clause:
its vectorised sound form, prepared for this unit), then judges arrays of end poses chunk by
chunk (constraints.rank_and_file.poses): the family's own test (a way exists, the formation
exists), then the maskers in stage order, cheap per-way tests first; the poses still legal
after the way and its legs get their end corners, the end-position tests, the sweep and the
models' paths.  Advance and March poses are reached by the one-wheel way (an Advance needs
its Pivot per pose): millions of poses a second.

Exactness: each masker is as exact as its clause makes it; all are sound (True implies the
checker agrees).  The two conservative ones (a few legal poses near an obstacle may be False)
are the sweep, bounded as in the CP-SAT encoding (the sector slid along the first leg), and a
Reform's model paths (the encoding's safe discs).  With `margin_in`, every limit, clearances
included, is that much stricter.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from constraints.core.clause import Clause, Masker, Stage
from constraints.core.jsonread import MAX_MAGNITUDE, number, text
from constraints.core.limits import FLOAT_NOISE
from constraints.core.scenario import Scenario, validate_manoeuvre
from constraints.errors import InvalidInputError
from constraints.geometry.batch import chunks
from constraints.geometry.convex import ConvexPiece, convex_pieces
from constraints.geometry.frame import Frame
from constraints.rank_and_file.family_limits import family_limits
from constraints.rank_and_file.formation import MAX_MODELS
from constraints.rank_and_file.poses import EndRectangles, MaskSetting, Rectangles
from optimizer.families.base import family_for

WORLD = Frame((0.0, 0.0), 90.0)


class BatchJudge:
    """Judge many end poses of one unit's manoeuvre at once."""

    def __init__(self, scenario: Scenario, unit_id: str, manoeuvre: str,
                 margin_in: float = 0.0) -> None:
        """`margin_in` > 0 judges every limit that much more strictly (the search uses it so
        its starting answer also satisfies the encoding's rounded rows)."""
        validate_request(scenario, unit_id, manoeuvre)
        margin_in = number(margin_in, "margin_in", minimum=0.0)
        self.margin_in = margin_in
        self.tol = FLOAT_NOISE - margin_in  # allowance at a limit: negative with a margin
        self.scenario = scenario
        self.unit = scenario.unit(unit_id)
        self.manoeuvre = manoeuvre
        clauses = scenario.profile.clauses(manoeuvre)
        self.clauses: dict[str, Clause] = {c.id: c for c in clauses}
        self.pieces: list[ConvexPiece] = []
        for label, shape in scenario.obstacles_for(unit_id):
            self.pieces += convex_pieces(label, shape, WORLD)
        self.start_corners = np.array(self.unit.corners())
        self.setting = MaskSetting(scenario, self.unit, manoeuvre, margin_in, self.tol,
                                   self.pieces, self.start_corners,
                                   Frame(self.unit.pose.centre, self.unit.pose.facing_deg),
                                   family_limits(clauses, self.unit))
        self.family = family_for(scenario.profile, manoeuvre)
        found = [c.masker(self.setting) for c in clauses]
        self.maskers: list[Masker] = sorted((m for m in found if m is not None),
                                            key=lambda m: m.stage)

    def mask(self, centres: np.ndarray, facings: np.ndarray, *, pivots: np.ndarray | None = None,
             files: int | np.ndarray | None = None) -> np.ndarray:
        """Whether each end pose is legal (sound: True implies the checker agrees).

        Parameters
        ----------
        centres : array (N, 2)
            End centres, world inches.
        facings : array (N,)
            End facings, degrees.
        pivots : array (N,) or float, optional
            An Advance's Pivot per pose (degrees; default 0).
        files : array (N,) or int, optional
            A Reform's end files per pose (default: the unit's own).

        Returns
        -------
        array (N,) of bool

        Raises
        ------
        InvalidInputError
            Arrays of the wrong shape, or holding NaN, infinities or magnitudes past 1e6;
            files that are not whole numbers from 1 to 1000.
        """
        centres = pose_array(centres, "centres", (-1, 2))
        facings = pose_array(facings, "facings", (len(centres),))
        turns = None if pivots is None else pose_array(pivots, "pivots", facings.shape)
        chosen = None if files is None else files_array(files, facings.shape)
        ok = np.zeros(len(facings), dtype=bool)
        for part in chunks(len(facings)):
            poses, exists = self.family.poses(
                self.unit, centres[part], facings[part],
                None if turns is None else turns[part],
                None if chosen is None else chosen[part], self.tol)
            ok[part] = self._judged(poses, exists)
        return ok

    def _judged(self, poses: Any, ok: np.ndarray) -> np.ndarray:
        """The maskers in stage order: the way and its legs on every pose, the rest on the
        poses still legal only (compressed once the cheap tests have run)."""
        cheap = [m for m in self.maskers if m.stage <= Stage.LEGS]
        for masker in cheap:
            ok = masker.judge(poses, ok)
        alive = np.flatnonzero(ok)
        rest = poses.subset(alive)
        good = np.ones(len(alive), dtype=bool)
        for masker in self.maskers[len(cheap):]:
            good = masker.judge(rest, good)
        out = np.zeros(len(ok), dtype=bool)
        out[alive[good]] = True
        return out

    def way_passes(self, facing_deg: float, pivot_deg: float, files: int) -> bool:
        """Whether the clauses that judge a pose's way alone (Stage.WAY: the heading window,
        the Pivot, the formation) pass poses of this facing, Pivot and files: when they do
        not, no end centre can be legal, and a caller may skip them all."""
        poses, _ = self.family.poses(self.unit, np.asarray([self.unit.pose.centre], float),
                                     np.array([facing_deg]), np.array([pivot_deg]),
                                     np.array([files]), self.tol)
        ok = np.ones(1, dtype=bool)
        for masker in self.maskers:
            if masker.stage == Stage.WAY:
                ok = masker.judge(poses, ok)
        return bool(ok[0])

    def end_positions(self, centres: np.ndarray, facings: np.ndarray, widths: np.ndarray,
                      depths: np.ndarray, slack_in: float = 0.0) -> np.ndarray:
        """Whether each end rectangle (world centre, facing, width, depth) passes the
        end-position rules (Stage.END: table, Valid Final Position, Unit Spacing) with every
        limit `slack_in` more lenient than the rules (the judge's margin does not apply):
        moving a rectangle by d changes each measure by at most d, so a rectangle failing
        them with slack d has no legal position within d of its centre."""
        centres = pose_array(centres, "centres", (-1, 2))
        facings = pose_array(facings, "facings", (len(centres),))
        widths, depths = (pose_array(v, name, facings.shape, positive=True)
                          for v, name in ((widths, "widths"), (depths, "depths")))
        slack_in = number(slack_in, "slack_in", minimum=0.0)
        rects: EndRectangles = Rectangles(centres, facings, widths, depths,
                                          FLOAT_NOISE + slack_in)
        ok = np.ones(len(facings), dtype=bool)
        for masker in self.maskers:
            if masker.stage == Stage.END:
                ok = masker.judge(rects, ok)
        return ok


def validate_request(scenario: Any, unit_id: Any, manoeuvre: Any) -> None:
    """`InvalidInputError` unless `scenario` is a Scenario holding the unit and the manoeuvre
    (argument names as the public functions spell them)."""
    if not isinstance(scenario, Scenario):
        raise InvalidInputError(f"expected a Scenario, got {type(scenario).__name__}",
                                path="scenario")
    validate_manoeuvre(scenario, text(unit_id, "unit_id"), text(manoeuvre, "manoeuvre"),
                       "unit_id", "manoeuvre")


def pose_array(values: Any, name: str, shape: tuple[int, ...], *,
               positive: bool = False) -> np.ndarray:
    """`values` as finite floats of `shape` (a scalar is broadcast; -1 takes any length),
    within MAX_MAGNITUDE, all > 0 when `positive`."""
    try:
        array = np.asarray(values, dtype=float)
    except (TypeError, ValueError):
        raise InvalidInputError(f"expected an array of numbers of shape {shape}",
                                path=name) from None
    if array.ndim == 0 and -1 not in shape:
        array = np.broadcast_to(array, shape)
    elif array.size == 0 and shape[0] == -1:  # no poses at all
        array = array.reshape(0, *shape[1:])
    elif array.shape == shape[1:] and shape[0] == -1:  # one pose: (2,) for (-1, 2)
        array = array.reshape(1, *shape[1:])
    if array.ndim != len(shape) or any(want not in (-1, got)
                                       for want, got in zip(shape, array.shape, strict=True)):
        raise InvalidInputError(f"expected shape {tuple('N' if d == -1 else d for d in shape)}"
                                f", got {array.shape}", path=name)
    if not np.isfinite(array).all() or (np.abs(array) > MAX_MAGNITUDE).any():
        raise InvalidInputError(f"expected finite numbers of magnitude at most "
                                f"{MAX_MAGNITUDE:g}", path=name)
    if positive and (array <= 0).any():
        raise InvalidInputError("expected numbers > 0", path=name)
    return array


def files_array(files: Any, shape: tuple[int, ...]) -> np.ndarray:
    """A Reform's end files per pose: whole numbers from 1 to MAX_MODELS."""
    array = pose_array(files, "files", shape)
    if (array != np.round(array)).any() or (array < 1).any() or (array > MAX_MODELS).any():
        raise InvalidInputError(f"expected whole numbers of files from 1 to {MAX_MODELS}",
                                path="files")
    return array.astype(int)
