"""Seeded Infinity N4 scenarios (format `manoeuvre/1`, rules `infinity-n4`) for route benchmarks.

`ruined_town(n, seed)`: n footprinted pieces (ruined buildings, rectangles and L-shapes, some
with a second storey standing inside the roof; low walls below an S2; tall walls; crates) plus
ladders and stairs to some roofs (they are extra, not counted in n) and 4-10 troopers of
"blue" and "red" on free ground.  `flat_town(n, seed)`: the same table on one level, every
piece an obstacle taller than every Silhouette (for the extremitypathfinder comparison).
Requests about a town (`queries`, `surface`, `with_enemies`): benchmarks/infinity_queries.py.
Lengths in inches, everything from `random.Random(seed)` and rounded to 0.01", so a seed
always gives the same dict.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import shapely
from shapely.geometry import LineString, Point, Polygon, box
from shapely.geometry.base import BaseGeometry

MM_PER_INCH = 25.4
SILHOUETTE_HEIGHT_MM = {1: 25, 2: 40, 3: 32, 4: 32, 5: 45, 6: 55, 7: 67, 8: 70}
SILHOUETTE_BASE_MM = {1: 25, 2: 25, 3: 40, 4: 55, 5: 40, 6: 40, 7: 55, 8: 70}
TALLEST_SILHOUETTE = max(SILHOUETTE_HEIGHT_MM.values()) / MM_PER_INCH  # 2.76"
S2_HEIGHT = SILHOUETTE_HEIGHT_MM[2] / MM_PER_INCH  # 1.575": low walls stay below it
END_INSET = 0.6  # a ladder end lies this far from the wall (out on the low side, in on the roof)
END_CLEAR = 0.5  # radius kept free around a ladder end (a 25 mm base is 0.49")
GAPS = (0.0, 0.3, 1.1, 1.1, 1.6)  # drawn per piece: minimum distance to the other pieces
TRIES = 300
# (silhouette, MOV): mostly S2 line infantry, some remotes, TAGs and bikes.
PROFILES = ((2, (4, 4)), (2, (4, 4)), (2, (4, 4)), (1, (4, 4)), (3, (4, 4)), (4, (6, 2)),
            (5, (4, 4)), (6, (4, 4)), (7, (6, 2)), (8, (6, 4)))
Coords = list[tuple[float, float]]


@dataclass
class _Town:
    rng: random.Random
    table: Polygon
    flat: bool
    terrain: list[dict[str, Any]] = field(default_factory=list)
    ground: list[Polygon] = field(default_factory=list)  # footprints standing at level 0
    reserved: list[BaseGeometry] = field(default_factory=list)  # ground kept free at ladder feet
    ids: dict[str, int] = field(default_factory=dict)

    def new_id(self, prefix: str) -> str:
        self.ids[prefix] = self.ids.get(prefix, 0) + 1
        return f"{prefix}{self.ids[prefix]}"


@dataclass
class _Building:
    piece: dict[str, Any]
    polygon: Polygon
    frame: tuple[float, float, float]  # origin x, y and rotation (radians) of the local frame
    strip: tuple[float, float]  # local rectangle [0, w] x [0, h] lying inside the footprint
    storeys: list[tuple[Polygon, float]] = field(default_factory=list)  # footprint, top

    @property
    def top(self) -> float:
        return _r(self.piece["level"] + self.piece["height"])

    def roof(self) -> BaseGeometry:
        """The walkable part of the roof: the footprint minus the storeys standing on it."""
        return self.polygon.difference(shapely.union_all([s for s, _ in self.storeys]))


def _r(v: float) -> float:
    return round(float(v), 2)


def _transform(local: Coords, frame: tuple[float, float, float]) -> Coords:
    ox, oy, th = frame
    c, s = math.cos(th), math.sin(th)
    return [(_r(ox + x * c - y * s), _r(oy + x * s + y * c)) for x, y in local]


def _rect(w: float, h: float, x0: float = 0.0, y0: float = 0.0) -> Coords:
    return [(x0, y0), (x0 + w, y0), (x0 + w, y0 + h), (x0, y0 + h)]


def _l_shape(rng: random.Random, w: float, h: float) -> tuple[Coords, tuple[float, float]]:
    cw, ch = w * rng.uniform(0.3, 0.6), h * rng.uniform(0.3, 0.6)
    local = [(0.0, 0.0), (w, 0.0), (w, h - ch), (w - cw, h - ch), (w - cw, h), (0.0, h)]
    return local, (w, h - ch)


def _index(geoms: list[BaseGeometry]) -> tuple[np.ndarray, np.ndarray]:
    arr = np.asarray(geoms, dtype=object)
    return arr, (shapely.bounds(arr) if len(arr) else np.empty((0, 4)))


def _clear(poly: BaseGeometry, others: list[BaseGeometry] | tuple[np.ndarray, np.ndarray],
           gap: float) -> bool:
    """No interior overlap with any of `others` (a list or an `_index`) and, if gap > 0, at
    least `gap` from each."""
    arr, b = _index(others) if isinstance(others, list) else others
    x0, y0, x1, y1 = poly.bounds
    near = arr[(b[:, 0] <= x1 + gap) & (b[:, 2] >= x0 - gap)
               & (b[:, 1] <= y1 + gap) & (b[:, 3] >= y0 - gap)]
    if not len(near):
        return True
    if gap > 0:
        return bool(shapely.distance(near, poly).min() >= gap)
    return not shapely.relate_pattern(near, poly, "T********").any()


def _place(town: _Town, local: Coords,
           gap: float) -> tuple[Polygon, tuple[float, float, float]] | None:
    """A random pose of `local` on the ground, inside the table, clear of pieces and ladders."""
    rng, (_, _, width, depth) = town.rng, town.table.bounds
    ground, reserved = _index(town.ground), _index(town.reserved)
    for attempt in range(2 * TRIES):
        th = rng.choice((0.0, math.pi / 2)) if rng.random() < 0.6 else rng.uniform(0, math.pi)
        turned = np.asarray(_transform(local, (0.0, 0.0, th)))
        lo, hi = turned.min(axis=0), turned.max(axis=0)
        if hi[0] - lo[0] > width - 0.2 or hi[1] - lo[1] > depth - 0.2:
            continue
        frame = (_r(rng.uniform(0.1 - lo[0], width - 0.1 - hi[0])),
                 _r(rng.uniform(0.1 - lo[1], depth - 0.1 - hi[1])), th)
        poly = Polygon(_transform(local, frame))
        g = gap if attempt < TRIES else 0.0  # then settle for touching
        if town.table.contains(poly) and _clear(poly, ground, g) and _clear(poly, reserved, 0.0):
            return poly, frame
    return None


def _add_piece(town: _Town, prefix: str, kind: str, poly: Polygon, height: float,
               level: float = 0.0) -> dict[str, Any]:
    if town.flat:
        kind, height = "obstacle", town.rng.uniform(TALLEST_SILHOUETTE + 0.25, 4.5)
    piece = {"id": town.new_id(prefix), "kind": kind,
             "polygon": [list(p) for p in poly.exterior.coords[:-1]],
             "height": _r(height), "level": _r(level)}
    town.terrain.append(piece)
    if level == 0.0:
        town.ground.append(poly)
    return piece


def _buildings(town: _Town, n: int, hi: float) -> list[_Building]:
    rng, out = town.rng, []
    for _ in range(n):
        w, h = rng.uniform(2.0, hi), rng.uniform(2.0, hi)
        local, strip = (_l_shape(rng, w, h) if rng.random() < 0.35 else (_rect(w, h), (w, h)))
        placed = _place(town, local, rng.choice(GAPS))
        if placed is None:
            continue
        piece = _add_piece(town, "b", "building", placed[0], rng.uniform(1.5, 4.5))
        out.append(_Building(piece, placed[0], placed[1], strip))
    return out


def _storey(town: _Town, b: _Building) -> bool:
    """A second storey standing inside the roof of `b` (none on an already built-up roof)."""
    rng, (w, h) = town.rng, b.strip
    if b.storeys or min(w, h) < 2.5:
        return False
    for _ in range(20):
        sw, sh = w * rng.uniform(0.45, 0.7), h * rng.uniform(0.45, 0.7)
        local = _rect(sw, sh, rng.uniform(0.1, w - sw - 0.1), rng.uniform(0.1, h - sh - 0.1))
        poly = Polygon(_transform(local, b.frame))
        if b.polygon.contains(poly) and _clear(poly, [b.polygon.exterior], 0.05):
            piece = _add_piece(town, "b", "building", poly, rng.uniform(1.5, 3.0), level=b.top)
            b.storeys.append((poly, _r(b.top + piece["height"])))
            return True
    return False


def _ladder(town: _Town, upper: Polygon, roof: BaseGeometry, low_surface: BaseGeometry,
            levels: tuple[float, float], on_ground: bool) -> bool:
    """A ladder or stairs from `low_surface` (at levels[0]) up a side of the footprint `upper`
    to its walkable `roof` (at levels[1])."""
    rng = town.rng
    ring = shapely.geometry.polygon.orient(upper).exterior.coords
    stairs = rng.random() < 0.4
    for _ in range(8):
        i = rng.randrange(len(ring) - 1)
        (ax, ay), (bx, by) = ring[i], ring[i + 1]
        length = math.hypot(bx - ax, by - ay)
        t = rng.uniform(0.25, 0.75)
        mx, my = ax + t * (bx - ax), ay + t * (by - ay)
        nx, ny = (by - ay) / length, -(bx - ax) / length  # outward normal (ring is CCW)
        out = END_INSET + (rng.uniform(1.0, 2.0) if stairs else 0.0)
        foot = (_r(mx + nx * out), _r(my + ny * out))
        top = (_r(mx - nx * END_INSET), _r(my - ny * END_INSET))
        near = (mx + nx * END_INSET, my + ny * END_INSET)
        clear = (LineString([near, foot]) if stairs else Point(foot)).buffer(END_CLEAR)
        if not (low_surface.contains(clear) and roof.contains(Point(top).buffer(END_CLEAR))):
            continue
        if on_ground and not _clear(clear, town.reserved, 0.0):
            continue
        kind, prefix = ("stairs", "s") if stairs else ("ladder", "l")
        town.terrain.append({"id": town.new_id(prefix), "kind": kind,
                             "from": [*foot, levels[0]], "to": [*top, levels[1]]})
        if on_ground:
            town.reserved.append(clear)
        return True
    return False


def _access(town: _Town, buildings: list[_Building]) -> None:
    """Ladders/stairs to about 60% of the roofs and storeys (at least one in the town)."""
    ground = town.table.difference(shapely.union_all(town.ground))
    made = 0
    for b in buildings:
        if town.rng.random() < 0.6:
            made += _ladder(town, b.polygon, b.roof(), ground, (0.0, b.top), on_ground=True)
        for storey, top in b.storeys:
            if town.rng.random() < 0.6:
                _ladder(town, storey, storey, b.roof(), (b.top, top), on_ground=False)
    for b in buildings:
        if made:
            return
        made += _ladder(town, b.polygon, b.roof(), ground, (0.0, b.top), on_ground=True)


def _obstacles(town: _Town, n_low: int, n_tall: int, n_crates: int) -> None:
    """Walls and crates on the ground; one that does not fit becomes a 0.6" crate."""
    rng = town.rng
    specs = ([("w", 0.5, min(1.0, S2_HEIGHT - 0.05))] * n_low + [("w", 2.0, 3.0)] * n_tall
             + [("c", 0.6, 2.0)] * n_crates)
    for prefix, h_lo, h_hi in specs:
        wide = (2.0, 6.0) if prefix == "w" else (0.8, 2.0)
        deep = (0.2, 0.4) if prefix == "w" else (0.8, 2.0)
        placed = _place(town, _rect(rng.uniform(*wide), rng.uniform(*deep)), rng.choice(GAPS))
        if placed is None:
            placed, (prefix, h_lo, h_hi) = _place(town, _rect(0.6, 0.6), 0.0), ("c", 0.6, 2.0)
        if placed is None:
            raise RuntimeError("table too crowded for the requested number of pieces")
        _add_piece(town, prefix, "obstacle", placed[0], rng.uniform(h_lo, h_hi))


