"""Where one trooper's base centre may go: the free space of each walk region, its path
finder, and where a move may end (docs/rules.md §13.3-13.4).

In a walk region the base keeps
- clear of every piece higher than a piece of the region near it by more than the
  Silhouette's height (a wall it cannot step onto): the centre stays at least the radius r
  from it;
- on the region's surfaces at least half the base wide (docs/rules.md §13.3; decision: a disc of
  half the base's diameter round the centre lies on them), so the centre stays r/2 from
  every other piece (a drop deeper than the Silhouette's height: moving off it would be a
  fall);
- on the table (the centre stays r from its edges);
- clear of enemies and of allies taller than itself (through allies no taller it passes).
Each zone is grown by `constraints.geometry.paths.grown` (circumscribed, at most 0.001" too
far), so every path the finder returns passes the exact checker; the loss is stated there.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import shapely
from shapely.geometry import Polygon, box

from constraints.core.cache import remembered
from constraints.core.scenario import Scenario
from constraints.geometry.parts import holding_union
from constraints.geometry.paths import ROUNDING_IN, PathFinder, grown
from constraints.infinity.surfaces import LEVEL_TOL_IN, Region, Surfaces, table_of
from constraints.infinity.trooper import Trooper

FRAME_IN = 10.0  # how far the blocked frame round the table reaches
SHRINK_IN = 1e-9  # relaxed zones are inscribed buffers this much smaller


@dataclass(frozen=True)
class Mover:
    """What the free space depends on: the moving trooper's size, height and side."""

    id: str
    player: str
    radius_in: float
    height_in: float
    relaxed: bool = False  # zones inscribed instead: a free space holding every legal path

    @classmethod
    def of(cls, trooper: Trooper, relaxed: bool = False) -> Mover:
        return cls(trooper.id, trooper.player, trooper.radius_in, trooper.height_in, relaxed)


def disc_zone(centre: tuple[float, float], radius_in: float) -> Polygon:
    """A regular polygon holding the disc, reaching at most ROUNDING_IN past it."""
    sides = max(8, math.ceil(math.pi / math.acos(radius_in / (radius_in + ROUNDING_IN))))
    angles = np.arange(sides) * 2.0 * math.pi / sides
    reach = radius_in / math.cos(math.pi / sides) + 1e-9
    return Polygon(np.column_stack([centre[0] + reach * np.cos(angles),
                                    centre[1] + reach * np.sin(angles)]))


