"""The Front Facing's sweep for the batch mask (optimizer.batch), as the CP-SAT encoding
bounds it: the first leg no longer than its slid sector stays clear and on the table (one
bound per (pivot, wheel) way, cached), and the last leg's parallelogram clear and on the
table, measured like the end position (optimizer.batch_poses)."""

from __future__ import annotations

import math
from collections.abc import Callable
from functools import cached_property

import numpy as np
from shapely import Point

from constraints.core.clause import Clause
from constraints.core.limits import FLOAT_NOISE
from constraints.core.scenario import Scenario
from constraints.geometry.batch import Boxes, clear_of
from constraints.geometry.convex import ConvexPiece
from constraints.rank_and_file.unit import Unit
from constraints.rank_and_file.ways import Ways, front_sweep
from constraints.sat.separation import STRICT_IN
from constraints.sat.sweep_bounds import first_leg_clear, first_leg_on_table


class FrontSweep:
    """The sweep's checks for one unit's manoeuvre (its clauses, obstacle pieces, margin)."""

    def __init__(self, scenario: Scenario, unit: Unit, clauses: dict[str, Clause],
                 pieces: list[ConvexPiece], margin_in: float) -> None:
        self.field, self.unit, self.clauses, self.pieces = \
            scenario.battlefield, unit, clauses, pieces
        self.margin_in, self.tol = margin_in, FLOAT_NOISE - margin_in

    @cached_property
    def reach(self) -> float:
        """How far from the start centre any sweep may come."""
        unit, c = self.unit, self.clauses
        budget = c["snaking_distance"].limit_in(unit) if "snaking_distance" in c else \
            4 * unit.mobility_in
        return budget + math.hypot(unit.width_in, unit.depth_in) + unit.width_in

    @cached_property
    def may_matter(self) -> bool:
        """False when everything is too far for any sweep to come near (the common case)."""
        c, field = self.clauses, self.field
        centre, reach = np.asarray(self.unit.pose.centre), self.reach
        if "table_edge_front" in c and ((centre - reach < 0).any() or
                                         centre[0] + reach > field.width_in or
                                         centre[1] + reach > field.depth_in):
            return True
        if "front_spacing" not in c:
            return False
        gap = float(c["front_spacing"].params["spacing_in"]) + self.margin_in
        # The distance to the piece, not to its nearest vertex: a long wall's edge may pass
        # close in front while all its vertices are out of reach.
        here = Point(centre)
        return any(p.shape.distance(here) <= reach + gap for p in self.pieces)

    def ok(self, ways: Ways, inv: np.ndarray, xs: np.ndarray, ys: np.ndarray,
           axes: tuple[np.ndarray, np.ndarray], a: np.ndarray, b: np.ndarray,
           todo: np.ndarray) -> np.ndarray:
        """Whether each pose in `todo` (its way, end corners (4, n), unit vectors along the
        end facing, legs a and b) keeps the sweep clear and on the table (False outside
        `todo`)."""
        c, field = self.clauses, self.field
        ok = todo.copy()
        if not ({"front_spacing", "table_edge_front"} & c.keys()):
            return ok
        used = np.zeros(len(ways.delta), dtype=bool)
        used[inv[ok]] = True  # only ways some pose still needs: no bound for a NaN way
        bound = np.full(len(used), np.inf)
        bound[used] = self.first_leg(ways.pivot[used], ways.delta[used])
        ok &= a <= bound[inv]
        fx, fy = front_sweep(xs, ys, axes[0] * b, axes[1] * b)
        boxes = Boxes.of(fx, fy)
        if "table_edge_front" in c:
            ok &= boxes.overhang_ok(field.width_in, field.depth_in, self.tol)
        if "front_spacing" in c:
            gap = float(c["front_spacing"].params["spacing_in"])
            # The parallelogram is a rectangle with the end rectangle's sides: the same axes.
            ok = clear_of(fx, fy, boxes, axes, self.pieces, gap - self.tol, ok)
        return ok

    @cached_property
    def first_leg(self) -> WayBounds:
        """The longest first leg per (pivot, wheel) way: its sector slid along the leg stays
        clear (front_spacing) and on the table (table_edge_front)."""
        unit, c = self.unit, self.clauses

        def compute(ways: np.ndarray) -> np.ndarray:
            bound = np.full(len(ways), np.inf)
            if "front_spacing" in c:
                gap = float(c["front_spacing"].params["spacing_in"]) + STRICT_IN + \
                    self.margin_in
                # Legs are capped only by a distance clause: without one, measure every piece.
                cap = c["snaking_distance"].limit_in(unit) if "snaking_distance" in c else \
                    math.inf
                bound = first_leg_clear(unit, ways, self.pieces, gap, cap)
            if "table_edge_front" in c:
                bound = np.minimum(bound, first_leg_on_table(unit, ways, self.field))
            return bound
        return WayBounds(compute)


class WayBounds:
    """A bound per (pivot, wheel) way, computed once per way by `compute` ((K, 2) ways ->
    (K,)) and kept in sorted arrays, so that a chunk looks its ways up with searchsorted
    (finite ways only: a NaN key is never found)."""

    LIMIT = 1 << 20  # ways kept; past it the cache starts afresh (distinct facings galore)

    def __init__(self, compute: Callable[[np.ndarray], np.ndarray]) -> None:
        self.compute = compute
        self.keys = np.empty(0, dtype=np.complex128)
        self.values = np.empty(0)

    def __call__(self, pivots: np.ndarray, wheels: np.ndarray) -> np.ndarray:
        # (pivot, wheel) packed as one complex128: sorted and compared as a pair.
        keys = np.stack([pivots, wheels], axis=1).astype(np.float64).view(np.complex128)
        keys = keys.reshape(-1)
        missing = ~self._known(keys)
        if missing.any():
            if len(self.keys) + missing.sum() > self.LIMIT:
                self.keys, self.values = np.empty(0, dtype=np.complex128), np.empty(0)
                missing[:] = True
            self._add(np.unique(keys[missing]))
        return self.values[np.searchsorted(self.keys, keys)]

    def _known(self, keys: np.ndarray) -> np.ndarray:
        if not len(self.keys):
            return np.zeros(len(keys), dtype=bool)
        return self.keys[np.minimum(np.searchsorted(self.keys, keys), len(self.keys) - 1)] == keys

    def _add(self, keys: np.ndarray) -> None:
        merged = np.concatenate([self.keys, keys])
        order = np.argsort(merged)
        values = np.concatenate([self.values, self.compute(np.stack([keys.real, keys.imag], 1))])
        self.keys, self.values = merged[order], values[order]
