"""Snaking ways over many poses at once (the batch mask): poses grouped by way, their legs and
end corners as struct-of-arrays.

A chunk's poses are grouped by way, the distinct (pivot, facing) pairs (np.unique on one 1-D
key).  Everything that depends on the way alone (trigonometry, the wheel's shift) is computed
once per way and gathered per pose.  Each per-pose quantity is computed by the same
floating-point operations, in the same order, as the plain (N, 4, 2) formulation, so verdicts
are that formulation's, bit for bit (tests/test_batch_mask.py).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from constraints.geometry.plane import forward_vectors, signed_deg, solve_2x2
from constraints.geometry.wheel import wheel_shifts
from constraints.rank_and_file.unit import Unit

LEG_NOISE = 1e-9  # a leg this far below 0 is a rounding of 0 (as BatchJudge.ways)


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
    shift = np.where(wheel[:, None], wheel_shifts(
        unit.width_in, unit.depth_in, heading, delta), 0.0).T
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


def first_leg_ok(ways: Ways, inv: np.ndarray, a: np.ndarray, ok: np.ndarray,
                 bounds: WayBounds) -> np.ndarray:
    """Whether each pose in `ok` has a first leg within its way's bound (False outside `ok`);
    bounds are computed only for the ways some pose in `ok` still needs."""
    used = np.zeros(len(ways.delta), dtype=bool)
    used[inv[ok]] = True  # only ways some pose still needs: no bound for a NaN way
    bound = np.full(len(used), np.inf)
    bound[used] = bounds(ways.pivot[used], ways.delta[used])
    return ok & (a <= bound[inv])


def one_wheel_legs(unit: Unit, centres: np.ndarray, heading: np.ndarray,
                   delta: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Legs (a, b) of the one-wheel way (forward a, wheel `delta`, forward b, from
    `heading`) to each end centre, and whether it exists: the plain (N, 2) formulation that
    `legs` computes per way."""
    d = centres - np.asarray(unit.pose.centre)
    wheel = delta != 0
    shift = np.where(wheel[:, None],
                     wheel_shifts(unit.width_in, unit.depth_in, heading, delta), 0.0)
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
