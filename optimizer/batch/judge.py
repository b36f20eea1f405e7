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
from constraints.core.limits import FLOAT_NOISE
from constraints.core.scenario import Scenario
from constraints.geometry.batch import chunks
from constraints.geometry.convex import ConvexPiece, convex_pieces
from constraints.geometry.frame import Frame
from constraints.rank_and_file.family_limits import family_limits
from constraints.rank_and_file.poses import EndRectangles, MaskSetting, Rectangles
from optimizer.families.base import family_for

WORLD = Frame((0.0, 0.0), 90.0)


class BatchJudge:
    """Judge many end poses of one unit's manoeuvre at once."""

    def __init__(self, scenario: Scenario, unit_id: str, manoeuvre: str,
                 margin_in: float = 0.0) -> None:
        """`margin_in` > 0 judges every limit that much more strictly (the search uses it so
        its starting answer also satisfies the encoding's rounded rows)."""
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
        """
        centres = np.asarray(centres, dtype=float).reshape(-1, 2)
        facings = np.asarray(facings, dtype=float).reshape(-1)
        turns = None if pivots is None else \
            np.broadcast_to(np.asarray(pivots, dtype=float), facings.shape)
        chosen = None if files is None else \
            np.broadcast_to(np.asarray(files), facings.shape).astype(int)
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

    def end_positions(self, centres: np.ndarray, facings: np.ndarray, widths: np.ndarray,
                      depths: np.ndarray, slack_in: float = 0.0) -> np.ndarray:
        """Whether each end rectangle (world centre, facing, width, depth) passes the
        end-position rules (Stage.END: table, Valid Final Position, Unit Spacing) with every
        limit `slack_in` more lenient than the rules (the judge's margin does not apply):
        moving a rectangle by d changes each measure by at most d, so a rectangle failing
        them with slack d has no legal position within d of its centre."""
        rects: EndRectangles = Rectangles(centres, facings, widths, depths,
                                          FLOAT_NOISE + slack_in)
        ok = np.ones(len(facings), dtype=bool)
        for masker in self.maskers:
            if masker.stage == Stage.END:
                ok = masker.judge(rects, ok)
        return ok


def legal_mask(scenario: Scenario, unit_id: str, manoeuvre: str, centres: np.ndarray,
               facings: np.ndarray, *, pivots: np.ndarray | None = None,
               files: int | np.ndarray | None = None) -> np.ndarray:
    """Whether each end pose is legal (see BatchJudge; build one to query repeatedly)."""
    judge = BatchJudge(scenario, unit_id, manoeuvre)
    return judge.mask(centres, facings, pivots=pivots, files=files)
