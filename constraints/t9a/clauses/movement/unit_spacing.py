"""Unit Spacing (docs/rules.md §3.1-3.3) at three moments of a move, one clause a module:

- `unit_spacing` (here): at the end the Unit Boundary is more than 1" from other units and
  Impassable Terrain.
- `pivot_spacing` (`pivot_unit_spacing.py`): after an Advance's Pivot, more than 0.5" (partway
  through a move).
- `front_spacing` (`snaking_front_spacing.py`): while snaking only the Front Facing counts: the area
  it sweeps stays more than 0.5" away (so it never touches).
All comparisons are strict: exactly at the limit is illegal.  The shared check (the shape
kept clear, the clearance, units that start closer) is `SpacingClause`'s.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import shapely
from shapely.geometry import Polygon

from constraints.core.clause import Clause, Judges, Masker, RegionPart, RuleExample, Stage
from constraints.core.limits import more_than
from constraints.core.verdict import ClauseResult
from constraints.geometry.batch import clear_of
from constraints.geometry.convex import ConvexPiece
from constraints.geometry.parts import Parts, least_distance
from constraints.rank_and_file.poses import EndRectangles, MaskSetting
from constraints.rank_and_file.regions import RegionQuery
from constraints.rank_and_file.start_close import StartClose, nearest_limit
from constraints.sat.context import EncodeContext
from constraints.sat.option import Option
from constraints.sat.separation import (
    near_options,
    own_rectangle_axes,
    shared_corner_axes,
)
from constraints.t9a.context import MoveContext
from constraints.t9a.examples import field, fw, march, reform, unit, wall

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


class SpacingClause(Clause):
    measurement = ""
    what = ""

    def shape(self, ctx: MoveContext) -> shapely.Geometry | Parts:
        raise NotImplementedError

    def applies(self, ctx: MoveContext) -> bool:
        return True

    def check(self, ctx: MoveContext) -> ClauseResult:
        if not self.applies(ctx):
            return self.result(self.measurement, float("inf"), 0.0, True, "")
        spacing = self.number("spacing_in")
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


def beside() -> dict:
    """The default unit (x 33.5-38.5, y 9-11) touching the flank of a friend one rank deep
    (x 38.5-43.5, y 9.606-10.606): its front corner 0.394\" behind the unit's Front."""
    return field(unit(), unit("f", models=5, files=5, centre=(41.0, 10.106)))


class UnitSpacing(SpacingClause):
    id = "t9a.unit_spacing"
    monotone_in_shape = True  # a shape inside a rectangle clear of everything is clear too
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
        RuleExample("a unit touching a friend may end touching it", beside(),
                    reform(centre=(36.0, 9.5)), False, ("clearance", 0.0)),
    )
    measurement = "clearance"
    what = "the end position"

    def shape(self, ctx: MoveContext) -> shapely.Geometry:
        return ctx.end_unit.boundary()

    def masker(self, setting: MaskSetting) -> Masker:
        groups = sound_groups(setting.scenario, setting.unit.id, setting.pieces,
                              self.number("spacing_in"))

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
        setting, gap = query.setting, self.number("spacing_in")
        if not setting.shapes:
            return None
        limits = setting.limits(gap)  # A20: each piece's own, relaxed or sound

        def zones() -> shapely.Geometry:
            reach = np.hypot(*query.offsets.T).max() + gap + 0.1
            near = np.flatnonzero(shapely.distance(setting.shapes, query.base) <= reach)
            # The same end rectangle among the same pieces, the same zones: made once per
            # search (an Advance's options share a few hundred end facings).
            key = (self.id, gap, query.offsets.tobytes(), tuple(int(n) for n in near))
            return setting.remembered(key, lambda: grown_zones(near))

        def grown_zones(near: np.ndarray) -> shapely.Geometry:
            grow = []
            for n in near:
                if setting.outer:
                    # Round corners whose vertices lie on the true offset, a hair short: every
                    # chord inside it (bevelled corners were, and cut up to 0.29 x the gap
                    # short at a square corner: relaxed bounds 0.02" loose among rectangles).
                    grow.append(limits[n] - FLOAT_ROOM_IN)
                else:
                    grow.append((limits[n] + 1e-6) / math.cos(3 * math.pi / (8 * QUAD_SEGS)))
            hulls = [shapely.MultiPoint((setting.pieces[n][:, None] - query.offsets[None])
                                        .reshape(-1, 2)).convex_hull
                     for n in near]
            grown = shapely.buffer(np.asarray(hulls, dtype=object), np.asarray(grow),
                                   quad_segs=QUAD_SEGS, join_style="round")
            return shapely.union_all(grown) if len(grown) else Polygon()
        return RegionPart(cut=zones)

    def encode(self, ectx: EncodeContext) -> None:
        """Separating axes between the end Unit Boundary and each nearby obstacle piece."""
        spacing = self.number("spacing_in")
        close = StartClose.of(ectx.scenario, ectx.unit.id)
        enc = ectx.enc
        grown = [r.buffer(circumradius(o)) for r, o in
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


def circumradius(option: Option) -> float:
    return 0.5 * math.hypot(option.width_in, option.depth_in) + 1e-6