def _troopers(town: _Town) -> list[dict[str, Any]]:
    rng, units = town.rng, []
    discs: list[tuple[float, float, float]] = []
    for k in range(rng.randint(4, 10)):
        player = ("blue", "red")[k % 2]
        sil, mov = rng.choice(PROFILES)
        base = SILHOUETTE_BASE_MM[sil]
        radius = base / 2 / MM_PER_INCH
        centre = free_spot(town.rng, town.table, town.ground + town.reserved, discs, radius, None)
        discs.append((*centre, radius))
        units.append({"id": f"{player}{k // 2 + 1}", "player": player, "kind": "trooper",
                      "base": base, "silhouette": sil, "mov": list(mov),
                      "centre": list(centre), "level": 0.0, "prone": False})
    return units


def free_spot(rng: random.Random, table: Polygon, blocked: list[BaseGeometry],
               discs: list[tuple[float, float, float]], radius: float,
               near: tuple[float, float, float] | None,
               region: BaseGeometry | None = None) -> tuple[float, float]:
    """A centre (0.01" grid) where a disc of `radius` lies on the table, off `blocked`, at least
    0.1" from the discs (x, y, r), inside `region` if given; the first tries within near[2]
    of (near[0], near[1])."""
    _, _, width, depth = table.bounds
    x0, y0, x1, y1 = region.bounds if region is not None else (0.0, 0.0, width, depth)
    arr = np.asarray(blocked, dtype=object)
    for attempt in range(20 * TRIES):
        if near is not None and attempt < 100:
            ang, dist = rng.uniform(0, 2 * math.pi), rng.uniform(0.5, near[2])
            x, y = near[0] + dist * math.cos(ang), near[1] + dist * math.sin(ang)
        else:
            x, y = rng.uniform(max(x0, radius), min(x1, width - radius)), rng.uniform(
                max(y0, radius), min(y1, depth - radius))
        x, y = _r(x), _r(y)
        if not (radius + 0.01 <= x <= width - radius - 0.01
                and radius + 0.01 <= y <= depth - radius - 0.01):
            continue
        p = Point(x, y)
        if len(arr) and shapely.distance(arr, p).min() < radius + 0.01:
            continue
        if region is not None and not region.contains(p):
            continue
        if all(math.hypot(x - dx, y - dy) >= radius + dr + 0.1 for dx, dy, dr in discs):
            return x, y
    raise RuntimeError("no free ground left for a trooper")


