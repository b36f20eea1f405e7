"""Where one trooper's base centre may go: the free space of each walk region, its path
finder, and where a move may end (docs/rules.md §13.3-13.4).

In a walk region the base keeps
- clear of every piece higher than a piece of the region near it by more than the
  Silhouette's height (a wall it cannot step onto): the centre stays at least the radius r
  from it;
- on the region's surfaces at least half the base wide (RULES.md §5.3; decision: a disc of
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
from constraints.geometry.paths import ROUNDING_IN, PathFinder, grown
from constraints.infinity.surfaces import LEVEL_TOL_IN, Region, Surfaces, table_of
from constraints.infinity.trooper import Trooper

FRAME_IN = 10.0  # how far the blocked frame round the table reaches


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
        self._finders: dict[int, PathFinder] = {}
        self._drops: dict[int, shapely.Geometry] = {}

    @classmethod
    def of(cls, scenario: Scenario, trooper: Trooper, relaxed: bool = False) -> Walk:
        """The walk of `trooper` (relaxed: the free space grown instead of shrunk by the
        polygons' rounding, so its shortest paths are lower bounds), remembered."""
        mover = Mover.of(trooper, relaxed)
        return remembered(scenario, ("infinity", "walk", mover), lambda: cls(scenario, mover))

    @property
    def regions(self) -> tuple[Region, ...]:
        return self.surfaces.regions

    def walls(self, region: Region) -> list[int]:
        """Pieces outside the region higher than a region piece within r of them by more
        than the Silhouette's height."""
        if region.index not in self._walls:
            self._walls[region.index] = self._find_walls(region)
        return self._walls[region.index]

    def _find_walls(self, region: Region) -> list[int]:
        pieces = self.surfaces.pieces
        found = []
        members = np.asarray([pieces[m].polygon for m in region.members], dtype=object)
        for k, p in enumerate(pieces):
            if k in region.members:
                continue
            near = shapely.dwithin(members, p.polygon, self.mover.radius_in + LEVEL_TOL_IN)
            tops = np.asarray([pieces[m].top_in for m in region.members])[near]
            if len(tops) and p.top_in - tops.min() > self.mover.height_in + LEVEL_TOL_IN:
                found.append(k)
        return found

    def blockers(self, region: Region) -> list[Trooper]:
        """Other troopers in the region the mover may not pass through: enemies, and
        allies whose Silhouette is taller."""
        return [t for t in self.troopers_in(region)
                if t.player != self.mover.player or t.height_in > self.mover.height_in]

    def troopers_in(self, region: Region) -> list[Trooper]:
        return [t for t in self.scenario.units if t.id != self.mover.id
                and self.surfaces.locate(t.centre[0], t.centre[1], t.level_in) == region.index]

    def wall_shapes(self, region: Region) -> list[shapely.Geometry]:
        return [self.surfaces.pieces[k].polygon for k in self.walls(region)]

    def drops(self, region: Region) -> shapely.Geometry:
        """The table outside the region and its walls: the base's centre keeps r/2 off it."""
        if region.index not in self._drops:
            self._drops[region.index] = table_of(self.scenario).difference(
                shapely.union_all([region.area, *self.wall_shapes(region)]))
        return self._drops[region.index]

    def blocked(self, region: Region) -> shapely.Geometry:
        """Where the centre may not be in this region (interior), grown already."""
        r = self.mover.radius_in
        walls, drops = self.wall_shapes(region), self.drops(region)
        table = table_of(self.scenario)
        w, d = self.scenario.battlefield.width_in, self.scenario.battlefield.depth_in
        frame = box(-FRAME_IN, -FRAME_IN, w + FRAME_IN, d + FRAME_IN).difference(table)
        if self.mover.relaxed:
            return _inscribed(walls, drops, frame, self.blockers(region), r)
        parts = [grown(walls, r), grown([drops], r / 2.0), grown([frame], r)]
        parts += [disc_zone(t.centre, t.radius_in + r) for t in self.blockers(region)]
        return shapely.union_all(parts)

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
        others = [shapely.Point(t.centre).buffer(t.radius_in + r - 1e-9)
                  if self.mover.relaxed else disc_zone(t.centre, t.radius_in + r)
                  for t in self.troopers_in(region)]
        return zone.difference(shapely.union_all([self.finder(region.index).region, *others]))

def _inscribed(walls: list[shapely.Geometry], drops: shapely.Geometry, frame: Polygon,
               blockers: list[Trooper], r: float) -> shapely.Geometry:
    """The zones as shapely's round buffers, a hair smaller: inscribed in the true zones,
    so the free space outside them holds every legal centre (docs/rules.md §13.5)."""
    shrink = 1e-9
    parts = [shapely.union_all(walls).buffer(r - shrink) if walls else Polygon(),
             drops.buffer(r / 2.0 - shrink) if not drops.is_empty else Polygon(),
             frame.buffer(r - shrink)]
    parts += [shapely.Point(t.centre).buffer(t.radius_in + r - shrink) for t in blockers]
    return shapely.union_all(parts)
