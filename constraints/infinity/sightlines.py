"""Which straight 3-D segments pass clear of the blocking volumes (Line of Fire, docs/rules.md
§13.10, decision A23).

Every volume that blocks is vertical: scenery is a prism (a footprint polygon from `low` to
`high`), a trooper a cylinder (its base's disc from its level to its Silhouette's top).  So a
segment's height is linear in its parameter t, and where its plane shadow is inside a
footprint is a union of t-intervals; the segment passes through the volume's interior iff,
on one of those intervals, its height range meets (low, high) by more than EPS.  Both tests
are exact (up to EPS) and run on many segments at once (numpy).  Touching a wall's face,
grazing a corner, or running along a roof is not crossing it.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

import numpy as np
import shapely

EPS = 1e-7  # inches: closer than this to a volume's boundary is touching, not crossing


@dataclass(frozen=True)
class Cylinder:
    """A vertical cylinder: a trooper's Silhouette, or a zone."""

    ident: str
    centre: tuple[float, float]
    radius: float
    low: float
    high: float


@dataclass(frozen=True, eq=False)
class Prism:
    """Scenery: a footprint rising from `low` to `high`."""

    ident: str
    footprint: shapely.Polygon
    low: float
    high: float

    @cached_property
    def convex(self) -> tuple[np.ndarray, np.ndarray] | None:
        """For a convex footprint: each edge's outward unit normal and a point on it (the
        Cyrus-Beck clip, `_crosses_convex`); None otherwise."""
        hull = self.footprint.convex_hull
        if self.footprint.interiors or hull.area - self.footprint.area > 1e-9 * hull.area:
            return None
        ring = shapely.geometry.polygon.orient(hull, 1.0).exterior   # counter-clockwise
        xy = np.asarray(ring.coords)
        e = xy[1:] - xy[:-1]
        keep = np.hypot(e[:, 0], e[:, 1]) > 1e-12
        e, a = e[keep], xy[:-1][keep]
        normal = np.stack([e[:, 1], -e[:, 0]], axis=1) / np.hypot(e[:, 0], e[:, 1])[:, None]
        return normal, a

    def edges(self) -> tuple[np.ndarray, np.ndarray]:
        rings = [self.footprint.exterior, *self.footprint.interiors]
        a, b = [], []
        for ring in rings:
            xy = np.asarray(ring.coords)
            a.append(xy[:-1])
            b.append(xy[1:])
        return np.concatenate(a), np.concatenate(b)


def _height_meets(pz: np.ndarray, qz: np.ndarray, t0: np.ndarray, t1: np.ndarray,
                  low: float, high: float) -> np.ndarray:
    """Whether the segments' heights (pz -> qz, broadcast against t) over [t0, t1] meet the
    open interval (low, high)."""
    z0, z1 = pz + t0 * (qz - pz), pz + t1 * (qz - pz)
    found: np.ndarray = (np.minimum(z0, z1) < high - EPS) & (np.maximum(z0, z1) > low + EPS)
    return found


def crosses_prism(p: np.ndarray, q: np.ndarray, prism: Prism) -> np.ndarray:
    """For segments p[i] -> q[i] (arrays (n, 3)), whether each crosses the prism's interior."""
    convex = prism.convex
    return _crosses_prism(p, q, prism) if convex is None \
        else _crosses_convex(p, q, prism, *convex)


def _crosses_convex(p: np.ndarray, q: np.ndarray, prism: Prism, normal: np.ndarray,
                    a: np.ndarray) -> np.ndarray:
    """A convex footprint: the segment's shadow is strictly inside it for t in one open
    interval (Cyrus-Beck: inside every edge's half-plane by more than EPS)."""
    d = q[:, :2] - p[:, :2]
    num = np.einsum("nmk,mk->nm", p[:, None, :2] - a[None, :, :], normal)  # (n, m)
    den = d @ normal.T                                        # (n, m)
    with np.errstate(divide="ignore", invalid="ignore"):
        bound = -(num + EPS) / den
    entering, leaving = den < -1e-15, den > 1e-15
    t0 = np.maximum(np.where(entering, bound, -np.inf).max(axis=1), 0.0)
    t1 = np.minimum(np.where(leaving, bound, np.inf).min(axis=1), 1.0)
    parallel_out = (~entering & ~leaving & (num > -EPS)).any(axis=1)
    length = np.hypot(d[:, 0], d[:, 1])
    thin = length <= 1e-12
    inside = ~parallel_out & (t1 > t0) & ((t1 - t0) * length > EPS) | \
        (thin & ~parallel_out & (t1 >= t0))
    t0, t1 = np.where(inside, t0, 0.0), np.where(inside, t1, 0.0)
    return inside & _height_meets(p[:, 2], q[:, 2], t0, t1, prism.low, prism.high)


