"""The 1" rule (RULES §4.3, §4.9): a unit may not come within 1" of another unit, friend or
foe, or of impassable terrain while it moves (charges are not judged here).

- `UnitSpacing` (move, march): the whole unit, throughout its steps and at the end
  (`constraints.rank_and_file.sweeps.unit_sweep`, circumscribed: forward legs, wheels about a
  front corner, turns on the spot with each model's corners swinging round).
- `ReformSpacing` (reform): the unit's end footprint (decision, docs/rules.md §14: the models
  rearrange about the centre, and the text bounds only where the unit ends up).
Measured as the least distance; "within 1"" is inclusive, so exactly 1" breaks the rule.
Decision: the area a move covers includes where it starts, so a unit that starts within 1"
of another (after a charge, say) breaks the rule with any move.
"""

from __future__ import annotations

import math

import numpy as np
import shapely

from constraints.core.clause import Clause, Judges, Masker, RuleExample, Stage
from constraints.core.limits import more_than
from constraints.core.verdict import ClauseResult
from constraints.geometry.parts import Parts, least_distance
from constraints.rank_and_file.poses import MaskSetting
from constraints.sat.context import EncodeContext
from constraints.whfb7.context import WarhammerContext
from constraints.whfb7.examples import Json, field, fw, march, move, reform, tn, unit, wall, wh
from constraints.whfb7.mask_geometry import cell_states, minkowski_hull, segment_distance
from constraints.whfb7.mask_poses import (
    Verdicts,
    WayBatch,
    reform_masker,
    whfb7_setting,
)
from constraints.whfb7.way_rows import encode_way_spacing
from constraints.whfb7.ways import reform_failing


def clearance(parts: Parts,
              obstacles: list[tuple[str, shapely.Geometry]]) -> tuple[float, str, tuple]:
    """Least distance from any of the parts (never their union) to any obstacle, which one,
    and the closest points."""
    return least_distance(parts, obstacles)


class _Spacing(Clause):
    what = ""

    def check(self, ctx: WarhammerContext) -> ClauseResult:
        if not ctx.obstacles:
            return ClauseResult()  # nothing on the table to keep away from
        gap, label, witness = clearance(ctx.covered, ctx.obstacles)
        limit = self.number("spacing_in")
        message = f"{self.what} is {gap:.3f}\" from {label}, must be more than {limit:.3f}\""
        return self.result("clearance", gap, limit, more_than(gap, limit), message, witness)


def _ahead(gap: float, player: str = "red", rocks: bool = False) -> Json:
    """The default unit (front edge y = 11) and, `gap` beyond where a 4" move ends its front
    (y = 15), a friend (or an enemy, or rocks)."""
    edge = 15.0 + gap
    if rocks:
        return field(unit(), terrain=(wall("rocks", 30.0, edge, 42.0, edge + 2.0),))
    return field(unit(), unit("other", centre=(36.0, edge + 1.0), facing=270.0, player=player))


# A small friend whose left edge is 0.9" right of the unit's path (x = 38.5), from y = 12 to
# 14: more than 1" from the unit at the start and after an 8" march, within it on the way.
_BESIDE = field(unit(), unit("beside", models=2, files=1, centre=(39.9, 13.0), facing=90.0))


def _left_of(edge_x: float) -> Json:
    """The default unit and a small friend left of it, its right edge at `edge_x`, from y =
    10.5 to 12.5.  Wheeling 90 deg right about (38.5, 11), the rear-left corner (sqrt(29)" from
    it) passes x = 38.5 - sqrt(29) at y = 11; the front's own arc only reaches x = 33.5."""
    return field(unit(), unit("side", models=2, files=1, centre=(edge_x - 0.5, 11.5)))


