"""Obstacles grown by a clearance (Reform Moves, docs/rules.md §8.9; Infinity walks).

The zone a centre must stay out of
----------------------------------
A walking model's centre keeps more than a clearance r from every obstacle (r is half its
base's smaller side plus the mid-move spacing, docs/rules.md §8.9).  The points within r of
an obstacle form the obstacle grown by r with round corners.  `grown` replaces it by a
polygon G: every edge pushed out by r + STRICT_IN, and every outward corner's arc of that
radius circumscribed by tangent segments, their corners at most ROUNDING_IN (0.001") past r.
So G holds every point within r of an obstacle and a hair (1e-9", so that a path exactly at
r, as far as floats can tell, is refused: "more than r"), and every point of G lies within
r + 0.001" of one.  A path clear of G's interior keeps more than r everywhere, and a path
that keeps r + 0.001" is clear of G's interior: the approximation can only refuse, and only
a path that comes within 0.001" of the limit.  A path touching G's outline from one side
is the infimum of the legal paths beside it.  (shapely's round buffer cuts inside the true
arc, and a mitre join reaches far past a sharp corner: docs/techniques.md §6.)
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np
import shapely
from shapely.geometry import Polygon

from constraints.geometry.parts import holding_union

ROUNDING_IN = 0.001  # how far past the clearance a grown corner may reach
STRICT_IN = 1e-9     # pushed out this much more, so a path exactly at the clearance is refused
TURN_EPS = 1e-9      # relative cross product below which three points count as collinear


def grown(obstacles: Sequence[shapely.Geometry], clearance_in: float) -> shapely.Geometry:
    """The obstacles grown by `clearance_in` with circumscribed round corners.

    A convex polygon grows into one convex polygon: its edges pushed out, joined by the
    corners' arcs.  Any other is the union of itself, a strip outside each edge and a fan at
    each outward corner: a point near it is nearest to an edge (so in its strip) or to an
    outward corner (so in its fan).  Edges are pushed out by clearance + STRICT_IN, arc
    corners reach at most clearance + ROUNDING_IN.
    """
    push, reach = clearance_in + STRICT_IN, clearance_in + ROUNDING_IN
    pieces: list[shapely.Geometry] = []
    for shape in obstacles:
        for poly in getattr(shape, "geoms", [shape]):
            poly = shapely.orient_polygons(shapely.remove_repeated_points(poly))
            if poly.is_empty or clearance_in <= 0:
                pieces.append(poly)
                continue
            rings = [_Ring(np.asarray(r.coords)[:-1, :2], push, reach)
                     for r in [poly.exterior, *poly.interiors]]
            if len(rings) == 1 and rings[0].convex():
                pieces.append(Polygon(np.vstack(rings[0].arcs())))
                continue
            pieces.append(poly)
            for ring in rings:
                pieces += ring.strips() + ring.fans()
    # Checked to cover every piece: an overlay that lost one would let a path through.
    return holding_union(pieces) if pieces else Polygon()


class _Ring:
    """One ring of an obstacle, walked with the obstacle on its left, and what growing it
    by `push` adds: strips outside its edges and arcs round its outward corners."""

    def __init__(self, pts: np.ndarray, push: float, reach: float) -> None:
        self.pts, self.push = pts, push
        self.step = 2.0 * math.acos(push / reach)  # widest angle one arc segment may cover
        edge = np.roll(pts, -1, axis=0) - pts      # edge k runs from pts[k] to pts[k + 1]
        self.length = np.hypot(*edge.T)
        self.along = edge / self.length[:, None]
        self.out = np.column_stack([self.along[:, 1], -self.along[:, 0]])  # away from it
        a, b = np.roll(self.along, 1, axis=0), self.along  # into and out of corner k
        self.turn = np.arctan2(a[:, 0] * b[:, 1] - a[:, 1] * b[:, 0], np.sum(a * b, axis=1))
        self.half = self.turn / np.maximum(1.0, np.ceil(self.turn / self.step)) / 2.0

    def convex(self) -> bool:
        """Whether the ring only turns left, and each edge is long enough to hold the ends of
        its two corners' arcs in order (else the joined outline would cross itself)."""
        ends = self.push * (np.tan(np.clip(self.half, 0, None))
                            + np.roll(np.tan(np.clip(self.half, 0, None)), -1))
        return bool(np.all(self.turn > -TURN_EPS) and np.all(ends < self.length))

    def arcs(self) -> list[np.ndarray]:
        """The corners of each outward corner's arc, in order round the ring."""
        return [self._arc(int(k)) for k in np.flatnonzero(self.turn > TURN_EPS)]

    def strips(self) -> list[Polygon]:
        nxt, shift = np.roll(self.pts, -1, axis=0), self.push * self.out
        return list(shapely.polygons(np.stack([self.pts, nxt, nxt + shift, self.pts + shift],
                                              axis=1)))

    def fans(self) -> list[Polygon]:
        found = []
        for k in np.flatnonzero(self.turn > TURN_EPS).tolist():
            v, n_in, n_out = self.pts[k], self.out[k - 1], self.out[k]
            found.append(Polygon([v, v + self.push * n_in, *self._arc(k),
                                  v + self.push * n_out]))
        return found

    def _arc(self, k: int) -> np.ndarray:
        """The arc of radius `push` about corner k, circumscribed by tangent segments of
        equal angle (at most `step`) whose corners lie at push / cos(half that angle).  The
        first and last corners are put on the two edges' pushed-out lines directly, so a
        path along such a line meets no rounding error there."""
        v, u_in, u_out = self.pts[k], self.along[k - 1], self.along[k]
        n_in, n_out, half = self.out[k - 1], self.out[k], float(self.half[k])
        count = round(float(self.turn[k]) / (2.0 * half))
        angles = math.atan2(n_in[1], n_in[0]) + half * (2.0 * np.arange(count) + 1.0)
        corners = v + self.push / math.cos(half) * np.column_stack([np.cos(angles),
                                                                    np.sin(angles)])
        corners[0] = v + self.push * (n_in + math.tan(half) * u_in)
        corners[-1] = v + self.push * (n_out - math.tan(half) * u_out)
        return corners
