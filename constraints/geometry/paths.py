"""Shortest paths of model centres round obstacles (Reform Moves, docs/rules.md §5.5, §8.9).

The obstacles are grown by the clearance a centre keeps (`constraints.geometry.grown`: a
polygon that holds every point within the clearance and reaches at most ROUNDING_IN past it).

Shortest paths
--------------
A shortest path round polygons bends only at their outward corners, leaving and arriving
along lines that touch the outline there without entering it.  The reduced visibility graph
keeps just those segments (docs/techniques.md §7): the pairs of corners whose line supports
the outline at both ends (a vectorised local test) and that cross no grown interior (GEOS);
the outline's own edges between corners are among them.  From each blocked source a
Dijkstra search gives the distance to every corner (remembered per source: a Reform's
sources are its start models, asked about for every end pose); a target then adds its best
visible corner whose line to it supports the outline there.
"""

from __future__ import annotations

import heapq
import math
from collections.abc import Sequence

import numpy as np
import shapely
from shapely.geometry import LineString, Point, Polygon

from constraints.geometry.free_parts import FreeParts
from constraints.geometry.grown import ROUNDING_IN, TURN_EPS, grown

__all__ = ["ROUNDING_IN", "PathFinder", "grown"]

SOURCE_CACHE = 256   # sources whose distances are remembered before the memory is cleared
BAND_SLACK = 1e-6    # radians: bands of supporting directions are widened by this
FEW_CORNERS = 200    # with more corners, a point's candidates are those of its free part


def _side(d: np.ndarray, e: np.ndarray) -> np.ndarray:
    """Sign of the cross product d x e (rows), 0 where the three points are collinear to
    within TURN_EPS of the lengths' product."""
    cross = d[..., 0] * e[..., 1] - d[..., 1] * e[..., 0]
    scale = np.hypot(d[..., 0], d[..., 1]) * np.hypot(e[..., 0], e[..., 1])
    return np.where(np.abs(cross) <= TURN_EPS * scale, 0, np.sign(cross))


def _unit(d: np.ndarray) -> np.ndarray:
    return d / np.hypot(d[:, 0], d[:, 1])[:, None]


def _supports(d: np.ndarray, e1: np.ndarray, e2: np.ndarray) -> np.ndarray:
    """Whether the line through a corner with direction `d` supports the outline there: the
    corner's two outline neighbours (unit directions `e1`, `e2` from it) lie on one side of
    the line or on it (to within TURN_EPS), so the line does not enter the region there."""
    dx, dy = d[..., 0], d[..., 1]
    s1 = dx * e1[..., 1] - dy * e1[..., 0]
    s2 = dx * e2[..., 1] - dy * e2[..., 0]
    tol = TURN_EPS * (np.abs(dx) + np.abs(dy))
    return ((s1 >= -tol) & (s2 >= -tol)) | ((s1 <= tol) & (s2 <= tol))