class Walk:
    """One trooper's free space per walk region, on one scenario."""

    def __init__(self, scenario: Scenario, mover: Mover) -> None:
        self.scenario, self.mover = scenario, mover
        self.surfaces = Surfaces(scenario, mover.height_in)
        self._walls: dict[int, list[int]] = {}
        self._drops: dict[int, list[int]] = {}
        self._finders: dict[int, PathFinder] = {}
        self._polys = np.asarray([p.polygon for p in self.surfaces.pieces], dtype=object)
        self._tops = np.asarray([p.top_in for p in self.surfaces.pieces])
        self._tree = shapely.STRtree(self._polys)

    @classmethod
    def of(cls, scenario: Scenario, trooper: Trooper, relaxed: bool = False) -> Walk:
        """The walk of `trooper` (relaxed: the free space grown instead of shrunk by the
        polygons' rounding, so its shortest paths are lower bounds), remembered."""
        mover = Mover.of(trooper, relaxed)
        return remembered(scenario, ("infinity", "walk", mover), lambda: cls(scenario, mover))

    @property
    def regions(self) -> tuple[Region, ...]:
        return self.surfaces.regions

    def walls_of(self, k: int) -> list[int]:
        """Pieces within r of piece k higher than it by more than the Silhouette's height:
        a centre standing on k keeps r from them (it cannot step onto them)."""
        if k not in self._walls:
            rise = self._tops - self.surfaces.pieces[k].top_in
            near = self._near(k, self.mover.radius_in)
            self._walls[k] = [int(x) for x in near
                              if rise[x] > self.mover.height_in + LEVEL_TOL_IN]
        return self._walls[k]

    def drops_of(self, k: int) -> list[int]:
        """Pieces within r/2 of piece k lower than it by more than the Silhouette's height:
        a centre standing on k keeps r/2 from them (stepping off would be a fall)."""
        if k not in self._drops:
            fall = self.surfaces.pieces[k].top_in - self._tops
            near = self._near(k, self.mover.radius_in / 2.0)
            self._drops[k] = [int(x) for x in near
                              if fall[x] > self.mover.height_in + LEVEL_TOL_IN]
        return self._drops[k]

    def _near(self, k: int, distance: float) -> np.ndarray:
        polys = self._polys
        return self._tree.query(polys[k], predicate="dwithin", distance=distance + LEVEL_TOL_IN)

    def shapes(self, ks: list[int]) -> list[shapely.Geometry]:
        return [self.surfaces.pieces[k].polygon for k in ks]

    def members_under(self, line: shapely.Geometry, region: int) -> list[int]:
        """The region's pieces the line passes over (closed)."""
        hit = self._tree.query(line, predicate="intersects")
        return [int(k) for k in hit if self.surfaces.region_of[k] == region]

    def _zone(self, k: int) -> shapely.Geometry:
        """Where a centre standing on piece k may not be: near its walls and drops (the
        same for every trooper of one base and height: remembered per scenario)."""
        m = self.mover
        key = ("infinity", "zone", k, m.radius_in, m.height_in, m.relaxed)
        return remembered(self.scenario, key, lambda: self._build_zone(k))

    def _build_zone(self, k: int) -> shapely.Geometry:
        r, walls, drops = self.mover.radius_in, self.walls_of(k), self.drops_of(k)
        if not walls and not drops:
            return Polygon()
        if self.mover.relaxed:
            parts = [shapely.union_all(self.shapes(walls)).buffer(r - SHRINK_IN) if walls
                     else Polygon(),
                     shapely.union_all(self.shapes(drops)).buffer(r / 2.0 - SHRINK_IN) if drops
                     else Polygon()]
        else:
            parts = [grown(self.shapes(walls), r), grown(self.shapes(drops), r / 2.0)]
        # The zone must hold every grown wall and drop: a union checked to cover its parts.
        return self.surfaces.pieces[k].polygon.intersection(holding_union(parts))

    def blockers(self, region: Region) -> list[Trooper]:
        """Other troopers in the region the mover may not pass through: enemies, and
        allies whose Silhouette is taller."""
        return [t for t in self.troopers_in(region)
                if t.player != self.mover.player or t.height_in > self.mover.height_in]

    def passable(self, t: Trooper, region: Region) -> bool:
        """Whether the mover may stand within reach of `t` on some piece of the region with
        its Silhouette wholly above or below t's (route.troopers then lets the bases overlap
        there, A22).  The relaxed free space leaves such a trooper out; the strict one keeps
        its whole disc (safe, and only longer)."""
        reach = shapely.Point(t.centre).buffer(t.radius_in + self.mover.radius_in)
        for k in region.members:
            piece = self.surfaces.pieces[k]
            if piece.polygon.intersects(reach) and (
                    piece.top_in >= t.level_in + t.height_in - LEVEL_TOL_IN
                    or piece.top_in + self.mover.height_in <= t.level_in + LEVEL_TOL_IN):
                return True
        return False

    def troopers_in(self, region: Region) -> list[Trooper]:
        return [t for t in self.scenario.units if t.id != self.mover.id
                and self.surfaces.locate(t.centre[0], t.centre[1], t.level_in) == region.index]

    def blocked(self, region: Region) -> shapely.Geometry:
        """Where the centre may not be in this region (interior), grown already: the table
        outside the region, each piece's zone, the table's edge, the blocking troopers."""
        r = self.mover.radius_in
        table = table_of(self.scenario)
        w, d = self.scenario.battlefield.width_in, self.scenario.battlefield.depth_in
        frame = box(-FRAME_IN, -FRAME_IN, w + FRAME_IN, d + FRAME_IN).difference(table)
        parts = [table.difference(region.area), *[self._zone(k) for k in region.members]]
        blockers = self.blockers(region)
        if self.mover.relaxed:  # a free space holding every legal path: only sure blockers
            blockers = [t for t in blockers if not self.passable(t, region)]
            parts.append(frame.buffer(r - SHRINK_IN))
            parts += [shapely.Point(t.centre).buffer(t.radius_in + r - SHRINK_IN)
                      for t in blockers]
        else:
            parts.append(grown([frame], r))
            parts += [disc_zone(t.centre, t.radius_in + r) for t in blockers]
        # Checked to cover each part: an overlay that lost a piece would open a way through.
        return holding_union(parts)

    def finder(self, region: int) -> PathFinder:
        """The region's path finder, built when first asked for (a town has many roofs)."""
        if region not in self._finders:
            self._finders[region] = PathFinder.around(self.blocked(self.regions[region]))
        return self._finders[region]

    def locate(self, x: float, y: float, level_in: float) -> int | None:
        return self.surfaces.locate(x, y, level_in)

    def level_at(self, region: int, point: tuple[float, float]) -> float:
        """The height of the region's highest surface under the point (its level there)."""
        pieces = self.surfaces.pieces
        x = shapely.Point(point)
        tops = [pieces[m].top_in for m in self.regions[region].members
                if pieces[m].polygon.distance(x) <= LEVEL_TOL_IN]
        return max(tops) if tops else self.regions[region].tops_in[0]

    def free(self, region: int, x: float, y: float) -> bool:
        """Whether the centre may stand at (x, y) in the region (on the grown outline too)."""
        return not self.finder(region).inside((x, y))

    def end_zone(self, region: Region) -> shapely.Geometry:
        """Where a move may end in the region: the base wholly on one surface to stand on,
        clear of every zone above and of every trooper (no ending inside an ally).  Inner
        like the free space (at most 0.001" lost); for a relaxed walk, outer: it holds every
        legal end (shapely's erosion and discs, inscribed arcs)."""
        r = self.mover.radius_in
        table = table_of(self.scenario)
        spots = []
        for m in region.members:
            if self.surfaces.pieces[m].standable:
                flat = self.surfaces.flat(m)
                spots.append(flat.buffer(-r) if self.mover.relaxed else
                             flat.difference(grown([table.difference(flat)], r)))
        zone = shapely.union_all(spots) if spots else Polygon()
        others = [shapely.Point(t.centre).buffer(t.radius_in + r - SHRINK_IN)
                  if self.mover.relaxed else disc_zone(t.centre, t.radius_in + r)
                  for t in self.troopers_in(region)]
        return zone.difference(shapely.union_all([self.finder(region.index).region, *others]))
