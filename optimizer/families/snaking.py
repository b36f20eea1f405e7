"""The Snaking family of Advance and March: one wheel between two forward legs.

- March: forward a, wheel t (a multiple of the lattice degree within the heading window),
  forward b.  The end centre d is affine in (a, b), so each option is a triangle of end
  centres (a segment when t = 0).
- Advance: a Pivot (lattice degree) then the same, the wheel a multiple of
  `advance_wheel_deg`.
Ways with two or more wheels are outside this family: the solver never returns them and an
INFEASIBLE is proved on this family and lattice only.  Geometry is in the unit's start frame.
"""

from __future__ import annotations

import gc
import math
from collections.abc import Iterator, Sequence
from contextlib import contextmanager

import numpy as np
import shapely
from shapely.geometry import LineString, Polygon

from constraints.geometry.frame import Frame
from constraints.geometry.pieces import Relaxation
from constraints.geometry.plane import Point, unit_vector
from constraints.geometry.wheel import wheel_shift
from constraints.rank_and_file.family_limits import FamilyLimits
from constraints.rank_and_file.kinematics import WheelCost, projected
from constraints.rank_and_file.poses import SnakingPoses
from constraints.rank_and_file.snaking_reach import AdvanceReach, MarchReach, SnakingShape
from constraints.rank_and_file.unit import Unit
from constraints.sat.encoding import MoveEncoding
from constraints.sat.lattice import HalfPlane, Lattice
from constraints.sat.option import Option
from constraints.t9a.moves import Manoeuvre, Move, forward, wheel
from optimizer.families.base import Family, PoseJudge

# Half-width (ticks, per unit of |normal|_1) of the band that stands for an off-axis straight
# line (it then holds the rounded point of every point of the line).
BAND_TICKS = 0.5
# A band's "first leg >= 0" row is let off by this much so that rounding its irrational
# coefficients cannot exclude the start centre (a Pivot with no move).
BAND_BACK_TICKS = 0.001


class SnakingFamily(Family):
    """Advance (`pivots`: a Pivot first) or March (its ways of several wheels:
    optimizer.search.ways.snaking)."""

    answers_by_geometry = True

    def __init__(self, manoeuvre: str, pivots: bool) -> None:
        self.manoeuvre, self.pivots = manoeuvre, pivots

    def options(self, unit: Unit, frame: Frame, lattice: Lattice,
                limits: FamilyLimits) -> tuple[list[Option], list[shapely.Geometry]]:
        # Without a distance clause the family still needs a bound: the Valid Final Position
        # reach (2 x Mob) twice over is more than any legal move can use.
        budget = limits.budget_or(4.0 * unit.mobility_in)
        window = min(90.0, limits.window_or(90.0))
        if self.pivots:
            pivots = angles(lattice.degree, 180.0)[1:]  # (-180, 180]
            wheels = angles(lattice.advance_wheel_deg, window)
        else:
            pivots, wheels = [0.0], angles(lattice.degree, window)
        options = snaking_options(unit, frame, pivots, wheels, budget)
        return options, triangles(options)

    def reach(self, option: Option, travel_disc: shapely.Geometry) -> shapely.Geometry:
        pts = reach_polygon(option)
        return LineString(pts[:2]) if option.wheel_deg == 0 else Polygon(pts)

    def move(self, unit_id: str, frame: Frame, option: Option, centre: tuple[float, float]) -> Move:
        a, b = legs(option, centre)
        steps = [forward(a), wheel(option.wheel_deg), forward(b)]
        return Move(unit_id, Manoeuvre(self.manoeuvre),
                    steps=tuple(s for s in steps if s.value != 0.0), pivot_deg=option.pivot_deg)

    def poses(self, unit: Unit, centres: np.ndarray, facings: np.ndarray,
              turns: np.ndarray | None, files: np.ndarray | None,
              tol: float) -> tuple[SnakingPoses, np.ndarray]:
        pivots = np.zeros_like(facings) if turns is None else turns
        return SnakingPoses.of(unit, centres[:, 0], centres[:, 1], facings, pivots, tol)

    def mask(self, judge: PoseJudge, world: np.ndarray, chosen: Sequence[Option],
             inverse: np.ndarray) -> np.ndarray:
        facings = np.array([o.facing_deg for o in chosen])[inverse]
        return judge.mask(world, facings, pivots=np.array([o.pivot_deg for o in chosen])[inverse])

    def stand_still(self, options: Sequence[Option], unit: Unit) -> int | None:
        """No Pivot, no wheel: the straight-ahead option with legs of 0."""
        return next((o.index for o in options if o.pivot_deg == 0 and o.wheel_deg == 0), None)

    def holds_ways(self, wheels: int, lattice: Lattice) -> bool:
        """One wheel, on the lattice's degree (an Advance's options wheel on
        `advance_wheel_deg`)."""
        return wheels <= 1 and (not self.pivots or lattice.advance_wheel_deg == lattice.degree)

    def relaxation(self, unit: Unit, limits: FamilyLimits) -> Relaxation | None:
        """Every way with any number of wheels (constraints.rank_and_file.snaking_reach); none
        without a distance and a heading-window clause of at most 180 deg (nothing then limits the
        ways, or headings may wrap round)."""
        if limits.budget_in is None or limits.window_deg is None or limits.window_deg > 180.0:
            return None
        shape = SnakingShape(unit.pose.centre, unit.pose.facing_deg, unit.width_in,
                             unit.depth_in, limits.budget_in, limits.window_deg)
        return AdvanceReach(shape) if self.pivots else MarchReach(shape)

    def post_rows(self, enc: MoveEncoding, limits: FamilyLimits) -> None:
        """Legs never go backwards; a straight option off the lattice axes is a band.  A
        lattice point of the band lies within band x |normal|_1 <= band x sqrt(2) ticks of the
        line on each axis, plus BAND_BACK along it (a first leg of -BAND_BACK is decoded as 0):
        every row about a band option allows for that.  Without a distance clause, the
        family's own budget (the centre must not leave the option's region, which encodings
        prune rows by)."""
        bands = [o.band for o in enc.options]
        band = BAND_TICKS if any(bands) else 0.0
        enc.use_bands(bands, band * math.sqrt(2.0) + BAND_BACK_TICKS)
        for option, lit in zip(enc.options, enc.option_vars, strict=True):
            rows = option.family_rows
            width = band * (abs(rows[0].normal[0]) + abs(rows[0].normal[1])) \
                if option.band else 0.0
            for k, hp in enumerate(rows):
                room = width if k < 2 else (BAND_BACK_TICKS if option.band else 0.0)
                enc.centre_row(hp.normal, hp.rhs + room * enc.tick, [lit],
                               at_lattice_point=True)
        if limits.budget_in is None:
            for option, lit in zip(enc.options, enc.option_vars, strict=True):
                a, b = option.a_map, option.b_map
                enc.affine_row((a[0] + b[0], a[1] + b[1], a[2] + b[2]), option.spare_in, [lit])


