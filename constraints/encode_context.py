"""What every clause encoding needs about one search: the unit, its start frame, the options,
and the obstacles and table edges in that frame (obstacles as convex pieces)."""

from __future__ import annotations

import math
import time
from dataclasses import dataclass, field
from functools import cached_property

import numpy as np
import shapely
from shapely.geometry import Polygon

from constraints.domain import Scenario, Unit
from constraints.encoding import Frame, HalfPlane, MoveEncoding, Option

# Corner fans every 7.5 deg: the circumscribed polygon overshoots a gap g by g (1/cos 3.75 - 1),
# about 0.002" at 1".
FAN_STEP_DEG = 7.5


class SearchTimeout(Exception):  # noqa: N818  (a status, not an error: becomes TIMEOUT)
    """The time limit of a search ran out before the model was built."""


@dataclass
class ConvexPiece:
    """A convex obstacle piece in frame inches: vertices (counter-clockwise) and its label."""

    label: str
    vertices: np.ndarray

    @cached_property
    def shape(self) -> Polygon:
        return Polygon(self.vertices)

    def edge_normals(self) -> list[tuple[tuple[float, float], float]]:
        """(outward unit normal n, offset e) of each edge: the piece lies in n . x <= e."""
        out = []
        v = self.vertices
        for k in range(len(v)):
            a, b = v[k], v[(k + 1) % len(v)]
            n = np.array([b[1] - a[1], a[0] - b[0]])
            length = float(np.hypot(*n))
            if length < 1e-12:
                continue
            n = n / length
            out.append(((float(n[0]), float(n[1])), float(np.max(v @ n))))
        return out

    def corner_fans(self, step_deg: float = FAN_STEP_DEG) -> list[tuple[float, float]]:
        """Unit directions between the normals of each vertex's two edges, at most
        `step_deg` apart: with the edge normals they are the edges of a polygon circumscribing
        the piece grown by any gap, which is what separating axes with a gap need at corners."""
        normals = [n for n, _ in self.edge_normals()]
        fans: list[tuple[float, float]] = []
        for k, after in enumerate(normals):
            before = normals[k - 1]
            start = math.atan2(before[1], before[0])
            turn = (math.atan2(after[1], after[0]) - start) % (2 * math.pi)
            count = math.ceil(math.degrees(turn) / step_deg)
            fans += [(math.cos(start + turn * i / count), math.sin(start + turn * i / count))
                     for i in range(1, count)]
        return fans

    def support(self, direction: tuple[float, float]) -> tuple[float, float]:
        """(min, max) of direction . v over the piece's vertices."""
        proj = self.vertices @ np.asarray(direction)
        return float(proj.min()), float(proj.max())


def convex_pieces(label: str, shape: Polygon, frame: Frame) -> list[ConvexPiece]:
    """The shape in frame coordinates, as itself if convex, else as triangles."""
    framed = Polygon([frame.point(p) for p in shape.exterior.coords[:-1]])
    framed = shapely.orient_polygons(framed)
    if framed.convex_hull.area - framed.area <= 1e-12 * max(1.0, framed.area):
        return [ConvexPiece(label, np.asarray(framed.exterior.coords[:-1]))]
    triangles = shapely.constrained_delaunay_triangles(framed)
    return [ConvexPiece(label, np.asarray(shapely.orient_polygons(t).exterior.coords[:-1]))
            for t in triangles.geoms]


@dataclass
class EncodeContext:
    """One unit's search: scenario, manoeuvre, start frame, options, the encoding."""

    scenario: Scenario
    unit: Unit
    manoeuvre: str
    enc: MoveEncoding
    centre_regions: list[shapely.Geometry]  # per option, every end centre it allows (frame)
    deadline: float | None = None             # time.perf_counter() by which to give up
    # Per option index, a disc (frame centre, radius) holding every centre of that option the
    # search still needs: an encoding may restrict the option to any region containing it.
    focus: dict[int, tuple[tuple[float, float], float]] = field(default_factory=dict)
    frame: Frame = field(init=False)

    def __post_init__(self) -> None:
        self.frame = Frame(self.unit.pose.centre, self.unit.pose.facing_deg)

    @property
    def options(self) -> list[Option]:
        return self.enc.options

    def check_time(self) -> None:
        """Give up building (SearchTimeout) once the search's time limit has passed."""
        if self.deadline is not None and time.perf_counter() > self.deadline:
            raise SearchTimeout("the time limit ran out while building the model")

    @cached_property
    def obstacles(self) -> list[ConvexPiece]:
        pieces: list[ConvexPiece] = []
        for label, shape in self.scenario.obstacles_for(self.unit.id):
            pieces += convex_pieces(label, shape, self.frame)
        return pieces

    @cached_property
    def world_obstacles(self) -> list[ConvexPiece]:
        """Obstacles as convex pieces in world coordinates (for sweep bounds)."""
        world = Frame((0.0, 0.0), 90.0)  # the identity frame
        pieces: list[ConvexPiece] = []
        for label, shape in self.scenario.obstacles_for(self.unit.id):
            pieces += convex_pieces(label, shape, world)
        return pieces

    @cached_property
    def obstacle_union(self) -> shapely.Geometry:
        """Obstacles in world coordinates (for exact sweep checks)."""
        return shapely.union_all([s for _, s in self.scenario.obstacles_for(self.unit.id)])

    @cached_property
    def table(self) -> list[HalfPlane]:
        """The battlefield as half-planes in frame inches."""
        field_ = self.scenario.battlefield
        corners = [(0.0, 0.0), (field_.width_in, 0.0), (field_.width_in, field_.depth_in),
                   (0.0, field_.depth_in)]
        piece = ConvexPiece("table", np.array([self.frame.point(c) for c in corners]))
        piece = ConvexPiece("table", np.asarray(shapely.orient_polygons(piece.shape)
                                                .exterior.coords[:-1]))
        return [HalfPlane(n, e) for n, e in piece.edge_normals()]

    @cached_property
    def start_corners(self) -> list[tuple[float, float]]:
        return [self.frame.point(c) for c in self.unit.corners()]
