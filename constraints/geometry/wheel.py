"""Wheels about a front corner: the area the front sweeps and the centre's shift, scalar and
vectorised side by side."""

from __future__ import annotations

import math
from collections.abc import Callable

import numpy as np
import shapely
from shapely.geometry import Polygon

from constraints.geometry.plane import Point, forward_vectors, unit_vector

# Arc sampling for swept wheels: the arc is replaced by a polygon whose edges are tangent to
# a circle slightly larger than the true one (circumscribed), so the swept area is never
# under-estimated.  At 0.1 deg per edge the overshoot is R * (1/cos(0.05 deg) - 1), about
# 4e-7 R: 2e-6" for a 5" frontage, far below the 0.001" the verdicts print.
ARC_STEP_DEG = 0.1


def wheel_sweep(pivot: Point, outer: Point, angle_deg: float) -> Polygon:
    """Area swept by the front edge (pivot-outer) turning by `angle_deg` about `pivot`.

    The arc is circumscribed (see ARC_STEP_DEG), so the polygon contains the true sector.
    """
    if angle_deg == 0:
        return Polygon()
    radius = math.dist(pivot, outer)
    start = math.atan2(outer[1] - pivot[1], outer[0] - pivot[0])
    steps = max(1, math.ceil(abs(angle_deg) / ARC_STEP_DEG))
    step = math.radians(angle_deg) / steps
    grown = radius / math.cos(abs(step) / 2.0)
    mids = start + step * (np.arange(steps) + 0.5)
    end = start + step * steps
    ring = np.vstack([[pivot, outer],
                      np.stack([pivot[0] + grown * np.cos(mids),
                                pivot[1] + grown * np.sin(mids)], axis=1),
                      [(pivot[0] + radius * math.cos(end), pivot[1] + radius * math.sin(end))]])
    return shapely.make_valid(shapely.polygons(ring))


def wheel_shifts(width_in: float, depth_in: float, h_deg: np.ndarray,
                 t_deg: np.ndarray) -> np.ndarray:
    """Centre displacement of a wheel by t about the inner front corner, heading h, for a
    rectangle `width_in` x `depth_in`."""
    f = forward_vectors(h_deg)
    r = np.stack([f[..., 1], -f[..., 0]], axis=-1)
    side = np.where(t_deg > 0, -1.0, 1.0)[..., None]  # left wheel: pivot on the left corner
    to_pivot = f * depth_in / 2.0 + r * side * width_in / 2.0
    rad = np.radians(t_deg)[..., None]
    cos, sin = np.cos(rad), np.sin(rad)
    rotated = np.concatenate([cos * to_pivot[..., :1] - sin * to_pivot[..., 1:],
                              sin * to_pivot[..., :1] + cos * to_pivot[..., 1:]], axis=-1)
    return to_pivot - rotated


def wheel_shift(width_in: float, depth_in: float, heading_deg: float, wheel_deg: float,
                world: Callable[[float], Point] = unit_vector) -> Point:
    """`wheel_shifts` for one wheel (scalar; `world` gives a heading's unit vector, so a
    caller may pass a cache of them)."""
    fx, fy = world(heading_deg)
    rx, ry = fy, -fx
    side = -1.0 if wheel_deg > 0 else 1.0
    px = fx * depth_in / 2 + rx * side * width_in / 2
    py = fy * depth_in / 2 + ry * side * width_in / 2
    cos, sin = world(wheel_deg)
    return (px - (cos * px - sin * py), py - (sin * px + cos * py))