class Directions:
    """Unit vectors by angle, in the world and in a frame, computed once for a family of
    options (thousands of options share a few hundred angles)."""

    def __init__(self, frame: Frame) -> None:
        self.frame = frame
        self._world: dict[float, Point] = {}
        self._framed: dict[float, Point] = {}

    def world(self, angle_deg: float) -> Point:
        if angle_deg not in self._world:
            self._world[angle_deg] = unit_vector(angle_deg)
        return self._world[angle_deg]

    def framed(self, heading_deg: float) -> Point:
        """The world heading's unit vector in the frame."""
        if heading_deg not in self._framed:
            self._framed[heading_deg] = self.frame.vector(self.world(heading_deg))
        return self._framed[heading_deg]


class _WayBuilder:
    """What every option of one unit's Advance or March shares; `option` builds the option
    'Pivot, forward a, wheel, forward b' with a + wheel cost + b <= budget (thousands of
    times, so the per-option work is kept to the arithmetic)."""

    def __init__(self, unit: Unit, frame: Frame, budget_in: float, dirs: Directions) -> None:
        self.unit, self.frame, self.budget_in, self.dirs = unit, frame, budget_in, dirs
        self.h0 = unit.pose.facing_deg
        self.size = (unit.files, unit.width_in, unit.depth_in)
        self.frame_axes = unit_vector(frame.heading_deg)
        # Where the way starts in the frame, and its heading there (a Warhammer move may turn
        # on the spot first: `unit` is then the turned unit, whose centre may have moved).
        self.origin = frame.point(unit.pose.centre)
        self.turn_deg = self.h0 - frame.heading_deg

    def option(self, index: int, pivot_deg: float, wheel_deg: float, cost: float) -> Option:
        h0, dirs = self.h0, self.dirs
        fp, fe = dirs.framed(h0 + pivot_deg), dirs.framed(h0 + pivot_deg + wheel_deg)
        files, width, depth = self.size
        w = self._framed(wheel_shift(width, depth, h0 + pivot_deg, wheel_deg, dirs.world)) \
            if wheel_deg else (0.0, 0.0)
        o = self.origin
        w = (w[0] + o[0], w[1] + o[1])
        facing = h0 + pivot_deg + wheel_deg
        frame_facing = 90.0 + self.turn_deg + pivot_deg + wheel_deg
        if wheel_deg == 0:
            # Straight ahead: the end centres lie on a line.  Along a lattice axis it holds
            # lattice points; along any other it may hold none, so the option becomes a band
            # half a tick wide each side (`band`), and the encoding takes the gap between a
            # lattice point and the true end (on the line) off every row
            # (MoveEncoding.centre_slack_ticks).
            rp = (fp[1], -fp[0])
            # A way that starts off the start centre (after a turn) holds no lattice point on
            # its line either, whatever its direction.
            band = not (fp[0] in (0.0, 1.0, -1.0) and fp[1] in (0.0, 1.0, -1.0)) or \
                o != (0.0, 0.0)
            across, along = rp[0] * o[0] + rp[1] * o[1], fp[0] * o[0] + fp[1] * o[1]
            straight = (HalfPlane(rp, across + 0.0), HalfPlane((-rp[0], -rp[1]), 0.0 - across),
                        HalfPlane((-fp[0], -fp[1]), 0.0 - along))
            return Option(index, facing, frame_facing, files, width, depth, pivot_deg,
                          wheel_deg, straight, (fp[0], fp[1], 0.0 - along), (0.0, 0.0, 0.0), w,
                          fp, fe, cost, self.budget_in, band)
        det = fp[0] * fe[1] - fe[0] * fp[1]
        m0 = (fe[1] / det, -fe[0] / det)   # a = m0 . (d - w)
        m1 = (-fp[1] / det, fp[0] / det)   # b = m1 . (d - w)
        a_map = (m0[0], m0[1], -(m0[0] * w[0] + m0[1] * w[1]))
        b_map = (m1[0], m1[1], -(m1[0] * w[0] + m1[1] * w[1]))
        # The family's own rows (no backward legs); the distance row is the distance clause's.
        rows = (HalfPlane((-a_map[0], -a_map[1]), a_map[2]),
                HalfPlane((-b_map[0], -b_map[1]), b_map[2]))
        return Option(index, facing, frame_facing, files, width, depth, pivot_deg, wheel_deg,
                      rows, a_map, b_map, w, fp, fe, cost, self.budget_in)

    def _framed(self, v: Point) -> Point:
        """Frame.vector, with the frame's unit vector computed once."""
        fx, fy = self.frame_axes
        return (v[0] * fy - v[1] * fx, v[0] * fx + v[1] * fy)