def _town(n_pieces: int, seed: int, levels: bool, flat: bool, width: float,
          depth: float) -> dict[str, Any]:
    if n_pieces < 1:
        raise ValueError("n_pieces must be positive")
    town = _Town(random.Random(seed), box(0.0, 0.0, width, depth), flat)
    n_build = max(1, round(0.2 * n_pieces))
    n_storey = min(round(0.06 * n_pieces), n_build) if levels and not flat else 0
    hi = min(8.0, max(3.0, 1.4 * math.sqrt(0.3 * width * depth / n_build)))
    buildings = _buildings(town, n_build, hi)
    made = 0
    for b in town.rng.sample(buildings, len(buildings)):
        made += made < n_storey and _storey(town, b)
    rest = n_pieces - len(buildings) - made
    n_low, n_tall = round(0.4 * rest), round(0.25 * rest)
    if levels and not flat:
        _access(town, buildings)
    _obstacles(town, n_low, n_tall, rest - n_low - n_tall)
    return {"format": "manoeuvre/1", "rules": "infinity-n4",
            "battlefield": {"width": width, "depth": depth},
            "terrain": town.terrain, "units": _troopers(town)}


def ruined_town(n_pieces: int, seed: int, levels: bool = True, width: float = 48.0,
                depth: float = 48.0) -> dict[str, Any]:
    """A ruined town of exactly `n_pieces` footprinted pieces (ladders/stairs extra)."""
    return _town(n_pieces, seed, levels, False, width, depth)


def flat_town(n_pieces: int, seed: int, width: float = 48.0, depth: float = 48.0) -> dict[str, Any]:
    """One level only: every piece an obstacle taller than every Silhouette, no ladders."""
    return _town(n_pieces, seed, False, True, width, depth)
