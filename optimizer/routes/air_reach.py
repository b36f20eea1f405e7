"""Where a Jump or a Climb can land, per level (docs/rules.md §13.9).

A Jump lands at level z with its base centre within 2r + sqrt(L² - v²) of the start centre
in the plane (L the first MOV value, v the height from the start Silhouette to z: the N4
FAQ's measure), on the end zone (the whole base on one surface, clear of troopers).
- **outer** (holds every landing spot): that disc (circumscribed) on the relaxed end zone;
- **inner** (every spot a legal Jump): the inscribed disc on the end zone, seen from the
  start past the scenery the Silhouette would meet crossing at height H = max(start level,
  z) (prisms taller than H reaching into [H, H + height]), grown by r: there the trajectory
  up to H, across and down is clear (rising and falling are clear: prisms stand on surfaces,
  none hangs over a base).  When the start itself touches such scenery the level's inner
  area is left empty (a sound, smaller answer).
A Climb (up only) lands at level z > the start's when the base touches a wall spanning the
climb, within min(2r, L - (z - z0)) of the start centre (the step over the edge), likewise
inner and outer.  Climbing **down** ends with the base touching the wall: a band of no area,
not drawn (ask `route --to` for a spot).  A Prone trooper does not Jump; it stands up to
Climb.
"""

from __future__ import annotations

import math

import shapely
from shapely.geometry import Polygon

from constraints.geometry.paths import grown
from constraints.infinity.clauses.climb import WALL_CONTACT_IN
from constraints.infinity.scenery import prisms
from constraints.infinity.surfaces import LEVEL_TOL_IN
from constraints.infinity.trooper import Trooper
from constraints.infinity.walk import Walk
from optimizer.routes.reach import disc, outline, seen
from optimizer.routes.request import RouteRequest

Areas = dict[float, shapely.Geometry]


def air_areas(request: RouteRequest, skill: str, budget: float) -> tuple[Areas, Areas]:
    """(inner, outer) landing areas per level of a Jump or a Climb within `budget`."""
    t = request.trooper
    if skill == "climb" and request.prone is None and t.prone:
        t = t.with_prone(False)
    if t.prone or (skill == "jump" and request.prone is not None
                   and request.prone != request.prone_at_start):
        return {}, {}
    inner: Areas = {}
    outer: Areas = {}
    for z in _levels(request, t):
        reach = _reach(request, t, skill, budget, z)
        if reach is None:
            continue
        ins = _zone(request, t, z, False).intersection(_inner_disc(request, t, z, reach))
        out = _zone(request, t, z, True).intersection(disc(request.start[:2], reach, True))
        for found, geometry in ((inner, ins), (outer, out)):
            if not geometry.is_empty and geometry.area > 0.0:
                found[z] = geometry
    return inner, outer


def _levels(request: RouteRequest, t: Trooper) -> list[float]:
    pieces = Walk.of(request.scenario, t).surfaces.pieces
    return sorted({p.top_in for p in pieces if p.standable})


def _reach(request: RouteRequest, t: Trooper, skill: str, budget: float,
           z: float) -> float | None:
    """The plane distance from the start centre a landing at level z may reach, or None."""
    z0, r = request.start[2], t.radius_in
    if skill == "jump":
        v = z - z0 - t.height_in if z > z0 + t.height_in else (z0 - z if z < z0 else 0.0)
        return 2.0 * r + math.sqrt(budget ** 2 - v ** 2) if v <= budget else None
    rise = z - z0
    if rise <= LEVEL_TOL_IN or rise > budget or not _touches_wall(request, t, z):
        return None
    return min(2.0 * r, budget - rise)


def _touches_wall(request: RouteRequest, t: Trooper, z: float) -> bool:
    z0 = request.start[2]
    centre = shapely.Point(request.start[:2])
    return any(s.level_in <= z0 + LEVEL_TOL_IN and s.top_in >= z - LEVEL_TOL_IN
               and float(shapely.distance(centre, s.shape)) - t.radius_in <= WALL_CONTACT_IN
               for s in prisms(request.scenario.terrain))


def _zone(request: RouteRequest, t: Trooper, z: float, outer: bool) -> shapely.Geometry:
    """Where a base may end at level z (the walk's end zones' parts at that level)."""
    walk = Walk.of(request.scenario, t, relaxed=outer)
    parts = []
    for region in walk.regions:
        if not region.has_level(z):
            continue
        at = [walk.surfaces.pieces[m].polygon for m in region.members
              if walk.surfaces.pieces[m].standable
              and abs(walk.surfaces.pieces[m].top_in - z) <= LEVEL_TOL_IN]
        if at:
            parts.append(walk.end_zone(region).intersection(shapely.union_all(at)))
    return shapely.union_all(parts) if parts else Polygon()


def _inner_disc(request: RouteRequest, t: Trooper, z: float, reach: float) -> shapely.Geometry:
    """The inscribed disc seen from the start past the scenery met crossing at max(z0, z)."""
    h = max(request.start[2], z)
    walls = [s.shape for s in prisms(request.scenario.terrain)
             if s.top_in > h + LEVEL_TOL_IN and s.level_in < h + t.height_in - LEVEL_TOL_IN]
    start = request.start[:2]
    if not walls:
        return disc(start, reach, False)
    blocked = grown(walls, t.radius_in)
    if blocked.contains(shapely.Point(start)):
        return Polygon()
    edges, tree = outline(blocked)
    return seen(start, reach, edges, tree, False).difference(blocked)
