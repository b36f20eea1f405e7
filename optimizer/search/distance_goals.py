"""Distance objectives: a point of the unit (its centre, or its Front Facing's centre) as close
as possible to a target, and optionally its facing close to a heading.

In the model the distance is the norm of a regular NORM_SIDES-gon with integer directions
(NORM_SCALE units per tick); in pruning, the same norm is bounded from each option's region
of centres, and a disc about the target holds every centre that could beat a known value.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import shapely

from constraints.core.verdict import Verdict
from constraints.geometry.pieces import ReachPieces, facing_gap_deg, sector_distance
from constraints.geometry.plane import Point, angle_between_deg
from constraints.sat.encoding import MoveEncoding
from constraints.sat.option import Option, front_offset
from optimizer.search.objectives import (
    DEGREE_WEIGHT_IN,
    NORM_SCALE,
    NORM_SIDES,
    SHRINK,
    Goal,
    option_rows,
    register_goal,
)

NEAR_TICKS = 2  # lattice points this many ticks either way of a target are tried first


# The model's norm has integer directions (7e-4 relative): a cut-off keeps more than that.
CUTOFF_ROOM = 1.001
# target_pose combines the distance d and the facing's cost a as hypot(d, a), as its exact
# value does, by the tangents d cos t + a sin t at POSE_SIDES + 1 angles t in [0, 90 deg]
# (their maximum is within 1 - cos(45 / POSE_SIDES deg), 0.03%, below the hypotenuse).
POSE_SIDES = 32
POSE_ANGLES = np.linspace(0.0, np.pi / 2.0, POSE_SIDES + 1)
POSE_SHRINK = math.cos(math.pi / 4.0 / POSE_SIDES)


def combined(distance: Any, angle: Any) -> Any:
    """The polygonal hypotenuse of a distance and a facing's cost (`distance` when the cost
    is 0: the tangent at 0 is the distance itself)."""
    d, a = np.asarray(distance, dtype=float), np.asarray(angle, dtype=float)
    return np.max(np.multiply.outer(d, np.cos(POSE_ANGLES)) +
                  np.multiply.outer(a, np.sin(POSE_ANGLES)), axis=-1)


def reach_within(worst: Any, angle: Any) -> Any:
    """The largest distance whose `combined` with `angle` may be no worse than `worst`,
    generously (the polygon lies within POSE_SHRINK of the hypotenuse); negative: none."""
    w, a = np.asarray(worst, dtype=float) / POSE_SHRINK, np.asarray(angle, dtype=float)
    return np.where(a > 0.0, np.sqrt(np.maximum(w * w - a * a, 0.0)), w) - \
        np.where(a > w, np.inf, 0.0)


class Distance(Goal):
    """Shared by the distance objectives: the point of the unit that is measured is the
    centre shifted by `shift(option)`; a facing difference costs `angle_cost(option)`."""

    distance = True
    floor = 0.0  # a distance

    def shift(self, option: Option) -> tuple[float, float]:
        return (0.0, 0.0)

    def angle_cost(self, option: Option) -> float:
        return 0.0

    def post(self, enc: MoveEncoding, regions: list[shapely.Geometry],
             worst: float | None = None) -> None:
        assert self.point is not None
        target = (enc.ticks(self.point[0]), enc.ticks(self.point[1]))
        cost = _distance(enc, target, self._shift_vars(enc))
        lows = self._lower_bounds(enc, cost, regions)
        if worst is not None:  # per option: its distance may not pass what worst leaves
            reach = reach_within(worst, [self.angle_cost(o) for o in enc.options])
            option_rows(enc, cost, [math.ceil(NORM_SCALE * (CUTOFF_ROOM * enc.ticks(
                max(0.0, float(r)) / SHRINK) + 1.0)) for r in reach], lower=False)
        angles = self._angle_units(enc)
        enc.sat_model.minimize(cost if angles is None else
                               _combined_var(enc, cost, angles, lows))

    def _shift_vars(self, enc: MoveEncoding) -> tuple[Any, Any] | None:
        return None

    def _angle_units(self, enc: MoveEncoding) -> list[int] | None:
        """Per option, its facing's cost in the model's units (None: no facing cost)."""
        return None

    def _lower_bounds(self, enc: MoveEncoding, cost: Any,
                      regions: list[shapely.Geometry]) -> list[int]:
        """cost >= (distance from the target to the option's region) x cos(pi / sides), less
        one tick (a straight option's band strays ~0.7 tick off its line).  With regions
        clipped to the incumbent's neighbourhood the bounds are close to the optimum, and the
        search no longer creeps towards it a tick at a time."""
        assert self.point is not None
        shrink = math.cos(math.pi / NORM_SIDES) * NORM_SCALE / enc.tick
        bounds = []
        for option, region in zip(enc.options, regions, strict=True):
            sx, sy = self.shift(option)
            target = shapely.Point(self.point[0] - sx, self.point[1] - sy) if (sx, sy) != \
                (0.0, 0.0) else shapely.Point(self.point)
            bounds.append(max(0, math.floor(shrink * region.distance(target) - NORM_SCALE)))
        if any(bounds):
            option_rows(enc, cost, bounds)
        return bounds

    def values(self, option: Option, centres: np.ndarray) -> np.ndarray:
        assert self.point is not None
        sx, sy = self.shift(option)
        d = centres + [sx, sy] - np.asarray(self.point)
        # The regular NORM_SIDES-gon norm, max over its directions u_k of d . u_k, is attained
        # at the direction nearest to d's: |d| cos(angle to it).  O(N), not O(N x sides).
        step = 2 * np.pi / NORM_SIDES
        theta = np.arctan2(d[:, 1], d[:, 0])
        poly = np.hypot(d[:, 0], d[:, 1]) * np.cos(theta - step * np.round(theta / step))
        return combined(poly, self.angle_cost(option))

    def bounds(self, options: list[Option], regions: list) -> np.ndarray:
        assert self.point is not None
        targets = self._targets(options)
        gaps = shapely.distance(np.asarray(regions, dtype=object), targets)
        return combined(SHRINK * gaps, self._angle_costs(options))

    def best_point(self, option: Option, region: shapely.Geometry) -> np.ndarray | None:
        """The region's point nearest the option's target (Euclidean; the norm's 256-gon
        is within 0.008% of it)."""
        assert self.point is not None
        sx, sy = self.shift(option)
        target = shapely.Point(self.point[0] - sx, self.point[1] - sy)
        return shapely.get_coordinates(shapely.shortest_line(region, target))[0]

    def _targets(self, options: list[Option]) -> Any:
        return shapely.Point(self.point)

    def _angle_costs(self, options: list[Option]) -> Any:
        return 0.0

    def clip(self, option: Option, worst: float) -> shapely.Geometry:
        assert self.point is not None
        radius = float(reach_within(worst, self.angle_cost(option))) / SHRINK
        if radius < 0:
            return shapely.Polygon()
        sx, sy = self.shift(option)
        sides = 32
        return shapely.Point(self.point[0] - sx, self.point[1] - sy).buffer(
            radius / math.cos(math.pi / sides), quad_segs=sides // 4)

    def target_discs(self, options: list[Option],
                     worst: float) -> tuple[np.ndarray, np.ndarray]:
        """Circumscribing `clip`, and a hair more for float noise."""
        assert self.point is not None
        shifts = np.array([self.shift(o) for o in options]).reshape(-1, 2)
        angles = np.array([self.angle_cost(o) for o in options])
        rho = reach_within(worst, angles) / SHRINK / math.cos(math.pi / 32) + 1e-9
        return np.asarray(self.point, dtype=float) - shifts, rho

    def near_target(self, option: Option, tick: float) -> np.ndarray:
        """The lattice points nearest the option's target (a distance objective's best
        centres on the lattice, if legal; a coarse grid would pass them by)."""
        assert self.point is not None
        sx, sy = self.shift(option)
        cx, cy = round((self.point[0] - sx) / tick), round((self.point[1] - sy) / tick)
        steps = np.arange(-NEAR_TICKS, NEAR_TICKS + 1)
        grid = np.stack(np.meshgrid(cx + steps, cy + steps, indexing="ij"), -1).reshape(-1, 2)
        return grid * tick

    def _end_point(self, verdict: Verdict) -> Point:
        return verdict.end_centre

    def exact(self, verdict: Verdict) -> float:
        assert self.objective.point is not None
        return math.dist(self._end_point(verdict), self.objective.point)

    def piece_values(self, pieces: ReachPieces) -> np.ndarray:
        assert self.objective.point is not None
        return sector_distance(np.asarray(self.objective.point), pieces.centres())


@register_goal
class TargetDistance(Distance):
    name = "target_distance"
    centre_only = True

    def at_lattice_floor(self, option: Option, centre: Point, tick: float) -> bool:
        return _at_floor(self, option, centre, tick)


@register_goal
class FrontTargetDistance(Distance):
    """The centre of the Front Facing to the target."""

    name = "front_target_distance"

    def shift(self, option: Option) -> tuple[float, float]:
        return front_offset(option)

    def _shift_vars(self, enc: MoveEncoding) -> tuple[Any, Any]:
        """Offset (ticks) of the Front Facing's centre from the unit's centre, per option."""
        model, out = enc.sat_model, []
        for axis in (0, 1):
            values = [round(enc.ticks(front_offset(o)[axis])) for o in enc.options]
            var = model.new_int_var(min(values), max(values), f"front_offset_{axis}")
            model.add(var == sum(v * lit for v, lit in zip(values, enc.option_vars,
                                                            strict=True)))
            out.append(var)
        return out[0], out[1]

    def _targets(self, options: list[Option]) -> Any:
        shifts = np.array([self.shift(o) for o in options]).reshape(-1, 2)
        return shapely.points(np.asarray(self.point) - shifts)

    def at_lattice_floor(self, option: Option, centre: Point, tick: float) -> bool:
        return _at_floor(self, option, centre, tick)

    def _end_point(self, verdict: Verdict) -> Point:
        fl, fr = verdict.end_corners[0], verdict.end_corners[1]
        return ((fl[0] + fr[0]) / 2, (fl[1] + fr[1]) / 2)

    def piece_values(self, pieces: ReachPieces) -> np.ndarray:
        """Pieces hold front centres first (constraints.geometry.pieces)."""
        assert self.objective.point is not None
        return sector_distance(np.asarray(self.objective.point), pieces)


@register_goal
class TargetPose(Distance):
    """The centre to the target and the facing to a heading: 1 deg counts as 0.1", the two
    combined as a hypotenuse (`combined`), as the exact value is."""

    name = "target_pose"
    needs_facing = True

    def angle_cost(self, option: Option) -> float:
        assert self.facing is not None
        return DEGREE_WEIGHT_IN * angle_between_deg(option.frame_facing_deg, self.facing)

    def _angle_units(self, enc: MoveEncoding) -> list[int] | None:
        """The facing's cost in the model's units (NORM_SCALE per tick), as `angle_cost`:
        until 2026-12-01 it was 10 ticks a degree, 0.05" on the 0.005" lattice, half of
        what `values` and the bounds count, and added to the distance, not combined."""
        assert self.facing is not None
        return [round(NORM_SCALE * enc.ticks(DEGREE_WEIGHT_IN) *
                      angle_between_deg(o.frame_facing_deg, self.facing)) for o in enc.options]

    def _angle_costs(self, options: list[Option]) -> Any:
        return np.array([self.angle_cost(o) for o in options])

    def exact(self, verdict: Verdict) -> float:
        assert self.objective.facing_deg is not None
        turn = angle_between_deg(verdict.end_facing_deg, self.objective.facing_deg)
        return math.hypot(super().exact(verdict), 0.1 * turn)

    def piece_values(self, pieces: ReachPieces) -> np.ndarray:
        assert self.objective.facing_deg is not None
        turn = facing_gap_deg(pieces, self.objective.facing_deg)
        return np.hypot(super().piece_values(pieces), 0.1 * turn)


def _combined_var(enc: MoveEncoding, cost: Any, angles: list[int], lows: list[int]) -> Any:
    """A variable at least `combined(cost, angle)` in the model's units: one row per tangent,
    its cosine and sine integers of 1/1000; and per option the same of its distance's lower
    bound `lows` and its facing's cost, as one row linear in the option Booleans (the LP
    sees it)."""
    model, scale = enc.sat_model, 1000
    tangents = [(round(scale * math.cos(t)), round(scale * math.sin(t))) for t in POSE_ANGLES]
    top = int(list(cost.proto.domain)[-1]) + max(angles, default=0)
    total = model.new_int_var(0, 2 * top + 1, "pose_cost")
    angle = sum(units * lit for units, lit in zip(angles, enc.option_vars, strict=True))
    for c, s in tangents:
        model.add(scale * total >= c * cost + s * angle)
    option_rows(enc, total, [max((c * low + s * units) // scale for c, s in tangents)
                             for low, units in zip(lows, angles, strict=True)])
    return total


def _distance(enc: MoveEncoding, target: tuple[float, float],
              offsets: tuple[Any, Any] | None) -> Any:
    """Polygonal distance (NORM_SCALE per tick) from the point to `target` (ticks)."""
    model = enc.sat_model
    reach = int(NORM_SCALE * (4 * enc.bound + abs(target[0]) + abs(target[1]))) + 1
    directions = _directions(target)
    dist = model.new_int_var(_lattice_floor(target, directions), reach, "distance_to_target")
    x = enc.right_ticks + (offsets[0] if offsets else 0)
    y = enc.forward_ticks + (offsets[1] if offsets else 0)
    for cx, cy, shift in directions:
        model.add(dist >= cx * x + cy * y - shift)
    return dist


def _directions(target: tuple[float, float]) -> list[tuple[int, int, int]]:
    """The norm's integer directions and their offsets at the target (ticks), as posted."""
    found = []
    for k in range(NORM_SIDES):
        cos, sin = math.cos(2 * math.pi * k / NORM_SIDES), math.sin(2 * math.pi * k / NORM_SIDES)
        cx, cy = round(NORM_SCALE * cos), round(NORM_SCALE * sin)
        found.append((cx, cy, round(cx * target[0] + cy * target[1])))
    return found


