"""Per option, the region of end centres (start-frame inches) left by the end-position rules.

With the option fixed (heading, wheel, files), every end-position rule is a region of the
centre plane (TECHNIQUES.md, "per-heading exact geometry"): the option's reach (triangle,
segment or travel disc), the table (each end corner on it), Valid Final Position (some start
corner within the limit of each end corner: a union of discs) and Unit Spacing (per convex
obstacle piece, the centres whose rectangle comes within the gap: piece (+) -rectangle,
grown by the gap).

`CentreRegions(..., outer=False)` is *sound*: discs inscribed, spacing zones enlarged, so each
of its points passes those rules (the per-heading geometry baseline confirms them).
`outer=True` is a *relaxation*: discs circumscribed, spacing zones inscribed in the true zone,
so it holds every legal end centre of the option, and its best point bounds the option's
objective (the search prunes with it).  Neither judges the front's sweep, the Pivot or a
Reform's model paths.
"""

from __future__ import annotations

import math

import numpy as np
import shapely
from shapely.geometry import LineString, Point, Polygon

from constraints.core.scenario import Scenario
from constraints.geometry.convex import convex_pieces
from constraints.geometry.frame import Frame
from constraints.rank_and_file.unit import Unit
from constraints.sat.option import Option, corner_offset
from optimizer.families.options import reach_polygon
from optimizer.families.search_space import clauses_of

QUAD_SEGS = 16            # arc segments per quarter circle in the spacing buffers
DISC_SEGS = 32            # ... in the Valid Final Position and travel discs
# Relaxed zones are shrunk by this much (inches) so float rounding cannot make them cut a
# legal centre.
FLOAT_ROOM_IN = 1e-6


class CentreRegions:
    """Regions of end centres of one unit's manoeuvre options, in its start frame."""

    def __init__(self, scenario: Scenario, unit: Unit, manoeuvre: str, outer: bool) -> None:
        self.unit, self.manoeuvre, self.outer = unit, manoeuvre, outer
        self.frame = frame = Frame(unit.pose.centre, unit.pose.facing_deg)
        clauses = {c.kind: c for c in clauses_of(scenario, manoeuvre)}
        self.vfp = clauses["valid_final_position"].limit_in(unit) \
            if "valid_final_position" in clauses else math.inf
        self.travel = clauses["centre_travel"].limit_in(unit) \
            if "centre_travel" in clauses else 2.0 * unit.mobility_in
        spacing = clauses.get("unit_spacing")
        self.gap = float(spacing.params["spacing_in"]) if spacing else None
        field = scenario.battlefield
        self.on_table = "table_edge_end" in clauses  # only the rules the profile has
        self.table = np.array([frame.point(c) for c in ((0.0, 0.0), (field.width_in, 0.0),
                               (field.width_in, field.depth_in), (0.0, field.depth_in))])
        self.start = np.array([frame.point(c) for c in unit.corners()])
        self.pieces = [p.vertices for label, shape in scenario.obstacles_for(unit.id)
                       for p in convex_pieces(label, shape, frame)]
        self.shapes = [Polygon(v) for v in self.pieces]
        # A regular polygon with its vertices on the unit circle is inscribed in the disc; the
        # relaxation scales it out by 1 / cos(pi / n) so that its edges touch the circle.
        n = 4 * DISC_SEGS
        circle = shapely.get_coordinates(Point(0.0, 0.0).buffer(1.0, quad_segs=DISC_SEGS))
        self.circle = circle / math.cos(math.pi / n) if outer else circle

    def of(self, option: Option, clip: shapely.Geometry | None = None) -> shapely.Geometry:
        """The option's region (possibly empty), within `clip` if given (the region's part
        in it, computed on small shapes)."""
        if self.manoeuvre == "reform":
            base = Polygon(self.circle * self.travel)
        else:
            pts = reach_polygon(option)
            base = LineString(pts[:2]) if option.wheel_deg == 0 else Polygon(pts)
        if clip is not None:
            base = base.intersection(clip)
            if base.is_empty:
                return base
        offsets = np.array([corner_offset(option, c) for c in range(4)])
        corners = shapely.get_coordinates(base)[:, None, :] + offsets[None]  # (V, 4, 2)
        parts = [base]
        if self.on_table and \
                not shapely.contains_xy(Polygon(self.table), corners.reshape(-1, 2)).all():
            parts += list(shapely.polygons(self.table[None] - offsets[:, None]))
        for c in range(4):
            far = np.hypot(*(corners[:, c, None] - self.start[None]).T).max(axis=0)
            if far.min() > self.vfp:  # no one start corner's disc holds every end: it binds
                discs = shapely.polygons(self.circle[None] * self.vfp
                                         + (self.start - offsets[c])[:, None])
                parts.append(shapely.union_all(discs))
        region = shapely.intersection_all(parts)
        return self._spaced(region, base, offsets)

    def _spaced(self, region: shapely.Geometry, base: shapely.Geometry,
                offsets: np.ndarray) -> shapely.Geometry:
        """The region minus the centres whose end rectangle comes within the gap of an
        obstacle: per convex piece, (piece (+) -rectangle) grown by the gap.  A round buffer's
        chords lie inside the true offset curve: the sound region enlarges the radius so
        they stay outside it; the relaxation keeps them inside (bevelled, a hair smaller)."""
        if self.gap is None or not self.shapes or region.is_empty:
            return region
        near = shapely.distance(self.shapes, base) <= np.hypot(*offsets.T).max() + self.gap + 0.1
        if self.outer:
            # Bevelled corners: each chord lies inside the true rounded offset, and there are
            # far fewer vertices to subtract.
            grow, style = self.gap - FLOAT_ROOM_IN, "bevel"
        else:
            grow, style = (self.gap + 1e-6) / math.cos(3 * math.pi / (8 * QUAD_SEGS)), "round"
        hulls = [shapely.MultiPoint((self.pieces[n][:, None] - offsets[None]).reshape(-1, 2))
                 .convex_hull for n in np.flatnonzero(near)]
        zones = shapely.buffer(np.asarray(hulls, dtype=object), grow, quad_segs=QUAD_SEGS,
                               join_style=style)
        return region.difference(shapely.union_all(zones)) if len(zones) else region
