"""Vectorised plane geometry for batch queries: rectangles' corners, exact distances between
convex polygons, and containment, over N poses at once (numpy, in chunks)."""

from __future__ import annotations

import numpy as np

CHUNK = 65_536


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


def _point_segment(p: np.ndarray, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    ab = b - a
    denom = np.maximum(np.sum(ab * ab, axis=-1), 1e-300)
    t = np.clip(np.sum((p - a) * ab, axis=-1) / denom, 0.0, 1.0)
    closest = a + t[..., None] * ab
    return np.hypot(*np.moveaxis(p - closest, -1, 0))


def _edge_normals(poly: np.ndarray) -> np.ndarray:
    edges = np.roll(poly, -1, axis=-2) - poly
    return np.stack([edges[..., 1], -edges[..., 0]], axis=-1)


def _overlap(polys: np.ndarray, piece: np.ndarray) -> np.ndarray:
    """Whether each convex polygon (N, K, 2) meets the convex piece (M, 2)."""
    axes = np.concatenate([_edge_normals(polys),
                           np.broadcast_to(_edge_normals(piece), (len(polys),) + piece.shape)],
                          axis=1)
    a = np.einsum("nkd,nmd->nmk", polys, axes)
    b = np.einsum("kd,nmd->nmk", piece, axes)
    apart = (a.max(axis=2) < b.min(axis=2)) | (b.max(axis=2) < a.min(axis=2))
    return ~apart.any(axis=1)


def convex_distance(polys: np.ndarray, piece: np.ndarray) -> np.ndarray:
    """Exact distance from each convex polygon (N, K, 2) to a convex piece (M, 2); 0 where
    they meet.  Disjoint convex polygons are closest between a vertex of one and an edge of
    the other."""
    out = np.empty(len(polys))
    for lo in range(0, len(polys), CHUNK):
        block = polys[lo:lo + CHUNK]
        p_next = np.roll(block, -1, axis=1)
        q_next = np.roll(piece, -1, axis=0)
        d1 = _point_segment(block[:, :, None, :], piece[None, None, :, :],
                            q_next[None, None, :, :]).min(axis=(1, 2))
        d2 = _point_segment(piece[None, :, None, :], block[:, None, :, :],
                            p_next[:, None, :, :]).min(axis=(1, 2))
        out[lo:lo + CHUNK] = np.where(_overlap(block, piece), 0.0, np.minimum(d1, d2))
    return out


def overhang(polys: np.ndarray, width: float, depth: float) -> np.ndarray:
    """How far each polygon (N, K, 2) reaches past the table [0, width] x [0, depth];
    negative: how far inside it stays from the nearest edge."""
    lo, hi = polys.min(axis=1), polys.max(axis=1)
    return np.maximum.reduce([-lo[:, 0], -lo[:, 1], hi[:, 0] - width, hi[:, 1] - depth])
