"""Table Edge (RULES.md 2.3.5): the Front Facing stays on the battlefield throughout a Move
Manoeuvre, and the whole unit finishes on it.  Measured as the overhang past the edge.
"""

from __future__ import annotations

import shapely

from constraints.clauses.base import Clause
from constraints.context import MoveContext
from constraints.domain import Battlefield
from constraints.limits import within
from constraints.verdict import ClauseResult


def overhang(shape: shapely.Geometry, field: Battlefield) -> float:
    """How far `shape` reaches past the battlefield's edges (0 when on the table)."""
    if shape.is_empty:
        return 0.0
    minx, miny, maxx, maxy = shape.bounds
    return max(0.0, -minx, -miny, maxx - field.width_in, maxy - field.depth_in)


class _TableEdge(Clause):
    what = ""
    measurement = ""

    def shape(self, ctx: MoveContext) -> shapely.Geometry:
        raise NotImplementedError

    def check(self, ctx: MoveContext) -> ClauseResult:
        over = overhang(self.shape(ctx), ctx.scenario.battlefield)
        message = f"{self.what} reaches {over:.3f}\" past the table edge, limit 0\""
        return self.result(self.measurement, over, 0.0, within(over, 0.0), message)


class TableEdgeEnd(_TableEdge):
    kind = "table_edge_end"
    what = "the end position"
    measurement = "overhang"

    def shape(self, ctx: MoveContext) -> shapely.Geometry:
        return ctx.end_unit.boundary()


class TableEdgeFront(_TableEdge):
    kind = "table_edge_front"
    what = "the Front Facing's path"
    measurement = "front_overhang"

    def shape(self, ctx: MoveContext) -> shapely.Geometry:
        return ctx.trajectory.front_sweep