class UnitSpacing(_Spacing):
    id = "whfb7.spacing"
    judges = Judges.WAY

    examples = (
        RuleExample('a unit may not end within 1" of another unit', _ahead(1.0),
                    move(fw(4.0)), True, ("clearance", 1.0)),
        RuleExample('more than 1" is fine', _ahead(1.001), move(fw(4.0)), False,
                    ("clearance", 1.001)),
        RuleExample("an enemy counts as a friend does", _ahead(0.5, player="blue"),
                    move(fw(4.0)), True, ("clearance", 0.5)),
        RuleExample("impassable terrain counts like a unit", _ahead(1.0, rocks=True),
                    move(fw(4.0)), True, ("clearance", 1.0)),
        RuleExample('nor pass within 1" of one on the way', _BESIDE, march(fw(8.0)), True,
                    ("clearance", 0.9)),
        RuleExample("the whole unit counts, not only its front: wheeling right, the rear-left "
                    "corner swings out past the front's arc", _left_of(32.3),
                    march(wh(-90.0)), True, ("clearance", 6.2 - math.sqrt(29.0))),
        RuleExample("a little further off it clears", _left_of(32.1), march(wh(-90.0)), False,
                    ("clearance", 6.4 - math.sqrt(29.0))),
        RuleExample("a turn on the spot swings the models' corners out (a friend 1.1\" to the "
                    "side is then within 1\")",
                    field(unit(), unit("side", models=2, files=1, centre=(40.1, 10.0))),
                    move(tn(180.0)), True),
        RuleExample("1.3\" to the side leaves room for the turn",
                    field(unit(), unit("side", models=2, files=1, centre=(40.3, 10.0))),
                    move(tn(180.0)), False),
    )
    what = "the unit, on its way or at the end,"

    def masker(self, setting: MaskSetting) -> Masker | None:
        """The start and prefix (the checker's own parts), leg 1 (the segment of centres
        against each piece's Minkowski difference with the rectangle), the wheel (cells of
        a, 1-Lipschitz) and leg 2 (as leg 1, with the wheeled rectangle), each more than the
        gap from every obstacle piece in reach; None with no obstacle at all."""
        obstacles = [("", shape) for _, shape in
                     setting.scenario.obstacles_for(setting.unit.id)]
        if not obstacles:
            return None
        geometry, gap = whfb7_setting(setting).ways(), self.number("spacing_in")
        prefixes: dict[tuple[float, float], float] = {}

        def judge(poses: WayBatch, ok: np.ndarray) -> np.ndarray:
            start, verdicts = poses.start, Verdicts(len(poses))
            if poses.prefix not in prefixes:
                prefixes[poses.prefix] = least_distance(start.parts, obstacles)[0]
            verdicts.more_than(np.full(len(poses), prefixes[poses.prefix]), gap)
            # The pieces in reach are those a way within the budget can meet: a longer
            # way is the distance clause's to refuse, or the checker's to judge.
            verdicts.undecided(poses.a + poses.b > geometry.budget)
            for j, piece in enumerate(start.pieces):
                verdicts.more_than(segment_distance(poses.origin[None, :], poses.leg_end,
                                                    start.leg_one[j]), gap)
                for k, rows in poses.by_way:
                    zone = minkowski_hull(piece.vertices, poses.end_offsets[k])
                    verdicts.more_than(segment_distance(poses.q[rows], poses.d[rows], zone),
                                       gap, rows)
                    if poses.delta[k]:
                        sweep = geometry.wheel_sweep(poses.prefix, float(poses.delta[k]), gap)
                        a = poses.a[rows]
                        verdicts.states(cell_states(sweep.cells(j), a), rows)
                        verdicts.undecided(a > sweep.a_most, rows)
            return poses.record(ok, verdicts)
        return Masker(self.id, Stage.SWEEP, judge)

    def encode(self, ectx: EncodeContext) -> None:
        """The whole way's area clear of every obstacle (constraints.whfb7.way_rows)."""
        encode_way_spacing(ectx, self.number("spacing_in"), self.id)


class ReformSpacing(_Spacing):
    id = "whfb7.reform.spacing"
    judges = Judges.END_POSE

    # A 10-wide, 1-deep line at (36, 20) reforming to 2 files x 5 ranks facing +x: its end
    # footprint runs y from 19 to 21 and x from 33.5 to 38.5.
    examples = (
        RuleExample("only the end footprint counts: a unit 0.5\" from the line's flank is 3\" "
                    "from the reformed unit", field(
                        unit(files=10, centre=(36.0, 20.0)),
                        unit("other", centre=(44.0, 20.0), player="blue")),
                    reform(2, 0.0), False, ("clearance", 3.0)),
        RuleExample("the reformed unit reaches 1\" of the unit behind the line", field(
            unit(files=10, centre=(36.0, 20.0)), unit("other", centre=(36.0, 23.0))),
            reform(2, 0.0), True, ("clearance", 1.0)),
        RuleExample('more than 1" away is fine', field(
            unit(files=10, centre=(36.0, 20.0)), unit("other", centre=(36.0, 23.01))),
            reform(2, 0.0), False, ("clearance", 1.01)),
    )
    what = "the reformed unit"

    def masker(self, setting: MaskSetting) -> Masker:
        """Each (files, facing) judged once by this check (exact)."""
        return reform_masker(self, setting)

    def encode(self, ectx: EncodeContext) -> None:
        """A reform option's pose is fixed (the centre kept): forbid those it refuses."""
        for index in reform_failing(self, ectx):
            ectx.enc.forbid(index, self.id)
