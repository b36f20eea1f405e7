"""Unit Spacing (docs/rules.md §3.1-3.3) at three moments of a move.

- `unit_spacing`: at the end the Unit Boundary is more than 1" from other units and
  Impassable Terrain.
- `pivot_spacing`: after an Advance's Pivot, more than 0.5" (partway through a move).
- `front_spacing`: while snaking only the Front Facing counts: the area it sweeps stays more
  than 0.5" away (so it never touches).
All comparisons are strict: exactly at the limit is illegal.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import shapely
from shapely.geometry import Point, Polygon

from constraints.core.clause import Clause, Judges, Masker, RegionPart, RuleExample, Stage
from constraints.core.limits import more_than
from constraints.core.verdict import ClauseResult
from constraints.geometry.batch import clear_of
from constraints.geometry.convex import ConvexPiece
from constraints.geometry.parts import Parts, least_distance
from constraints.geometry.plane import rectangle_corners
from constraints.rank_and_file.poses import EndRectangles, MaskSetting, SnakingPoses
from constraints.rank_and_file.regions import RegionQuery
from constraints.rank_and_file.start_close import StartClose, nearest_limit
from constraints.rank_and_file.sweep_regions import last_leg_cut, leg_bands, refused_legs
from constraints.rank_and_file.ways import WayBounds, first_leg_ok
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
from constraints.t9a.clauses.movement.pivot import pivot_masker
from constraints.t9a.context import MoveContext
from constraints.t9a.examples import advance, field, fw, march, reform, unit, wall, wh
from constraints.t9a.moves import Manoeuvre, Move
from constraints.t9a.ways_sweep import WayContext, keep_clear

QUAD_SEGS = 16  # arc segments per quarter circle in the regions' spacing buffers
# Relaxed spacing zones are shrunk by this much (inches) so float rounding cannot make them
# cut a legal centre.
FLOAT_ROOM_IN = 1e-6


def clearance(shape: shapely.Geometry | Parts,
              obstacles: list[tuple[str, shapely.Geometry]]) -> tuple[float, str, tuple]:
    """Least distance from `shape` (or from any of its parts, never their union) to any
    obstacle, which one, and the closest points."""
    parts = [shape] if isinstance(shape, shapely.Geometry) else shape
    return least_distance(parts, obstacles)


class _SpacingClause(Clause):
    measurement = ""
    what = ""

    def shape(self, ctx: MoveContext) -> shapely.Geometry | Parts:
        raise NotImplementedError

    def applies(self, ctx: MoveContext) -> bool:
        return True

    def check(self, ctx: MoveContext) -> ClauseResult:
        if not self.applies(ctx):
            return self.result(self.measurement, float("inf"), 0.0, True, "")
        spacing = float(self.params["spacing_in"])
        shape = self.shape(ctx)
        close = StartClose.of(ctx.scenario, ctx.unit.id)
        if not close.any_close(spacing):
            gap, label, witness = clearance(shape, ctx.obstacles)
            message = f"{self.what} is {gap:.3f}\" from {label}, must be more than " \
                f"{spacing:.3f}\""
            return self.result(self.measurement, gap, spacing, more_than(gap, spacing),
                               message, witness)
        return self._start_close(shape, ctx.obstacles, close, spacing)

    def _start_close(self, shape: shapely.Geometry | Parts, obstacles: list[tuple[str, Any]],
                     close: StartClose, spacing: float) -> ClauseResult:
        """A20: towards an object the unit started within `spacing` of, the limit is its
        start distance (a touched one: no overlap); the measurement reported is the one
        nearest its own limit (constraints.rank_and_file.start_close.nearest_limit)."""
        found = nearest_limit(shape, obstacles, close, spacing, self.what)
        if found is None:
            return self.result(self.measurement, float("inf"), spacing, True, "")
        gap, limit, legal, why, witness = found
        return self.result(self.measurement, gap, limit, legal, why, witness)


def _ahead(gap: float, rocks: bool = False) -> dict:
    """The default unit (front edge y = 11), a unit or rocks `gap` beyond its front after a
    March of 8"."""
    edge = 19.0 + gap
    if rocks:
        return field(unit(), terrain=(wall("rocks", 30.0, edge, 42.0, edge + 2.0),))
    return field(unit(), unit("foe", centre=(36.0, edge + 1.0), facing=270.0, player="blue"))


