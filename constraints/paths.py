"""Shortest paths of model centres around obstacles (Reform Moves, RULES.md 2.5.4.3).

Obstacles (impassable terrain, other units) are grown by the mid-move spacing with a mitre
join: every mitred edge lies exactly at the spacing from its original edge and every corner
lies outside the round buffer, so the grown shape contains the true clearance zone.
(shapely's round buffer is not conservative: GEOS cuts its arcs inside the true circle,
TECHNIQUES.md.)  Paths then run on the visibility graph of the grown shapes' vertices; a path
that touches a grown edge keeps exactly the spacing there, the infimum of legal paths.
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
        self.vertices = self._vertices()
        self.graph = self._visibility_graph()

    def _vertices(self) -> np.ndarray:
        rings = []
        polys = getattr(self.region, "geoms", [self.region])
        for poly in polys:
            if poly.is_empty:
                continue
            rings.append(np.asarray(poly.exterior.coords)[:-1])
            rings += [np.asarray(r.coords)[:-1] for r in poly.interiors]
        return np.vstack(rings) if rings else np.empty((0, 2))

    def _blocked(self, a: np.ndarray, b: np.ndarray) -> np.ndarray:
        """Whether each segment a[k]-b[k] passes through the grown region's interior."""
        if self.region.is_empty:
            return np.zeros(len(a), dtype=bool)
        segments = shapely.linestrings(np.stack([a, b], axis=1))
        return np.asarray(shapely.relate_pattern(self.region, segments, "T********"))

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

    def inside(self, point: tuple[float, float]) -> bool:
        return bool(self.region.contains(Point(point)))

    def clearance(self, point: tuple[float, float]) -> float:
        """Distance from `point` to the grown obstacles (0 inside; inf with none)."""
        if self.region.is_empty:
            return math.inf
        return float(self.region.distance(Point(point)))

    def lengths(self, sources: np.ndarray, targets: np.ndarray) -> np.ndarray:
        """(len(sources), len(targets)) shortest path lengths; inf where no path exists."""
        out = np.hypot(*(sources[:, None, :] - targets[None, :, :]).transpose(2, 0, 1))
        if self.region.is_empty:
            return out
        s_idx, t_idx = np.indices(out.shape).reshape(2, -1)
        blocked = self._blocked(sources[s_idx], targets[t_idx]).reshape(out.shape)
        if not blocked.any():
            return out
        seen_t = {t: self._seen_from(targets[t]) for t in np.unique(np.nonzero(blocked)[1])}
        for s in np.unique(np.nonzero(blocked)[0]):
            via = self._distances_from(sources[s])
            for t in np.nonzero(blocked[s])[0]:
                seen, reach = seen_t[t]
                out[s, t] = float(np.min(via[seen] + reach, initial=math.inf))
        return out

    def _seen_from(self, point: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Vertices visible from `point` and the straight distances to them."""
        if self.inside(tuple(point)):
            return np.empty(0, dtype=int), np.empty(0)
        ok = ~self._blocked(np.repeat(point[None, :], len(self.vertices), 0), self.vertices)
        idx = np.nonzero(ok)[0]
        return idx, np.hypot(*(self.vertices[idx] - point).T)

    def _distances_from(self, point: np.ndarray) -> np.ndarray:
        """Shortest distance from `point` to every vertex (inf where unreachable)."""
        seen, reach = self._seen_from(point)
        graph = self.graph.copy()
        graph.add_weighted_edges_from(("src", int(v), float(d)) for v, d in zip(seen, reach,
                                                                                strict=True))
        found = nx.single_source_dijkstra_path_length(graph, "src") if seen.size else {}
        return np.array([found.get(v, math.inf) for v in range(len(self.vertices))])

    def path(self, source: tuple[float, float], target: tuple[float, float]) -> LineString:
        """One shortest path as a polyline (for drawing)."""
        src, dst = np.asarray(source, float), np.asarray(target, float)
        if not self._blocked(src[None], dst[None])[0]:
            return LineString([source, target])
        graph = self.graph.copy()
        for name, point in (("src", src), ("dst", dst)):
            seen, reach = self._seen_from(point)
            graph.add_weighted_edges_from((name, int(v), float(d))
                                          for v, d in zip(seen, reach, strict=True))
        try:
            nodes = nx.dijkstra_path(graph, "src", "dst")
        except nx.NetworkXNoPath:
            return LineString([source, target])
        pts = [source] + [tuple(self.vertices[n]) for n in nodes[1:-1]] + [target]
        return LineString(pts)
