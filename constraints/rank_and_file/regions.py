"""What a clause's `region` is asked: one option's end centres, in the unit's start frame.

With the option fixed (facing, wheel, files), an end-position rule is a region of the centre
plane.  `RegionSetting.outer` says which way to approximate round shapes: a *relaxation*
(discs circumscribed, spacing zones inscribed: every legal end centre stays in) or a *sound*
region (the other way: every point left is legal for that rule).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

import numpy as np
import shapely
from shapely.geometry import Point, Polygon

from constraints.geometry.convex import convex_pieces
from constraints.geometry.frame import Frame
from constraints.rank_and_file.start_close import StartClose
from constraints.rank_and_file.sweep_regions import GrownPieces
from constraints.rank_and_file.unit import Unit
from constraints.sat.option import corner_offsets

DISC_SEGS = 32  # arc segments per quarter circle of the discs (Valid Final Position, travel)


@dataclass
class RegionSetting:
    """Shared by every option of one unit's search: its frame and the framed geometry."""

    unit: Unit
    frame: Frame
    outer: bool
    table: np.ndarray              # (4, 2) the battlefield's corners
    start: np.ndarray              # (4, 2) the unit's start corners
    pieces: list[np.ndarray]       # obstacles as convex pieces (vertices)
    shapes: list[Polygon]
    circle: np.ndarray             # a unit circle's vertices (scaled out when outer)
    labels: list[str] = field(default_factory=list)  # each piece's object (A20 limits)
    close: StartClose | None = None  # the unit's start distances (A20)
    _grown: dict[float, GrownPieces] = field(default_factory=dict)
    _grown_far: dict[tuple[float, float], GrownPieces] = field(default_factory=dict)
    _made: dict[tuple, Any] = field(default_factory=dict)

    def limits(self, spacing: float) -> list[float]:
        """Each piece's Unit Spacing limit (A20): relaxed for a relaxation (at most the
        checker's), sound otherwise (at least the checker's)."""
        if self.close is None:
            return [spacing] * len(self.pieces)
        pick = self.close.relaxed if self.outer else self.close.sound
        return [pick(label, spacing) for label in self.labels]

    def grown_far(self, radius: float, spacing: float) -> GrownPieces:
        """As `grown`, of the pieces whose limit is `spacing` (not started close, A20)."""
        key = (radius, spacing)
        if key not in self._grown_far:
            far = [s for s, limit in zip(self.shapes, self.limits(spacing), strict=True)
                   if limit == spacing]
            self._grown_far[key] = GrownPieces(far, radius)
        return self._grown_far[key]

    def grown(self, radius: float) -> GrownPieces:
        """The obstacle pieces grown by `radius` (constraints.rank_and_file.sweep_regions),
        computed once per radius."""
        if radius not in self._grown:
            self._grown[radius] = GrownPieces(self.shapes, radius)
        return self._grown[radius]

    def remembered(self, key: tuple, make: Callable[[], Any]) -> Any:
        """`make()`, made once per key for every option of the search (a clause's part that
        depends on the option's end rectangle and the pieces near it only, as Unit
        Spacing's zones: options of one end facing and formation share them)."""
        if key not in self._made:
            self._made[key] = make()
        return self._made[key]

    @classmethod
    def of(cls, scenario: Any, unit: Unit, outer: bool) -> RegionSetting:
        frame = Frame(unit.pose.centre, unit.pose.facing_deg)
        board = scenario.battlefield
        table = np.array([frame.point(c) for c in ((0.0, 0.0), (board.width_in, 0.0),
                          (board.width_in, board.depth_in), (0.0, board.depth_in))])
        start = np.array([frame.point(c) for c in unit.corners()])
        framed = [p for label, shape in scenario.obstacles_for(unit.id)
                  for p in convex_pieces(label, shape, frame)]
        pieces = [p.vertices for p in framed]
        return cls(unit, frame, outer, table, start, pieces, [Polygon(v) for v in pieces],
                   unit_circle(outer), [p.label for p in framed],
                   StartClose.of(scenario, unit.id))


def unit_circle(outer: bool) -> np.ndarray:
    """The vertices of the regions' unit disc: a regular polygon with its vertices on the unit
    circle is inscribed in the disc; the relaxation (`outer`) scales it out by 1 / cos(pi / n)
    so that its edges touch the circle (it holds the disc)."""
    circle = shapely.get_coordinates(Point(0.0, 0.0).buffer(1.0, quad_segs=DISC_SEGS))
    return circle / math.cos(math.pi / (4 * DISC_SEGS)) if outer else circle


@dataclass
class RegionQuery:
    """One option's question: its base region of centres (already clipped) and the frame
    offsets of its end corners from the centre."""

    setting: RegionSetting
    option: Any
    base: shapely.Geometry
    offsets: np.ndarray  # (4, 2)

    @cached_property
    def corners(self) -> np.ndarray:
        """(V, 4, 2): the end corners at each vertex of the base region."""
        return shapely.get_coordinates(self.base)[:, None, :] + self.offsets[None]

    @classmethod
    def of(cls, setting: RegionSetting, option: Any, base: shapely.Geometry) -> RegionQuery:
        offsets = np.array(corner_offsets(option))
        return cls(setting, option, base, offsets)