def _crosses_prism(p: np.ndarray, q: np.ndarray, prism: Prism) -> np.ndarray:
    a, b = prism.edges()
    d = q[:, :2] - p[:, :2]                     # (n, 2)
    e = b - a                                   # (m, 2)
    w = a[None, :, :] - p[:, None, :2]          # (n, m, 2)
    denom = d[:, None, 0] * e[None, :, 1] - d[:, None, 1] * e[None, :, 0]
    with np.errstate(divide="ignore", invalid="ignore"):
        t = (w[..., 0] * e[None, :, 1] - w[..., 1] * e[None, :, 0]) / denom
        u = (w[..., 0] * d[:, None, 1] - w[..., 1] * d[:, None, 0]) / denom
    ok = (np.abs(denom) > 1e-15) & (u >= -1e-12) & (u <= 1 + 1e-12) & (t > 0) & (t < 1)
    t = np.where(ok, t, np.nan)
    n = len(p)
    ts = np.sort(np.concatenate([np.zeros((n, 1)), t, np.ones((n, 1))], axis=1), axis=1)
    t0, t1 = ts[:, :-1], ts[:, 1:]
    real = np.isfinite(t0) & np.isfinite(t1) & (t1 - t0 > 1e-12)
    mid = np.where(real, (t0 + t1) / 2.0, 0.0)
    x = p[:, 0, None] + mid * d[:, 0, None]
    y = p[:, 1, None] + mid * d[:, 1, None]
    inside = shapely.contains_xy(prism.footprint, x, y) & real
    if not inside.any():
        return np.zeros(n, dtype=bool)
    meets = _height_meets(p[:, 2, None], q[:, 2, None], np.where(inside, t0, 0.0),
                          np.where(inside, t1, 0.0), prism.low, prism.high)
    # Inside the footprint only a hair: along a face, not through the volume.
    long_enough = (t1 - t0) * np.hypot(d[:, 0], d[:, 1])[:, None] > EPS
    thin = np.hypot(d[:, 0], d[:, 1]) <= 1e-12  # a vertical segment: its one point inside
    return bool_any(inside & meets & (long_enough | thin[:, None]))


def bool_any(a: np.ndarray) -> np.ndarray:
    found = np.asarray(a, dtype=bool).any(axis=1)
    return np.asarray(found)


def crosses_cylinder(p: np.ndarray, q: np.ndarray, c: Cylinder) -> np.ndarray:
    """For segments p[i] -> q[i], whether each crosses the cylinder's interior."""
    d = q[:, :2] - p[:, :2]
    f = p[:, :2] - np.asarray(c.centre)
    aa = (d * d).sum(axis=1)
    bb = 2.0 * (d * f).sum(axis=1)
    cc = (f * f).sum(axis=1) - c.radius ** 2
    disc = bb * bb - 4.0 * aa * cc
    flat = aa <= 1e-24
    with np.errstate(divide="ignore", invalid="ignore"):
        root = np.sqrt(np.maximum(disc, 0.0))
        t0 = np.where(flat, 0.0, (-bb - root) / (2.0 * aa))
        t1 = np.where(flat, 1.0, (-bb + root) / (2.0 * aa))
    t0, t1 = np.clip(t0, 0.0, 1.0), np.clip(t1, 0.0, 1.0)
    across: np.ndarray = np.where(flat, cc < -EPS,
                                  (disc > 0) & ((t1 - t0) * np.sqrt(aa) > EPS))
    found: np.ndarray = across & _height_meets(p[:, 2], q[:, 2], t0, t1, c.low, c.high)
    return found


def _box(b: Prism | Cylinder) -> tuple[float, float, float, float]:
    if isinstance(b, Prism):
        x0, y0, x1, y1 = b.footprint.bounds
        return (x0, y0, x1, y1)
    (x, y), r = b.centre, b.radius
    return (x - r, y - r, x + r, y + r)


def clear(p: np.ndarray, q: np.ndarray, blockers: tuple[Prism | Cylinder, ...]) -> np.ndarray:
    """Whether each segment p[i] -> q[i] crosses none of the blockers (a segment whose box
    misses a blocker's, in the plane or in height, is not asked about it)."""
    lo, hi = np.minimum(p, q), np.maximum(p, q)
    blocked = np.zeros(len(p), dtype=bool)
    for b in blockers:
        x0, y0, x1, y1 = _box(b)
        maybe = ~blocked & (lo[:, 2] < b.high - EPS) & (hi[:, 2] > b.low + EPS) \
            & (lo[:, 0] < x1) & (hi[:, 0] > x0) & (lo[:, 1] < y1) & (hi[:, 1] > y0)
        idx = np.flatnonzero(maybe)
        if not len(idx):
            continue
        hit = crosses_prism(p[idx], q[idx], b) if isinstance(b, Prism) \
            else crosses_cylinder(p[idx], q[idx], b)
        blocked[idx[hit]] = True
    found: np.ndarray = ~blocked
    return found
