"""The reference referee of Infinity routes: the route clauses measured the slow and simple
way, from the scenario file's raw prisms (docs/rules.md §13.3-13.4).

It shares nothing with `constraints.infinity` but the file format: no pieces, regions,
walks or clauses.  The surface under a point is the top of the highest prism whose footprint
holds it (the ground: 0).  The centre's path is sampled every SAMPLE_IN; at each sample p the
trooper stands on the surface under p, and
- scenery: a point of its base (sampled on circles of radius r and r/2) over a surface
  higher than p's by more than the Silhouette's height;
- surface: a point within r/2 of p over a surface lower than p's by more than that height;
- table: a point of the base off the table;
- troopers: the base overlapping an enemy's or a taller ally's where the two Silhouettes
  (cylinders on their levels) overlap in height;
- contact (A22): where the trooper's Silhouette, a cylinder standing on the surface under the
  sample, first meets an enemy's cylinder standing on its level (`Town.contact`).
Where the centre's own path goes up or down a cliff, the checker names the wall it walks
into (scenery) where the referee, standing on the cliff's top, also sees the edge (surface):
the surface clause is compared only on paths that do not.  Sampling sees a clearance up to
SAMPLE_IN / 2 too large along the path and RING_ERROR_IN too large round the disc, so the
checker must agree wherever the clearance is more than TOLERANCE_IN from its limit.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np
import shapely

SAMPLE_IN = 0.02
RING = 48                      # points round each sampled circle
RINGS = (1.0, 0.5, 0.25)  # radii sampled, as fractions of the base's radius
RING_ERROR_IN = 0.5 * (2 * math.pi / RING) ** 2  # sagitta per inch of radius, squared angle
TOLERANCE_IN = SAMPLE_IN + 0.02
S_HEIGHT_MM = {1: 25, 2: 40, 3: 32, 4: 32, 5: 45, 6: 55, 7: 67, 8: 70}


@dataclass(frozen=True)
class Found:
    scenery: bool
    surface: bool
    table: bool
    troopers: bool
    climbs: bool  # the centre's own path goes up or down a cliff (a step over the height)


def _height(silhouette: int) -> float:
    return S_HEIGHT_MM[silhouette] / 25.4


# --- Silhouette contact with enemies on any level (decision A22), by sampling volumes -------

CONTACT_TOLERANCE_IN = SAMPLE_IN + 1e-3  # compare only where every margin is this far from 0


@dataclass(frozen=True)
class ContactFound:
    least: float               # the least contact margin sampled (< 0: in contact)
    near: float | None         # the walk to the first sample within the tolerance of contact
    deep: float | None         # the walk to the first sample in contact by more than it

    @property
    def settled(self) -> bool:
        return abs(self.least) > CONTACT_TOLERANCE_IN


class Town:
    def __init__(self, data: dict[str, Any]) -> None:
        self.width, self.depth = data["battlefield"]["width"], data["battlefield"]["depth"]
        prisms = [t for t in data["terrain"] if t["kind"] in ("building", "obstacle")]
        self.polys = [shapely.Polygon(t["polygon"]) for t in prisms]
        for poly in self.polys:  # asked about thousands of points each
            shapely.prepare(poly)
        self.tops = np.asarray([t.get("level", 0.0) + t["height"] for t in prisms])
        self.units = data["units"]

    def surface(self, points: np.ndarray) -> np.ndarray:
        """The top of the highest prism over each point (0 over the bare ground)."""
        out = np.zeros(len(points))
        for poly, top in zip(self.polys, self.tops, strict=True):
            inside = shapely.contains_xy(poly, points[:, 0], points[:, 1])
            out[inside] = np.maximum(out[inside], top)
        return out

    def judge(self, unit_id: str, a: tuple[float, float], b: tuple[float, float]) -> Found:
        me = next(u for u in self.units if u["id"] == unit_id)
        r, tall = me["base"] / 25.4 / 2, _height(me["silhouette"])
        steps = max(2, math.ceil(math.dist(a, b) / SAMPLE_IN) + 1)
        path = np.linspace(a, b, steps)
        here = self.surface(path)
        scenery = surface = table = False
        for frac in RINGS:
            angles = np.arange(RING) * 2 * math.pi / RING
            ring = np.stack([np.cos(angles), np.sin(angles)], axis=1) * r * frac
            pts = (path[:, None, :] + ring[None]).reshape(-1, 2)
            levels = self.surface(pts).reshape(len(path), RING)
            scenery |= bool(np.any(levels - here[:, None] > tall + 1e-9))
            if frac <= 0.5:
                surface |= bool(np.any(here[:, None] - levels > tall + 1e-9))
            if frac == 1.0:
                off = (pts[:, 0] < 0) | (pts[:, 1] < 0) | (pts[:, 0] > self.width) | \
                    (pts[:, 1] > self.depth)
                table |= bool(off.any())
        climbs = bool(np.any(np.abs(np.diff(here)) > tall + 1e-9))
        return Found(scenery, surface, table, self._troopers(me, path, here, r, tall), climbs)

    def _troopers(self, me: dict[str, Any], path: np.ndarray, here: np.ndarray, r: float,
                  tall: float) -> bool:
        """The base through an enemy's or a taller ally's where the Silhouettes overlap in
        height by more than touching (A22); across a step, every level between."""
        low = np.minimum(here, np.concatenate([here[:1], here[:-1]]))
        high = np.maximum(here, np.concatenate([here[:1], here[:-1]]))
        for u in self.units:
            if u["id"] == me["id"]:
                continue
            their = _height(u.get("silhouette", 2))
            if u["player"] == me["player"] and their <= tall:
                continue
            level = u.get("level", 0.0)
            beside = (low < level + their - 1e-6) & (level < high + tall - 1e-6)
            gap = np.hypot(*(path - np.asarray(u["centre"])).T) - r - u["base"] / 25.4 / 2
            if np.any((gap < -1e-9) & beside):
                return True
        return False

    def contact(self, unit_id: str, a: tuple[float, float], b: tuple[float, float]
                ) -> ContactFound:
        """Walk the centre from a to b in samples; at each the trooper stands on the surface
        under it (across a step, every level between the two samples'), a cylinder of its
        Silhouette's height; an enemy's cylinder stands on its level.  Contact: the bases within
        reach in the plane and the heights overlapping or touching.  Enemies touched at the
        start do not count (the Move starts in contact)."""
        me = next(u for u in self.units if u["id"] == unit_id)
        r, tall = me["base"] / 25.4 / 2, _height(me["silhouette"])
        steps = max(2, math.ceil(math.dist(a, b) / SAMPLE_IN) + 1)
        path = np.linspace(a, b, steps)
        here = self.surface(path)
        low = np.minimum(here, np.concatenate([here[:1], here[:-1]]))
        high = np.maximum(here, np.concatenate([here[:1], here[:-1]]))
        walked = np.linspace(0.0, math.dist(a, b), steps)
        least, near, deep = math.inf, math.inf, math.inf
        for u in self.units:
            if u["player"] == me["player"] or u.get("kind") == "marker":
                continue
            level, their = u.get("level", 0.0), _height(u["silhouette"])
            plane = np.hypot(*(path - np.asarray(u["centre"])).T) - r - u["base"] / 25.4 / 2
            apart = np.maximum(level - (high + tall), low - (level + their))  # > 0: apart
            margin = np.maximum(plane, apart)
            if margin[0] <= 0.0:
                continue  # in contact at the start: not a new contact
            if margin[0] <= CONTACT_TOLERANCE_IN:
                least = 0.0  # nearly in contact at the start: too close to call
            least = min(least, float(margin.min()))
            for found, bar in ((near, CONTACT_TOLERANCE_IN), (deep, -CONTACT_TOLERANCE_IN)):
                hits = np.flatnonzero(margin <= bar)
                if len(hits) and walked[hits[0]] < found:
                    if bar > 0:
                        near = float(walked[hits[0]])
                    else:
                        deep = float(walked[hits[0]])
        return ContactFound(least, None if near == math.inf else near,
                            None if deep == math.inf else deep)

# --- Jumps and Climbs in the air (docs/rules.md §13.8), judged by sampling volumes -------

AIR_SAMPLE_IN = 0.03           # spacing of the samples along a leg
AIR_HEIGHTS = 9                # sampled heights through the Silhouette
AIR_TOLERANCE_IN = 0.05        # compare a clause only when its measure is this far from the limit


@dataclass(frozen=True)
class AirFound:
    enters_scenery: bool       # some sampled point of the Silhouette strictly inside a prism
    distance: float            # a Jump: least sampled distance start Silhouette -> end base
    length: float              # the path's 3-D length


def _cylinder(centre: np.ndarray, r: float, z: float, h: float, fracs=RINGS) -> np.ndarray:
    """Points of a cylinder: rings at several radii and heights, and its axis."""
    return _cylinder_offsets(r, h, fracs) + np.array([centre[0], centre[1], z])


def _cylinder_offsets(r: float, h: float, fracs=RINGS) -> np.ndarray:
    """`_cylinder`'s points about the centre of its base."""
    angles = np.arange(RING) * 2 * math.pi / RING
    rings = [np.zeros((1, 2))] + [r * frac * np.stack([np.cos(angles), np.sin(angles)], axis=1)
                                  for frac in (*fracs, 0.999)]
    flat = np.concatenate(rings)
    zs = np.linspace(0.0, h, AIR_HEIGHTS)
    return np.concatenate([np.column_stack([flat, np.full(len(flat), zz)]) for zz in zs])


class Air(Town):
    def __init__(self, data: dict[str, Any]) -> None:
        super().__init__(data)
        prisms = [t for t in data["terrain"] if t["kind"] in ("building", "obstacle")]
        self.lows = np.asarray([t.get("level", 0.0) for t in prisms])

    def inside(self, pts: np.ndarray) -> bool:
        """Whether any 3-D point is strictly inside a prism (margins keep touching out)."""
        for poly, low, top in zip(self.polys, self.lows, self.tops, strict=True):
            inner = poly.buffer(-1e-4)
            if inner.is_empty:
                continue
            x0, y0, x1, y1 = inner.bounds
            near = pts[(pts[:, 0] > x0) & (pts[:, 0] < x1) & (pts[:, 1] > y0)
                       & (pts[:, 1] < y1) & (pts[:, 2] > low + 1e-4) & (pts[:, 2] < top - 1e-4)]
            if len(near) and bool(shapely.contains_xy(inner, near[:, 0], near[:, 1]).any()):
                return True
        return False

    def judge_air(self, unit_id: str, path: list[tuple[float, float, float]]) -> AirFound:
        me = next(u for u in self.units if u["id"] == unit_id)
        r, h = me["base"] / 25.4 / 2, _height(me["silhouette"])
        enters = False
        for a, b in zip(path, path[1:], strict=False):
            steps = max(2, math.ceil(math.dist(a, b) / AIR_SAMPLE_IN) + 1)
            offsets = _cylinder_offsets(r, h)
            pts = (np.linspace(a, b, steps)[:, None, :] + offsets[None]).reshape(-1, 3)
            if self.inside(pts):
                enters = True
                break
        start = _cylinder(np.asarray(path[0][:2]), r, path[0][2], h)
        end = _cylinder(np.asarray(path[-1][:2]), r, path[-1][2], 0.0)
        gaps = np.sqrt(((start[:, None, :] - end[None, :, :]) ** 2).sum(axis=2))
        length = sum(math.dist(a, b) for a, b in zip(path, path[1:], strict=False))
        return AirFound(enters, float(gaps.min()), length)

