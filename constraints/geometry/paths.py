"""Shortest paths of model centres around obstacles (Reform Moves, docs/rules.md §5.5).

Obstacles (impassable terrain, other units) are grown by the mid-move spacing with a mitre
join: every mitred edge lies exactly at the spacing from its original edge and every corner
lies outside the round buffer, so the grown shape contains the true clearance zone.
(shapely's round buffer is not conservative: GEOS cuts its arcs inside the true circle,
docs/techniques.md §6.)  Paths run on the reduced visibility graph (docs/techniques.md §7):
the convex vertices of the grown shapes (a shortest path only bends there) with all-pairs
distances computed once, so a query is numpy work: the straight line when it is clear, else
the best "start -> visible vertex -> ... -> visible vertex -> end".  A path touching a grown
edge keeps exactly the spacing there, the infimum of legal paths.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import networkx as nx
import numpy as np
import shapely
from shapely.geometry import LineString, Point, Polygon

MITRE_LIMIT = 10.0  # a bevel at 10x the spacing still lies outside the round buffer


class PathFinder:
    """Lengths of shortest paths that keep clear of grown obstacles."""

    def __init__(self, obstacles: Sequence[Polygon], clearance_in: float) -> None:
        grown = [shapely.buffer(o, clearance_in, join_style="mitre", mitre_limit=MITRE_LIMIT)
                 for o in obstacles if not o.is_empty]
        self.region = shapely.union_all(grown) if grown else Polygon()
        shapely.prepare(self.region)
        self.vertices = self._convex_vertices()
        self.graph = self._visibility_graph()
        self.between = self._all_pairs()
        # Results derived from this finder's paths, kept by whoever computes them (e.g. a
        # Reform's safe discs, wanted by both the batch mask and the CP-SAT encoding).
        self.memo: dict[tuple, object] = {}

    def _convex_vertices(self) -> np.ndarray:
        """Vertices where the free space is reflex: outward corners of the grown region."""
        found = []
        polys = getattr(self.region, "geoms", [self.region])
        for poly in polys:
            if poly.is_empty:
                continue
            # Exterior counter-clockwise, holes clockwise: the obstacle is always on the left,
            # so its outward corners (where paths bend) are the left turns.
            poly = shapely.orient_polygons(poly)
            for ring in [poly.exterior, *poly.interiors]:
                pts = np.asarray(ring.coords)[:-1]
                u = pts - np.roll(pts, 1, axis=0)
                v = np.roll(pts, -1, axis=0) - pts
                found.append(pts[u[:, 0] * v[:, 1] - u[:, 1] * v[:, 0] > 0])
        return np.vstack(found) if found else np.empty((0, 2))

    def _blocked(self, a: np.ndarray, b: np.ndarray) -> np.ndarray:
        """Whether each segment a[k]-b[k] passes through the grown region's interior."""
        blocked = np.zeros(len(a), dtype=bool)
        if self.region.is_empty or not len(a):
            return blocked
        segments = shapely.linestrings(np.stack([a, b], axis=1))
        touching = np.asarray(shapely.intersects(self.region, segments))
        if touching.any():
            blocked[touching] = shapely.relate_pattern(self.region, segments[touching],
                                                       "T********")
        return blocked

    def _visibility_graph(self) -> nx.Graph:
        graph = nx.Graph()
        n = len(self.vertices)
        graph.add_nodes_from(range(n))
        i, j = np.triu_indices(n, k=1)
        if len(i):
            ok = ~self._blocked(self.vertices[i], self.vertices[j])
            lengths = np.hypot(*(self.vertices[i] - self.vertices[j]).T)
            graph.add_weighted_edges_from(zip(i[ok].tolist(), j[ok].tolist(),
                                              lengths[ok].tolist(), strict=True))
        return graph

    def _all_pairs(self) -> np.ndarray:
        if not len(self.vertices):
            return np.empty((0, 0))
        return np.asarray(nx.floyd_warshall_numpy(self.graph, nodelist=range(len(self.vertices))))

    def inside(self, point: tuple[float, float]) -> bool:
        return bool(self.region.contains(Point(point)))

    def clearance_of(self, points: np.ndarray) -> float:
        """Least distance from any of `points` to the grown obstacles (inf with none)."""
        if self.region.is_empty or not len(points):
            return math.inf
        return float(np.min(shapely.distance(self.region, shapely.points(points))))

    def _seen_from(self, point: np.ndarray) -> np.ndarray:
        """Straight distance to every vertex visible from `point` (inf where hidden)."""
        out = np.full(len(self.vertices), math.inf)
        if not len(self.vertices) or self.inside((float(point[0]), float(point[1]))):
            return out
        ok = ~self._blocked(np.repeat(point[None, :], len(self.vertices), 0), self.vertices)
        out[ok] = np.hypot(*(self.vertices[ok] - point).T)
        return out

    def lengths(self, sources: np.ndarray, targets: np.ndarray) -> np.ndarray:
        """(len(sources), len(targets)) shortest path lengths; inf where no path exists."""
        out = np.hypot(*(sources[:, None, :] - targets[None, :, :]).transpose(2, 0, 1))
        if self.region.is_empty or not self._near(np.vstack([sources, targets])):
            return out
        s_idx, t_idx = np.indices(out.shape).reshape(2, -1)
        blocked = self._blocked(sources[s_idx], targets[t_idx]).reshape(out.shape)
        if not blocked.any():
            return out
        rows, cols = np.unique(np.nonzero(blocked)[0]), np.unique(np.nonzero(blocked)[1])
        from_src = {s: self._via(self._seen_from(sources[s])) for s in rows}
        to_dst = {t: self._seen_from(targets[t]) for t in cols}
        for s, t in zip(*np.nonzero(blocked), strict=True):
            out[s, t] = float(np.min(from_src[s] + to_dst[t], initial=math.inf))
        return out

    def _near(self, points: np.ndarray) -> bool:
        """Whether the box around `points` (which holds every segment between them) meets
        the grown region's box; if not, every straight line is clear."""
        minx, miny, maxx, maxy = self.region.bounds
        lo, hi = points.min(axis=0), points.max(axis=0)
        return bool(lo[0] <= maxx and hi[0] >= minx and lo[1] <= maxy and hi[1] >= miny)

    def _via(self, seen: np.ndarray) -> np.ndarray:
        """Shortest distance to every vertex through the vertices seen first."""
        return np.min(seen[:, None] + self.between, axis=0) if len(seen) else seen

    def path(self, source: tuple[float, float], target: tuple[float, float]) -> LineString:
        """One shortest path as a polyline (for drawing); the straight line if none exists."""
        src, dst = np.asarray(source, float), np.asarray(target, float)
        if not self._blocked(src[None], dst[None])[0]:
            return LineString([source, target])
        graph = self.graph.copy()
        for name, point in (("src", src), ("dst", dst)):
            seen = self._seen_from(point)
            graph.add_node(name)
            graph.add_weighted_edges_from((name, int(v), float(seen[v]))
                                          for v in np.nonzero(np.isfinite(seen))[0])
        try:
            nodes = nx.dijkstra_path(graph, "src", "dst")
        except (nx.NetworkXNoPath, nx.NodeNotFound):
            return LineString([source, target])
        pts = [source] + [tuple(self.vertices[n]) for n in nodes[1:-1]] + [target]
        return LineString(pts)
