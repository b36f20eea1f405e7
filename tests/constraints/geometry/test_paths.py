"""Paths round grown obstacles (constraints/geometry/paths.py; docs/rules.md §8.9,
docs/techniques.md §6-7).

The grown outline may refuse a path only when it comes within ROUNDING_IN (0.001") of the
clearance, and must refuse every path that does not keep more than the clearance; shortest
paths on it must be exact.  Seeds are fixed.
"""

from __future__ import annotations

import math

import networkx as nx
import numpy as np
import pytest
import shapely
from shapely.affinity import rotate
from shapely.geometry import LineString, Polygon, box

from constraints.geometry.paths import ROUNDING_IN, PathFinder

CLEARANCES = (0.5, 0.5 + 10 / 25.4, 1.0, 0.5 + 25 / 25.4, 2.5)


def spike(apex_deg: float, length: float = 2.0) -> Polygon:
    """A triangle with its tip at the origin, pointing down (-y), `apex_deg` wide."""
    half = length * math.tan(math.radians(apex_deg / 2))
    return Polygon([(0.0, 0.0), (half, length), (-half, length)])


def obstacle_kinds(rng: np.random.Generator) -> list[Polygon]:
    """Sharp, blunt, convex and not: spikes, a rotated rectangle, a random convex polygon, an
    L and a star."""
    hull = shapely.MultiPoint(rng.uniform(-2, 2, (9, 2))).convex_hull
    star = Polygon([(math.cos(a) * (2 if k % 2 else 0.8), math.sin(a) * (2 if k % 2 else 0.8))
                    for k, a in enumerate(np.linspace(0, 2 * math.pi, 10, endpoint=False))])
    ell = Polygon([(0, 0), (3, 0), (3, 1), (1, 1), (1, 3), (0, 3)])
    return [spike(10.0), spike(30.0), spike(90.0), rotate(box(0, 0, 4, 1), 17.0), hull, ell,
            star]


def support_segment(shape: Polygon, angle: float, offset: float) -> tuple[np.ndarray, ...]:
    """A 40" segment on the line `offset` outside `shape` in direction `angle`, centred where
    the line comes nearest to it: its distance to the shape is exactly `offset`."""
    u = np.array([math.cos(angle), math.sin(angle)])
    pts = np.asarray(shape.exterior.coords)[:-1]
    touch = pts[np.argmax(pts @ u)]
    foot = touch + offset * u
    along = np.array([-u[1], u[0]])
    return foot - 20.0 * along, foot + 20.0 * along


@pytest.mark.parametrize("r", CLEARANCES)
def test_a_path_keeping_a_thousandth_more_than_the_clearance_is_never_refused(r):
    rng = np.random.default_rng(7)
    for shape in obstacle_kinds(rng):
        finder = PathFinder([shape], r)
        for angle in np.linspace(0.0, 2 * math.pi, 121):
            a, b = support_segment(shape, angle, r + ROUNDING_IN + 1e-9)
            assert shapely.distance(shape, LineString([a, b])) >= r + ROUNDING_IN
            length = finder.lengths(a[None], b[None])[0, 0]
            assert length == math.dist(a, b), (shape.wkt, r, angle)


@pytest.mark.parametrize("r", CLEARANCES)
def test_a_path_keeping_the_clearance_or_less_is_always_refused(r):
    rng = np.random.default_rng(7)
    for shape in obstacle_kinds(rng):
        finder = PathFinder([shape], r)
        for angle in np.linspace(0.0, 2 * math.pi, 37):
            for offset in (r, r - 1e-6, r - 0.01):  # "more than" r: exactly r is refused too
                a, b = support_segment(shape, angle, offset)
                path = finder.path(tuple(a), tuple(b))
                assert len(path.coords) > 2, (shape.wkt, r, angle, offset)  # it bends
                assert finder.lengths(a[None], b[None])[0, 0] >= math.dist(a, b) - 1e-9


@pytest.mark.parametrize("r", CLEARANCES)
def test_the_grown_outline_lies_between_the_clearance_and_a_thousandth_more(r):
    rng = np.random.default_rng(11)
    for shape in obstacle_kinds(rng):
        finder = PathFinder([shape], r)
        outline = shapely.points(shapely.get_coordinates(finder.region.exterior))
        assert np.all(shapely.distance(shape, outline) <= r + ROUNDING_IN + 1e-12)
        assert shapely.distance(shape, finder.region.exterior) >= r
        # Every point at exactly r from a corner, in any direction, is inside the outline.
        corners = np.asarray(shape.exterior.coords)[:-1]
        turns = np.linspace(0.0, 2 * math.pi, 720, endpoint=False)
        ring = np.column_stack([np.cos(turns), np.sin(turns)]) * r
        near = shapely.points((corners[:, None, :] + ring[None]).reshape(-1, 2))
        assert np.all(shapely.covers(finder.region, near))


