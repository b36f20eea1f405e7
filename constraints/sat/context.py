"""What every clause encoding needs about one search: the unit, its start frame, the options,
and the obstacles and table edges in that frame (obstacles as convex pieces)."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any, TypeVar

import numpy as np
import shapely

from constraints.core.scenario import Scenario
from constraints.geometry.convex import ConvexPiece, convex_pieces
from constraints.geometry.frame import Frame
from constraints.geometry.plane import Point
from constraints.rank_and_file.unit import Unit
from constraints.sat.encoding import MoveEncoding
from constraints.sat.lattice import HalfPlane
from constraints.sat.option import Option, corner_offsets

T = TypeVar("T")


class SearchTimeout(Exception):  # noqa: N818  (a status, not an error: becomes TIMEOUT)
    """A limit of a search ran out before the model was built: `limit` says which, the
    wall clock (`"wall_clock"`) or the model's row budget (`"deterministic_time"`, counted
    work: the same on any machine)."""

    def __init__(self, message: str, limit: str = "wall_clock") -> None:
        super().__init__(message)
        self.limit = limit






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
    # The most rows the model may have (counted work, bounding the building by the search's
    # effort as CP-SAT's deterministic time bounds the solve); None: no bound.
    max_rows: int | None = None
    # What the clauses of one build share (each keyed by its maker's name): work one
    # clause's encoding did that another's needs again.
    shared: dict[str, Any] = field(default_factory=dict)
    # Set when whoever asked for the search no longer wants it (a client gone): give up.
    stop: threading.Event | None = None
    frame: Frame = field(init=False)

    def __post_init__(self) -> None:
        self.frame = Frame(self.unit.pose.centre, self.unit.pose.facing_deg)
        if self.deadline is not None or self.max_rows is not None or self.stop is not None:
            self.enc.watch = self.check_time  # looked at while rows are posted

    @property
    def options(self) -> list[Option]:
        return self.enc.options

    def check_time(self) -> None:
        """Give up building (SearchTimeout) once the search's time limit has passed, or the
        model has more rows than its budget."""
        if self.max_rows is not None and self.enc.rows > self.max_rows:
            raise SearchTimeout(f"the model outgrew its budget of {self.max_rows} rows",
                                "deterministic_time")
        if self.deadline is not None and time.perf_counter() > self.deadline:
            raise SearchTimeout("the time limit ran out while building the model")
        if self.stop is not None and self.stop.is_set():
            raise SearchTimeout("the search was stopped while building the model")

    def watched(self, items: Iterable[T], every: int = 256) -> Iterator[T]:
        """`items`, with `check_time` before every `every` of them (a long loop of a clause's
        encoding that posts no rows)."""
        for n, item in enumerate(items):
            if n % every == 0:
                self.check_time()
            yield item

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
    def corner_offsets(self) -> list[tuple[Point, Point, Point, Point]]:
        """Per option, the frame offsets of its end corners from the end centre."""
        return [corner_offsets(o) for o in self.options]

    @cached_property
    def start_corners(self) -> list[tuple[float, float]]:
        return [self.frame.point(c) for c in self.unit.corners()]
