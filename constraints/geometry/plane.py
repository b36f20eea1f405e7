"""Plane geometry in inches: headings, rotations, rectangles, swept fronts.

Conventions (docs/rules.md §1.1): x to the right, y away from the first player's edge, headings in
degrees counter-clockwise from +x.  A heading's *forward* vector is (cos h, sin h) and its
*right* vector is (sin h, -cos h).
"""

from __future__ import annotations

import math

import numpy as np
import shapely
from shapely.geometry import LineString

Point = tuple[float, float]

MM_PER_INCH = 25.4



def mm_to_in(mm: float) -> float:
    return mm / MM_PER_INCH


def unit_vector(heading_deg: float) -> Point:
    """(cos h, sin h), exact for multiples of 90 degrees so square layouts stay exact."""
    quarter = heading_deg / 90.0
    if quarter == round(quarter):
        return [(1.0, 0.0), (0.0, 1.0), (-1.0, 0.0), (0.0, -1.0)][int(round(quarter)) % 4]
    rad = math.radians(heading_deg)
    return (math.cos(rad), math.sin(rad))




def normalise_deg(angle_deg: float) -> float:
    """The same direction in [0, 360)."""
    wrapped = math.fmod(angle_deg, 360.0)
    return wrapped + 360.0 if wrapped < 0 else wrapped + 0.0


def angle_between_deg(a_deg: float, b_deg: float) -> float:
    """Smallest unsigned angle between two headings, in [0, 180]."""
    diff = abs(normalise_deg(a_deg - b_deg))
    return min(diff, 360.0 - diff)


def rotate_about(point: Point, centre: Point, angle_deg: float) -> Point:
    cos_a, sin_a = unit_vector(angle_deg)
    dx, dy = point[0] - centre[0], point[1] - centre[1]
    return (centre[0] + cos_a * dx - sin_a * dy, centre[1] + sin_a * dx + cos_a * dy)


def local_to_world(centre: Point, heading_deg: float, right_in: float, fwd_in: float) -> Point:
    """World point of a local offset (to the right, forwards) from `centre`."""
    fx, fy = unit_vector(heading_deg)
    rx, ry = fy, -fx
    return (centre[0] + right_in * rx + fwd_in * fx, centre[1] + right_in * ry + fwd_in * fy)


def rectangle_corners(centre: Point, heading_deg: float, width_in: float,
                      depth_in: float) -> tuple[Point, Point, Point, Point]:
    """Front-left, front-right, rear-right, rear-left corners (docs/formats.md order)."""
    hw, hd = width_in / 2.0, depth_in / 2.0
    return (
        local_to_world(centre, heading_deg, -hw, hd),
        local_to_world(centre, heading_deg, hw, hd),
        local_to_world(centre, heading_deg, hw, -hd),
        local_to_world(centre, heading_deg, -hw, -hd),
    )




def segment(a: Point, b: Point) -> LineString:
    return LineString([a, b])




def closest_points(a: shapely.Geometry, b: shapely.Geometry) -> tuple[Point, Point]:
    line = shapely.shortest_line(a, b)
    coords = np.asarray(line.coords)
    return (float(coords[0][0]), float(coords[0][1])), (float(coords[1][0]), float(coords[1][1]))


def signed_deg(angle_deg: np.ndarray) -> np.ndarray:
    return (angle_deg + 180.0) % 360.0 - 180.0


def forward_vectors(h_deg: np.ndarray) -> np.ndarray:
    rad = np.radians(h_deg)
    return np.stack([np.cos(rad), np.sin(rad)], axis=-1)


def solve_2x2(d1: np.ndarray, d2: np.ndarray, rhs: np.ndarray) -> np.ndarray:
    """(x, y) with x d1 + y d2 = rhs, NaN where singular."""
    det = d1[..., 0] * d2[..., 1] - d1[..., 1] * d2[..., 0]
    with np.errstate(divide="ignore", invalid="ignore"):
        x = (rhs[..., 0] * d2[..., 1] - rhs[..., 1] * d2[..., 0]) / det
        y = (d1[..., 0] * rhs[..., 1] - d1[..., 1] * rhs[..., 0]) / det
    bad = np.abs(det) < 1e-12
    return np.where(bad[..., None], np.nan, np.stack([x, y], axis=-1))


def rectangle_corners_array(centres: np.ndarray, facings_deg: np.ndarray,
                      width: np.ndarray | float, depth: np.ndarray | float) -> np.ndarray:
    """(N, 4, 2) corners: front-left, front-right, rear-right, rear-left."""
    rad = np.radians(facings_deg)
    f = np.stack([np.cos(rad), np.sin(rad)], axis=-1)
    r = np.stack([f[:, 1], -f[:, 0]], axis=-1)
    hw, hd = (np.asarray(width) / 2.0)[..., None], (np.asarray(depth) / 2.0)[..., None]
    signs = np.array([(-1, 1), (1, 1), (1, -1), (-1, -1)], dtype=float)
    return (centres[:, None, :] + signs[None, :, :1] * (hw * r)[:, None, :]
            + signs[None, :, 1:] * (hd * f)[:, None, :])
