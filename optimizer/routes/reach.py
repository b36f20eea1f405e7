"""Where a trooper's centre can get within a length: the geodesic disc of the free space,
across regions and ladders (docs/rules.md §13.6).

A shortest path bends only at corners of the free space, so a point p is within `budget` of
the source iff some node v (the source, a ladder's end reached, or a corner) sees p and
dist(v) + |v p| <= budget.  So the area is the union, over nodes v with dist(v) < budget, of
the disc of radius budget - dist(v) round v minus the shadows the free space's outline
casts from v, all within the free space.  The discs are polygons: inscribed for the area a
route surely reaches (`outer=False`), circumscribed for an area that holds every point
reachable (`outer=True`, with the relaxed free space): a proof that a point is out of reach.
"""

from __future__ import annotations

import math

import networkx as nx
import numpy as np
import shapely
from shapely.geometry import Polygon

from constraints.core.scenario import Scenario
from constraints.geometry.paths import PathFinder
from constraints.infinity.scenery import Point3
from constraints.infinity.trooper import Trooper
from optimizer.routes.network import Network

DISC_SIDES = 64        # sides of a disc's polygon
MAX_SPLITS = 40        # an edge seen under more than 90 degrees is halved at most this often
ON_LINE_IN = 1e-9      # a node this close to an edge's line casts no shadow over it


def reachable(scenario: Scenario, trooper: Trooper, source: Point3, budget_in: float,
              outer: bool = False) -> dict[int, shapely.Geometry]:
    """Per walk region, the centres within `budget_in` of `source` along free routes."""
    network = Network(scenario, trooper, relaxed=outer)
    start, step = network.entry("start", source)
    if start is None:
        return {}
    spent = math.dist(source[:2], step) if step is not None else 0.0
    g = network.graph([start])
    dist = nx.single_source_dijkstra_path_length(g, "start", cutoff=budget_in - spent,
                                                 weight="weight")
    stops = {s.name: s for s in [start] + [x for _, a, b in network.ladders for x in (a, b)]}
    seeds: dict[int, list[tuple[tuple[float, float], float]]] = {}
    for name, d in dist.items():
        stop = stops[name]
        seeds.setdefault(stop.region, []).append((stop.point, spent + d))
    return {region: _region_area(network, region, found, budget_in, outer)
            for region, found in sorted(seeds.items())}


def _region_area(network: Network, region: int, seeds: list[tuple[tuple[float, float], float]],
                 budget_in: float, outer: bool) -> shapely.Geometry:
    finder = network.walk.finder(region)
    nodes = list(seeds)
    if len(finder.vertices):
        best = np.full(len(finder.vertices), math.inf)
        for point, d0 in seeds:
            best = np.minimum(best, d0 + finder.distances_from(point))
        for k in np.flatnonzero(best < budget_in):
            nodes.append((tuple(finder.vertices[k]), float(best[k])))
    edges, tree = _edges(finder)
    pieces = [seen(p, budget_in - d, edges, tree, outer) for p, d in nodes if d < budget_in]
    area = shapely.union_all(pieces) if pieces else Polygon()
    return area.difference(finder.region)


def _edges(finder: PathFinder) -> tuple[np.ndarray, shapely.STRtree]:
    """The free space's outline as segments (n, 2, 2), and a tree over them (remembered)."""
    memo = finder.memo
    if ("outline",) not in memo:
        memo[("outline",)] = outline(finder.region)
    found: tuple[np.ndarray, shapely.STRtree] = memo[("outline",)]  # type: ignore[assignment]
    return found


def outline(region: shapely.Geometry) -> tuple[np.ndarray, shapely.STRtree]:
    """A region's outline as segments (n, 2, 2), and a tree over them."""
    segments = []
    for poly in getattr(region, "geoms", [region]):
        for ring in [poly.exterior, *poly.interiors] if not poly.is_empty else []:
            pts = np.asarray(ring.coords)[:, :2]
            segments.append(np.stack([pts[:-1], pts[1:]], axis=1))
    edges = np.concatenate(segments) if segments else np.empty((0, 2, 2))
    return edges, shapely.STRtree(shapely.linestrings(edges))


def seen(v: tuple[float, float], radius: float, edges: np.ndarray, tree: shapely.STRtree,
          outer: bool) -> shapely.Geometry:
    """The part of the disc round v that v sees past the outline's edges."""
    round_ = disc(v, radius, outer)
    near = tree.query(round_, predicate="intersects")
    if not len(near):
        return round_
    shadows = _shadows(np.asarray(v, dtype=float), radius, edges[near])
    return round_.difference(shapely.union_all(shadows)) if len(shadows) else round_


def disc(v: tuple[float, float], radius: float, outer: bool) -> Polygon:
    reach = radius / math.cos(math.pi / DISC_SIDES) if outer else radius
    angles = np.arange(DISC_SIDES) * 2.0 * math.pi / DISC_SIDES
    return Polygon(np.column_stack([v[0] + reach * np.cos(angles),
                                    v[1] + reach * np.sin(angles)]))


def _shadows(v: np.ndarray, radius: float, edges: np.ndarray) -> np.ndarray:
    """Quadrilaterals behind each edge as seen from v, reaching past the disc."""
    a, b = edges[:, 0], edges[:, 1]
    da, db = a - v, b - v
    cross = da[:, 0] * db[:, 1] - da[:, 1] * db[:, 0]
    length = np.hypot(*(b - a).T)
    keep = np.abs(cross) > ON_LINE_IN * np.maximum(length, 1e-12)  # v on the line: none
    a, b = a[keep], b[keep]
    for _ in range(MAX_SPLITS):
        da, db = a - v, b - v
        wide = np.sum(da * db, axis=1) < 0.0  # seen under more than 90 degrees: halve it
        if not wide.any():
            break
        mid = (a[wide] + b[wide]) / 2.0
        a = np.concatenate([a[~wide], a[wide], mid])
        b = np.concatenate([b[~wide], mid, b[wide]])
    da, db = a - v, b - v
    na, nb = np.hypot(*da.T), np.hypot(*db.T)
    far = np.maximum(radius * math.sqrt(2.0), np.maximum(na, nb)) * 1.01 + 1e-6
    fa = v + da / na[:, None] * far[:, None]
    fb = v + db / nb[:, None] * far[:, None]
    return shapely.polygons(np.stack([a, b, fb, fa], axis=1))
