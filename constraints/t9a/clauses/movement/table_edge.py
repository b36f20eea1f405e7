"""Table Edge (docs/rules.md §3.4): the Front Facing stays on the battlefield throughout a Move
Manoeuvre, and the whole unit finishes on it.  Measured as the overhang past the edge.
"""

from __future__ import annotations

import math

import numpy as np
import shapely
from shapely.geometry import Polygon

from constraints.core.clause import Clause, Judges, Masker, RegionPart, RuleExample, Stage
from constraints.core.limits import within
from constraints.core.scenario import Battlefield
from constraints.core.verdict import ClauseResult
from constraints.geometry.parts import Parts, reach_past
from constraints.rank_and_file.poses import EndRectangles, MaskSetting, SnakingPoses
from constraints.rank_and_file.regions import RegionQuery
from constraints.rank_and_file.ways import WayBounds, first_leg_ok
from constraints.sat.context import EncodeContext
from constraints.sat.sweep_bounds import (
    bound_first_leg,
    first_leg_on_table,
    last_leg_vertices,
    option_ways,
)
from constraints.t9a.context import MoveContext
from constraints.t9a.examples import field, fw, march, reform, unit, wh
from constraints.t9a.ways_sweep import WayContext, keep_inside


def overhang(shape: shapely.Geometry | Parts, field: Battlefield) -> float:
    """How far `shape` (or any of its parts, never their union) reaches past the
    battlefield's edges (0 when on the table)."""
    parts = [shape] if isinstance(shape, shapely.Geometry) else shape
    return reach_past(parts, field.width_in, field.depth_in)


class _TableEdge(Clause):
    what = ""
    measurement = ""

    def shape(self, ctx: MoveContext) -> shapely.Geometry | Parts:
        raise NotImplementedError

    def check(self, ctx: MoveContext) -> ClauseResult:
        over = overhang(self.shape(ctx), ctx.scenario.battlefield)
        message = f"{self.what} reaches {over:.3f}\" past the table edge, limit 0\""
        return self.result(self.measurement, over, 0.0, within(over, 0.0), message)


class TableEdgeEnd(_TableEdge):
    id = "t9a.table_edge.end"
    monotone_in_shape = True  # a shape inside a rectangle on the table is on it too
    judges = Judges.END_POSE

    examples = (
        RuleExample("touching the far edge is on the table", field(depth=19.0),
                    march(fw(8.0)), False, ("overhang", 0.0)),
        RuleExample("a hair past it is not", field(depth=19.0), march(fw(8.0), fw(0.01)),
                    True, ("overhang", 0.01)),
        RuleExample("a Reform must end on the table too", field(unit(centre=(36.0, 1.5))),
                    reform(centre=(36.0, 0.5)), True, ("overhang", 0.5)),
    )
    what = "the end position"
    measurement = "overhang"

    def shape(self, ctx: MoveContext) -> shapely.Geometry:
        return ctx.end_unit.boundary()

    def masker(self, setting: MaskSetting) -> Masker:
        field = setting.scenario.battlefield

        def judge(poses: EndRectangles, ok: np.ndarray) -> np.ndarray:
            return ok & poses.boxes.overhang_ok(field.width_in, field.depth_in, poses.tol)
        return Masker(self.id, Stage.END, judge)

    def region(self, query: RegionQuery) -> RegionPart | None:
        """Per end corner, the table shifted by its offset (nothing when every corner of the
        base region is on the table already)."""
        table = query.setting.table
        if shapely.contains_xy(Polygon(table), query.corners.reshape(-1, 2)).all():
            return None
        return RegionPart(keep=list(shapely.polygons(table[None] - query.offsets[:, None])))

    def encode(self, ectx: EncodeContext) -> None:
        """Every end corner inside every table edge (shared rows)."""
        for hp in ectx.table:
            for corner in range(4):
                ectx.enc.corner_row(corner, hp.normal, hp.rhs)


class TableEdgeFront(_TableEdge):
    id = "t9a.table_edge.front"
    judges = Judges.WAY

    # A 5" front at y = 41 on a 45" deep table: a 90 deg left wheel swings its outer corner
    # up to y = 46 (the arc's polygon is circumscribed: a few millionths more).
    examples = (
        RuleExample("the Front Facing must stay on the table while it moves",
                    field(unit(centre=(36.0, 40.0), mobility=6.0), depth=45.0),
                    march(wh(90.0)), True, ("front_overhang", 1.0)),
        RuleExample("a straight move stays on", field(unit(centre=(36.0, 40.0)), depth=45.0),
                    march(fw(2.0)), False, ("front_overhang", 0.0)),
    )
    what = "the Front Facing's path"
    measurement = "front_overhang"

    def shape(self, ctx: MoveContext) -> Parts:
        return ctx.trajectory.front_sweep_parts

    def masker(self, setting: MaskSetting) -> Masker | None:
        """As the encoding bounds the sweep: the first leg no longer than its slid sector stays
        on the table (per way), the last leg's parallelogram on the table.  None when no sweep
        can reach an edge."""
        unit, field = setting.unit, setting.scenario.battlefield
        reach = setting.limits.budget_or(4 * unit.mobility_in) + \
            math.hypot(unit.width_in, unit.depth_in) + unit.width_in
        centre = np.asarray(unit.pose.centre)
        if not ((centre - reach < 0).any() or centre[0] + reach > field.width_in or
                centre[1] + reach > field.depth_in):
            return None
        bounds = WayBounds(lambda ways: first_leg_on_table(unit, ways, field))

        def judge(poses: SnakingPoses, ok: np.ndarray) -> np.ndarray:
            ok = first_leg_ok(poses.ways, poses.inv, poses.a, ok, bounds)
            return ok & poses.front_boxes.overhang_ok(field.width_in, field.depth_in, poses.tol)
        return Masker(self.id, Stage.SWEEP, judge)

    def encode_ways(self, wctx: WayContext) -> None:
        """Every leg and wheel of the way inside each table edge the front can reach."""
        way, unit = wctx.way, wctx.ectx.unit
        reach = way.shape.budget + unit.width_in + unit.depth_in
        for hp in wctx.ectx.table:
            if hp.rhs <= reach:  # the edge's distance from the start centre (unit normal)
                keep_inside(way, hp.normal, hp.rhs)

    def encode(self, ectx: EncodeContext) -> None:
        """First leg and wheel: a bound from exact geometry; last leg: its parallelogram's
        vertices inside every table edge."""
        field = ectx.scenario.battlefield
        bound_first_leg(ectx, first_leg_on_table(ectx.unit, option_ways(ectx), field), self.id)
        table = Polygon([ectx.frame.point(p) for p in field.area().exterior.coords[:-1]])
        for option, region, lit in zip(ectx.options, ectx.centre_regions, ectx.enc.option_vars,
                                       strict=True):
            reach = 0.5 * (option.width_in + option.depth_in) + 1e-6
            if option.wheel_deg == 0 or table.contains(region.buffer(reach)):
                continue
            for m, t in last_leg_vertices(option):
                for hp in ectx.table:
                    n = np.asarray(hp.normal)
                    coef = n @ m
                    ectx.enc.centre_row((float(coef[0]), float(coef[1])),
                                        hp.rhs - float(n @ t), [lit])
