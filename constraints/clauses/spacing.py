"""Unit Spacing (RULES.md 2.3.2, 2.3.4, 2.4.9, A8) at three moments of a move.

- `unit_spacing`: at the end the Unit Boundary is more than 1" from other units and
  Impassable Terrain.
- `pivot_spacing`: after an Advance's Pivot, more than 0.5" (partway through a move).
- `front_spacing`: while snaking only the Front Facing counts: the area it sweeps stays more
  than 0.5" away (so it never touches).
All comparisons are strict: exactly at the limit is illegal.
"""

from __future__ import annotations

import shapely

from constraints.clauses.base import Clause
from constraints.context import MoveContext
from constraints.geometry import closest_points
from constraints.limits import more_than
from constraints.verdict import ClauseResult


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


class PivotSpacing(_SpacingClause):
    kind = "pivot_spacing"
    measurement = "pivot_clearance"
    what = "the unit after its Pivot"

    def applies(self, ctx: MoveContext) -> bool:
        return ctx.move.pivot_deg != 0

    def shape(self, ctx: MoveContext) -> shapely.Geometry:
        return ctx.pivoted_unit.boundary()


class FrontSpacing(_SpacingClause):
    kind = "front_spacing"
    measurement = "front_clearance"
    what = "the path swept by the Front Facing"

    def shape(self, ctx: MoveContext) -> shapely.Geometry:
        return ctx.trajectory.front_sweep
