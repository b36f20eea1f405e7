"""Per-pose kernels of the batch mask (optimizer.batch): poses grouped by way, corners as
struct-of-arrays, one cache-sized chunk at a time.

A chunk's poses are grouped by way, the distinct (pivot, facing) pairs (np.unique on one 1-D
key).  Everything that depends on the way alone (trigonometry, the wheel's shift, the first
leg's sweep bound in optimizer.batch_sweep) is computed once per way and gathered per pose;
what is left per pose is a few dozen float64 operations on (4, n) corner arrays.  Clearance
from obstacles is settled by bounding boxes and separating axes for all but the few poses
near a piece, which get the exact distance.

Bit for bit: each per-pose quantity is computed by the same floating-point operations, in the
same order, as the plain (N, 4, 2) formulation (constraints.reach.solve_2x2,
optimizer.geometry_np.rectangle_corners, np.linalg.norm), so the verdicts are that
formulation's, not approximations of it.  tests/test_batch_mask.py checks this.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

import numpy as np

from constraints.geometry.convex import ConvexPiece, convex_distance_xy

CHUNK = 32_768  # poses per chunk: the (4, n) corner arrays and their temporaries stay in cache
FAR_SLACK = 1e-6  # a bounding-box lower bound this far past the need is past it for certain


def chunks(n: int) -> list[slice]:
    return [slice(lo, min(lo + CHUNK, n)) for lo in range(0, n, CHUNK)]


# -- ways ---------------------------------------------------------------------------------------











# -- the end position ---------------------------------------------------------------------------

def within_reach(xs: np.ndarray, ys: np.ndarray, start: np.ndarray,
                 limit: float) -> np.ndarray:
    """Whether no corner of each polygon ((4, n) corners) is more than `limit` from the
    nearest of the `start` corners (Valid Final Position).  Each corner's distance to the
    start corner of the same index bounds that from above (it is one of the distances the
    minimum is taken over), which settles most poses; the rest are measured in full."""
    same = np.zeros(xs.shape[1])
    for k, (sx, sy) in enumerate(start):
        dx, dy = xs[k] - sx, ys[k] - sy
        dx *= dx
        dy *= dy
        dx += dy
        np.maximum(same, dx, out=same)
    ok = np.sqrt(same) <= limit
    rest = np.flatnonzero(~ok)
    ok[rest] = farthest_nearest(xs[:, rest], ys[:, rest], start) <= limit
    return ok


def farthest_nearest(xs: np.ndarray, ys: np.ndarray, start: np.ndarray) -> np.ndarray:
    """For each polygon, the largest distance from one of its corners to the nearest of the
    `start` corners.  Squared distances, and one square root at the end: sqrt is monotone
    and correctly rounded, so this equals max min np.linalg.norm bit for bit."""
    nearest = np.full(xs.shape, np.inf)
    dx, dy = np.empty(xs.shape), np.empty(xs.shape)
    for sx, sy in start:
        np.subtract(xs, sx, out=dx)
        np.subtract(ys, sy, out=dy)
        dx *= dx
        dy *= dy
        dx += dy
        np.minimum(nearest, dx, out=nearest)
    return np.sqrt(nearest.max(axis=0))


@dataclass(frozen=True)
class Boxes:
    """Axis-aligned bounding boxes of n polygons given as (K, n) x and y."""

    lo_x: np.ndarray
    lo_y: np.ndarray
    hi_x: np.ndarray
    hi_y: np.ndarray

    @classmethod
    def of(cls, xs: np.ndarray, ys: np.ndarray) -> Boxes:
        return cls(xs.min(axis=0), ys.min(axis=0), xs.max(axis=0), ys.max(axis=0))

    @cached_property
    def extent(self) -> tuple[float, float, float, float]:
        """The box of all the boxes (lo x, lo y, hi x, hi y): inf when there are none."""
        if not len(self.lo_x):
            return (np.inf, np.inf, -np.inf, -np.inf)
        return (float(self.lo_x.min()), float(self.lo_y.min()), float(self.hi_x.max()),
                float(self.hi_y.max()))

    def overhang_ok(self, width: float, depth: float, tol: float) -> np.ndarray:
        """Whether each polygon stays on the table [0, width] x [0, depth] but for `tol`
        (geometry_np.overhang <= tol, one comparison per side)."""
        ok = -self.lo_x <= tol
        ok &= -self.lo_y <= tol
        ok &= self.hi_x - width <= tol
        ok &= self.hi_y - depth <= tol
        return ok

    def apart(self, lo: np.ndarray, hi: np.ndarray, gap: float) -> np.ndarray | bool:
        """Whether each box is more than `gap` from the box [lo, hi] along x or y (then the
        polygons are too: the distance is at least the gap along either axis).  A plain
        bool when all the boxes are."""
        lo_x, lo_y, hi_x, hi_y = self.extent
        if max(lo_x - hi[0], lo[0] - hi_x, lo_y - hi[1], lo[1] - hi_y) > gap:
            return True
        out = self.lo_x - hi[0] > gap
        out |= lo[0] - self.hi_x > gap
        out |= self.lo_y - hi[1] > gap
        out |= lo[1] - self.hi_y > gap
        return out


def clear_of(xs: np.ndarray, ys: np.ndarray, boxes: Boxes, axes: tuple[np.ndarray, np.ndarray],
             pieces: list[ConvexPiece], need: float, todo: np.ndarray) -> np.ndarray:
    """Whether each polygon in `todo` ((K, n) corners, with a unit axis (n,) along one of its
    edges) is more than `need` from every convex piece (False outside `todo`).  Bounding
    boxes, then the polygon's own axes, settle the far ones (separating axes: the gap along
    any unit axis is at most the distance); geometry_np.convex_distance_xy measures the rest."""
    ok = todo.copy()
    gap = need + FAR_SLACK
    for piece in pieces:
        far = boxes.apart(piece.vertices.min(axis=0), piece.vertices.max(axis=0), gap)
        if far is True:
            continue
        near = np.flatnonzero(ok & ~far)
        sub_x, sub_y = xs[:, near], ys[:, near]
        near = near[~apart_along(sub_x, sub_y, axes[0][near], axes[1][near], piece, gap)]
        if len(near):
            ok[near] = convex_distance_xy(xs[:, near], ys[:, near], piece.vertices) > need
    return ok


def apart_along(xs: np.ndarray, ys: np.ndarray, ux: np.ndarray, uy: np.ndarray,
                piece: ConvexPiece, gap: float) -> np.ndarray:
    """Whether each polygon ((K, m) corners) is more than `gap` from the piece along its
    unit axis (ux, uy) or the axis square to it."""
    v = piece.vertices
    out = np.zeros(len(ux), dtype=bool)
    for ax, ay in ((ux, uy), (uy, -ux)):
        poly = xs * ax + ys * ay
        obstacle = v[:, :1] * ax + v[:, 1:] * ay
        out |= poly.min(axis=0) - obstacle.max(axis=0) > gap
        out |= obstacle.min(axis=0) - poly.max(axis=0) > gap
    return out
