"""Vectorised plane geometry for batch queries: rectangles' corners, exact distances between
convex polygons, and containment, over N poses at once (numpy, in chunks)."""

from __future__ import annotations

import numpy as np

CHUNK = 8_192  # polygons at a time: (K, M, n) temporaries stay small


def rectangle_corners(centres: np.ndarray, facings_deg: np.ndarray,
                      width: np.ndarray | float, depth: np.ndarray | float) -> np.ndarray:
    """(N, 4, 2) corners: front-left, front-right, rear-right, rear-left."""
    rad = np.radians(facings_deg)
    f = np.stack([np.cos(rad), np.sin(rad)], axis=-1)
    r = np.stack([f[:, 1], -f[:, 0]], axis=-1)
    hw, hd = (np.asarray(width) / 2.0)[..., None], (np.asarray(depth) / 2.0)[..., None]
    signs = np.array([(-1, 1), (1, 1), (1, -1), (-1, -1)], dtype=float)
    return (centres[:, None, :] + signs[None, :, :1] * (hw * r)[:, None, :]
            + signs[None, :, 1:] * (hd * f)[:, None, :])


def _point_segment(px: np.ndarray, py: np.ndarray, ax: np.ndarray, ay: np.ndarray,
                   bx: np.ndarray, by: np.ndarray) -> np.ndarray:
    """Distance from points p to segments ab, all arguments broadcast together."""
    abx, aby = bx - ax, by - ay
    denom = np.maximum(abx * abx + aby * aby, 1e-300)
    t = (px - ax) * abx
    t += (py - ay) * aby
    t /= denom
    np.clip(t, 0.0, 1.0, out=t)
    return np.hypot(px - (ax + t * abx), py - (ay + t * aby))


def _apart_along(nx: np.ndarray, ny: np.ndarray, xs: np.ndarray, ys: np.ndarray,
                 qx: np.ndarray, qy: np.ndarray) -> np.ndarray:
    """Whether the vertices (xs, ys) and (qx, qy) project to disjoint intervals on the axis
    (nx, ny), for every axis (leading dimension) and polygon (last)."""
    a = xs * nx[:, None] + ys * ny[:, None]
    b = qx * nx[:, None] + qy * ny[:, None]
    a_lo, a_hi, b_lo, b_hi = a.min(axis=1), a.max(axis=1), b.min(axis=1), b.max(axis=1)
    return ((a_hi < b_lo) | (b_hi < a_lo)).any(axis=0)


def _overlap_xy(xs: np.ndarray, ys: np.ndarray, piece: np.ndarray) -> np.ndarray:
    """Whether each convex polygon ((K, n) corners) meets the convex piece (M, 2): no edge
    normal of either separates them (separating axis theorem)."""
    qx, qy = piece[None, :, 0, None], piece[None, :, 1, None]  # (1, M, 1)
    ex, ey = np.roll(xs, -1, axis=0) - xs, np.roll(ys, -1, axis=0) - ys
    own = _apart_along(ey, -ex, xs[None], ys[None], qx, qy)
    edges = np.roll(piece, -1, axis=0) - piece
    theirs = _apart_along(edges[:, 1, None], -edges[:, 0, None], xs[None], ys[None], qx, qy)
    return ~(own | theirs)


def convex_distance_xy(xs: np.ndarray, ys: np.ndarray, piece: np.ndarray) -> np.ndarray:
    """Exact distance from each convex polygon ((K, n) corner x and y) to a convex piece
    (M, 2); 0 where they meet.  Disjoint convex polygons are closest between a vertex of one
    and an edge of the other."""
    out = np.empty(xs.shape[1])
    qx, qy = piece[:, 0], piece[:, 1]
    rx, ry = np.roll(qx, -1), np.roll(qy, -1)
    edge = (qx[None, :, None], qy[None, :, None], rx[None, :, None], ry[None, :, None])
    for lo in range(0, xs.shape[1], CHUNK):
        px, py = xs[:, lo:lo + CHUNK], ys[:, lo:lo + CHUNK]  # (K, n)
        # Polygon vertices (K, 1, n) to piece edges (1, M, 1); piece vertices (M, 1, 1) to
        # polygon edges (1, K, n).
        d1 = _point_segment(px[:, None], py[:, None], *edge)
        d2 = _point_segment(qx[:, None, None], qy[:, None, None], px[None], py[None],
                            np.roll(px, -1, axis=0)[None], np.roll(py, -1, axis=0)[None])
        near = np.minimum(d1.min(axis=(0, 1)), d2.min(axis=(0, 1)))
        out[lo:lo + CHUNK] = np.where(_overlap_xy(px, py, piece), 0.0, near)
    return out


def convex_distance(polys: np.ndarray, piece: np.ndarray) -> np.ndarray:
    """Exact distance from each convex polygon (N, K, 2) to a convex piece (M, 2); 0 where
    they meet."""
    return convex_distance_xy(polys[..., 0].T, polys[..., 1].T, piece)


def overhang(polys: np.ndarray, width: float, depth: float) -> np.ndarray:
    """How far each polygon (N, K, 2) reaches past the table [0, width] x [0, depth];
    negative: how far inside it stays from the nearest edge."""
    lo, hi = polys.min(axis=1), polys.max(axis=1)
    return np.maximum.reduce([-lo[:, 0], -lo[:, 1], hi[:, 0] - width, hi[:, 1] - depth])
