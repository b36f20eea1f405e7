"""The separating-axis interval of a convex polygon sliding past another
(`meeting_interval`), each case paired with its reference: the hull of the Minkowski
difference G (+) (-R) entered and left by the ray, measured by shapely, and the moved
polygons' own distance at the ends and beyond them."""

from __future__ import annotations

import math

import numpy as np
import pytest
import shapely

from constraints.geometry.overlap import meeting_interval
from constraints.whfb7.way_geometry import leg_one_entry

BIG = 1e4


def _rect(cx: float, cy: float, w: float, d: float, deg: float) -> np.ndarray:
    t = math.radians(deg)
    u, v = np.array([math.cos(t), math.sin(t)]), np.array([-math.sin(t), math.cos(t)])
    return np.array([[cx, cy] + sx * w / 2 * u + sy * d / 2 * v
                     for sx, sy in ((-1, -1), (1, -1), (1, 1), (-1, 1))])


def _blob(rng: np.random.Generator) -> np.ndarray:
    """A convex polygon: the hull of a few random points."""
    pts = rng.uniform(-2.0, 2.0, (7, 2)) + rng.uniform(-6.0, 6.0, 2)
    hull = shapely.orient_polygons(shapely.MultiPoint(pts).convex_hull)
    return np.asarray(hull.exterior.coords[:-1])


def _reference(mover: np.ndarray, fixed: np.ndarray,
               u: np.ndarray) -> tuple[float, float] | None:
    """Where the line {s u} crosses the hull of fixed (+) (-mover), by shapely."""
    hull = shapely.MultiPoint((fixed[:, None, :] - mover[None, :, :]).reshape(-1, 2)).convex_hull
    line = shapely.LineString([-BIG * u, BIG * u])
    cut = shapely.intersection(hull, line)
    if cut.is_empty:
        return None
    s = shapely.get_coordinates(cut) @ u
    return float(s.min()), float(s.max())


CASES = [(seed, deg) for seed in range(40) for deg in (0.0, 30.0, 90.0, 137.0)]


@pytest.mark.parametrize("seed, deg", CASES)
def test_meeting_interval_is_the_minkowski_hull_crossed(seed, deg):
    rng = np.random.default_rng(seed)
    fixed = _blob(rng)
    mover = _rect(*rng.uniform(-8, 8, 2), *rng.uniform(0.5, 3.0, 2), float(rng.uniform(0, 360)))
    u = np.array([math.cos(math.radians(deg)), math.sin(math.radians(deg))])
    fast, slow = meeting_interval(mover, fixed, u), _reference(mover, fixed, u)
    assert (fast is None) == (slow is None)
    if fast is not None and slow is not None:
        assert fast == pytest.approx(slow, abs=1e-7)
        # The ends are touches; a little outside them the polygons are apart.
        for s, gap in ((fast[0], 0.0), (fast[1], 0.0), (fast[0] - 0.01, 1), (fast[1] + 0.01, 1)):
            d = shapely.distance(shapely.Polygon(mover + s * u), shapely.Polygon(fixed))
            assert (d > 1e-4) if gap else (d < 1e-7)


def test_an_axis_across_the_motion_that_separates_gives_none():
    fixed = _rect(0.0, 5.0, 2.0, 2.0, 0.0)
    mover = _rect(0.0, 0.0, 2.0, 2.0, 0.0)
    assert meeting_interval(mover, fixed, np.array([1.0, 0.0])) is None
    assert meeting_interval(mover, fixed, np.array([0.0, 1.0])) == pytest.approx((3.0, 7.0))


@pytest.mark.parametrize("start, expected", [
    ((0.0, -5.0), 3.0),    # ahead: entered after 3"
    ((0.0, 0.0), 0.0),     # overlapping at the start: 0
    ((0.0, 5.0), None),    # behind: the ray misses it
    ((3.0, -5.0), None),   # beside the path, 1" clear of it
    ((2.0, -5.0), 3.0),    # its edge grazes the piece's: touching counts
])
def test_leg_one_entry_is_the_least_forward_meeting(start, expected):
    piece = _rect(0.0, 0.0, 2.0, 2.0, 0.0)
    rect = _rect(*start, 2.0, 2.0, 0.0)
    found = leg_one_entry(piece, rect, np.array([0.0, 1.0]))
    assert found == (None if expected is None else pytest.approx(expected))