def angles(step: float, limit: float) -> list[float]:
    """Multiples of `step` within +-`limit`."""
    count = int(math.floor(limit / step + 1e-9))
    return [k * step for k in range(-count, count + 1)]


def snaking_options(unit: Unit, frame: Frame, pivots: list[float], wheels: list[float],
          budget_in: float, wheel_cost: WheelCost = projected, spent_in: float = 0.0,
          first: int = 0) -> list[Option]:
    """Every (pivot, wheel) option within the budget, indexed in (pivot, wheel) order from
    `first`: a wheel costs `wheel_cost` (T9A's projection W sin t by default), and `spent_in`
    is already spent before the way (a Warhammer turn on the spot)."""
    # A wheel's cost depends on its angle only: drop the unaffordable wheels first.
    costed = [(t, wheel_cost(unit.width_in, t) + spent_in) for t in wheels]
    affordable = [(t, cost) for t, cost in costed if budget_in - cost >= 0]
    found: list[Option] = []
    builder = _WayBuilder(unit, frame, budget_in, Directions(frame))
    with _no_gc():
        for p in pivots:
            for t, cost in affordable:
                found.append(builder.option(first + len(found), p, t, cost))
    return found


@contextmanager
def _no_gc() -> Iterator[None]:
    """Thousands of small acyclic objects: the cyclic collector would only walk everything
    alive (a third of the build time in a busy process) and free nothing."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def end_centre(option: Option, a_in: float, b_in: float) -> Point:
    """Frame end centre of the option's way with legs a and b (for tests and hints)."""
    w, fp, fe = option.wheel_shift, option.first_dir, option.end_dir
    return (w[0] + a_in * fp[0] + b_in * fe[0], w[1] + a_in * fp[1] + b_in * fe[1])


def legs(option: Option, centre: Point) -> tuple[float, float]:
    """(a, b) of the way to a frame end centre, clamped at zero against float noise."""
    a = option.a_map[0] * centre[0] + option.a_map[1] * centre[1] + option.a_map[2]
    b = option.b_map[0] * centre[0] + option.b_map[1] * centre[1] + option.b_map[2]
    return max(0.0, a), max(0.0, b)


def reach_polygon(option: Option) -> np.ndarray:
    """Vertices (frame inches) of the option's end-centre region, for pruning and drawing."""
    spare = option.spare_in
    return np.array([end_centre(option, 0.0, 0.0), end_centre(option, spare, 0.0),
                     end_centre(option, 0.0, spare)])


def triangles(options: list[Option]) -> list[shapely.Geometry]:
    """Per option, its reach: a triangle, or a segment when it goes straight (one shapely
    call for all, vectorised)."""
    if not options:
        return []
    w = np.array([o.wheel_shift for o in options])
    fp = np.array([o.first_dir for o in options])
    fe = np.array([o.end_dir for o in options])
    spare = np.array([o.spare_in for o in options])[:, None]
    pts = np.stack([w, w + spare * fp, w + spare * fe], axis=1)
    straight = np.array([o.wheel_deg == 0 for o in options], dtype=bool)
    out = np.empty(len(options), dtype=object)
    out[~straight] = shapely.polygons(pts[~straight])
    out[straight] = shapely.linestrings(pts[straight][:, :2])
    return list(out)
