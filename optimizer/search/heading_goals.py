"""Objectives about where the unit goes or looks rather than how near it gets: as far forward
as possible (`forward`), and facing a point (`face_point`: the point as close as possible to
the unit's centre line, ahead of it)."""

from __future__ import annotations

import copy
import math
from typing import Any

import numpy as np
import shapely

from constraints.core.verdict import Verdict
from constraints.geometry.frame import Frame
from constraints.geometry.pieces import ReachPieces, facing_gap_deg, sector_support
from constraints.geometry.plane import Point, angle_between_deg, unit_vector
from constraints.sat.encoding import MoveEncoding
from constraints.sat.option import Option
from optimizer.search.objectives import BEHIND_PENALTY, Goal, option_rows, register_goal

FAR_IN = 10_000.0  # "unbounded" for the clips' half-planes and strips
AWAY_ROOM_DEG = 1e-6  # a piece is wholly away only this far past 90 deg (float headings)


@register_goal
class Forward(Goal):
    """The end centre as far forward along the start facing as possible."""

    name = "forward"
    maximise = True
    needs_point = False
    centre_only = True

    def post(self, enc: MoveEncoding, regions: list[shapely.Geometry],
             worst: float | None = None) -> None:
        """Per option, j below its region's top (one tick of room: a straight option's band
        strays ~0.7 tick off its line), as one row linear in the option Booleans so that the
        LP relaxation sees it (an enforced row per option it would not)."""
        tops = [math.floor(enc.ticks(region.bounds[3]) + 1.0) for region in regions]
        option_rows(enc, enc.forward_ticks, tops, lower=False)
        if worst is not None:
            enc.sat_model.add(enc.forward_ticks >= math.floor(enc.ticks(worst) - 1.0))
        enc.sat_model.maximize(enc.forward_ticks)

    def values(self, option: Option, centres: np.ndarray) -> np.ndarray:
        return centres[:, 1]

    def bounds(self, options: list[Option], regions: list) -> np.ndarray:
        return shapely.bounds(np.asarray(regions, dtype=object))[:, 3]

    def clip(self, option: Option, worst: float) -> shapely.Geometry:
        return shapely.box(-FAR_IN, worst, FAR_IN, FAR_IN)

    def best_point(self, option: Option, region: shapely.Geometry) -> np.ndarray | None:
        """The region's most forward vertex (its top)."""
        coords = shapely.get_coordinates(region)
        return coords[np.argmax(coords[:, 1])]

    def exact(self, verdict: Verdict) -> float:
        return self.frame.point(verdict.end_centre)[1]

    def piece_values(self, pieces: ReachPieces) -> np.ndarray:
        ahead = np.array(unit_vector(self.frame.heading_deg))
        return sector_support(ahead, pieces.centres()) - \
            float(np.dot(ahead, self.frame.origin))


