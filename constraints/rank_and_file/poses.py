"""Many end poses of one rank-and-file unit at once, as the clauses' batch masks read them.

A batch judge (optimizer.batch) builds a pose batch per chunk and hands it to each clause's
`Masker` in stage order (constraints.core.clause.Stage).  What a masker reads:
- every batch: `xs`, `ys` ((4, n) end corners: front-left, front-right, rear-right,
  rear-left), `axes` (unit vectors along a side), `boxes`, and `tol`, the allowance at each
  limit (float noise, less the judge's margin);
- Snaking poses (Advance, March): `ways` (one per distinct pivot and facing), `inv` (each
  pose's way), the legs `a` and `b` of the one-wheel way, and the last leg's swept front;
- Reform poses: `centres`, `files`, `groups` (distinct files and facing) and `inv`, `travel`.
Derived arrays are computed on first use and only for the poses still in play (`subset`).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from typing import Any

import numpy as np

from constraints.core.limits import FLOAT_NOISE
from constraints.geometry.batch import Boxes
from constraints.geometry.convex import ConvexPiece
from constraints.geometry.frame import Frame
from constraints.geometry.plane import forward_vectors, rectangle_corners_array
from constraints.rank_and_file.family_limits import FamilyLimits
from constraints.rank_and_file.unit import Unit
from constraints.rank_and_file.ways import Ways, end_corners, front_sweep, group_ways, legs


@dataclass
class MaskSetting:
    """What a clause's masker may prepare from, once per batch judge."""

    scenario: Any
    unit: Unit
    manoeuvre: str
    margin_in: float          # every limit this much stricter (a search's starting answer)
    tol: float                # the allowance at a limit: float noise less the margin
    pieces: list[ConvexPiece]  # obstacles as convex pieces, world inches
    start_corners: np.ndarray  # (4, 2)
    frame: Frame              # the unit's start frame
    limits: FamilyLimits


class EndRectangles:
    """End rectangles: corners (4, n), a unit vector along one side, bounding boxes, and
    `tol`, the allowance at a "within" limit (a measure passes "within L" when <= L + tol)."""

    tol: float

    def beyond(self, limit: float) -> float:
        """The threshold a measure must exceed to pass "more than `limit`": as the checker
        (constraints.core.limits.more_than) when tol is the float noise, stricter by the
        judge's margin, more lenient by a screen's slack."""
        return limit + 2 * FLOAT_NOISE - self.tol

    def __len__(self) -> int:
        return int(self.xs.shape[1])

    @property
    def xs(self) -> np.ndarray:
        return self.corners[0]

    @property
    def ys(self) -> np.ndarray:
        return self.corners[1]

    @cached_property
    def corners(self) -> tuple[np.ndarray, np.ndarray]:
        raise NotImplementedError

    @cached_property
    def axes(self) -> tuple[np.ndarray, np.ndarray]:
        raise NotImplementedError

    @cached_property
    def boxes(self) -> Boxes:
        return Boxes.of(self.xs, self.ys)


class Rectangles(EndRectangles):
    """End rectangles given directly (world centres, facings, widths, depths)."""

    def __init__(self, centres: np.ndarray, facings: np.ndarray, widths: np.ndarray,
                 depths: np.ndarray, tol: float) -> None:
        corners = rectangle_corners_array(centres, facings, widths, depths)
        ahead = forward_vectors(facings)
        self.corners = (corners[:, :, 0].T.copy(), corners[:, :, 1].T.copy())
        self.axes = (ahead[:, 0], ahead[:, 1])
        self.tol = tol


class SnakingPoses(EndRectangles):
    """Advance and March end poses, each reached by its one-wheel way."""

    def __init__(self, ways: Ways, inv: np.ndarray, cx: np.ndarray, cy: np.ndarray,
                 a: np.ndarray, b: np.ndarray, tol: float) -> None:
        self.ways, self.inv, self.cx, self.cy, self.a, self.b, self.tol = \
            ways, inv, cx, cy, a, b, tol

    @classmethod
    def of(cls, unit: Unit, cx: np.ndarray, cy: np.ndarray, facings: np.ndarray,
           pivots: np.ndarray, tol: float) -> tuple[SnakingPoses, np.ndarray]:
        """The poses, and whether each has a way at all (legs not backwards)."""
        ways = group_ways(unit, facings, pivots)
        x0, y0 = unit.pose.centre
        a, b, ok = legs(ways, cx - x0, cy - y0)
        return cls(ways, ways.inverse, cx, cy, a, b, tol), ok

    def subset(self, rows: np.ndarray) -> SnakingPoses:
        return SnakingPoses(self.ways, self.inv[rows], self.cx[rows], self.cy[rows],
                            self.a[rows], self.b[rows], self.tol)

    @cached_property
    def corners(self) -> tuple[np.ndarray, np.ndarray]:
        return end_corners(self.ways, self.inv, self.cx, self.cy)

    @cached_property
    def axes(self) -> tuple[np.ndarray, np.ndarray]:
        return self.ways.f[0][self.inv], self.ways.f[1][self.inv]

    @cached_property
    def front(self) -> tuple[np.ndarray, np.ndarray]:
        """(4, n) parallelogram the front sweeps in the last leg."""
        ux, uy = self.axes
        return front_sweep(self.xs, self.ys, ux * self.b, uy * self.b)

    @cached_property
    def front_boxes(self) -> Boxes:
        return Boxes.of(*self.front)


class ReformPoses(EndRectangles):
    """Reform end poses: centre, facing and files each."""

    def __init__(self, unit: Unit, centres: np.ndarray, facings: np.ndarray, files: np.ndarray,
                 groups: np.ndarray, inv: np.ndarray, tol: float) -> None:
        self.unit, self.centres, self.facings, self.files = unit, centres, facings, files
        self.groups, self.inv, self.tol = groups, inv, tol

    @classmethod
    def of(cls, unit: Unit, centres: np.ndarray, facings: np.ndarray, files: np.ndarray,
           tol: float) -> tuple[ReformPoses, np.ndarray]:
        """The poses, and whether each asks for a formation the unit can take at all."""
        # (files, facing) packed as one complex128: a 1-D unique, far faster than axis=0.
        keys = np.stack([files.astype(float), facings], axis=1).view(np.complex128).reshape(-1)
        packed, inverse = np.unique(keys, return_inverse=True)
        values = np.stack([packed.real, packed.imag], axis=1)
        exists = (files >= 1) & (files <= unit.formation.model_count)
        return cls(unit, centres, facings, files, values, inverse.reshape(-1), tol), exists

    def subset(self, rows: np.ndarray) -> ReformPoses:
        return ReformPoses(self.unit, self.centres[rows], self.facings[rows], self.files[rows],
                           self.groups, self.inv[rows], self.tol)

    @cached_property
    def travel(self) -> np.ndarray:
        return np.linalg.norm(self.centres - np.asarray(self.unit.pose.centre), axis=1)

    @cached_property
    def corners(self) -> tuple[np.ndarray, np.ndarray]:
        unit = self.unit
        ranks = np.array([unit.formation.reformed(int(f)).ranks if f >= 1 else 1
                          for f, _ in self.groups])
        depth = ranks[self.inv] * unit.base.depth_in
        corners = rectangle_corners_array(self.centres, self.facings,
                                          self.files * unit.base.width_in, depth)
        return corners[:, :, 0].T.copy(), corners[:, :, 1].T.copy()

    @cached_property
    def axes(self) -> tuple[np.ndarray, np.ndarray]:
        ahead = forward_vectors(self.facings)
        return ahead[:, 0], ahead[:, 1]
