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

from constraints.domain import Unit
from constraints.encode_context import ConvexPiece
from constraints.reach import forward_vectors, signed_deg, wheel_shifts
from optimizer.geometry_np import convex_distance_xy

CHUNK = 32_768  # poses per chunk: the (4, n) corner arrays and their temporaries stay in cache
LEG_NOISE = 1e-9  # a leg this far below 0 is a rounding of 0 (as BatchJudge.ways)
FAR_SLACK = 1e-6  # a bounding-box lower bound this far past the need is past it for certain


def chunks(n: int) -> list[slice]:
    return [slice(lo, min(lo + CHUNK, n)) for lo in range(0, n, CHUNK)]


# -- ways ---------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Ways:
    """The distinct (pivot, facing) pairs of a chunk, what each implies, and each pose's."""

    pivot: np.ndarray  # (K,)
    facing: np.ndarray  # (K,)
    delta: np.ndarray  # (K,) the wheel, signed degrees
    inverse: np.ndarray  # (n,) each pose's way
    shift: np.ndarray  # (2, K) the wheel's centre displacement (0 without a wheel)
    fp: np.ndarray  # (2, K) forward before the wheel
    fe: np.ndarray  # (2, K) forward after the wheel
    det: np.ndarray  # (K,) of the 2x2 system [fp fe] (a, b) = d - shift
    f: np.ndarray  # (2, K) forward of the end facing (the end rectangle's frame)
    half_right: np.ndarray  # (2, K) half the width along the end rectangle's right
    half_ahead: np.ndarray  # (2, K) half the depth along its forward

    @property
    def wheel(self) -> np.ndarray:
        return self.delta != 0


def group_ways(unit: Unit, facings: np.ndarray, pivots: np.ndarray) -> Ways:
    """Group poses by way.  One pivot for all (a March) sorts a float64 key; mixed pivots
    sort (pivot, facing) rows packed into one complex128 key, never np.unique(axis=0)."""
    if len(pivots) and pivots.min() == pivots.max():
        facing, inverse = np.unique(facings, return_inverse=True)
        pivot = np.full(len(facing), pivots[0])
    else:
        keys = np.stack([pivots, facings], axis=1).view(np.complex128).reshape(-1)
        packed, inverse = np.unique(keys, return_inverse=True)
        pivot, facing = packed.real.copy(), packed.imag.copy()
    heading = unit.pose.facing_deg + pivot
    delta = signed_deg(facing - heading)
    wheel = delta != 0
    shift = np.where(wheel[:, None], wheel_shifts(unit, heading, delta), 0.0).T
    fp, fe = forward_vectors(heading).T, forward_vectors(heading + delta).T
    det = fp[0] * fe[1] - fp[1] * fe[0]
    f = forward_vectors(facing).T
    right = np.stack([f[1], -f[0]])
    return Ways(pivot, facing, delta, inverse.reshape(-1), np.ascontiguousarray(shift),
                np.ascontiguousarray(fp), np.ascontiguousarray(fe), det,
                np.ascontiguousarray(f), unit.width_in / 2.0 * right, unit.depth_in / 2.0 * f)


def legs(ways: Ways, dx: np.ndarray, dy: np.ndarray) -> tuple[np.ndarray, np.ndarray,
                                                                 np.ndarray]:
    """Legs (a, b) of the one-wheel way to each pose (offset (dx, dy) from the start centre),
    clipped at 0, and whether the way exists (as BatchJudge.ways, per pose)."""
    inv = ways.inverse
    fp0, fp1 = ways.fp[0][inv], ways.fp[1][inv]
    rx, ry = dx - ways.shift[0][inv], dy - ways.shift[1][inv]
    det = np.where(np.abs(ways.det) < 1e-12, np.nan, ways.det)[inv]  # singular: no way
    a = rx * ways.fe[1][inv]
    a -= ry * ways.fe[0][inv]
    a /= det
    b = fp0 * ry
    b -= fp1 * rx
    b /= det
    straight = ~ways.wheel
    if straight.any():  # no wheel: straight ahead only, a the distance along the heading
        along = dx * fp0 + dy * fp1
        across = np.abs(dx * fp1 - dy * fp0)
        still = straight[inv]
        a = np.where(still, along, a)
        b = np.where(still, 0.0, b)
        ok = ~still | (across <= LEG_NOISE)
    else:
        ok = np.ones(len(inv), dtype=bool)
    ok &= (a >= -LEG_NOISE) & (b >= -LEG_NOISE) & np.isfinite(a) & np.isfinite(b)
    return np.maximum(a, 0.0, out=a), np.maximum(b, 0.0, out=b), ok


def end_corners(ways: Ways, inv: np.ndarray, cx: np.ndarray,
                cy: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(4, n) x and y of the end rectangles' corners: front-left, front-right, rear-right,
    rear-left, summed as geometry_np.rectangle_corners sums them: (c -+ w/2 r) +- d/2 f."""
    xs, ys = np.empty((4, len(inv))), np.empty((4, len(inv)))
    for axis, (out, c) in enumerate(((xs, cx), (ys, cy))):
        r, fwd = ways.half_right[axis][inv], ways.half_ahead[axis][inv]
        left, right = c - r, c + r
        np.add(left, fwd, out=out[0])
        np.add(right, fwd, out=out[1])
        np.subtract(right, fwd, out=out[2])
        np.subtract(left, fwd, out=out[3])
    return xs, ys


def front_sweep(xs: np.ndarray, ys: np.ndarray, back_x: np.ndarray,
                back_y: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(4, n) parallelogram swept by the front in the last leg: the front corners moved back
    by (back_x, back_y), then the front corners."""
    return (np.stack([xs[0] - back_x, xs[1] - back_x, xs[1], xs[0]]),
            np.stack([ys[0] - back_y, ys[1] - back_y, ys[1], ys[0]]))


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