def _behind(gap: float) -> dict:
    """The default unit (rear edge y = 9) with rocks `gap` behind it."""
    return field(unit(), terrain=(wall("rocks", 30.0, 8.0 - gap, 42.0, 9.0 - gap),))


def _beside() -> dict:
    """The default unit (x 33.5-38.5, y 9-11) touching the flank of a friend one rank deep
    (x 38.5-43.5, y 9.606-10.606): its front corner 0.394\" behind the unit's Front."""
    return field(unit(), unit("f", models=5, files=5, centre=(41.0, 10.106)))


class UnitSpacing(_SpacingClause):
    judges = Judges.END_POSE

    examples = (
        RuleExample("a unit may not end within 1\" of another unit", _ahead(1.0),
                    march(fw(8.0)), True, ("clearance", 1.0)),
        RuleExample("more than 1\" is fine", _ahead(1.001), march(fw(8.0)), False,
                    ("clearance", 1.001)),
        RuleExample("impassable terrain counts like a unit", _ahead(1.0, rocks=True),
                    march(fw(8.0)), True, ("clearance", 1.0)),
        RuleExample("more than 1\" from impassable terrain is fine", _ahead(1.001, rocks=True),
                    march(fw(8.0)), False, ("clearance", 1.001)),
        RuleExample("ending in contact is illegal for a Move Manoeuvre", _ahead(0.0),
                    march(fw(8.0)), True, ("clearance", 0.0)),
        # RULES 2.3.2.4: "A unit that ended within 1\" through an uncontrolled move or
        # unintended event may stay within 1\" until the units are more than 1\" apart" (A20).
        RuleExample("a unit that starts 0.3\" in front of rocks may stay 0.3\" from them",
                    _behind(0.3), reform(), False, ("clearance", 0.3)),
        RuleExample("but may not end closer than it started", _behind(0.3),
                    reform(centre=(36.0, 9.8)), True, ("clearance", 0.1)),
        RuleExample("a unit touching a friend may end touching it", _beside(),
                    reform(centre=(36.0, 9.5)), False, ("clearance", 0.0)),
    )
    measurement = "clearance"
    what = "the end position"

    def shape(self, ctx: MoveContext) -> shapely.Geometry:
        return ctx.end_unit.boundary()

    def masker(self, setting: MaskSetting) -> Masker:
        groups = sound_groups(setting.scenario, setting.unit.id, setting.pieces,
                              float(self.params["spacing_in"]))

        def judge(poses: EndRectangles, ok: np.ndarray) -> np.ndarray:
            for gap, pieces in groups:
                ok = clear_of(poses.xs, poses.ys, poses.boxes, poses.axes, pieces,
                              poses.beyond(gap), ok)
            return ok
        return Masker(self.id, Stage.END, judge)

    def region(self, query: RegionQuery) -> RegionPart | None:
        """Minus the centres whose end rectangle comes within the gap of an obstacle: per
        convex piece, (piece (+) -rectangle) grown by the gap.  A round buffer's chords lie
        inside the true offset curve: the sound region enlarges the radius so they stay
        outside it; the relaxation keeps them inside (bevelled, a hair smaller)."""
        setting, gap = query.setting, float(self.params["spacing_in"])
        if not setting.shapes:
            return None
        limits = setting.limits(gap)  # A20: each piece's own, relaxed or sound

        def zones() -> shapely.Geometry:
            reach = np.hypot(*query.offsets.T).max() + gap + 0.1
            near = shapely.distance(setting.shapes, query.base) <= reach
            grow = []
            for n in np.flatnonzero(near):
                if setting.outer:
                    # Round corners whose vertices lie on the true offset, a hair short: every
                    # chord inside it (bevelled corners were, and cut up to 0.29 x the gap
                    # short at a square corner: relaxed bounds 0.02" loose among rectangles).
                    grow.append(limits[n] - FLOAT_ROOM_IN)
                else:
                    grow.append((limits[n] + 1e-6) / math.cos(3 * math.pi / (8 * QUAD_SEGS)))
            hulls = [shapely.MultiPoint((setting.pieces[n][:, None] - query.offsets[None])
                                        .reshape(-1, 2)).convex_hull
                     for n in np.flatnonzero(near)]
            grown = shapely.buffer(np.asarray(hulls, dtype=object), np.asarray(grow),
                                   quad_segs=QUAD_SEGS, join_style="round")
            return shapely.union_all(grown) if len(grown) else Polygon()
        return RegionPart(cut=zones)

    def encode(self, ectx: EncodeContext) -> None:
        """Separating axes between the end Unit Boundary and each nearby obstacle piece."""
        spacing = float(self.params["spacing_in"])
        close = StartClose.of(ectx.scenario, ectx.unit.id)
        enc = ectx.enc
        grown = [r.buffer(_circumradius(o)) for r, o in
                 ectx.watched(zip(ectx.centre_regions, ectx.options, strict=True))]
        for piece, options in zip(ectx.obstacles, near_options(ectx, grown, spacing + 1e-6),
                                  strict=False):
            if not options:
                continue
            gap = close.sound(piece.label, spacing)  # A20: at least the checker's limit
            shared = shared_corner_axes(ectx, piece, gap)
            for o in options:
                own = own_rectangle_axes(ectx, o, piece, gap)
                enc.bool_or(shared + own, [enc.option_vars[o]])