def _overlapping(start: np.ndarray, width: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Pairs (i < j) of arcs [start, start + width] on a circle of circumference pi that
    overlap: one's start lies in the other, so each pair is found from the earlier start
    (the circle unrolled once so that arcs crossing pi are seen)."""
    n = len(start)
    starts = np.concatenate([start, start + np.pi])
    owner = np.concatenate([np.arange(n), np.arange(n)])
    order = np.argsort(starts, kind="stable")
    starts, owner = starts[order], owner[order]
    first = np.searchsorted(starts, start, side="left")
    counts = np.searchsorted(starts, start + width, side="right") - first
    i = np.repeat(np.arange(n), counts)
    at = np.arange(int(counts.sum())) + np.repeat(first - (np.cumsum(counts) - counts), counts)
    j = owner[at]
    lo, hi = np.minimum(i, j), np.maximum(i, j)
    pairs = np.sort(lo[lo != hi] * n + hi[lo != hi])  # (sorting beats np.unique's hashing)
    pairs = pairs[np.r_[True, pairs[1:] != pairs[:-1]]] if len(pairs) else pairs
    return pairs // max(n, 1), pairs % max(n, 1)


class PathFinder:
    """Lengths of shortest paths that keep clear of obstacles grown by a clearance."""

    def __init__(self, obstacles: Sequence[Polygon], clearance_in: float) -> None:
        self.clearance_in = clearance_in
        self._build(grown([o for o in obstacles if not o.is_empty], clearance_in))

    @classmethod
    def around(cls, region: shapely.Geometry) -> PathFinder:
        """A finder whose paths keep out of `region`'s interior, grown already by whoever
        built it (Infinity's free space mixes clearances: docs/rules.md §13.3)."""
        finder = cls.__new__(cls)
        finder.clearance_in = 0.0
        # Intersections and differences may leave lines and points of no area: drop them.
        parts = [g for g in shapely.get_parts(region) if g.geom_type == "Polygon"]
        finder._build(shapely.union_all(parts) if parts else Polygon())
        return finder

    def _build(self, region: shapely.Geometry) -> None:
        self.region = region
        shapely.prepare(self.region)
        # Each connected part on its own: GEOS relates a segment to a polygon in time that
        # grows with the polygon's size, and a segment only ever meets a few parts.
        self._parts = np.asarray([g for g in getattr(self.region, "geoms", [self.region])
                                  if not g.is_empty], dtype=object)
        shapely.prepare(self._parts)
        self._tree = shapely.STRtree(self._parts)
        self.vertices, self._e1, self._e2, self._ring_next = self._corners()
        self._adjacent = self._graph()
        self._sources: dict[tuple[float, float], tuple[np.ndarray, np.ndarray]] = {}
        # Results derived from this finder's paths, kept by whoever computes them (e.g. a
        # Reform's safe discs, wanted by both the batch mask and the CP-SAT encoding).
        self.memo: dict[tuple, object] = {}

    def _corners(self) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """Outward corners of the grown region (where paths bend), each with its two outline
        neighbours, and the index of the next corner along the outline when it is the very
        next vertex (-1 otherwise): that edge is part of the outline, so free.  Vertices
        where the outline runs straight on count as corners too: the union leaves some a
        float's width outward, and a path along the edge must be able to pass them."""
        found: list[tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]] = []
        polys = getattr(self.region, "geoms", [self.region])
        offset = 0
        for poly in polys:
            if poly.is_empty:
                continue
            # Exterior counter-clockwise, holes clockwise: the obstacle is always on the left,
            # so its outward corners are the left turns.
            poly = shapely.orient_polygons(poly)
            for ring in [poly.exterior, *poly.interiors]:
                pts = np.asarray(ring.coords)[:-1, :2]
                before, after = np.roll(pts, 1, axis=0), np.roll(pts, -1, axis=0)
                convex = _side(pts - before, after - pts) >= 0
                number = np.cumsum(convex) - 1 + offset
                follows = np.roll(convex, -1) & convex
                nxt = np.where(follows, np.roll(number, -1), -1)[convex]
                found.append((pts[convex], _unit(before - pts)[convex],
                              _unit(after - pts)[convex], nxt))
                offset += int(convex.sum())
        if not found:
            empty = np.empty((0, 2))
            return empty, empty, empty, np.empty(0, dtype=int)
        return tuple(np.concatenate(parts) for parts in zip(*found, strict=True))  # type: ignore[return-value]

    def _graph(self) -> list[list[tuple[int, float]]]:
        """Adjacency lists of the reduced visibility graph over the corners."""
        i, j = self._bitangent_pairs()
        v = self.vertices
        outline = self._ring_next[i] == j
        flipped = self._ring_next[j] == i
        free = outline | flipped
        check = ~free
        free[check] = ~self._blocked(v[i[check]], v[j[check]])
        lengths = np.hypot(*(v[j] - v[i]).T)
        adjacent: list[list[tuple[int, float]]] = [[] for _ in range(len(v))]
        for a, b, length in zip(i[free].tolist(), j[free].tolist(), lengths[free].tolist(),
                                strict=True):
            adjacent[a].append((b, length))
            adjacent[b].append((a, length))
        return adjacent

    def _bitangent_pairs(self) -> tuple[np.ndarray, np.ndarray]:
        """Corner pairs (i < j) whose line supports the outline at both corners.

        Only pairs whose bands of supporting directions overlap can qualify (a corner on an
        arc supports a few degrees of directions), so those are found first by sorting the
        bands, and the exact test runs on them alone instead of on every pair."""
        i, j = _overlapping(*self._bands())
        v = self.vertices
        d = v[j] - v[i]
        ok = _supports(d, self._e1[i], self._e2[i]) & _supports(d, self._e1[j], self._e2[j])
        return i[ok], j[ok]

    def _bands(self) -> tuple[np.ndarray, np.ndarray]:
        """Per corner, the directions (mod pi) of the lines that support the outline there:
        from the incoming edge's direction turning counter-clockwise to the outgoing edge's;
        as (start, width), widened by BAND_SLACK either side."""
        t_in, t_out = -self._e1, self._e2
        start = np.arctan2(t_in[:, 1], t_in[:, 0])
        turn = np.arctan2(t_in[:, 0] * t_out[:, 1] - t_in[:, 1] * t_out[:, 0],
                          np.sum(t_in * t_out, axis=1))
        return np.mod(start - BAND_SLACK, np.pi), np.clip(turn, 0.0, None) + 2 * BAND_SLACK

    def _blocked(self, a: np.ndarray, b: np.ndarray) -> np.ndarray:
        """Whether each segment a[k]-b[k] passes through the grown region's interior."""
        blocked = np.zeros(len(a), dtype=bool)
        if self.region.is_empty or not len(a):
            return blocked
        segments = shapely.linestrings(np.stack([a, b], axis=1))
        # Boxes from the tree, then the parts (prepared) tested: a segment enters a part's
        # interior iff it meets the part and does not merely touch it.
        seg, part = self._tree.query(segments)
        if len(seg):
            meet = shapely.intersects(self._parts[part], segments[seg])
            seg, part = seg[meet], part[meet]
            inner = ~shapely.touches(self._parts[part], segments[seg])
            blocked[seg[inner]] = True
        return blocked

    def inside(self, point: tuple[float, float]) -> bool:
        """Whether `point` lies in the grown region's interior (no path starts there)."""
        return bool(self.region.contains(Point(point)))

    def clearance_of(self, points: np.ndarray) -> float:
        """Least distance from any of `points` to the grown obstacles (inf with none)."""
        if self.region.is_empty or not len(points):
            return math.inf
        return float(np.min(shapely.distance(self.region, shapely.points(points))))

    def _seen_from(self, point: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """The corners a path from `point` may bend at first (visible, and the line to them
        touches the outline there without entering), with their straight distances."""
        _, idx, dist = self._seen_all(point[None, :])
        return idx, dist

    def _seen_all(self, points: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """`_seen_from` for many points at once: (point index, corner, distance), sorted by
        point; none for a point inside the grown region."""
        v = self.vertices
        free = ~np.asarray(shapely.contains(self.region, shapely.points(points)))
        d = v[None, :, :] - points[:, None, :]
        touch = _supports(d, self._e1[None], self._e2[None]) & free[:, None]
        if len(v) > FEW_CORNERS:
            touch &= self._free_parts().candidates(points)
        owner, idx = np.nonzero(touch)
        seen = ~self._blocked(points[owner], v[idx])
        owner, idx = owner[seen], idx[seen]
        return owner, idx, np.hypot(*(v[idx] - points[owner]).T)

    def _free_parts(self) -> FreeParts:
        if ("free parts",) not in self.memo:
            self.memo[("free parts",)] = FreeParts(self.region, self.vertices)
        found: FreeParts = self.memo[("free parts",)]  # type: ignore[assignment]
        return found

    def _from_source(self, point: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Shortest distance from `point` to every corner and the corner before it on that
        path (-1: straight from the point), remembered per point."""
        key = (float(point[0]), float(point[1]))
        if key not in self._sources:
            if len(self._sources) >= SOURCE_CACHE:
                self._sources.clear()
            self._sources[key] = self._dijkstra(*self._seen_from(point))
        return self._sources[key]

    def _dijkstra(self, first: np.ndarray, dist: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Distances over the graph from a point that sees corners `first` at `dist`, and
        each corner's predecessor (plain lists and heapq: a few hundred corners, sparse)."""
        best = [math.inf] * len(self.vertices)
        prev = [-1] * len(self.vertices)
        heap = [(d, v, -1) for v, d in zip(first.tolist(), dist.tolist(), strict=True)]
        heapq.heapify(heap)
        done = [False] * len(self.vertices)
        while heap:
            d, v, p = heapq.heappop(heap)
            if done[v]:
                continue
            done[v], best[v], prev[v] = True, d, p
            for w, length in self._adjacent[v]:
                if not done[w] and d + length < best[w]:
                    best[w] = d + length  # tentative: only lowers what is pushed later
                    heapq.heappush(heap, (d + length, w, v))
        return np.asarray(best), np.asarray(prev)

    def distances_from(self, point: tuple[float, float]) -> np.ndarray:
        """The shortest distance from `point` to every corner (`vertices`; inf: none)."""
        return self._from_source(np.asarray(point, dtype=float))[0]

    def lengths_from(self, source: tuple[float, float], targets: np.ndarray) -> np.ndarray:
        """Shortest path lengths from one source to each target, remembering the source's
        distances and each target's visible corners (a route query asks about the same
        ladder ends again and again)."""
        src = np.asarray(source, dtype=float)
        out = np.hypot(*(targets - src).T)
        blocked = self._blocked(np.repeat(src[None], len(targets), axis=0), targets)
        if not blocked.any():
            return out
        reach = self._from_source(src)[0]
        for t in np.flatnonzero(blocked):
            idx, last = self._seen_cached(targets[t])
            out[t] = np.min(reach[idx] + last, initial=math.inf)
        return out

    def _seen_cached(self, point: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        key = ("seen", float(point[0]), float(point[1]))
        if key not in self.memo:
            self.memo[key] = self._seen_from(point)
        found: tuple[np.ndarray, np.ndarray] = self.memo[key]  # type: ignore[assignment]
        return found

    def lengths(self, sources: np.ndarray, targets: np.ndarray) -> np.ndarray:
        """(len(sources), len(targets)) shortest path lengths; inf where no path exists."""
        out = np.hypot(*(sources[:, None, :] - targets[None, :, :]).transpose(2, 0, 1))
        if self.region.is_empty or not self._near(np.vstack([sources, targets])):
            return out
        s_idx, t_idx = np.indices(out.shape).reshape(2, -1)
        blocked = self._blocked(sources[s_idx], targets[t_idx]).reshape(out.shape)
        if not blocked.any():
            return out
        out[blocked] = math.inf
        rows = np.flatnonzero(blocked.any(axis=1))
        reach = np.stack([self._from_source(sources[s])[0] for s in rows])
        keep = np.isfinite(reach).any(axis=1)  # the others are walled in, or start inside
        rows, reach = rows[keep], reach[keep]
        cols = np.flatnonzero(blocked[rows].any(axis=0))
        owner, idx, last = self._seen_all(targets[cols])
        for k, t in enumerate(cols):
            mine = owner == k
            via = np.min(reach[:, idx[mine]] + last[mine], axis=1, initial=math.inf)
            hit = blocked[rows, t]
            out[rows[hit], t] = via[hit]
        return out

    def _near(self, points: np.ndarray) -> bool:
        """Whether the box around `points` (which holds every segment between them) meets
        the grown region's box; if not, every straight line is clear."""
        minx, miny, maxx, maxy = self.region.bounds
        lo, hi = points.min(axis=0), points.max(axis=0)
        return bool(lo[0] <= maxx and hi[0] >= minx and lo[1] <= maxy and hi[1] >= miny)

    def path(self, source: tuple[float, float], target: tuple[float, float]) -> LineString:
        """One shortest path as a polyline (for drawing); the straight line if none exists."""
        src, dst = np.asarray(source, float), np.asarray(target, float)
        if not self._blocked(src[None], dst[None])[0]:
            return LineString([source, target])
        best, prev = self._from_source(src)
        idx, last = self._seen_from(dst)
        if not len(idx) or not np.isfinite(np.min(best[idx] + last)):
            return LineString([source, target])
        corner, bends = int(idx[np.argmin(best[idx] + last)]), []
        while corner >= 0:
            bends.append(tuple(self.vertices[corner]))
            corner = int(prev[corner])
        return LineString([source, *reversed(bends), target])
