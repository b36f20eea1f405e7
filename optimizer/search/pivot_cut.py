"""The Pivot cut of an Advance's certificate (docs/techniques.md §9, "The Pivot's own
clause").

The relaxation of an Advance (constraints.rank_and_file.snaking_reach.AdvanceReach) lets
the Pivot turn by any angle; the rules do not.  After its Pivot the unit must keep the
partway spacing (`t9a.pivot.unit_spacing`: more than 0.5" from other units and Impassable
Terrain, or an object's own start distance, A20).  Where the unit stands close to a wall or a
friend, most Pivots break that, and a certificate whose best boxes turn the unit into the wall
cannot close, however finely it splits them.

Pivots are cut into fixed cells of CELL_DEG about the start facing.  For a cell of half width
d about m, the rectangle E (the unit's boundary at m shrunk by r d on every side, r the
half-diagonal; the square in the inscribed disc where that is empty) lies in the pivoted
boundary for every Pivot of the cell (a point of E at most r from the centre turns by at most
r d, less than its distance to the rectangle's edge).  A distance to E is at least the one to
the boundary, so when E comes within an object's limit the boundary does too for every Pivot
of the cell: the cell is dead.  Objects the unit starts touching (their limit is "no
overlap") are left out: leaving an object out only keeps cells alive.  A Pivot of exactly 0 is
no Pivot and is always allowed.

A box of Pivots [lo, hi] then holds a legal way only with a Pivot in a live cell it meets (or
0): the box is narrowed to the hull of those before its piece is made, and a box that meets
none is empty.  Narrowing only removes Pivots no legal way has, so the piece still holds every
legal way of the box.  The cells are made once per request (360 / CELL_DEG rectangles against
the obstacles): the same on any machine.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import shapely

from constraints.core.clause import Clause, KeepsClear, keeping_clear
from constraints.core.scenario import Scenario
from constraints.geometry.pieces import ReachPieces
from constraints.geometry.plane import rectangle_corners_array
from constraints.rank_and_file.snaking_reach import AdvanceReach
from constraints.rank_and_file.start_close import CONTACT, StartClose
from constraints.rank_and_file.unit import Unit

CELL_DEG = 0.25          # the cells of Pivots (720 over the half turn either way)
ROOM_IN = 1e-9           # float room: a cell is dead only this far inside an object's limit
EMPTY_SIDE = 1e-9        # a shrunk rectangle this thin is replaced by the inscribed square


def live_cells(scenario: Scenario, unit: Unit, spacing: float,
               cell_deg: float = CELL_DEG) -> np.ndarray:
    """Per cell [-180 + k c, -180 + (k + 1) c] of Pivots (degrees from the start facing),
    whether some Pivot in it may keep the spacing (False: none does, proved)."""
    count = round(360.0 / cell_deg)
    obstacles = scenario.obstacles_for(unit.id)
    close = StartClose.of(scenario, unit.id)
    limits = [close.limit(label, spacing) for label, _ in obstacles]
    kept = [(shape, limit) for (_, shape), limit in zip(obstacles, limits, strict=True)
            if limit != CONTACT]
    if not kept:
        return np.ones(count, dtype=bool)
    mids = -180.0 + cell_deg * (np.arange(count) + 0.5)
    width, depth = unit.width_in, unit.depth_in
    shrink = math.hypot(width, depth) / 2.0 * math.radians(cell_deg / 2.0)
    half_w, half_d = width / 2.0 - shrink, depth / 2.0 - shrink
    if min(half_w, half_d) <= EMPTY_SIDE:
        half_w = half_d = min(width, depth) / (2.0 * math.sqrt(2.0))
    centres = np.tile(np.asarray(unit.pose.centre, dtype=float), (count, 1))
    corners = rectangle_corners_array(centres, unit.pose.facing_deg + mids, 2.0 * half_w,
                                      2.0 * half_d)
    inner = shapely.polygons(corners)
    shapes = np.array([shape for shape, _ in kept], dtype=object)
    gaps = shapely.distance(inner[:, None], shapes[None, :])
    limit = np.array([limit for _, limit in kept])
    return ~np.any(gaps <= limit[None, :] - ROOM_IN, axis=1)


class PivotCut:
    """An Advance's relaxation whose boxes of Pivots are narrowed to the live cells (the
    module docstring)."""

    def __init__(self, reach: AdvanceReach, live: np.ndarray,
                 cell_deg: float = CELL_DEG) -> None:
        self.reach, self.live, self.cell = reach, live, math.radians(cell_deg)
        self.weights = reach.weights
        self.max_boxes = reach.max_boxes
        count = len(live)
        index = np.arange(count)
        # The first live cell at or after k, the last at or before k (count / -1: none).
        after = np.where(live, index, count)
        self.next_live = np.minimum.accumulate(after[::-1])[::-1]
        self.prev_live = np.maximum.accumulate(np.where(live, index, -1))

    def initial(self) -> tuple[np.ndarray, np.ndarray]:
        return self.reach.initial()

    def pieces(self, mids: np.ndarray, halves: np.ndarray, hull: bool = False) -> ReachPieces:
        narrowed, halves, empty = self.narrow(mids, halves)
        pieces = self.reach.pieces(narrowed, halves, hull)
        if empty.any():
            pieces.radius[empty] = -1.0
        return pieces

    def tighter_pieces(self, mids: np.ndarray, halves: np.ndarray) -> ReachPieces:
        return self.pieces(mids, halves, hull=True)

    def narrow(self, mids: np.ndarray, halves: np.ndarray
               ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """The boxes with their Pivots narrowed to the hull of the live cells they meet (and
        0), and which boxes meet none."""
        lo, hi = mids[:, 0] - halves[:, 0], mids[:, 0] + halves[:, 0]
        count = len(self.live)
        # Cells met, widened by one either way against rounding (only looser).
        first = np.clip(np.floor((lo + math.pi) / self.cell).astype(np.int64) - 1, 0, count - 1)
        last = np.clip(np.floor((hi + math.pi) / self.cell).astype(np.int64) + 1, 0, count - 1)
        start, end = self.next_live[first], self.prev_live[last]
        some = start <= end
        cell_lo = -math.pi + self.cell * np.minimum(start, count - 1)
        cell_hi = -math.pi + self.cell * (np.maximum(end, 0) + 1)
        zero = (lo <= 0.0) & (hi >= 0.0)
        new_lo = np.where(some, np.maximum(lo, cell_lo), np.inf)
        new_hi = np.where(some, np.minimum(hi, cell_hi), -np.inf)
        new_lo = np.where(zero, np.minimum(new_lo, 0.0), new_lo)
        new_hi = np.where(zero, np.maximum(new_hi, 0.0), new_hi)
        empty = new_lo > new_hi
        new_lo, new_hi = np.where(empty, lo, new_lo), np.where(empty, hi, new_hi)
        mids, halves = mids.copy(), halves.copy()
        mids[:, 0], halves[:, 0] = (new_lo + new_hi) / 2.0, (new_hi - new_lo) / 2.0
        return mids, halves, empty


def pivot_cut(scenario: Scenario, unit: Unit, clauses: list[Clause],
              relaxation: Any) -> Any:
    """The relaxation with its Pivots cut, where it is an Advance's and the profile has the
    Pivot's spacing clause that cuts anything; else the relaxation itself."""
    if not isinstance(relaxation, AdvanceReach):
        return relaxation
    clause = keeping_clear(clauses, KeepsClear.PIVOT)
    if clause is None:
        return relaxation
    live = live_cells(scenario, unit, float(clause.number("spacing_in")))
    return relaxation if live.all() else PivotCut(relaxation, live)
