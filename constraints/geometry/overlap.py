"""How deep two convex polygons overlap, and the area a convex polygon sweeps moving straight.

Exact plane geometry on vertex arrays (inches), for the checkers of moves without rotation
(nudges): a unit "moves through" something when the area it sweeps overlaps it deeper than
the contact tolerance, and touches it when their distance is within that tolerance.
"""

from __future__ import annotations

import numpy as np
import shapely
from shapely.geometry import Polygon

from constraints.geometry.convex import convex_pieces
from constraints.geometry.frame import Frame


def edge_normals(vertices: np.ndarray) -> np.ndarray:
    """Unit normals of a convex polygon's edges, shape (k, 2) (degenerate edges dropped)."""
    d = np.roll(vertices, -1, axis=0) - vertices
    n = np.stack([d[:, 1], -d[:, 0]], axis=1)
    length = np.hypot(n[:, 0], n[:, 1])
    keep = length > 1e-12
    return n[keep] / length[keep, None]


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
