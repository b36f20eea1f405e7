"""Unit Spacing while snaking (docs/rules.md §3.3): only the Front Facing counts, and the
area it sweeps stays more than 0.5" from other units and Impassable Terrain (so it never
touches; `unit_spacing.py` has the shared check)."""

from __future__ import annotations

import math

import numpy as np
import shapely
from shapely.geometry import Point

from constraints.core.clause import Judges, KeepsClear, Masker, RuleExample, Stage
from constraints.geometry.batch import clear_of
from constraints.geometry.convex import ConvexPiece
from constraints.geometry.parts import Parts
from constraints.rank_and_file.poses import MaskSetting, SnakingPoses
from constraints.rank_and_file.regions import RegionQuery
from constraints.rank_and_file.start_close import StartClose
from constraints.rank_and_file.sweep_regions import last_leg_cut, leg_bands, refused_legs
from constraints.rank_and_file.ways import WayBounds, first_leg_ok
from constraints.sat.context import EncodeContext
from constraints.sat.separation import (
    STRICT_IN,
    affine_polygon_axes,
    near_options,
)
from constraints.sat.sweep_bounds import (
    bound_first_leg,
    first_leg_clear,
    last_leg_axes,
    last_leg_vertices,
    option_ways,
)
from constraints.t9a.clauses.movement.unit_spacing import (
    FLOAT_ROOM_IN,
    SpacingClause,
    beside,
    circumradius,
    sound_groups,
)
from constraints.t9a.context import MoveContext
from constraints.t9a.examples import field, fw, march, unit, wall, wh
from constraints.t9a.ways_sweep import WayContext, keep_clear