def test_a_sharp_tip_reaches_no_further_than_the_clearance():
    # A 30-degree tip: a mitre join would reach r / sin(15 deg) = 1.93 r past it.
    finder = PathFinder([spike(30.0)], 1.0)
    assert not finder.inside((0.0, -1.0 - ROUNDING_IN - 1e-9))
    assert finder.inside((0.0, -1.0 + 1e-6))


@pytest.mark.parametrize("r", CLEARANCES)
def test_a_gap_lets_a_centre_through_only_if_wider_than_twice_the_clearance(r):
    def through(gap: float) -> float:
        walls = [box(-10.0, 0.0, -gap / 2, 1.0), box(gap / 2, 0.0, 10.0, 1.0)]
        finder = PathFinder(walls, r)
        return finder.lengths(np.array([[0.0, -5.0]]), np.array([[0.0, 6.0]]))[0, 0]
    assert through(2 * r + 1e-6) == 11.0  # straight through
    for gap in (2 * r, 2 * r - 1e-6, 2 * r - 0.5):
        assert through(gap) > 20.0  # round the walls' ends


def reference_lengths(region: shapely.Geometry, sources: np.ndarray,
                      targets: np.ndarray) -> np.ndarray:
    """Shortest paths on the full visibility graph: every vertex of the grown outline and
    every point, joined wherever the segment misses the interior (slow, obviously right)."""
    rings = [np.asarray(g.exterior.coords)[:-1] for g in getattr(region, "geoms", [region])]
    rings += [np.asarray(h.coords)[:-1] for g in getattr(region, "geoms", [region])
              for h in g.interiors]
    nodes = np.vstack([*rings, sources, targets])
    i, j = np.triu_indices(len(nodes), k=1)
    segments = shapely.linestrings(np.stack([nodes[i], nodes[j]], axis=1))
    free = ~np.asarray(shapely.relate_pattern(region, segments, "T********"))
    graph = nx.Graph()
    graph.add_nodes_from(range(len(nodes)))
    graph.add_weighted_edges_from(zip(i[free].tolist(), j[free].tolist(),
                                      np.hypot(*(nodes[i] - nodes[j]).T)[free].tolist(),
                                      strict=True))
    first = len(nodes) - len(sources) - len(targets)
    out = np.full((len(sources), len(targets)), math.inf)
    for s in range(len(sources)):
        if shapely.contains(region, shapely.Point(sources[s])):
            continue
        found = nx.single_source_dijkstra_path_length(graph, first + s)
        for t in range(len(targets)):
            out[s, t] = found.get(first + len(sources) + t, math.inf)
    return out


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_shortest_paths_match_the_full_visibility_graph(seed):
    rng = np.random.default_rng(seed)
    kinds = obstacle_kinds(rng)
    obstacles = [shapely.affinity.translate(rotate(kinds[k], rng.uniform(0, 360)),
                                            *rng.uniform(0, 16, 2))
                 for k in rng.integers(0, len(kinds), 5)]
    finder = PathFinder(obstacles, float(rng.choice(CLEARANCES)))
    sources, targets = rng.uniform(-3, 19, (6, 2)), rng.uniform(-3, 19, (8, 2))
    found = finder.lengths(sources, targets)
    expected = reference_lengths(finder.region, sources, targets)
    assert np.array_equal(np.isinf(found), np.isinf(expected))
    assert np.allclose(found[np.isfinite(found)], expected[np.isfinite(expected)],
                       rtol=0, atol=1e-9)
    for s in range(len(sources)):
        for t in range(len(targets)):
            if not np.isfinite(found[s, t]):
                continue
            path = finder.path(tuple(sources[s]), tuple(targets[t]))
            assert path.length == pytest.approx(found[s, t], abs=1e-9)
            assert not shapely.relate_pattern(finder.region, path, "T********")


def test_a_source_inside_the_grown_region_has_no_path():
    finder = PathFinder([box(0, 0, 2, 2)], 0.5)
    inside = np.array([[2.2, 1.0]])
    assert finder.lengths(inside, inside)[0, 0] == math.inf  # not even standing still
    assert finder.lengths(inside, np.array([[5.0, 1.0]]))[0, 0] == math.inf
