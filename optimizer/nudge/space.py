"""Where a unit can be nudged to: shifts t = (s, f) in its own frame (s to its right, f
forwards), and the finite set of shifts that holds the minimum nudge.

Without rotation, the unit shifted by t overlaps a convex shape Q exactly when t lies in
Q's configuration obstacle C(Q) = Q + U (a Minkowski sum: the unit's rectangle is symmetric
about its centre, so -U = U), touches Q when t is on C(Q)'s boundary, and passes through Q on
a straight leg when the leg's segment in t-space enters C(Q)'s interior.  A nudge that regains
contact with an enemy E ends on an edge of C(E).  Along such an edge every condition of the
nudge clauses changes only where the edge crosses one of finitely many lines (`event_lines`),
and between two crossings the nudge's length |s| + |f| is linear, so the least nudge is at a
crossing or, where the crossing itself is illegal, a hair (2e-6") off it (docs/rules.md §11).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import shapely

from constraints.geometry.frame import Frame
from constraints.geometry.overlap import convex_parts
from constraints.rank_and_file.unit import Unit

TOUCH_IN = 1e-6     # contact tolerance (docs/architecture.md)
STEP_IN = 2e-6      # off an illegal crossing: beyond the contact tolerance
SLACK_IN = 1e-9     # the prefilter leaves borderline shifts to the exact checker


@dataclass(frozen=True)
class Obstacle:
    """A convex shape in the unit's frame and its configuration obstacle (counter-clockwise
    vertices of C(Q)); `owner` is the unit it belongs to ("" for terrain)."""

    owner: str
    cso: np.ndarray

    def normals(self) -> tuple[np.ndarray, np.ndarray]:
        """(outward unit normals, offsets): C(Q) is n . t <= e for every edge."""
        v = self.cso
        d = np.roll(v, -1, axis=0) - v
        n = np.stack([d[:, 1], -d[:, 0]], axis=1)
        n /= np.hypot(n[:, 0], n[:, 1])[:, None]
        return n, np.einsum("ij,ij->i", n, v)

    def edges(self) -> list[tuple[np.ndarray, np.ndarray]]:
        v = self.cso
        return [(v[k], v[(k + 1) % len(v)]) for k in range(len(v))]


def configuration_obstacle(vertices: np.ndarray, half_w: float, half_d: float) -> np.ndarray:
    """C(Q) for a convex Q (frame coordinates) and the unit's rectangle, counter-clockwise."""
    box = np.array([[-half_w, -half_d], [half_w, -half_d], [half_w, half_d], [-half_w, half_d]])
    sums = (vertices[:, None, :] + box[None, :, :]).reshape(-1, 2)
    hull = shapely.MultiPoint([tuple(p) for p in sums]).convex_hull
    return np.asarray(shapely.orient_polygons(hull).exterior.coords[:-1])


def obstacles(unit: Unit, others: list[Unit], impassable: list[shapely.Polygon]
              ) -> list[Obstacle]:
    """Every other unit's boundary and every convex part of impassable terrain, as
    configuration obstacles in `unit`'s frame."""
    frame = Frame(unit.pose.centre, unit.pose.facing_deg)
    half_w, half_d = unit.width_in / 2.0, unit.depth_in / 2.0
    found = []
    for other in others:
        framed = frame.point_array(np.asarray(other.corners()))
        found.append(Obstacle(other.id, configuration_obstacle(framed, half_w, half_d)))
    for shape in impassable:
        for part in convex_parts(shape):
            found.append(Obstacle("", configuration_obstacle(frame.point_array(part),
                                                             half_w, half_d)))
    return found


def event_lines(unit: Unit, found: list[Obstacle], table: list[tuple[np.ndarray, float]],
                centres: list[np.ndarray]) -> list[tuple[np.ndarray, float]]:
    """Lines n . t = c where a nudge clause can change along an edge of C(E): the edges of
    every C(Q) (overlap, contact); s = 0 and f = 0 (the length's kinks); s and f through every
    vertex of every C(Q) and where the axes cross C(Q)'s edges (where a leg starts or stops
    passing by Q); the table's edges; and the lines on which an enemy's centre crosses one of
    the unit's corner diagonals (a corner contact changes Facing there)."""
    lines: list[tuple[np.ndarray, float]] = [(np.array([1.0, 0.0]), 0.0),
                                             (np.array([0.0, 1.0]), 0.0)]
    for ob in found:
        normals, offsets = ob.normals()
        lines += list(zip(normals, offsets, strict=True))
        for x, y in ob.cso:
            lines += [(np.array([1.0, 0.0]), float(x)), (np.array([0.0, 1.0]), float(y))]
        for a, b in ob.edges():
            lines += [(np.array([0.0, 1.0]), y) for y in _axis_crossing(a, b, 0)]
            lines += [(np.array([1.0, 0.0]), x) for x in _axis_crossing(a, b, 1)]
    lines += table
    half_w, half_d = unit.width_in / 2.0, unit.depth_in / 2.0
    for sx, sy in ((-1, 1), (1, 1), (1, -1), (-1, -1)):
        corner, d = np.array([sx * half_w, sy * half_d]), np.array([sx, sy]) / math.sqrt(2.0)
        n = np.array([-d[1], d[0]])
        lines += [(n, float(n @ (c - corner))) for c in centres]
    return lines


def _axis_crossing(a: np.ndarray, b: np.ndarray, axis: int) -> list[float]:
    """Where the segment ab crosses the line t[axis] = 0: the other coordinate, if it does."""
    if (a[axis] > 0) == (b[axis] > 0) or a[axis] == b[axis]:
        return []
    mu = a[axis] / (a[axis] - b[axis])
    return [float(a[1 - axis] + mu * (b[1 - axis] - a[1 - axis]))]


def table_lines(unit: Unit, width_in: float, depth_in: float) -> list[tuple[np.ndarray, float]]:
    """The lines where the shifted unit's boundary meets a table edge: the table is
    m . p >= offset for four world normals m; in the frame p = origin + R^T q, so a shifted
    corner c + t stays on the table while (R m) . t >= offset - m . origin - (R m) . c."""
    frame = Frame(unit.pose.centre, unit.pose.facing_deg)
    corners = frame.point_array(np.asarray(unit.corners()))
    origin = np.asarray(unit.pose.centre)
    lines = []
    for m, offset in (((1.0, 0.0), 0.0), ((-1.0, 0.0), -width_in), ((0.0, 1.0), 0.0),
                      ((0.0, -1.0), -depth_in)):
        n = np.asarray(frame.vector(m))
        lines.append((n, offset - float(np.asarray(m) @ origin) - float((corners @ n).min())))
    return lines
