"""End-pose options of each Move Manoeuvre: the discrete part of the search lattice.

- March: one wheel of angle t (a multiple of the lattice degree within +-90), between two
  forward legs: forward a, wheel t, forward b.  The end centre d is affine in (a, b), so each
  option is a triangle of end centres (a segment when t = 0).
- Advance: a Pivot (lattice degree) then the same with the wheel a multiple of
  `advance_wheel_deg`, within Mob.
- Reform: files (within the profile's reach) and facing (lattice degree).

Ways with two or more wheels are outside this family: the solver never returns them and an
INFEASIBLE is proved on this family and lattice only.  Geometry is in the unit's start frame
(see constraints.encoding.Frame).
"""

from __future__ import annotations

import gc
import math
from collections.abc import Iterator, Sequence
from contextlib import contextmanager

import numpy as np

from constraints.geometry.frame import Frame
from constraints.geometry.plane import Point, unit_vector
from constraints.rank_and_file.unit import Unit
from constraints.sat.lattice import HalfPlane, Lattice
from constraints.sat.option import Option

Vec = tuple[float, float]


class Directions:
    """Unit vectors by angle, in the world and in a frame, computed once for a family of
    options (thousands of options share a few hundred angles)."""

    def __init__(self, frame: Frame) -> None:
        self.frame = frame
        self._world: dict[float, Vec] = {}
        self._framed: dict[float, Vec] = {}

    def world(self, angle_deg: float) -> Vec:
        if angle_deg not in self._world:
            self._world[angle_deg] = unit_vector(angle_deg)
        return self._world[angle_deg]

    def framed(self, heading_deg: float) -> Vec:
        """The world heading's unit vector in the frame."""
        if heading_deg not in self._framed:
            self._framed[heading_deg] = self.frame.vector(self.world(heading_deg))
        return self._framed[heading_deg]


def wheel_shift(unit: Unit, heading_deg: float, wheel_deg: float,
                dirs: Directions | None = None) -> Vec:
    """World displacement of the centre in a wheel of `wheel_deg` from `heading_deg`."""
    world = dirs.world if dirs is not None else unit_vector
    fx, fy = world(heading_deg)
    rx, ry = fy, -fx
    side = -1.0 if wheel_deg > 0 else 1.0
    px = fx * unit.depth_in / 2 + rx * side * unit.width_in / 2
    py = fy * unit.depth_in / 2 + ry * side * unit.width_in / 2
    cos, sin = world(wheel_deg)
    return (px - (cos * px - sin * py), py - (sin * px + cos * py))


class _Family:
    """What every option of one unit's Advance or March shares; `option` builds the option
    'Pivot, forward a, wheel, forward b' with a + wheel cost + b <= budget (thousands of
    times, so the per-option work is kept to the arithmetic)."""

    def __init__(self, unit: Unit, frame: Frame, budget_in: float, dirs: Directions) -> None:
        self.unit, self.frame, self.budget_in, self.dirs = unit, frame, budget_in, dirs
        self.h0 = unit.pose.facing_deg
        self.size = (unit.files, unit.width_in, unit.depth_in)
        self.frame_axes = unit_vector(frame.heading_deg)

    def option(self, index: int, pivot_deg: float, wheel_deg: float, cost: float) -> Option:
        h0, dirs = self.h0, self.dirs
        fp, fe = dirs.framed(h0 + pivot_deg), dirs.framed(h0 + pivot_deg + wheel_deg)
        w = self._framed(wheel_shift(self.unit, h0 + pivot_deg, wheel_deg, dirs)) \
            if wheel_deg else (0.0, 0.0)
        info = {"frame_facing_deg": 90.0 + pivot_deg + wheel_deg, "wheel_shift": w,
                "wheel_cost_in": cost, "budget_in": self.budget_in, "first_dir": fp,
                "end_dir": fe}
        files, width, depth = self.size
        facing = h0 + pivot_deg + wheel_deg
        if wheel_deg == 0:
            # Straight ahead: the end centres lie on a line.  Along a lattice axis it holds
            # lattice points; along any other it may hold none, so the option becomes a band
            # half a tick wide each side (`band`), and the encoding takes the gap between a
            # lattice point and the true end (on the line) off every row
            # (MoveEncoding.centre_slack_ticks).
            rp = (fp[1], -fp[0])
            info["band"] = not (fp[0] in (0.0, 1.0, -1.0) and fp[1] in (0.0, 1.0, -1.0))
            straight = (HalfPlane(rp, 0.0), HalfPlane((-rp[0], -rp[1]), 0.0),
                        HalfPlane((-fp[0], -fp[1]), 0.0))
            return Option(index, facing, files, width, depth, pivot_deg, wheel_deg, straight,
                          (fp[0], fp[1], 0.0), (0.0, 0.0, 0.0), math.inf, info)
        det = fp[0] * fe[1] - fe[0] * fp[1]
        m0 = (fe[1] / det, -fe[0] / det)   # a = m0 . (d - w)
        m1 = (-fp[1] / det, fp[0] / det)   # b = m1 . (d - w)
        a_map = (m0[0], m0[1], -(m0[0] * w[0] + m0[1] * w[1]))
        b_map = (m1[0], m1[1], -(m1[0] * w[0] + m1[1] * w[1]))
        # The family's own rows (no backward legs); the distance row is the distance clause's.
        reach = (HalfPlane((-a_map[0], -a_map[1]), a_map[2]),
                 HalfPlane((-b_map[0], -b_map[1]), b_map[2]))
        return Option(index, facing, files, width, depth, pivot_deg, wheel_deg, reach, a_map,
                      b_map, math.inf, info)

    def _framed(self, v: Vec) -> Vec:
        """Frame.vector, with the frame's unit vector computed once."""
        fx, fy = self.frame_axes
        return (v[0] * fy - v[1] * fx, v[0] * fx + v[1] * fy)