def sound_groups(scenario: Any, unit_id: str, pieces: list[ConvexPiece],
                 spacing: float) -> list[tuple[float, list[ConvexPiece]]]:
    """The pieces grouped by their sound Unit Spacing limit (A20: at least the checker's, the
    start distance towards what the unit started close to), the normal limit first."""
    close = StartClose.of(scenario, unit_id)
    groups: dict[float, list[ConvexPiece]] = {}
    for piece in pieces:
        groups.setdefault(close.sound(piece.label, spacing), []).append(piece)
    return sorted(groups.items(), key=lambda g: (g[0] != spacing, g[0]))


def _circumradius(option: Option) -> float:
    return 0.5 * math.hypot(option.width_in, option.depth_in) + 1e-6


class PivotSpacing(_SpacingClause):
    judges = Judges.WAY

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
        gap, unit = self.params["spacing_in"], ectx.unit
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


class FrontSpacing(_SpacingClause):
    judges = Judges.WAY
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
                    "its front corner, 0.394\" from the Front Facing", _beside(),
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
        unit, spacing, all_pieces = setting.unit, float(self.params["spacing_in"]), setting.pieces
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
        spacing = float(self.params["spacing_in"])
        # A20: the pieces the unit started close to cut nothing (their limit is lower).
        grown = setting.grown_far(spacing - FLOAT_ROOM_IN, spacing)
        refused = refused_legs(option, setting.unit.width_in, setting.unit.depth_in, grown)
        return shapely.union(leg_bands(option, refused, query.base),
                             last_leg_cut(option, grown, query.base))

    def encode_ways(self, wctx: WayContext) -> None:
        """Every leg and wheel of the way clear of each obstacle piece the front can reach
        (constraints.t9a.ways_sweep)."""
        spacing = float(self.params["spacing_in"])
        close = StartClose.of(wctx.ectx.scenario, wctx.ectx.unit.id)
        for piece in wctx.ectx.obstacles:
            gap = close.sound(piece.label, spacing)  # A20: at least the checker's limit
            if wctx.may_come_near(piece, spacing):
                keep_clear(wctx.way, piece, gap)

    def encode(self, ectx: EncodeContext) -> None:
        """First leg and wheel: a <= a bound from exact geometry (constraints.clauses.
        sweep_bounds).  Last leg: separating axes between its parallelogram (vertices affine
        in the end centre) and each nearby obstacle piece."""
        spacing = float(self.params["spacing_in"])
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
        grown = [r.buffer(_circumradius(o)) for r, o in zip(ectx.centre_regions, ectx.options,
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
