"""Shortest routes across walk regions and ladders (docs/rules.md §13.5).

Inside a walk region a route is a shortest path of the base's centre through the region's
free space: the reduced visibility graph of `constraints.geometry.paths.PathFinder`.
Between regions it climbs a ladder or stairs, measured along it.  So the shortest route is
a shortest path on a small graph whose nodes are the start, the target and the ladders'
ends, and whose edges are in-region shortest-path lengths and ladder lengths: Dijkstra on
it (networkx) gives the route, each in-region hop then drawn by its finder.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import networkx as nx
import numpy as np
import shapely
from shapely.ops import nearest_points

from constraints.core.scenario import Scenario
from constraints.infinity.scenery import Connector, Point3, connectors
from constraints.infinity.trooper import Trooper
from constraints.infinity.walk import Walk

STEP_OUT_IN = 0.002  # a start or end this close to the free space steps onto it (see `entry`)


@dataclass(frozen=True)
class Stop:
    """A node of the route graph: a point of one walk region."""

    name: str
    point: tuple[float, float]
    region: int
    level_in: float = 0.0


class Network:
    """One trooper's route graph on one scenario (its ladders' ends, usable or not)."""

    def __init__(self, scenario: Scenario, trooper: Trooper, relaxed: bool = False) -> None:
        self.walk = Walk.of(scenario, trooper, relaxed)
        # Ladders whose ends are on surfaces, with their regions; whether this trooper's
        # base fits at each end is asked only of the regions a route may use.
        self._ladders: list[tuple[Connector, int, int]] = []
        for c in connectors(scenario.terrain):
            ra, rb = self.walk.locate(*c.start), self.walk.locate(*c.end)
            if ra is not None and rb is not None:
                self._ladders.append((c, ra, rb))
        self.ladders: list[tuple[Connector, Stop, Stop]] = []

    def _linked(self, regions: set[int]) -> set[int]:
        """The regions joined to these by ladders (before asking whether the base fits)."""
        g = nx.Graph()
        g.add_nodes_from(regions)
        g.add_edges_from((ra, rb) for _, ra, rb in self._ladders)
        return set().union(*(nx.node_connected_component(g, r) for r in regions))

    def _usable(self, regions: set[int]) -> list[tuple[Connector, Stop, Stop]]:
        found = []
        for c, ra, rb in self._ladders:
            if ra in regions and rb in regions:
                a, b = self.stop(f"{c.id}:0", c.start), self.stop(f"{c.id}:1", c.end)
                if a is not None and b is not None:
                    found.append((c, a, b))
        return found

    def stop(self, name: str, p: Point3) -> Stop | None:
        """The point as a node, or None when it is on no surface or not free for the base."""
        region = self.walk.locate(*p)
        if region is None or self.walk.finder(region).inside(p[:2]):
            return None
        return Stop(name, (float(p[0]), float(p[1])), region, p[2])

    def entry(self, name: str, p: Point3) -> tuple[Stop | None, tuple[float, float] | None]:
        """A node for a start or target that may lie a hair inside the grown zones (a base
        touching a wall stands exactly r from it; the zones reach up to 0.001" further):
        the nearest free point within STEP_OUT_IN, and that point (None when not moved)."""
        stop = self.stop(name, p)
        if stop is not None:
            return stop, None
        region = self.walk.locate(*p)
        if region is None:
            return None, None
        zone = self.walk.finder(region).region
        _, near = nearest_points(shapely.Point(p[:2]), zone.boundary)
        d = np.asarray(near.coords[0]) - np.asarray(p[:2])
        gap = float(np.hypot(*d))
        if gap > STEP_OUT_IN or gap == 0.0:
            return None, None
        out = tuple(np.asarray(near.coords[0]) + d / gap * 1e-9)
        point = (float(out[0]), float(out[1]))
        if self.walk.finder(region).inside(point):
            return None, None
        return Stop(name, point, region, p[2]), point

    def graph(self, extra: list[Stop]) -> nx.Graph:
        """The route graph over `extra` stops and the ends of the ladders a route from them
        may use (sets `ladders`)."""
        self.ladders = self._usable(self._linked({s.region for s in extra}))
        ends = [s for _, a, b in self.ladders for s in (a, b)]
        g = nx.Graph()
        g.add_nodes_from(s.name for s in extra + ends)
        for region in sorted({s.region for s in ends}):
            self._join(g, [s for s in ends if s.region == region], self._static(region, ends))
        for k, e in enumerate(extra):
            others = [s for s in extra[k + 1:] + ends if s.region == e.region]
            if others:
                lengths = self.walk.finder(e.region).lengths_from(
                    e.point, np.asarray([s.point for s in others]))
                for s, length in zip(others, lengths.tolist(), strict=True):
                    if math.isfinite(length):
                        g.add_edge(e.name, s.name, weight=float(length))
        for c, a, b in self.ladders:
            if not g.has_edge(a.name, b.name) or g[a.name][b.name]["weight"] > c.length_in:
                g.add_edge(a.name, b.name, weight=c.length_in, ladder=True)
        return g

    def _static(self, region: int, ends: list[Stop]) -> np.ndarray:
        """Lengths between the ladder ends in a region, remembered by its finder."""
        pts = np.asarray([s.point for s in ends if s.region == region])
        finder = self.walk.finder(region)
        key = ("ladder ends", pts.tobytes())
        if key not in finder.memo:
            finder.memo[key] = finder.lengths(pts, pts)
        found: np.ndarray = finder.memo[key]  # type: ignore[assignment]
        return found

    @staticmethod
    def _join(g: nx.Graph, stops: list[Stop], lengths: np.ndarray) -> None:
        for i in range(len(stops)):
            for j in range(i + 1, len(stops)):
                if math.isfinite(lengths[i, j]):
                    g.add_edge(stops[i].name, stops[j].name, weight=float(lengths[i, j]))

    def hop(self, a: Stop, b: Stop) -> list[tuple[float, float]]:
        """The points of one in-region hop after `a` (its bends, then `b`)."""
        line = self.walk.finder(a.region).path(a.point, b.point)
        return [(float(x), float(y)) for x, y in list(line.coords)[1:]]

    def route(self, start: Point3, target: Point3) -> tuple[tuple[Point3, ...], float] | None:
        """The shortest route from `start` to `target` in this free space and its length
        (None: there is none)."""
        first, first_step = self.entry("start", start)
        goal, goal_step = self.entry("target", target)
        if first is None or goal is None:
            return None
        g = self.graph([first, goal])
        try:
            nodes = nx.dijkstra_path(g, "start", "target", weight="weight")
        except nx.NetworkXNoPath:
            return None
        stops = {s.name: s for s in [first, goal] + [x for _, a, b in self.ladders
                                                       for x in (a, b)]}
        points: list[Point3] = [start]
        if first_step is not None:
            points.append((*first_step, start[2]))
        for a, b in zip(nodes, nodes[1:], strict=False):
            points += self._hop(g, stops[a], stops[b])
        points[-1] = target
        if goal_step is not None:
            points[-1:] = [(*goal_step, target[2]), target]
        steps = [math.dist(start[:2], first_step) if first_step else 0.0,
                 math.dist(target[:2], goal_step) if goal_step else 0.0]
        return tuple(points), nx.path_weight(g, nodes, "weight") + sum(steps)

    def _hop(self, g: nx.Graph, a: Stop, b: Stop) -> list[Point3]:
        """The points after `a` on the way to `b`: up a ladder, or along a shortest path."""
        if g[a.name][b.name].get("ladder"):
            return [(*b.point, b.level_in)]
        return [(x, y, self.walk.level_at(a.region, (x, y))) for x, y in self.hop(a, b)]
