"""The reference referee's own model moves: bottleneck assignments and walking paths.

Written without the checker's geometry (constraints.geometry.assignment, .paths): brute force
where it is small, plain networkx where it is not.

Walking paths (docs/rules.md §5.5, §8.9 as being rewritten): a base centre must keep at least
`radius` from every obstacle (half the base's smaller side plus 0.5", so the base itself
keeps 0.5").  The referee grows each obstacle by a regular polygon *circumscribed* about the
circle of that radius (vertices at radius / cos(step / 2), one every `step` degrees) and
searches the visibility graph of the grown polygons' corners.  Every edge of the graph is
checked against the exact round clearance (shapely distance to the obstacle itself), so:

    true(radius) <= graph(radius) <= true(radius / cos(step / 2))

where true(r) is the shortest path keeping r.  The lower side holds because every graph path
is a legal path; the upper side because the grown polygons lie inside the round clearance
zone of radius / cos(step / 2), and the visibility graph holds the shortest path round
polygons.  A graph at a slightly smaller radius therefore bounds the truth from below
(`bracket_radii`).

Not modelled: docs/rules.md §8.9 closes a gap exactly as wide as the clearance needs on both
sides; here such a gap is open.  That is one width, inside every tolerance band.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence
from functools import cached_property

import networkx as nx
import numpy as np
import shapely
from shapely.geometry import Polygon

ARC_STEP_DEG = 3.0  # corners of the circumscribed polygon: 30 per quarter turn
EDGE_TOL = 1e-9     # an edge touching the clearance circle keeps exactly the radius
BRUTE_FORCE_MODELS = 7  # all permutations up to 7! = 5040; a matching search beyond


def bottleneck(cost: np.ndarray, allowed: np.ndarray) -> float:
    """Least possible longest move over assignments of rows to columns using allowed pairs
    (docs/rules.md §8.4); inf when there is none."""
    usable = np.where(allowed, cost, math.inf)
    if len(usable) <= BRUTE_FORCE_MODELS:
        return _bottleneck_brute(usable)
    return _bottleneck_matching(usable)


def _bottleneck_brute(cost: np.ndarray) -> float:
    """Every permutation, as one numpy array: the longest move of each, the least of those."""
    n = len(cost)
    if n == 0:
        return 0.0
    perms = np.array(list(itertools.permutations(range(n))))
    return float(cost[np.arange(n), perms].max(axis=1).min())


def _bottleneck_matching(cost: np.ndarray) -> float:
    """Binary search on the distinct costs: is there a perfect matching using pairs <= L?"""
    levels = np.unique(cost[np.isfinite(cost)])
    lo, hi, best = 0, len(levels) - 1, math.inf
    while lo <= hi:
        mid = (lo + hi) // 2
        if _perfect(cost <= levels[mid]):
            best, hi = float(levels[mid]), mid - 1
        else:
            lo = mid + 1
    return best


def _perfect(usable: np.ndarray) -> bool:
    n = len(usable)
    graph = nx.Graph()
    graph.add_nodes_from(range(n))
    graph.add_nodes_from(range(n, 2 * n))
    graph.add_edges_from((int(i), n + int(j)) for i, j in zip(*np.nonzero(usable), strict=True))
    matching = nx.bipartite.hopcroft_karp_matching(graph, top_nodes=range(n))
    return len(matching) == 2 * n


def _is_convex(poly: Polygon) -> bool:
    return poly.convex_hull.area - poly.area <= 1e-9 * max(1.0, poly.area)


def _grown_ring(poly: Polygon, outer: float, step_deg: float) -> np.ndarray:
    """Counter-clockwise corners of poly (+) the regular polygon of circumradius `outer`."""
    if not _is_convex(poly):
        raise NotImplementedError("the reference referee grows convex obstacles only")
    angles = np.radians(np.arange(0.0, 360.0, step_deg))
    ring = outer * np.stack([np.cos(angles), np.sin(angles)], axis=1)
    corners = np.asarray(poly.exterior.coords)[:-1]
    hull = shapely.MultiPoint((corners[:, None, :] + ring[None]).reshape(-1, 2)).convex_hull
    hull = shapely.orient_polygons(hull)
    return np.asarray(hull.exterior.coords)[:-1]


def _side(a: np.ndarray, b: np.ndarray, p: np.ndarray) -> np.ndarray:
    """Cross product (b - a) x (p - a): which side of line a-b the point p lies on."""
    return (b[..., 0] - a[..., 0]) * (p[..., 1] - a[..., 1]) - \
        (b[..., 1] - a[..., 1]) * (p[..., 0] - a[..., 0])


class PathGraph:
    """Shortest walking paths keeping at least `radius` from every obstacle."""

    def __init__(self, obstacles: Sequence[Polygon], radius: float,
                 step_deg: float = ARC_STEP_DEG,
                 radii: Sequence[float] | None = None) -> None:
        """`radii`: each obstacle's own radius (A20), else `radius` for all."""
        keep = [k for k, o in enumerate(obstacles) if not o.is_empty]
        self.obstacles = [obstacles[k] for k in keep]
        self.radius = radius
        self.radii = [radius] * len(keep) if radii is None else [radii[k] for k in keep]
        self.step_deg = step_deg
        self._sources: dict[tuple[float, float], dict[int, float]] = {}

    @cached_property
    def _rings(self) -> list[np.ndarray]:
        c = math.cos(math.radians(self.step_deg) / 2.0)
        return [_grown_ring(o, r / c, self.step_deg)
                for o, r in zip(self.obstacles, self.radii, strict=True)] or [np.empty((0, 2))]

    @cached_property
    def nodes(self) -> np.ndarray:
        return np.vstack(self._rings)

    # Each corner's neighbours on its own grown polygon: a shortest path only bends at a
    # corner along a line that leaves both of them on one side (a tangent).
    @cached_property
    def prev(self) -> np.ndarray:
        return np.vstack([np.roll(r, 1, axis=0) for r in self._rings])

    @cached_property
    def next(self) -> np.ndarray:
        return np.vstack([np.roll(r, -1, axis=0) for r in self._rings])

    @cached_property
    def graph(self) -> nx.Graph:
        """Built only when some straight walk is blocked (most Reforms need none)."""
        return self._build()

    def clear(self, a: np.ndarray, b: np.ndarray) -> np.ndarray:
        """Whether each segment a[k]-b[k] keeps at least the radius from every obstacle."""
        ok = np.ones(len(a), dtype=bool)
        if not len(a):
            return ok
        lines = shapely.linestrings(np.stack([a, b], axis=1))
        for obstacle, radius in zip(self.obstacles, self.radii, strict=True):
            ok &= shapely.distance(lines, obstacle) >= radius - EDGE_TOL
        return ok

    def _tangent_at(self, k: np.ndarray, other: np.ndarray) -> np.ndarray:
        """Whether the line from corner k to `other` leaves k's neighbours on one side."""
        a = self.nodes[k]
        s1, s2 = _side(a, other, self.prev[k]), _side(a, other, self.next[k])
        return ~(((s1 > EDGE_TOL) & (s2 < -EDGE_TOL)) | ((s1 < -EDGE_TOL) & (s2 > EDGE_TOL)))

    def _build(self) -> nx.Graph:
        graph = nx.Graph()
        graph.add_nodes_from(range(len(self.nodes)))
        i, j = np.triu_indices(len(self.nodes), k=1)
        keep = self._tangent_at(i, self.nodes[j]) & self._tangent_at(j, self.nodes[i])
        i, j = i[keep], j[keep]
        keep = self.clear(self.nodes[i], self.nodes[j])
        lengths = np.hypot(*(self.nodes[i] - self.nodes[j]).T)
        graph.add_weighted_edges_from(zip(i[keep].tolist(), j[keep].tolist(),
                                          lengths[keep].tolist(), strict=True))
        return graph

    def _seen_from(self, point: np.ndarray) -> dict[int, float]:
        """Corners reachable in a straight tangent line from `point`, with their distance."""
        k = np.arange(len(self.nodes))
        if not len(k):
            return {}
        k = k[self._tangent_at(k, np.broadcast_to(point, self.nodes.shape))]
        k = k[self.clear(np.broadcast_to(point, (len(k), 2)), self.nodes[k])]
        return {int(n): float(math.dist(point, self.nodes[n])) for n in k}

    def _from(self, source: np.ndarray) -> dict[int, float]:
        """Shortest distance from `source` to every corner it can reach, remembered: a unit's
        start positions are asked about once per Reform."""
        key = (float(source[0]), float(source[1]))
        if key not in self._sources:
            self._sources[key] = self._search(source)
        return self._sources[key]

    def _search(self, source: np.ndarray) -> dict[int, float]:
        seen = self._seen_from(source)
        self.graph.add_weighted_edges_from(("src", n, d) for n, d in seen.items())
        try:
            found = nx.single_source_dijkstra_path_length(self.graph, "src") if seen else {}
        finally:
            if "src" in self.graph:
                self.graph.remove_node("src")
        return {n: d for n, d in found.items() if n != "src"}

    def inside(self, point: np.ndarray) -> bool:
        """Whether `point` is closer than the radius to an obstacle (it cannot walk at all)."""
        here = shapely.Point(point)
        return any(here.distance(o) < r - EDGE_TOL
                   for o, r in zip(self.obstacles, self.radii, strict=True))

    def lengths(self, sources: np.ndarray, targets: np.ndarray) -> np.ndarray:
        """(len(sources), len(targets)) shortest path lengths; inf where there is none."""
        out = np.hypot(*(sources[:, None, :] - targets[None, :, :]).transpose(2, 0, 1))
        s, t = np.indices(out.shape).reshape(2, -1)
        blocked = ~self.clear(sources[s], targets[t]).reshape(out.shape)
        stuck = [self.inside(p) for p in sources], [self.inside(p) for p in targets]
        to_target: dict[int, dict[int, float]] = {}
        for row in np.unique(np.nonzero(blocked)[0]).tolist():
            start = {} if stuck[0][row] else self._from(sources[row])
            for col in np.nonzero(blocked[row])[0].tolist():
                if col not in to_target:
                    to_target[col] = {} if stuck[1][col] else self._seen_from(targets[col])
                out[row, col] = min((start[n] + d for n, d in to_target[col].items()
                                     if n in start), default=math.inf)
        return out


def bracket_radii(radius: float, slack: float,
                  step_deg: float = ARC_STEP_DEG) -> tuple[float, float]:
    """Radii of two graphs whose paths bound every true path keeping a clearance within
    radius x (1 +- slack): the low graph's corners lie inside the smallest such circle, the
    high graph keeps the largest."""
    low = radius * (1.0 - slack) * math.cos(math.radians(step_deg) / 2.0)
    return low, radius * (1.0 + slack)
