"""Measurements over a shape given as its parts, never over their union.

A checker measures the area a move sweeps (each leg's, each wheel's) against obstacles and
the table's edges.  The union of those parts is an overlay, and GEOS's overlay can silently
drop a piece of one part (docs/techniques.md §10: four valid sweeps whose union lost most of
a forward leg).  The least distance to a union is the least distance to any of its parts,
and its bounds are the hull of the parts' bounds, so both are measured part by part: no
measurement depends on an overlay's robustness.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import shapely

from constraints.geometry.plane import Point, closest_points

Parts = Sequence[shapely.Geometry]


def nonempty(parts: Parts) -> list[shapely.Geometry]:
    return [p for p in parts if not p.is_empty]


def least_distance(parts: Parts,
                   obstacles: Sequence[tuple[str, shapely.Geometry]]
                   ) -> tuple[float, str, tuple[Point, Point] | tuple[()]]:
    """Least distance from any part to any obstacle, the obstacle's label, and the closest
    points (inf, "", () when there is nothing to measure)."""
    shapes = nonempty(parts)
    if not shapes or not obstacles:
        return float("inf"), "", ()
    distances = shapely.distance(np.asarray(shapes, dtype=object)[:, None],
                                 np.asarray([o for _, o in obstacles], dtype=object)[None, :])
    p, k = (int(i) for i in np.unravel_index(int(distances.argmin()), distances.shape))
    return (float(distances[p, k]), obstacles[k][0],
            closest_points(shapes[p], obstacles[k][1]))


def reach_past(parts: Parts, width_in: float, depth_in: float) -> float:
    """How far any part reaches past the rectangle [0, width] x [0, depth] (0 when inside)."""
    shapes = nonempty(parts)
    if not shapes:
        return 0.0
    bounds = shapely.bounds(np.asarray(shapes, dtype=object))
    minx, miny = bounds[:, 0].min(), bounds[:, 1].min()
    maxx, maxy = bounds[:, 2].max(), bounds[:, 3].max()
    return float(max(0.0, -minx, -miny, maxx - width_in, maxy - depth_in))


def holding_union(parts: Parts) -> shapely.Geometry:
    """The union of `parts`, checked to hold each of them (`holds`: predicates, not an
    overlay); when GEOS's overlay lost a piece, the parts unioned one at a time, checked the
    same way, and failing that the convex hull of every part.  For shapes that must hold
    their parts (a mask's or an encoding's copy of the checker's sweep, obstacles grown for
    paths): the answer may be larger than the union, never smaller."""
    shapes = nonempty(parts)
    if not shapes:
        return shapely.Polygon()
    union = shapely.union_all(shapes)
    if holds(union, shapes):
        return union
    union = shapes[0]
    for p in shapes[1:]:
        union = shapely.union(union, p)
    if holds(union, shapes):
        return union
    return shapely.convex_hull(shapely.GeometryCollection(shapes))


def holds(union: shapely.Geometry, shapes: list[shapely.Geometry]) -> bool:
    """Whether `union` holds sample points well inside each shape: a point on its surface
    and its vertices drawn a tenth of the way towards it (those inside the shape).  An exact
    `covers` fails on the float noise of the overlay's own noding; the points lie inside by
    a margin, so only a lost piece of some size (the repro lost most of a leg) fails."""
    for shape in shapes:
        if shape.geom_type not in ("Polygon", "MultiPolygon") or shape.area <= 0:
            continue
        inner = np.asarray(shapely.get_coordinates(shapely.point_on_surface(shape)))
        vertices = shapely.get_coordinates(shape)
        samples = np.vstack([inner, vertices + 0.1 * (inner - vertices)])
        inside = shapely.contains_xy(shape, samples[:, 0], samples[:, 1])
        held = shapely.intersects_xy(union, samples[inside, 0], samples[inside, 1])
        if not held.all():
            return False
    return True
