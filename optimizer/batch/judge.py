"""Batch legality for game AIs: N candidate end poses in, a boolean mask out, vectorised.

`BatchJudge` precomputes one unit's manoeuvre once (clause limits, obstacles as convex
pieces, per-Pivot verdicts) and then judges arrays of end poses with numpy, no Python loop per
pose on the common path.  Advance and March poses are reached by the one-wheel way of
constraints.options (an Advance needs its Pivot per pose).  They are judged in cache-sized
chunks, grouped by way, with corners as struct-of-arrays (optimizer.batch_poses, the sweep in
optimizer.batch_sweep): millions of poses a second.

Exactness: the end position (Valid Final Position, Unit Spacing, table edge), the distance,
the heading window and the Pivot are judged exactly as the checker does.  Two parts are
sound but conservative (True implies the checker agrees; a few legal poses near an obstacle
may be False): the wheel's sweep is bounded as in the CP-SAT encoding (the sector slid along
the first leg), and a Reform's model paths use the encoding's travel bound.  With
`margin_in`, every limit, clearances included, is that much stricter.
"""

from __future__ import annotations

import math
from functools import cached_property

import numpy as np

from constraints.core.clause import Clause
from constraints.core.limits import FLOAT_NOISE
from constraints.core.scenario import Scenario
from constraints.geometry.batch import Boxes, chunks, clear_of, within_reach
from constraints.geometry.convex import ConvexPiece, convex_pieces
from constraints.geometry.frame import Frame
from constraints.geometry.paths import PathFinder
from constraints.geometry.plane import forward_vectors, solve_2x2
from constraints.geometry.plane import rectangle_corners_array as rectangle_corners
from constraints.geometry.wheel import wheel_shifts
from constraints.rank_and_file.obstacles import path_finder
from constraints.rank_and_file.ways import Ways, end_corners, group_ways, legs
from constraints.t9a.clauses.movement.reform_files import FileChange
from constraints.t9a.clauses.movement.reform_paths import travel_discs
from constraints.t9a.clauses.movement.viable_formation import formation_problem
from optimizer.batch.sweep import FrontSweep
from optimizer.families.search_space import clauses_of

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
        self.clauses: dict[str, Clause] = {c.kind: c for c in clauses_of(scenario, manoeuvre)}
        self.pieces: list[ConvexPiece] = []
        for label, shape in scenario.obstacles_for(unit_id):
            self.pieces += convex_pieces(label, shape, WORLD)
        self.start_corners = np.array(self.unit.corners())
        self.sweep = FrontSweep(scenario, self.unit, self.clauses, self.pieces, margin_in)
        self._pivot_ok: dict[float, bool] = {}
        self._travel: dict[tuple[int, float], list | None] = {}

    def mask(self, centres: np.ndarray, facings: np.ndarray, *, pivots: np.ndarray | None = None,
             files: int | np.ndarray | None = None) -> np.ndarray:
        """Whether each end pose (centre (N, 2), facing (N,)) is legal."""
        centres = np.asarray(centres, dtype=float).reshape(-1, 2)
        facings = np.asarray(facings, dtype=float).reshape(-1)
        if self.manoeuvre == "reform":
            chosen = np.broadcast_to(np.asarray(self.unit.files if files is None else files),
                                     facings.shape)
            return self._reform(centres, facings, chosen.astype(int))
        turns = np.zeros_like(facings) if pivots is None else \
            np.broadcast_to(np.asarray(pivots, dtype=float), facings.shape)
        return self._snaking(centres, facings, turns)

    # -- Advance and March ------------------------------------------------------------------

    def _snaking(self, centres: np.ndarray, facings: np.ndarray,
                 pivots: np.ndarray) -> np.ndarray:
        ok = np.zeros(len(facings), dtype=bool)
        for part in chunks(len(facings)):
            ok[part] = self._snaking_chunk(centres[part, 0], centres[part, 1], facings[part],
                                           pivots[part])
        return ok

    def _snaking_chunk(self, cx: np.ndarray, cy: np.ndarray, facings: np.ndarray,
                       pivots: np.ndarray) -> np.ndarray:
        """One chunk: the way's limits on every pose, then the end position and the sweep
        on the poses still legal only (compressed once the cheap checks have run)."""
        unit, c = self.unit, self.clauses
        ways = group_ways(unit, facings, pivots)
        x0, y0 = unit.pose.centre
        a, b, ok = legs(ways, cx - x0, cy - y0)
        ok &= self._way_ok(ways)[ways.inverse]
        if "snaking_distance" in c:
            cost = a + b
            cost += unit.width_in * np.abs(np.sin(np.radians(ways.delta)))[ways.inverse]
            ok &= cost <= c["snaking_distance"].limit_in(unit) + self.tol
        alive = np.flatnonzero(ok)  # the rest of the checks on these poses only
        inv, cx, cy, a, b = ways.inverse[alive], cx[alive], cy[alive], a[alive], b[alive]
        xs, ys = end_corners(ways, inv, cx, cy)
        axes = ways.f[0][inv], ways.f[1][inv]  # along the rectangle's sides
        good = self._end_ok(xs, ys, axes)
        if self.sweep.may_matter:
            good &= self.sweep.ok(ways, inv, xs, ys, axes, a, b, good)
        ok[:] = False
        ok[alive[good]] = True
        return ok

    def _way_ok(self, ways: Ways) -> np.ndarray:
        """Per way: the heading window and the Pivot's own limits."""
        c = self.clauses
        ok = np.ones(len(ways.delta), dtype=bool)
        if "heading_window" in c:
            ok &= np.abs(ways.delta) <= float(c["heading_window"].params["window_deg"]) + \
                FLOAT_NOISE
        if "pivot_model_distance" in c or "pivot_spacing" in c:
            ok &= self._pivots_ok(ways.pivot)
        return ok

    def ways(self, centres: np.ndarray, heading: np.ndarray,
              delta: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Legs (a, b) of the one-wheel way to each pose, and whether it exists."""
        unit = self.unit
        d = centres - np.asarray(unit.pose.centre)
        wheel = delta != 0
        shift = np.where(wheel[:, None], wheel_shifts(
        unit.width_in, unit.depth_in, heading, delta), 0.0)
        fp, fe = forward_vectors(heading), forward_vectors(heading + delta)
        ab = solve_2x2(fp, fe, d - shift)
        along = np.sum(d * fp, axis=1)
        across = np.abs(d[:, 0] * fp[:, 1] - d[:, 1] * fp[:, 0])
        a = np.where(wheel, ab[:, 0], along)
        b = np.where(wheel, ab[:, 1], 0.0)
        ok = np.isfinite(a) & np.isfinite(b) & (a >= -1e-9) & (b >= -1e-9)
        ok &= wheel | (across <= 1e-9)
        return np.maximum(np.nan_to_num(a, nan=0.0), 0.0), \
            np.maximum(np.nan_to_num(b, nan=0.0), 0.0), ok

    def _pivots_ok(self, pivots: np.ndarray) -> np.ndarray:
        values, inverse = np.unique(pivots, return_inverse=True)
        verdict = np.array([self._pivot_verdict(float(p)) for p in values])
        return verdict[inverse]

    def _pivot_verdict(self, pivot: float) -> bool:
        if pivot not in self._pivot_ok:
            from constraints.t9a.context import MoveContext
            from constraints.t9a.moves import Move

            ctx = MoveContext(self.scenario, Move(self.unit.id, "advance", pivot_deg=pivot))
            good = True
            for kind in ("pivot_model_distance", "pivot_spacing"):
                if kind in self.clauses:
                    good &= not self.clauses[kind].check(ctx).violations
            self._pivot_ok[pivot] = good
        return self._pivot_ok[pivot]

    # -- the end position (every manoeuvre) -------------------------------------------------

    def end_positions(self, centres: np.ndarray, facings: np.ndarray, widths: np.ndarray,
                      depths: np.ndarray, slack_in: float = 0.0) -> np.ndarray:
        """Whether each end rectangle (world centre, facing, width, depth) passes the
        end-position rules (table, Valid Final Position, Unit Spacing) with every limit
        `slack_in` more lenient than the rules (the judge's margin does not apply): moving a
        rectangle by d changes each measure by at most d, so a rectangle failing them with
        slack d has no legal position within d of its centre."""
        corners = rectangle_corners(centres, facings, widths, depths)
        ahead = forward_vectors(facings)
        return self._end_ok(corners[:, :, 0].T.copy(), corners[:, :, 1].T.copy(),
                            (ahead[:, 0], ahead[:, 1]), FLOAT_NOISE + slack_in)

    def _end_ok(self, xs: np.ndarray, ys: np.ndarray, axes: tuple[np.ndarray, np.ndarray],
                tol: float | None = None) -> np.ndarray:
        """Whether each end rectangle ((4, n) corners, unit vectors along a side) is a legal
        end position (`tol`: the allowance at each limit, the judge's by default)."""
        tol = self.tol if tol is None else tol
        c, unit, field = self.clauses, self.unit, self.scenario.battlefield
        ok = np.ones(xs.shape[1], dtype=bool)
        boxes = Boxes.of(xs, ys)
        if "table_edge_end" in c:
            ok &= boxes.overhang_ok(field.width_in, field.depth_in, tol)
        if "valid_final_position" in c:
            limit = c["valid_final_position"].limit_in(unit) + tol
            todo = np.flatnonzero(ok)
            ok[todo] = within_reach(xs[:, todo], ys[:, todo], self.start_corners, limit)
        if "unit_spacing" in c:
            gap = float(c["unit_spacing"].params["spacing_in"])
            ok = clear_of(xs, ys, boxes, axes, self.pieces, gap - tol, ok)
        return ok

    # -- Reform -----------------------------------------------------------------------------

    def _reform(self, centres: np.ndarray, facings: np.ndarray, files: np.ndarray) -> np.ndarray:
        unit, c = self.unit, self.clauses
        offset = centres - np.asarray(unit.pose.centre)
        travel = np.linalg.norm(offset, axis=1)
        ok = np.ones(len(centres), dtype=bool)
        if "centre_travel" in c:
            ok &= travel <= c["centre_travel"].limit_in(unit) + self.tol
        keys = np.stack([files, facings], axis=1)
        values, inverse = np.unique(keys, axis=0, return_inverse=True)
        inverse = inverse.reshape(-1)
        width = files * unit.base.width_in
        ranks = np.array([unit.formation.reformed(int(f)).ranks for f, _ in values])
        depth = ranks[inverse] * unit.base.depth_in
        corners = rectangle_corners(centres, facings, width, depth)
        rows = np.flatnonzero(ok)
        ahead = forward_vectors(facings[rows])
        ok[rows] = self._end_ok(corners[rows, :, 0].T.copy(), corners[rows, :, 1].T.copy(),
                                (ahead[:, 0], ahead[:, 1]))
        # The model paths last, and only for the formations and facings some pose still
        # needs: their safe discs cost path searches each.
        frame_pts = self._frame.point_array(centres)
        for k in np.unique(inverse[ok]):
            rows = np.flatnonzero(ok & (inverse == k))
            f, h = values[k]
            ok[rows] &= self._in_discs(self._reform_discs(int(f), float(h)), frame_pts[rows])
        return ok

    def _in_discs(self, discs: list[tuple[tuple[float, float], float]] | None,
                  pts: np.ndarray) -> np.ndarray:
        """Whether each point lies in one of the safe discs (None: no limit)."""
        if discs is None:
            return np.ones(len(pts), dtype=bool)
        inside = np.zeros(len(pts), dtype=bool)
        for (px, py), radius in discs:
            inside |= np.hypot(pts[:, 0] - px, pts[:, 1] - py) <= radius + self.tol
        return inside

    @cached_property
    def _frame(self) -> Frame:
        return Frame(self.unit.pose.centre, self.unit.pose.facing_deg)

    def _reform_discs(self, files: int, facing: float) -> list[tuple[tuple[float, float],
                                                                     float]] | None:
        """Safe discs of centres for this formation and facing ([]: not at all; None: no
        model-path limit), as the encoding's (constraints.clauses.reform_paths)."""
        key = (files, facing)
        if key not in self._travel:
            self._travel[key] = self._discs(files, facing)
        return self._travel[key]

    def _discs(self, files: int, facing: float) -> list[tuple[tuple[float, float],
                                                              float]] | None:
        unit, c = self.unit, self.clauses
        if files < 1 or files > unit.formation.model_count:
            return []
        change = c.get("file_change")
        if isinstance(change, FileChange) and abs(files - unit.files) > change.limit_for(unit):
            return []
        if "viable_formation" in c:
            widths = c["viable_formation"].params["proper_rank_width"]
            width = widths[min(unit.height, len(widths) - 1)]
            if formation_problem(unit.formation.reformed(files), width, unit.files)[0]:
                return []
        if "model_path" not in c:
            return None
        travel = c["centre_travel"].limit_in(unit) if "centre_travel" in c else \
            2 * unit.mobility_in
        # The same reference points as the encoding (its region is the travel disc grown by
        # 1 / cos(pi / 64), measured with the same allowance).
        needed = travel / math.cos(math.pi / 64) ** 2
        return travel_discs(self._finder, unit, files, facing,
                            c["model_path"].limit_in(unit), needed, self._frame)

    @cached_property
    def _finder(self) -> PathFinder:
        spacing = float(self.clauses["model_path"].params["spacing_in"])
        return path_finder(self.scenario, self.unit.id, spacing)


def legal_mask(scenario: Scenario, unit_id: str, manoeuvre: str, centres: np.ndarray,
               facings: np.ndarray, *, pivots: np.ndarray | None = None,
               files: int | np.ndarray | None = None) -> np.ndarray:
    """Whether each end pose is legal (see BatchJudge; build one to query repeatedly)."""
    judge = BatchJudge(scenario, unit_id, manoeuvre)
    return judge.mask(centres, facings, pivots=pivots, files=files)