def _angles(step: float, limit: float) -> list[float]:
    count = int(math.floor(limit / step + 1e-9))
    return [k * step for k in range(-count, count + 1)]


def march_options(unit: Unit, frame: Frame, lattice: Lattice, budget_in: float,
                  window_deg: float = 90.0) -> list[Option]:
    wheels = _angles(lattice.degree, min(90.0, window_deg))
    return _snaking_family(unit, frame, [0.0], wheels, budget_in)


def advance_options(unit: Unit, frame: Frame, lattice: Lattice, budget_in: float,
                    window_deg: float = 90.0) -> list[Option]:
    pivots = _angles(lattice.degree, 180.0)[1:]  # (-180, 180]
    wheels = _angles(lattice.advance_wheel_deg, min(90.0, window_deg))
    return _snaking_family(unit, frame, pivots, wheels, budget_in)


def _snaking_family(unit: Unit, frame: Frame, pivots: list[float], wheels: list[float],
                    budget_in: float) -> list[Option]:
    """Every (pivot, wheel) option within the budget, indexed in (pivot, wheel) order."""
    # A wheel's cost (W sin t) depends on its angle only: drop the unaffordable wheels first.
    costed = [(t, unit.width_in * abs(math.sin(math.radians(t)))) for t in wheels]
    affordable = [(t, cost) for t, cost in costed if budget_in - cost >= 0]
    found: list[Option] = []
    family = _Family(unit, frame, budget_in, Directions(frame))
    with _no_gc():
        for p in pivots:
            for t, cost in affordable:
                found.append(family.option(len(found), p, t, cost))
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


def reform_options(unit: Unit, lattice: Lattice, files: list[int]) -> list[Option]:
    found: list[Option] = []
    for f in files:
        end = unit.formation.reformed(f)
        width, depth = f * unit.base.width_in, end.ranks * unit.base.depth_in
        for turn in _angles(lattice.degree, 180.0)[1:]:
            found.append(Option(len(found), unit.pose.facing_deg + turn, f, width, depth,
                                info={"frame_facing_deg": 90.0 + turn, "turn_deg": turn}))
    return found


def end_centre(option: Option, a_in: float, b_in: float) -> Point:
    """Frame end centre of the option's way with legs a and b (for tests and hints)."""
    w = option.info.get("wheel_shift", (0.0, 0.0))
    fp, fe = option.info["first_dir"], option.info["end_dir"]
    return (w[0] + a_in * fp[0] + b_in * fe[0], w[1] + a_in * fp[1] + b_in * fe[1])


def legs(option: Option, centre: Point) -> tuple[float, float]:
    """(a, b) of the way to a frame end centre, clamped at zero against float noise."""
    a = option.a_map[0] * centre[0] + option.a_map[1] * centre[1] + option.a_map[2]
    b = option.b_map[0] * centre[0] + option.b_map[1] * centre[1] + option.b_map[2]
    return max(0.0, a), max(0.0, b)


def reach_polygon(option: Option) -> np.ndarray:
    """Vertices (frame inches) of the option's end-centre region, for pruning and drawing."""
    spare = option.info["budget_in"] - option.info["wheel_cost_in"]
    return np.array([end_centre(option, 0.0, 0.0), end_centre(option, spare, 0.0),
                     end_centre(option, 0.0, spare)])


def reach_polygons(options: Sequence[Option]) -> np.ndarray:
    """(K, 3, 2): `reach_polygon` of every option at once (numpy, one pass)."""
    if not options:
        return np.zeros((0, 3, 2))
    w = np.array([o.info.get("wheel_shift", (0.0, 0.0)) for o in options])
    fp = np.array([o.info["first_dir"] for o in options])
    fe = np.array([o.info["end_dir"] for o in options])
    spare = np.array([o.info["budget_in"] - o.info["wheel_cost_in"] for o in options])[:, None]
    return np.stack([w, w + spare * fp, w + spare * fe], axis=1)