def _at_floor(goal: Distance, option: Option, centre: Point, tick: float) -> bool:
    """Whether the lattice centre is at `_lattice_floor`, in the model's own integer terms
    (its rounded offsets, as posted): then no option can beat it and the search needs only
    this option."""
    assert goal.point is not None
    target = (goal.point[0] / tick, goal.point[1] / tick)
    directions = _directions(target)
    x, y = round(centre[0] / tick), round(centre[1] / tick)
    sx, sy = goal.shift(option)
    if (sx, sy) != (0.0, 0.0):
        x, y = x + round(sx / tick), y + round(sy / tick)
    value = max(cx * x + cy * y - shift for cx, cy, shift in directions)
    return value <= _lattice_floor(target, directions)


def _lattice_floor(target: tuple[float, float], directions: list[tuple[int, int, int]]) -> int:
    """The least value the polygonal distance takes at any integer point (x, y), exactly as
    posted: the point nearest the target is among the 5 x 5 around it (any point further out
    is 2 ticks off, the nearest at most 0.71).  x and y are the centre ticks plus integer
    offsets, so this bounds every option; a search whose answer reaches it is proved at once
    (the LP relaxation's bound is the continuous one, 0 when the target is reachable)."""
    steps = np.arange(-2, 3)
    pts = np.stack(np.meshgrid(round(target[0]) + steps, round(target[1]) + steps,
                               indexing="ij"), -1).reshape(-1, 2).astype(np.int64)
    table = np.array(directions, dtype=np.int64)                     # (sides, 3)
    values = pts @ table[:, :2].T - table[:, 2]                       # (25, sides)
    return max(0, int(values.max(axis=1).min()))
