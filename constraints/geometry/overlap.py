"""How deep two convex polygons overlap, and the area a convex polygon sweeps moving straight.

Exact plane geometry on vertex arrays (inches), for the checkers of moves without rotation
(nudges): a unit "moves through" something when the area it sweeps overlaps it deeper than
the contact tolerance, and touches it when their distance is within that tolerance.
"""

from __future__ import annotations

import numpy as np
import shapely
from shapely.geometry import Polygon

from constraints.geometry.convex import convex_pieces, edge_normals
from constraints.geometry.frame import Frame


def penetration(a: np.ndarray, b: np.ndarray) -> float:
    """How far two convex polygons overlap: the least shift that separates them (> 0), or
    minus their gap along the best separating axis (<= 0).

    Separating-axis theorem: for convex polygons the least separating shift lies along one
    of the two polygons' edge normals, so the minimum of the projections' overlaps over those
    normals is the penetration depth exactly."""
    axes = np.concatenate([edge_normals(a), edge_normals(b)])
    pa, pb = a @ axes.T, b @ axes.T
    overlap = np.minimum(pa.max(axis=0), pb.max(axis=0)) - np.maximum(pa.min(axis=0),
                                                                       pb.min(axis=0))
    return float(overlap.min())


def meeting_interval(mover: np.ndarray, fixed: np.ndarray,
                     direction: np.ndarray) -> tuple[float, float] | None:
    """The offsets s at which convex `mover` moved by s * `direction` meets convex `fixed`
    (touching included): a closed interval, or None when it never does.

    Separating-axis theorem: they meet iff their projections overlap on every edge normal of
    either, and each axis bounds s linearly, so the interval is exact (no hull is built: a
    search asks this thousands of times per request)."""
    axes = np.concatenate([edge_normals(mover), edge_normals(fixed)])
    k = axes @ np.asarray(direction, dtype=float)
    pm, pf = mover @ axes.T, fixed @ axes.T
    low, high = pf.min(axis=0) - pm.max(axis=0), pf.max(axis=0) - pm.min(axis=0)
    flat = np.abs(k) < 1e-12  # an axis across the motion: its overlap never changes
    if np.any(flat & ((low > 0) | (high < 0))):
        return None
    k, low, high = k[~flat], low[~flat], high[~flat]
    ends = np.stack([low / k, high / k])
    lo = float(ends.min(axis=0).max(initial=-np.inf))
    hi = float(ends.max(axis=0).min(initial=np.inf))
    return (lo, hi) if lo <= hi else None


def swept(vertices: np.ndarray, shift: np.ndarray) -> np.ndarray:
    """The area a convex polygon sweeps when it moves straight by `shift`: the convex hull of
    where it starts and where it ends (exact for a translation of a convex shape)."""
    both = np.concatenate([vertices, vertices + shift])
    hull = shapely.MultiPoint([tuple(p) for p in both]).convex_hull
    if not isinstance(hull, Polygon):  # a zero shift of a degenerate polygon: itself
        return vertices
    return np.asarray(shapely.orient_polygons(hull).exterior.coords[:-1])


def convex_parts(shape: Polygon) -> list[np.ndarray]:
    """A simple polygon as convex vertex arrays (itself when convex, else triangles)."""
    # A frame at the origin facing +y is the identity: the pieces keep world coordinates.
    return [piece.vertices for piece in convex_pieces("", shape, Frame((0.0, 0.0), 90.0))]
