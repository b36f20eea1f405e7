"""Unit Spacing after an Advance's Pivot (docs/rules.md §3.2): the Unit Boundary more than
0.5" from other units and Impassable Terrain, partway through the move (`unit_spacing.py` has
the shared check)."""

from __future__ import annotations

import numpy as np
import shapely
from shapely.geometry import Polygon

from constraints.core.clause import Judges, KeepsClear, Masker, RuleExample
from constraints.core.limits import more_than
from constraints.geometry.plane import rectangle_corners
from constraints.rank_and_file.poses import MaskSetting
from constraints.rank_and_file.start_close import StartClose
from constraints.sat.context import EncodeContext
from constraints.t9a.clauses.movement.pivot_model_distance import pivot_masker
from constraints.t9a.clauses.movement.unit_spacing import (
    SpacingClause,
)
from constraints.t9a.context import MoveContext
from constraints.t9a.examples import advance, field, fw, unit, wall
from constraints.t9a.moves import Manoeuvre, Move
from constraints.t9a.ways_sweep import WayContext


class PivotSpacing(SpacingClause):
    id = "t9a.pivot.unit_spacing"
    judges = Judges.WAY
    keeps_clear = KeepsClear.PIVOT

    # A 5 x 2 unit pivoting 90 deg is 2 wide and 5 deep: its rear reaches y = 7.5.
    examples = (
        RuleExample("after a Pivot the unit is partway through its move: 0.5\" is too close",
                    field(unit(), terrain=(wall("rocks", 30.0, 6.0, 42.0, 7.0),)),
                    advance(fw(4.0), pivot=90.0), True, ("pivot_clearance", 0.5)),
        RuleExample("more than 0.5\" is fine",
                    field(unit(), terrain=(wall("rocks", 30.0, 5.999, 42.0, 6.999),)),
                    advance(fw(4.0), pivot=90.0), False, ("pivot_clearance", 0.501)),
        RuleExample("without a Pivot there is nothing to judge",
                    field(unit(), terrain=(wall("rocks", 30.0, 8.5, 42.0, 8.7),)),
                    advance(fw(4.0)), False),
        # RULES 2.3.2.4 (A20): the limit towards rocks the unit started 0.3" from is 0.3".
        RuleExample("a unit 0.3\" behind a wall may about-face in place (2.3.2.4, A20)",
                    field(unit(), terrain=(wall("wall", 30.0, 11.3, 42.0, 12.3),)),
                    advance(pivot=180.0), False, ("pivot_clearance", 0.3)),
        RuleExample("but a quarter turn would bring it into the wall",
                    field(unit(), terrain=(wall("wall", 30.0, 11.3, 42.0, 12.3),)),
                    advance(pivot=90.0), True),
    )
    measurement = "pivot_clearance"
    what = "the unit after its Pivot"

    def applies(self, ctx: MoveContext) -> bool:
        return ctx.move.pivot_deg != 0

    def shape(self, ctx: MoveContext) -> shapely.Geometry:
        return ctx.pivoted_unit.boundary()

    def masker(self, setting: MaskSetting) -> Masker:
        def passes(pivot: float) -> bool:
            move = Move(setting.unit.id, Manoeuvre(setting.manoeuvre), pivot_deg=pivot)
            return not self.check(MoveContext(setting.scenario, move)).violations
        return pivot_masker(self.id, passes)

    def encode(self, ectx: EncodeContext) -> None:
        """The pivoted boundary is fixed per Pivot angle: rule out the angles that fail."""
        pivots = sorted({o.pivot_deg for o in ectx.options if o.pivot_deg != 0})
        failing = self._failing(ectx, pivots)
        for option in ectx.options:
            if option.pivot_deg in failing:
                ectx.enc.forbid(option.index, self.id)

    def encode_ways(self, wctx: WayContext) -> None:
        """The same, over the model's Pivot headings."""
        way = wctx.way
        by_angle = {p * way.shape.step_deg: p for p in way.shape.pivots if p != 0}
        for angle in self._failing(wctx.ectx, sorted(by_angle)):
            way.forbid_pivot(by_angle[angle])

    def _failing(self, ectx: EncodeContext, pivots: list[float]) -> set[float]:
        """The Pivot angles whose pivoted boundary comes within the gap of an obstacle."""
        gap, unit = self.number("spacing_in"), ectx.unit
        obstacles = [shape for _, shape in ectx.scenario.obstacles_for(unit.id)]
        if not pivots or not obstacles:
            return set()
        close = StartClose.of(ectx.scenario, unit.id)
        if close.any_close(float(gap)):  # A20: each object's own limit, as the checker reads it
            return {p for p in pivots if self._start_close(
                Polygon(rectangle_corners(unit.pose.centre, unit.pose.facing_deg + p,
                                          unit.width_in, unit.depth_in)),
                ectx.scenario.obstacles_for(unit.id), close, float(gap)).violations}
        shapes = [Polygon(rectangle_corners(unit.pose.centre, unit.pose.facing_deg + p,
                                            unit.width_in, unit.depth_in)) for p in pivots]
        # The least over the obstacles, as the checker measures: never their union.
        clear = shapely.distance(np.array(shapes, dtype=object)[:, None],
                                 np.array(obstacles, dtype=object)[None, :]).min(axis=1)
        return {p for p, d in zip(pivots, clear, strict=True) if not more_than(d, gap)}
