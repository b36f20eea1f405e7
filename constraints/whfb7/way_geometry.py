"""The area a searched Warhammer way covers, as sets of its legs (a, b) and of end centres.

One option (constraints.whfb7.ways) is: an optional wheel and turn on the spot (its prefix),
forward a, one wheel t, forward b; the end centre d = w + a f + b e (frame inches).  The area
the checker judges (constraints.rank_and_file.sweeps.unit_sweep) is the union of
- the start and the prefix (fixed per option: judged once, exactly, by the checker's own
  shape);
- leg 1, the rectangle R0 slid by a along f;
- the wheel's area at leg a: W + a f (W: the checker's own circumscribed wheel area at a = 0);
- leg 2, the wheeled rectangle Rt + a f slid by s along e, 0 <= s <= b.
Against a convex obstacle piece P grown by the gap (G, circumscribed: it holds every point
within the gap of P), with Minkowski differences C = G (+) (-R) (the translations v by which
R meets G, convex):
- leg 1 meets G iff s f lies in C0 = G (+) (-R0) for some 0 <= s <= a: a >= s_in, the ray's
  entry into C0 (forbidden a: [s_in, oo));
- the wheel area's distance to P is 1-Lipschitz in a: a cell of a whose centre clears the gap
  by more than its half width clears it throughout; the others (refined down to MIN_CELL_IN)
  are forbidden intervals of a;
- leg 2 meets G iff a f + s e lies in Ct = G (+) (-Rt) for some 0 <= s <= b, i.e. the end
  centre d lies in F = w + conv(K u (K + L e)), K = Ct n {s >= 0}, L >= b (every b the budget
  allows).  F is a convex polygon of end centres.
Every set forbidden here holds every (a, b) the checker refuses (up to MARGIN_IN): SOUND.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Iterable
from dataclasses import dataclass

import numpy as np
import shapely
from shapely.geometry import Polygon

from constraints.core.limits import FLOAT_NOISE
from constraints.geometry.convex import ConvexPiece
from constraints.geometry.frame import Frame
from constraints.geometry.overlap import meeting_interval
from constraints.geometry.parts import holding_union
from constraints.geometry.plane import rectangle_corners
from constraints.rank_and_file.sweeps import turn_parts, unit_sweep, wheel_area
from constraints.rank_and_file.unit import Unit
from constraints.sat.option import Option, corner_offsets
from constraints.whfb7.ways import option_pre_wheel, option_turn, prefix_steps, way_start

# Every row keeps this much (inches) beyond the limit: float noise in the checker's shapes,
# and legs decoded from a lattice point of a band (optimizer.families.snaking) clamped at 0.
MARGIN_IN = 1e-5 + 2 * FLOAT_NOISE
GROW_SEGS = 8            # segments per quarter circle of the grown obstacle
FIRST_CELL_IN = 1.0      # the wheel's cells of a, before refinement
MIN_CELL_IN = 1.0 / 128  # cells this narrow that do not clear are forbidden
BIG = 1e6


@dataclass(frozen=True)
class Way:
    """One option's way in the start frame (module docstring's names)."""

    option: Option
    turn_deg: float
    start: Unit              # the unit at the start of leg 1 (world)
    rect0: np.ndarray        # (4, 2) its corners (frame)
    f: np.ndarray
    e: np.ndarray
    w: np.ndarray            # the centre after the wheel with a = 0 (frame)
    wheel: Polygon | None    # the wheel's area with a = 0 (frame), None without a wheel
    rect_t: np.ndarray       # (4, 2) corners after the wheel with a = 0 (frame)
    m1: np.ndarray           # b = m1 . (d - w)
    pre_wheel_deg: float = 0.0  # the prefix's wheel, before the turn

    @property
    def prefix(self) -> tuple[float, float]:
        """(pre wheel, turn): what the area before leg 1 depends on."""
        return self.pre_wheel_deg, self.turn_deg

    @property
    def spare_in(self) -> float:
        return self.option.spare_in


def ways_of(options: Iterable[Option], unit: Unit, frame: Frame) -> list[Way]:
    """Each option's way (the units after each prefix computed once per prefix)."""
    starts: dict[tuple[float, float], Unit] = {}
    found = []
    for option in options:
        key = (option_pre_wheel(option), option_turn(option))
        if key not in starts:
            starts[key] = way_start(unit, key[1], key[0])
        found.append(_way(option, key[1], starts[key], frame, key[0]))
    return found


def _way(option: Option, turn: float, start: Unit, frame: Frame,
         pre_wheel: float = 0.0) -> Way:
    corners = start.corners()
    rect0 = np.array([frame.point(c) for c in corners])
    w = np.asarray(option.wheel_shift, dtype=float)
    rect_t = w + np.asarray(corner_offsets(option))
    wheel = None
    if option.wheel_deg:
        local = _local_outline(start.width_in, start.depth_in, option.wheel_deg)
        f = np.array([math.cos(math.radians(start.pose.facing_deg)),
                      math.sin(math.radians(start.pose.facing_deg))])
        r = np.array([f[1], -f[0]])
        outline = np.asarray(start.pose.centre) + local[:, :1] * r + local[:, 1:] * f
        wheel = Polygon(frame.point_array(outline))
    return Way(option, turn, start, rect0, np.asarray(option.first_dir),
               np.asarray(option.end_dir), w, wheel, rect_t, np.asarray(option.b_map[:2]),
               pre_wheel)