@register_goal
class FacePoint(Goal):
    """The lateral offset (ticks) of the point from the end centre line; poses whose facing
    turns more than 90 deg away from the point, seen from the start centre, pay
    BEHIND_PENALTY."""

    name = "face_point"
    floor = 0.0  # an offset from the centre line
    exact_orders = False  # the offset alone: a point behind has a small one too

    def post(self, enc: MoveEncoding, regions: list[shapely.Geometry],
             worst: float | None = None) -> None:
        offset = self._lateral_offset(enc)
        if worst is not None and worst < self._penalty_in:  # beside the point, not behind
            enc.sat_model.add(offset <= math.ceil(enc.ticks(worst) + 1.0))
        gaps = np.nan_to_num(lateral_gaps(enc.options, regions, self._point()), nan=0.0)
        # offset >= the least lateral offset over the option's region, less one tick of band
        # room: one row linear in the option Booleans, seen by the LP.
        bounds = [max(0, math.floor(enc.ticks(float(gap)) - 1.0)) for gap in gaps]
        if any(bounds):
            option_rows(enc, offset, bounds)
        enc.sat_model.minimize(offset)

    # Whether `piece_values` charges the penalty to pieces whose every facing is away: a
    # bound on `ranked`, not on `exact` (`bounding` turns it off for an answer facing away).
    penalise_away = True

    def ranked(self, verdict: Verdict) -> float:
        """The offset, and the penalty when the end facing turns away from the point."""
        away = angle_between_deg(verdict.end_facing_deg, self._bearing_world()) > 90.0
        return self.exact(verdict) + (self._penalty_in if away else 0.0)

    def bounding(self, verdict: Verdict | None) -> Goal:
        """Itself when the answer faces the point and its offset is below the penalty: every
        pose facing away then ranks worse than it (offset + penalty), so pieces holding only
        such poses may be charged the penalty (docs/techniques.md §9, "Facing away").  For an
        answer facing away, the offset alone, as `exact` (a copy)."""
        if verdict is not None and self.ranked(verdict) < self._penalty_in:
            return self
        plain = copy.copy(self)
        plain.penalise_away = False
        return plain

    def _bearing_world(self) -> float:
        """The point's bearing from the start centre, world degrees (as `_away` sees it)."""
        point = self._point()
        return self.frame.heading_deg - 90.0 + math.degrees(math.atan2(point[1], point[0]))

    def _point(self) -> Point:
        assert self.point is not None
        return self.point

    def _lateral_offset(self, enc: MoveEncoding) -> Any:
        """Distance (ticks) of the point from the end centre line, per option."""
        model = enc.sat_model
        point = self._point()
        px, py = enc.ticks(point[0]), enc.ticks(point[1])
        reach = int(4 * enc.bound + abs(px) + abs(py)) + 1
        offset = model.new_int_var(0, reach + BEHIND_PENALTY, "lateral_offset_ticks")
        for option, lit in zip(enc.options, enc.option_vars, strict=True):
            fx, fy = unit_vector(option.frame_facing_deg)
            rx, ry = fy, -fx
            if self._away(option):
                model.add(offset >= BEHIND_PENALTY).only_enforce_if(lit)
            scale = 100_000  # coefficient rounding: 1e-5 relative, about 0.01 tick at most
            lateral = round(scale * rx) * enc.right_ticks + round(scale * ry) * enc.forward_ticks
            target = round(scale * (rx * px + ry * py))
            model.add(scale * offset >= target - lateral).only_enforce_if(lit)
            model.add(scale * offset >= lateral - target).only_enforce_if(lit)
        return offset

    def _away(self, option: Option) -> bool:
        point = self._point()
        bearing = math.degrees(math.atan2(point[1], point[0]))
        return angle_between_deg(option.frame_facing_deg, bearing) > 90.0

    _penalty_in = BEHIND_PENALTY * 0.01  # ticks, in inches

    def penalty(self, option: Option) -> float:
        """What an end pose of the option's facing pays above its offset (inches)."""
        return self._penalty_in if self._away(option) else 0.0

    def values(self, option: Option, centres: np.ndarray) -> np.ndarray:
        fx, fy = unit_vector(option.frame_facing_deg)
        lateral = np.abs((np.asarray(self._point()) - centres) @ np.array([fy, -fx]))
        return lateral + self.penalty(option)

    def bounds(self, options: list[Option], regions: list) -> np.ndarray:
        return lateral_gaps(options, regions, self._point()) + \
            np.array([self.penalty(o) for o in options])

    def clip(self, option: Option, worst: float) -> shapely.Geometry:
        width = worst - self.penalty(option)
        if width < 0:
            return shapely.Polygon()
        f = np.array(unit_vector(option.frame_facing_deg))
        r = np.array([f[1], -f[0]])
        p = np.asarray(self._point(), dtype=float)
        return shapely.Polygon([p + FAR_IN * f + width * r, p - FAR_IN * f + width * r,
                                p - FAR_IN * f - width * r, p + FAR_IN * f - width * r])

    def best_point(self, option: Option, region: shapely.Geometry) -> np.ndarray | None:
        """A point of the region on the centre line through the point (offset 0), else the
        vertex of least offset (the offset is linear: a vertex is best)."""
        f = np.array(unit_vector(option.frame_facing_deg))
        point = np.asarray(self._point(), dtype=float)
        line = shapely.LineString([point - FAR_IN * f, point + FAR_IN * f])
        hit = shapely.get_coordinates(shapely.intersection(region, line))
        if len(hit):
            return hit[0]
        coords = shapely.get_coordinates(region)
        return coords[np.argmin(np.abs((point - coords) @ np.array([f[1], -f[0]])))]

    def exact(self, verdict: Verdict) -> float:
        assert self.objective.point is not None
        frame = Frame(verdict.end_centre, verdict.end_facing_deg)
        return abs(frame.point(self.objective.point)[0])

    def piece_values(self, pieces: ReachPieces) -> np.ndarray:
        """The point's distance from the interval of lateral positions the piece's centres
        take on its middle facing's right axis, less how far the axis can turn within the
        facing's spread (|P - C| x the spread, radians)."""
        assert self.objective.point is not None
        centres, point = pieces.centres(), np.asarray(self.objective.point)
        h = np.radians(centres.facing)
        right = np.stack([np.sin(h), -np.cos(h)], axis=1)
        upper = sector_support(right, centres)
        lower = -sector_support(-right, centres)
        at = (right * point).sum(axis=1)
        gap = np.maximum(np.maximum(at - upper, lower - at), 0.0)
        far = np.hypot(*(point - centres.apex).T) + centres.radius + centres.grow
        value = np.maximum(gap - far * np.radians(centres.spread), 0.0)
        if self.penalise_away:  # every facing of the piece more than 90 deg from the bearing
            away = facing_gap_deg(centres, self._bearing_world()) > 90.0 + AWAY_ROOM_DEG
            value = value + np.where(away, self._penalty_in, 0.0)
        return np.where(centres.empty, np.inf, value)


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
