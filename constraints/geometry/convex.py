"""Vectorised plane geometry for batch queries: rectangles' corners, exact distances between
convex polygons, and containment, over N poses at once (numpy, in chunks)."""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import cached_property

import numpy as np
import shapely
from shapely.geometry import Polygon

from constraints.geometry.frame import Frame

CHUNK = 8_192  # polygons at a time: (K, M, n) temporaries stay small




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


# Corner fans every 7.5 deg: the circumscribed polygon overshoots a gap g by g (1/cos 3.75 - 1),
# about 0.002" at 1".
FAN_STEP_DEG = 7.5


def edge_normals(vertices: np.ndarray) -> np.ndarray:
    """Unit normals of a convex polygon's edges, shape (k, 2) (degenerate edges dropped);
    outward for counter-clockwise vertices."""
    d = np.roll(vertices, -1, axis=0) - vertices
    n = np.stack([d[:, 1], -d[:, 0]], axis=1)
    length = np.hypot(n[:, 0], n[:, 1])
    keep = length >= 1e-12
    return n[keep] / length[keep, None]


@dataclass
class ConvexPiece:
    """A convex obstacle piece in frame inches: vertices (counter-clockwise) and its label."""

    label: str
    vertices: np.ndarray

    @cached_property
    def shape(self) -> Polygon:
        return Polygon(self.vertices)

    def edge_normals(self) -> list[tuple[tuple[float, float], float]]:
        """(outward unit normal n, offset e) of each edge: the piece lies in n . x <= e."""
        normals = edge_normals(self.vertices)
        offsets = (self.vertices @ normals.T).max(axis=0)
        return [((float(x), float(y)), float(e))
                for (x, y), e in zip(normals, offsets, strict=True)]

    def corner_fans(self, step_deg: float = FAN_STEP_DEG) -> list[tuple[float, float]]:
        """Unit directions between the normals of each vertex's two edges, at most
        `step_deg` apart: with the edge normals they are the edges of a polygon circumscribing
        the piece grown by any gap, which is what separating axes with a gap need at corners."""
        normals = [n for n, _ in self.edge_normals()]
        fans: list[tuple[float, float]] = []
        for k, after in enumerate(normals):
            before = normals[k - 1]
            start = math.atan2(before[1], before[0])
            turn = (math.atan2(after[1], after[0]) - start) % (2 * math.pi)
            count = math.ceil(math.degrees(turn) / step_deg)
            fans += [(math.cos(start + turn * i / count), math.sin(start + turn * i / count))
                     for i in range(1, count)]
        return fans

    def support(self, direction: tuple[float, float]) -> tuple[float, float]:
        """(min, max) of direction . v over the piece's vertices."""
        proj = self.vertices @ np.asarray(direction)
        return float(proj.min()), float(proj.max())


def convex_pieces(label: str, shape: Polygon, frame: Frame) -> list[ConvexPiece]:
    """The shape in frame coordinates, as itself if convex, else as triangles."""
    framed = Polygon([frame.point(p) for p in shape.exterior.coords[:-1]])
    framed = shapely.orient_polygons(framed)
    if framed.convex_hull.area - framed.area <= 1e-12 * max(1.0, framed.area):
        return [ConvexPiece(label, np.asarray(framed.exterior.coords[:-1]))]
    triangles = shapely.constrained_delaunay_triangles(framed)
    return [ConvexPiece(label, np.asarray(shapely.orient_polygons(t).exterior.coords[:-1]))
            for t in triangles.geoms]
