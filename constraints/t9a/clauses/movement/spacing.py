"""Unit Spacing (RULES.md 2.3.2, 2.3.4, 2.4.9, A8) at three moments of a move.

- `unit_spacing`: at the end the Unit Boundary is more than 1" from other units and
  Impassable Terrain.
- `pivot_spacing`: after an Advance's Pivot, more than 0.5" (partway through a move).
- `front_spacing`: while snaking only the Front Facing counts: the area it sweeps stays more
  than 0.5" away (so it never touches).
All comparisons are strict: exactly at the limit is illegal.
"""

from __future__ import annotations

import math

import numpy as np
import shapely
from shapely.geometry import Polygon

from constraints.core.clause import Clause
from constraints.core.limits import more_than
from constraints.core.verdict import ClauseResult
from constraints.geometry.plane import closest_points, rectangle_corners
from constraints.sat.context import EncodeContext
from constraints.sat.option import Option
from constraints.sat.separation import (
    STRICT_IN,
    affine_polygon_axes,
    near_options,
    own_rectangle_axes,
    shared_corner_axes,
)
from constraints.sat.sweep_bounds import (
    bound_first_leg,
    first_leg_clear,
    last_leg_axes,
    last_leg_vertices,
    option_ways,
)
from constraints.t9a.context import MoveContext


def clearance(shape: shapely.Geometry,
              obstacles: list[tuple[str, shapely.Geometry]]) -> tuple[float, str, tuple]:
    """Least distance from `shape` to any obstacle, which one, and the closest points."""
    if not obstacles or shape.is_empty:
        return float("inf"), "", ()
    distances = shapely.distance(shape, [o for _, o in obstacles])
    k = int(distances.argmin())
    return float(distances[k]), obstacles[k][0], closest_points(shape, obstacles[k][1])


class _SpacingClause(Clause):
    measurement = ""
    what = ""

    def shape(self, ctx: MoveContext) -> shapely.Geometry:
        raise NotImplementedError

    def applies(self, ctx: MoveContext) -> bool:
        return True

    def check(self, ctx: MoveContext) -> ClauseResult:
        if not self.applies(ctx):
            return self.result(self.measurement, float("inf"), 0.0, True, "")
        gap, label, witness = clearance(self.shape(ctx), ctx.obstacles)
        limit = self.params["spacing_in"]
        message = f"{self.what} is {gap:.3f}\" from {label}, must be more than {limit:.3f}\""
        return self.result(self.measurement, gap, limit, more_than(gap, limit), message, witness)


class UnitSpacing(_SpacingClause):
    kind = "unit_spacing"
    measurement = "clearance"
    what = "the end position"

    def shape(self, ctx: MoveContext) -> shapely.Geometry:
        return ctx.end_unit.boundary()

    def encode(self, ectx: EncodeContext) -> None:
        """Separating axes between the end Unit Boundary and each nearby obstacle piece."""
        gap = self.params["spacing_in"]
        enc = ectx.enc
        grown = [r.buffer(_circumradius(o)) for r, o in zip(ectx.centre_regions, ectx.options,
                                                             strict=True)]
        for piece, options in zip(ectx.obstacles, near_options(ectx, grown, gap + 1e-6),
                                  strict=False):
            if not options:
                continue
            shared = shared_corner_axes(ectx, piece, gap)
            for o in options:
                own = own_rectangle_axes(ectx, o, piece, gap)
                enc.bool_or(shared + own, [enc.option_vars[o]])


def _circumradius(option: Option) -> float:
    return 0.5 * math.hypot(option.width_in, option.depth_in) + 1e-6


class PivotSpacing(_SpacingClause):
    kind = "pivot_spacing"
    measurement = "pivot_clearance"
    what = "the unit after its Pivot"

    def applies(self, ctx: MoveContext) -> bool:
        return ctx.move.pivot_deg != 0

    def shape(self, ctx: MoveContext) -> shapely.Geometry:
        return ctx.pivoted_unit.boundary()

    def encode(self, ectx: EncodeContext) -> None:
        """The pivoted boundary is fixed per Pivot angle: rule out the angles that fail."""
        gap, unit = self.params["spacing_in"], ectx.unit
        pivots = sorted({o.pivot_deg for o in ectx.options if o.pivot_deg != 0})
        if not pivots or ectx.obstacle_union.is_empty:
            return
        shapes = [Polygon(rectangle_corners(unit.pose.centre, unit.pose.facing_deg + p,
                                            unit.width_in, unit.depth_in)) for p in pivots]
        clear = shapely.distance(np.array(shapes, dtype=object), ectx.obstacle_union)
        failing = {p for p, d in zip(pivots, clear, strict=True) if not more_than(d, gap)}
        for option in ectx.options:
            if option.pivot_deg in failing:
                ectx.enc.forbid(option.index, self.id)


class FrontSpacing(_SpacingClause):
    kind = "front_spacing"
    measurement = "front_clearance"
    what = "the path swept by the Front Facing"

    def shape(self, ctx: MoveContext) -> shapely.Geometry:
        return ctx.trajectory.front_sweep

    def encode(self, ectx: EncodeContext) -> None:
        """First leg and wheel: a <= a bound from exact geometry (constraints.clauses.
        sweep_bounds).  Last leg: separating axes between its parallelogram (vertices affine
        in the end centre) and each nearby obstacle piece."""
        gap = self.params["spacing_in"]
        if not ectx.world_obstacles:
            return
        # The first leg never exceeds the family's budget (the distance clause's row, or the
        # family's own: optimizer.solve._family_budget_rows).
        budget = max((o.info["budget_in"] for o in ectx.options), default=0.0)
        limits = first_leg_clear(ectx.unit, option_ways(ectx), ectx.world_obstacles,
                                 gap + STRICT_IN, budget)
        bound_first_leg(ectx, limits, self.id)
        grown = [r.buffer(_circumradius(o)) for r, o in zip(ectx.centre_regions, ectx.options,
                                                             strict=True)]
        for piece, options in zip(ectx.obstacles, near_options(ectx, grown, gap + 1e-6),
                                  strict=False):
            for o in options:
                option = ectx.options[o]
                if option.wheel_deg == 0:
                    continue  # no last leg: the first leg bound covers the whole sweep
                vertices = last_leg_vertices(option)
                sides = affine_polygon_axes(ectx, o, vertices, list(last_leg_axes(option)),
                                            piece, gap)
                if sides is not None:
                    ectx.enc.bool_or(sides, [ectx.enc.option_vars[o]])