class FrontSpacing(SpacingClause):
    id = "t9a.snaking.front_spacing"
    judges = Judges.WAY
    keeps_clear = KeepsClear.FRONT_SWEEP
    sound_regions = False  # its region cuts relaxations only: the checker judges the sweep

    examples = (
        RuleExample("the front passes rocks 0.6\" to its side",
                    field(unit(), terrain=(wall("rocks", 30.0, 11.0, 32.9, 16.0),)),
                    march(fw(3.0)), False, ("front_clearance", 0.6)),
        RuleExample("a wheel swings the front into rocks ahead on its right",
                    field(unit(), terrain=(wall("ahead", 37.0, 14.0, 40.0, 16.0),)),
                    march(fw(1.0), wh(30.0)), True, ("front_clearance", 0.0)),
        # The rocks start 0.54" from the unit's corner (more than 0.5": no A20 relief).
        RuleExample("exactly 0.5\" is too close: more than 0.5\" while moving",
                    field(unit(), terrain=(wall("rocks", 32.0, 11.2, 33.0, 12.2),)),
                    march(fw(0.9)), True, ("front_clearance", 0.5)),
        RuleExample("a hair more is fine",
                    field(unit(), terrain=(wall("rocks", 31.999, 11.2, 32.999, 12.2),)),
                    march(fw(0.9)), False, ("front_clearance", 0.501)),
        RuleExample("only the Front Facing counts: the rear may swing across rocks",
                    field(unit(mobility=6.0), terrain=(wall("rocks", 39.0, 6.0, 41.0, 8.0),)),
                    march(wh(-90.0)), False),
        # RULES 2.3.2.4 (A20): towards a friend it started touching, the limit is contact.
        RuleExample("a unit touching a shallower friend's flank marches straight ahead past "
                    "its front corner, 0.394\" from the Front Facing", beside(),
                    march(fw(3.0)), False, ("front_clearance", 0.394)),
        RuleExample("but never into a friend it touches", field(unit(), unit(
                    "f", centre=(36.0, 12.0))), march(fw(1.0)), True),
    )
    measurement = "front_clearance"
    what = "the path swept by the Front Facing"

    def shape(self, ctx: MoveContext) -> Parts:
        return ctx.trajectory.front_sweep_parts

    def masker(self, setting: MaskSetting) -> Masker | None:
        """As the encoding bounds the sweep: the first leg no longer than its slid sector stays
        clear (per way), the last leg's parallelogram clear, measured like the end position.
        None when every obstacle is out of reach of any sweep."""
        unit, spacing, all_pieces = setting.unit, self.number("spacing_in"), setting.pieces
        groups = sound_groups(setting.scenario, unit.id, all_pieces, spacing)
        budget = setting.limits.budget_or(4 * unit.mobility_in)
        reach = budget + math.hypot(unit.width_in, unit.depth_in) + unit.width_in
        # The distance to the piece, not to its nearest vertex: a long wall's edge may pass
        # close in front while all its vertices are out of reach.
        here = Point(unit.pose.centre)
        if not any(p.shape.distance(here) <= reach + spacing + setting.margin_in
                   for p in all_pieces):
            return None
        # Legs are capped only by a distance clause: without one, measure every piece.
        cap = math.inf if setting.limits.budget_in is None else setting.limits.budget_in
        # A20: each group of pieces with its own (sound) limit bounds the first leg.
        def bound_of(gap: float, pieces: list[ConvexPiece]) -> WayBounds:
            return WayBounds(lambda ways: first_leg_clear(
                unit, ways, pieces, gap + STRICT_IN + setting.margin_in, cap))
        bounds = [bound_of(gap, pieces) for gap, pieces in groups]

        def judge(poses: SnakingPoses, ok: np.ndarray) -> np.ndarray:
            for bound in bounds:
                ok = first_leg_ok(poses.ways, poses.inv, poses.a, ok, bound)
            fx, fy = poses.front
            for gap, pieces in groups:
                ok = clear_of(fx, fy, poses.front_boxes, poses.axes, pieces,
                              poses.beyond(gap), ok)
            return ok
        return Masker(self.id, Stage.SWEEP, judge)

    def sweep_cut(self, query: RegionQuery) -> shapely.Geometry | None:
        """The end centres of the option's reach (`query.base`) whose first leg, the wheel
        after it, or the last leg surely sweeps the front within the gap of an obstacle piece
        (constraints.rank_and_file.sweep_regions: bands of the first leg, and per piece a
        convex set of the last leg's): only illegal centres.  A sound region so cut stays
        sound but not swept clear: its points still go to the checker."""
        setting, option = query.setting, query.option
        if not setting.shapes:
            return None
        spacing = self.number("spacing_in")
        # A20: the pieces the unit started close to cut nothing (their limit is lower).
        grown = setting.grown_far(spacing - FLOAT_ROOM_IN, spacing)
        refused = refused_legs(option, setting.unit.width_in, setting.unit.depth_in, grown)
        return shapely.union(leg_bands(option, refused, query.base),
                             last_leg_cut(option, grown, query.base))

    def encode_ways(self, wctx: WayContext) -> None:
        """Every leg and wheel of the way clear of each obstacle piece the front can reach
        (constraints.t9a.ways_sweep)."""
        spacing = self.number("spacing_in")
        close = StartClose.of(wctx.ectx.scenario, wctx.ectx.unit.id)
        for piece in wctx.ectx.obstacles:
            gap = close.sound(piece.label, spacing)  # A20: at least the checker's limit
            if wctx.may_come_near(piece, spacing):
                keep_clear(wctx.way, piece, gap)

    def encode(self, ectx: EncodeContext) -> None:
        """First leg and wheel: a <= a bound from exact geometry (constraints.clauses.
        sweep_bounds).  Last leg: separating axes between its parallelogram (vertices affine
        in the end centre) and each nearby obstacle piece."""
        spacing = self.number("spacing_in")
        if not ectx.world_obstacles:
            return
        close = StartClose.of(ectx.scenario, ectx.unit.id)
        # The first leg never exceeds the family's budget (the distance clause's row, or the
        # family's own: optimizer.solve._family_budget_rows).
        budget = max((o.budget_in for o in ectx.options), default=0.0)
        for gap, pieces in sound_groups(ectx.scenario, ectx.unit.id, ectx.world_obstacles,
                                        spacing):
            limits = first_leg_clear(ectx.unit, option_ways(ectx), pieces, gap + STRICT_IN,
                                     budget, ectx.check_time)
            bound_first_leg(ectx, limits, self.id)
        grown = [r.buffer(circumradius(o)) for r, o in zip(ectx.centre_regions, ectx.options,
                                                             strict=True)]
        for piece, options in zip(ectx.obstacles, near_options(ectx, grown, spacing + 1e-6),
                                  strict=False):
            gap = close.sound(piece.label, spacing)  # A20: at least the checker's limit
            for o in options:
                option = ectx.options[o]
                if option.wheel_deg == 0:
                    continue  # no last leg: the first leg bound covers the whole sweep
                vertices = last_leg_vertices(option)
                sides = affine_polygon_axes(ectx, o, vertices, list(last_leg_axes(option)),
                                            piece, gap)
                if sides is not None:
                    ectx.enc.bool_or(sides, [ectx.enc.option_vars[o]])
