"""Silhouettes in the air: the distance a Jump is measured by, and the clearance of a
trooper's Silhouette swept along a Jump's or a Climb's trajectory (docs/rules.md §13.8).

A trooper is a vertical cylinder (its base, its Silhouette's height); scenery is prisms
(a footprint, from `level_in` to `top_in`).  Both are convex in height, so two questions
have exact, closed answers:

- the least distance from the Silhouette standing at p0 to the base (underside and edge)
  standing at p: the bases' horizontal gap and the heights' vertical gap are independent,
  so it is their hypotenuse (`silhouette_gap`);
- where a cylinder moving along a straight 3-D segment overlaps a prism in height: its
  height interval moves linearly, so the overlap is one interval of the segment's
  parameter; the swept Silhouette clears the prism iff that part of the segment keeps the
  base's radius from the footprint in the plane (`sweep`).  Touching is allowed: a base
  standing on a roof meets the roof at its underside, one pressed to a wall at its edge.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import shapely
from shapely.ops import nearest_points

from constraints.infinity.scenery import Point3, Scenery
from constraints.infinity.surfaces import LEVEL_TOL_IN


def silhouette_gap(p0: Point3, p: Point3, radius_in: float, height_in: float) -> float:
    """The least distance from the Silhouette (cylinder) standing at p0 to the base (disc)
    standing at p, both of one radius."""
    across = max(0.0, math.dist(p0[:2], p[:2]) - 2.0 * radius_in)
    if p[2] > p0[2] + height_in:
        up = p[2] - p0[2] - height_in
    elif p[2] < p0[2]:
        up = p0[2] - p[2]
    else:
        up = 0.0
    return math.hypot(across, up)


@dataclass(frozen=True)
class Clearance:
    """The least plane distance from a segment's centre line to a prism it meets in height
    (inf when it meets none), the prism's id, and where on the segment."""

    gap_in: float
    scenery: str = ""
    at: tuple[float, float] = (0.0, 0.0)


def height_overlap(a: Point3, b: Point3, height_in: float, low: float, high: float
                   ) -> tuple[float, float] | None:
    """The parameters [t0, t1] in [0, 1] where the cylinder's height interval [z, z + h]
    overlaps (low, high) by more than the level tolerance; None when nowhere."""
    lo_z, hi_z = low - height_in + LEVEL_TOL_IN, high - LEVEL_TOL_IN  # z in (lo_z, hi_z)
    dz = b[2] - a[2]
    if abs(dz) <= 1e-12:
        return (0.0, 1.0) if lo_z < a[2] < hi_z else None
    t_lo, t_hi = sorted(((lo_z - a[2]) / dz, (hi_z - a[2]) / dz))
    t0, t1 = max(0.0, t_lo), min(1.0, t_hi)
    return (t0, t1) if t0 < t1 else None


def sweep(a: Point3, b: Point3, height_in: float, solids: tuple[Scenery, ...]) -> Clearance:
    """The least clearance of the centre line from a to b to the prisms it meets in height."""
    best = Clearance(math.inf)
    for s in solids:
        span = height_overlap(a, b, height_in, s.level_in, s.top_in)
        if span is None:
            continue
        ends = [(a[0] + t * (b[0] - a[0]), a[1] + t * (b[1] - a[1])) for t in span]
        line = shapely.LineString(ends) if math.dist(*ends) > 1e-12 else shapely.Point(ends[0])
        gap = float(shapely.distance(line, s.shape))
        if gap < best.gap_in:
            near = nearest_points(line, s.shape)[0]
            best = Clearance(gap, s.id, (float(near.x), float(near.y)))
    return best


# --- Silhouette contact between troopers on any levels (decision A22; docs/rules.md §13.4) --

Span = tuple[float, float]


def plane_span(a: tuple[float, ...], b: tuple[float, ...], centre: tuple[float, float],
               reach_in: float) -> Span | None:
    """The parameters t in [0, 1] where the point a + t (b - a) is within `reach_in` of
    `centre` in the plane (touching included), or None: one interval, the disc being
    convex."""
    dx, dy = b[0] - a[0], b[1] - a[1]
    fx, fy = a[0] - centre[0], a[1] - centre[1]
    qa, qb, qc = dx * dx + dy * dy, 2.0 * (fx * dx + fy * dy), fx * fx + fy * fy - reach_in ** 2
    if qa == 0.0:
        return (0.0, 1.0) if qc <= 0.0 else None
    disc = qb * qb - 4.0 * qa * qc
    if disc < 0.0:
        return None
    root = math.sqrt(disc)
    t0, t1 = max(0.0, (-qb - root) / (2.0 * qa)), min(1.0, (-qb + root) / (2.0 * qa))
    return (t0, t1) if t0 <= t1 else None


def height_span(z0: float, z1: float, low: float, high: float, span: Span = (0.0, 1.0)
                ) -> Span | None:
    """The parameters t in `span` where z0 + t (z1 - z0) lies in [low, high], or None."""
    t0, t1 = span
    if abs(z1 - z0) <= 1e-15:
        return span if low <= z0 <= high else None
    lo, hi = sorted(((low - z0) / (z1 - z0), (high - z0) / (z1 - z0)))
    t0, t1 = max(t0, lo), min(t1, hi)
    return (t0, t1) if t0 <= t1 else None


def cylinders_meet(z: float, height_in: float, other_z: float, other_height_in: float,
                   tolerance_in: float = LEVEL_TOL_IN) -> bool:
    """Whether two upright cylinders standing at z and other_z overlap or touch in height
    (the plane is asked separately)."""
    return z <= other_z + other_height_in + tolerance_in and \
        other_z <= z + height_in + tolerance_in
