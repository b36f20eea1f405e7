"""The surfaces troopers walk on: the table's height field cut into flat pieces, and the
walk regions a trooper of a given Silhouette height can cross without Jump or Climb
(docs/rules.md §13.2-13.3).

Prisms stand on the ground or on a roof, so above every point of the table there is one
surface to stand on: the top of the highest prism there, or the ground.  A `Piece` is the
part of one surface that nothing stands on.  A trooper may step between two touching pieces
whose heights differ by at most its Silhouette's height, up or down ("vertical movement ...
not taken into account"; a larger step down would be a fall); a walk region is a set of
pieces joined so.  Inside one region the route is measured in the plane.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

import numpy as np
import shapely
from shapely.geometry import Polygon, box

from constraints.core.cache import remembered
from constraints.core.scenario import Scenario
from constraints.infinity.scenery import Scenery, prisms

LEVEL_TOL_IN = 1e-6   # two heights this close are one level; a point this close is on a piece
TOUCH_IN = 1e-9       # pieces this close touch


@dataclass(frozen=True)
class Piece:
    """The uncovered part of one surface: the ground (`scenery` None) or a prism's top."""

    id: str
    polygon: shapely.Geometry
    top_in: float
    scenery: Scenery | None

    @property
    def standable(self) -> bool:
        """Whether a move may end on it (the ground and roofs; not walls or crates)."""
        return self.scenery is None or self.scenery.standable


def table_of(scenario: Scenario) -> Polygon:
    return box(0.0, 0.0, scenario.battlefield.width_in, scenario.battlefield.depth_in)


def standing_on(upper: Scenery, lower: Scenery) -> bool:
    """Whether `upper` stands on `lower`'s roof (its level is that roof, its footprint in it)."""
    return abs(upper.level_in - lower.top_in) <= LEVEL_TOL_IN \
        and lower.shape.buffer(LEVEL_TOL_IN).covers(upper.shape)


def pieces(scenario: Scenario) -> tuple[Piece, ...]:
    """The flat pieces of the table's surface (ground first), remembered per scenario."""
    return remembered(scenario, ("infinity", "pieces"), lambda: _pieces(scenario))


def _pieces(scenario: Scenario) -> tuple[Piece, ...]:
    solids = prisms(scenario.terrain)
    on_ground = [s.shape for s in solids if s.level_in <= LEVEL_TOL_IN]
    found = [Piece("ground", table_of(scenario).difference(shapely.union_all(on_ground)),
                   0.0, None)]
    for s in solids:
        above = [t.shape for t in solids if t is not s and standing_on(t, s)]
        found.append(Piece(s.id, s.shape.difference(shapely.union_all(above)) if above
                           else s.shape, s.top_in, s))
    return tuple(p for p in found if not p.polygon.is_empty)


@dataclass(frozen=True)
class Region:
    """Pieces a trooper walks between without Jump or Climb, and their union."""

    index: int
    members: tuple[int, ...]      # indices into `pieces`
    tops_in: tuple[float, ...]    # the members' heights, sorted
    area: shapely.Geometry

    def has_level(self, level_in: float) -> bool:
        return bool(np.any(np.abs(np.asarray(self.tops_in) - level_in) <= LEVEL_TOL_IN))


class Surfaces:
    """The pieces of a scenario and its walk regions for one Silhouette height."""

    def __init__(self, scenario: Scenario, height_in: float) -> None:
        self.scenario = scenario
        self.height_in = height_in
        self.pieces = pieces(scenario)
        self.region_of = self._join()
        self._flats: dict[int, shapely.Geometry] = {}

    def _join(self) -> np.ndarray:
        """Each piece's region: pieces touching, with heights within a step, joined."""
        polys = np.asarray([p.polygon for p in self.pieces], dtype=object)
        tops = np.asarray([p.top_in for p in self.pieces])
        i, j = shapely.STRtree(polys).query(polys, predicate="dwithin", distance=TOUCH_IN)
        step = (i < j) & (np.abs(tops[i] - tops[j]) <= self.height_in + LEVEL_TOL_IN)
        import networkx as nx  # loaded when a town is first walked, not by other systems

        graph = nx.Graph()
        graph.add_nodes_from(range(len(polys)))
        graph.add_edges_from(zip(i[step].tolist(), j[step].tolist(), strict=True))
        # Regions numbered by their least piece, so the ground's region is region 0.
        groups = sorted((sorted(c) for c in nx.connected_components(graph)), key=min)
        region_of = np.empty(len(polys), dtype=int)
        for k, group in enumerate(groups):
            region_of[group] = k
        return region_of

    @cached_property
    def regions(self) -> tuple[Region, ...]:
        found = []
        for k in range(int(self.region_of.max()) + 1):
            members = tuple(int(m) for m in np.flatnonzero(self.region_of == k))
            tops = tuple(sorted({self.pieces[m].top_in for m in members}))
            area = shapely.union_all([self.pieces[m].polygon for m in members])
            found.append(Region(k, members, tops, area))
        return tuple(found)

    def flat(self, k: int) -> shapely.Geometry:
        """The surface a base on piece k may stand on: k and the standable pieces at its
        height joined to it by touching (two buildings of one height side by side)."""
        if k not in self._flats:
            self._flats[k] = _flat(self.pieces, k)
        return self._flats[k]

    def piece_at(self, x: float, y: float, level_in: float) -> int | None:
        """The piece at height `level_in` under (x, y), closed, or None."""
        point = shapely.Point(x, y)
        for k, p in enumerate(self.pieces):
            if abs(p.top_in - level_in) <= LEVEL_TOL_IN \
                    and p.polygon.distance(point) <= LEVEL_TOL_IN:
                return k
        return None

    def locate(self, x: float, y: float, level_in: float) -> int | None:
        """The walk region a point at height `level_in` belongs to: that of the piece at
        that height under it; else one with a piece at that height whose union holds the
        point (a trooper passing over a low wall still walks at the ground's level)."""
        k = self.piece_at(x, y, level_in)
        if k is not None:
            return int(self.region_of[k])
        point = shapely.Point(x, y)
        for region in self.regions:
            if region.has_level(level_in) and region.area.distance(point) <= LEVEL_TOL_IN:
                return region.index
        return None

    def top_under(self, x: float, y: float) -> Piece:
        """The surface under (x, y): the highest piece there (pieces tile the table)."""
        point = shapely.Point(x, y)
        under = [p for p in self.pieces if p.polygon.distance(point) <= LEVEL_TOL_IN]
        return max(under, key=lambda p: p.top_in) if under else self.pieces[0]


def _flat(pieces: tuple[Piece, ...], k: int) -> shapely.Geometry:
    same = [i for i, p in enumerate(pieces) if p.standable
            and abs(p.top_in - pieces[k].top_in) <= LEVEL_TOL_IN]
    import networkx as nx

    graph = nx.Graph()
    graph.add_nodes_from(same)
    for a in same:
        for b in same:
            if a < b and pieces[a].polygon.distance(pieces[b].polygon) <= TOUCH_IN:
                graph.add_edge(a, b)
    return shapely.union_all([pieces[i].polygon for i in nx.node_connected_component(graph, k)])