@functools.lru_cache(maxsize=4096)
def _local_outline(width: float, depth: float, angle_deg: float) -> np.ndarray:
    """The outline of the area a wheel of the unit covers (the checker's own wheel area),
    in the unit's frame (x right, y ahead, the centre at 0): once per size and angle, moved
    to each pose rigidly (float noise far below MARGIN_IN)."""
    corners = rectangle_corners((0.0, 0.0), 90.0, width, depth)
    pivot = corners[0] if angle_deg > 0 else corners[1]
    area = wheel_area(corners, pivot, angle_deg)
    # Holes (none expected) filled: a larger shape is only more careful.
    outline = np.asarray(shapely.get_exterior_ring(_largest(area)).coords)
    outline.setflags(write=False)
    return outline


def _largest(shape: shapely.Geometry) -> Polygon:
    """The polygon itself, or the hull of a multipolygon (holding every part)."""
    return shape if shape.geom_type == "Polygon" else shape.convex_hull


def turn_area(unit: Unit, turn_deg: float, pre_wheel_deg: float = 0.0) -> shapely.Geometry:
    """What the unit covers before its first leg (world): where it stands, and its prefix
    (the wheel, then the turn: the checker's own sweep)."""
    if pre_wheel_deg:
        return unit_sweep(unit, prefix_steps(turn_deg, pre_wheel_deg))
    if not turn_deg:
        return unit.boundary()
    return holding_union([unit.boundary(), *turn_parts(unit, way_start(unit, turn_deg))])


def grown(piece: ConvexPiece, gap: float) -> np.ndarray:
    """Vertices of a polygon holding every point within `gap` (and MARGIN_IN) of the piece:
    the round buffer's chords pushed out (as T9A's sound spacing regions do)."""
    radius = (gap + MARGIN_IN) / math.cos(3 * math.pi / (8 * GROW_SEGS))
    shape = shapely.buffer(piece.shape, radius, quad_segs=GROW_SEGS)
    return np.asarray(shape.exterior.coords[:-1])


def half_planes(points: np.ndarray) -> list[tuple[tuple[float, float], float]]:
    """(outward normal n, offset h) of the convex hull of `points`: it is n . x <= h."""
    hull = shapely.orient_polygons(shapely.MultiPoint(points).convex_hull)
    if hull.geom_type != "Polygon":
        return []
    return ConvexPiece("hull", np.asarray(hull.exterior.coords[:-1])).edge_normals()


def minkowski(grown_piece: np.ndarray, rect: np.ndarray) -> np.ndarray:
    """Vertices whose hull is G (+) (-R): the translations by which R meets G."""
    return (grown_piece[:, None, :] - rect[None, :, :]).reshape(-1, 2)


def leg_one_entry(grown_piece: np.ndarray, rect: np.ndarray,
                  direction: np.ndarray) -> float | None:
    """The least s >= 0 at which `rect` slid by s * `direction` meets the grown piece: where
    the ray {s u : s >= 0} enters C0 = G (+) (-R0) (0 when it starts inside), or None when it
    misses it (constraints.geometry.overlap.meeting_interval: no hull of C0 is built)."""
    found = meeting_interval(rect, grown_piece, direction)
    if found is None or found[1] < 0.0:
        return None
    return max(found[0], 0.0)


def leg_two_zone(way: Way, grown_piece: np.ndarray) -> np.ndarray | None:
    """Vertices of F (frame end centres whose leg 2 meets the grown piece), or None."""
    ct = shapely.MultiPoint(minkowski(grown_piece, way.rect_t)).convex_hull
    m1 = way.m1
    # {v : m1 . v >= 0} as a large polygon (s >= 0: leg 2 runs forwards only).
    along = np.array([m1[1], -m1[0]])
    across = m1 / max(float(np.hypot(*m1)), 1e-12)
    half = Polygon([BIG * along, BIG * along + BIG * across, -BIG * along + BIG * across,
                    -BIG * along])
    k = shapely.intersection(ct, half)
    if k.is_empty or k.geom_type not in ("Polygon", "LineString", "Point"):
        return None
    pts = np.asarray(shapely.get_coordinates(k))
    reach = way.spare_in + 1.0
    return way.w + np.vstack([pts, pts + reach * way.e])


def wheel_intervals(way: Way, piece: ConvexPiece, gap: float,
                    a_most: float) -> list[tuple[float, float]]:
    """Intervals of a in [0, a_most] where the wheel's area may come within the gap of the
    piece (module docstring: Lipschitz cells), merged."""
    assert way.wheel is not None
    shapely.prepare(way.wheel)
    f, target = way.f, gap + MARGIN_IN
    outline = np.asarray(way.wheel.exterior.coords)
    swept = shapely.MultiPoint(np.vstack([outline, outline + a_most * f])).convex_hull
    if shapely.distance(swept, piece.shape) > target:
        return []
    count = max(1, math.ceil(a_most / FIRST_CELL_IN))
    half = a_most / count / 2.0
    mids = half * (2 * np.arange(count) + 1)
    bad: list[tuple[float, float]] = []
    while len(mids):
        moved = shapely.polygons(piece.vertices[None, :, :] - mids[:, None, None] * f)
        gaps = shapely.distance(way.wheel, moved)
        # Within the gap all over the cell (1-Lipschitz): forbidden, no need to refine it.
        inside = gaps <= target - half
        bad += [(float(m - half), float(m + half)) for m in mids[inside]]
        mids = mids[(gaps <= target + half) & ~inside]
        if half * 2 <= MIN_CELL_IN:
            bad += [(float(m - half), float(m + half)) for m in mids]
            break
        half /= 2.0
        mids = np.concatenate([mids - half, mids + half])
    return _merged(sorted(bad))


def _merged(cells: list[tuple[float, float]]) -> list[tuple[float, float]]:
    out: list[tuple[float, float]] = []
    for lo, hi in cells:
        if out and lo <= out[-1][1] + 1e-12:
            out[-1] = (out[-1][0], max(out[-1][1], hi))
        else:
            out.append((lo, hi))
    return out
