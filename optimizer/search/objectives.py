"""Objectives of a best-move search, as CP-SAT objective terms on a MoveEncoding.

- `target_distance`: the unit's centre as close as possible to a point (the distance in the
  norm of a regular 256-gon, within 0.008% of the Euclidean one, plus 0.07% for its integer
  directions);
- `front_target_distance`: the same for the centre of the Front Facing;
- `face_point`: the point as close as possible to the unit's centre line, ahead of it (the
  lateral offset in ticks; poses whose facing turns more than 90 deg away from the point,
  seen from the start centre, pay a large constant);
- `forward`: as far forward along the start facing as possible;
- `target_pose`: centre close to a point and facing close to a heading (the distance as above
  plus 10 ticks per degree of facing difference, i.e. 1 deg ~ 0.1").
The value reported to users is recomputed exactly from the returned pose.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np
import shapely

from constraints.errors import InvalidInputError
from constraints.geometry.plane import Point, angle_between_deg, unit_vector
from constraints.sat.encoding import MoveEncoding
from constraints.sat.option import front_offset

OBJECTIVES = ("target_distance", "front_target_distance", "face_point", "forward",
              "target_pose")
BEHIND_PENALTY = 10**6
DEGREE_WEIGHT_TICKS = 10


@dataclass(frozen=True)
class Objective:
    """What to optimise: a name from OBJECTIVES, and its point and heading where needed."""

    name: str
    point: Point | None = None
    facing_deg: float | None = None

    def __post_init__(self) -> None:
        if self.name not in OBJECTIVES:
            raise InvalidInputError(f"unknown objective {self.name!r} "
                                    f"(known: {', '.join(OBJECTIVES)})", path="objective")
        if self.name != "forward" and self.point is None:
            raise InvalidInputError(f"objective {self.name!r} needs a point", path="objective")
        if self.name == "target_pose" and self.facing_deg is None:
            raise InvalidInputError("objective 'target_pose' needs a facing", path="objective")

    @property
    def maximise(self) -> bool:
        return self.name == "forward"


def post_objective(enc: MoveEncoding, objective: Objective, frame_point: Point | None,
                   frame_facing: float | None, regions: list[shapely.Geometry]) -> None:
    """Add the objective to the model (minimised, or maximised for `forward`).

    Per option, a bound from its region of centres (ignoring every other clause) is posted
    too: once a solution is known, options that cannot beat it are dropped at once.
    """
    model = enc.sat_model
    if objective.name == "forward":
        # Per option, j below its region's top (one tick of room: a straight option's band
        # strays ~0.7 tick off its line), as one row linear in the option Booleans so that
        # the LP relaxation sees it (an enforced row per option it would not).
        tops = [math.floor(enc.ticks(region.bounds[3]) + 1.0) for region in regions]
        model.add(enc.j <= sum(t * lit for t, lit in zip(tops, enc.option_vars, strict=True)))
        model.maximize(enc.j)
        return
    assert frame_point is not None
    if objective.name == "face_point":
        offset = _lateral_offset(enc, frame_point)
        _lateral_lower_bounds(enc, offset, frame_point, regions)
        model.minimize(offset)
        return
    target = (enc.ticks(frame_point[0]), enc.ticks(frame_point[1]))
    front = objective.name == "front_target_distance"
    offsets = _front_offsets(enc) if front else None
    cost = _distance(enc, target, offsets)
    _option_lower_bounds(enc, cost, frame_point, regions, front)
    if objective.name == "target_pose":
        assert frame_facing is not None
        cost += sum(lit * round(NORM_SCALE * DEGREE_WEIGHT_TICKS * angle_between_deg(
            o.frame_facing_deg, frame_facing))
            for o, lit in zip(enc.options, enc.option_vars, strict=True))
    model.minimize(cost)


NORM_SIDES = 256
# Objective units per tick.  The norm's directions are integers at this scale, so they are
# unit vectors to within 0.5 / NORM_SCALE x sqrt(2) (7e-4 relative).
NORM_SCALE = 1_000


def _option_lower_bounds(enc: MoveEncoding, cost: Any, point: Point,
                         regions: list[shapely.Geometry], front: bool) -> None:
    """cost >= (distance from the point to the option's region) x cos(pi / sides), less
    one tick (a straight option's band strays ~0.7 tick off its line).  Posted as one row
    linear in the option Booleans (exactly one is true), so the LP relaxation sees the
    bounds: with regions clipped to the incumbent's neighbourhood they are close to the
    optimum, and the search no longer creeps towards it a tick at a time."""
    shrink = math.cos(math.pi / NORM_SIDES) * NORM_SCALE / enc.tick
    bounds = []
    for option, region in zip(enc.options, regions, strict=True):
        target = shapely.Point(point)
        if front:
            off = front_offset(option)
            target = shapely.Point(point[0] - off[0], point[1] - off[1])
        bounds.append(max(0, math.floor(shrink * region.distance(target) - NORM_SCALE)))
    if any(bounds):
        enc.sat_model.add(cost >= sum(b * lit for b, lit in zip(bounds, enc.option_vars,
                                                                 strict=True)))


def _distance(enc: MoveEncoding, target: tuple[float, float],
              offsets: tuple[Any, Any] | None) -> Any:
    """Polygonal distance (NORM_SCALE per tick) from the point to `target` (ticks)."""
    model = enc.sat_model
    reach = int(NORM_SCALE * (4 * enc.bound + abs(target[0]) + abs(target[1]))) + 1
    directions = _directions(target)
    dist = model.new_int_var(_lattice_floor(target, directions), reach, "distance_to_target")
    x = enc.i + (offsets[0] if offsets else 0)
    y = enc.j + (offsets[1] if offsets else 0)
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


def at_lattice_floor(objective: Objective, option: Any, centre: Point, frame_point: Point,
                     tick: float) -> bool:
    """Whether a lattice centre of `option` already has the least distance objective any
    lattice centre of any option can have, in the model's own integer terms (so no option
    can beat it: the search needs only this option).  Distance objectives only."""
    if objective.name not in ("target_distance", "front_target_distance"):
        return False
    target = (frame_point[0] / tick, frame_point[1] / tick)
    directions = _directions(target)
    x, y = round(centre[0] / tick), round(centre[1] / tick)
    if objective.name == "front_target_distance":  # the model's rounded offsets, as posted
        off = front_offset(option)
        x, y = x + round(off[0] / tick), y + round(off[1] / tick)
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


def _front_offsets(enc: MoveEncoding) -> tuple[Any, Any]:
    """Offset (ticks) of the Front Facing's centre from the unit's centre, per option."""
    model, out = enc.sat_model, []
    for axis in (0, 1):
        values = [round(enc.ticks(front_offset(o)[axis])) for o in enc.options]
        var = model.new_int_var(min(values), max(values), f"front_offset_{axis}")
        model.add(var == sum(v * lit for v, lit in zip(values, enc.option_vars, strict=True)))
        out.append(var)
    return out[0], out[1]


def _lateral_offset(enc: MoveEncoding, point: Point) -> Any:
    """Distance (ticks) of `point` from the end centre line, per option."""
    model = enc.sat_model
    px, py = enc.ticks(point[0]), enc.ticks(point[1])
    reach = int(4 * enc.bound + abs(px) + abs(py)) + 1
    offset = model.new_int_var(0, reach + BEHIND_PENALTY, "lateral_offset_ticks")
    bearing = math.degrees(math.atan2(point[1], point[0]))
    for option, lit in zip(enc.options, enc.option_vars, strict=True):
        fx, fy = unit_vector(option.frame_facing_deg)
        rx, ry = fy, -fx
        if angle_between_deg(option.frame_facing_deg, bearing) > 90.0:
            model.add(offset >= BEHIND_PENALTY).only_enforce_if(lit)
        scale = 100_000  # coefficient rounding: 1e-5 relative, about 0.01 tick at most
        lateral = round(scale * rx) * enc.i + round(scale * ry) * enc.j
        target = round(scale * (rx * px + ry * py))
        model.add(scale * offset >= target - lateral).only_enforce_if(lit)
        model.add(scale * offset >= lateral - target).only_enforce_if(lit)
    return offset


def _lateral_lower_bounds(enc: MoveEncoding, offset: Any, point: Point,
                          regions: list[shapely.Geometry]) -> None:
    """offset >= (least lateral offset of the point over the option's region, in ticks, less
    one tick of band room): one row linear in the option Booleans, seen by the LP."""
    gaps = np.nan_to_num(lateral_gaps(enc.options, regions, point), nan=0.0)
    bounds = [max(0, math.floor(enc.ticks(float(gap)) - 1.0)) for gap in gaps]
    if any(bounds):
        enc.sat_model.add(offset >= sum(b * lit for b, lit in zip(bounds, enc.option_vars,
                                                                   strict=True)))


def lateral_gaps(options: list[Any], regions: list[shapely.Geometry],
                 point: Point) -> np.ndarray:
    """Per option, the least distance (inches) of `point` from the end centre line over the
    option's region of centres, all at once (NaN for an empty region)."""
    ahead = np.array([unit_vector(o.frame_facing_deg) for o in options]).reshape(-1, 2)
    rights = np.stack([ahead[:, 1], -ahead[:, 0]], axis=1)  # (fy, -fx): to each option's right
    coords, owner = shapely.get_coordinates(np.asarray(regions, dtype=object),
                                            return_index=True)
    proj = np.sum(coords * rights[owner], axis=1)
    hi = np.full(len(options), -np.inf)
    lo = np.full(len(options), np.inf)
    np.maximum.at(hi, owner, proj)
    np.minimum.at(lo, owner, proj)
    target = rights @ np.asarray(point, dtype=float)
    gap = np.maximum(0.0, np.maximum(target - hi, lo - target))
    gap[np.isinf(hi)] = np.nan
    return gap
