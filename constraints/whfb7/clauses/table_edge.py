"""The table edge (RULES §4.9 with the 1" rule; docs/rules.md §14): the whole unit stays on
the battlefield throughout a move or march (the area it covers, `unit_sweep`), and a reform
ends on it.  Measured as the overhang past the edge (0 when on the table); touching the edge
is on the table."""

from __future__ import annotations

import math

import numpy as np

from constraints.core.clause import Clause, Judges, Masker, RuleExample, Stage
from constraints.core.limits import within
from constraints.core.scenario import Battlefield
from constraints.core.verdict import ClauseResult
from constraints.geometry.parts import Parts, reach_past
from constraints.rank_and_file.poses import MaskSetting
from constraints.sat.context import EncodeContext
from constraints.whfb7.context import WarhammerContext
from constraints.whfb7.examples import field, fw, march, move, reform, tn, unit, wh
from constraints.whfb7.mask_geometry import overhang as bounds_overhang
from constraints.whfb7.mask_geometry import rect_overhang
from constraints.whfb7.mask_poses import (
    Verdicts,
    WayBatch,
    reform_masker,
    whfb7_setting,
)
from constraints.whfb7.way_rows import encode_way_table
from constraints.whfb7.ways import reform_failing


def overhang(parts: Parts, table: Battlefield) -> float:
    """How far any of the parts (never their union) reaches past the battlefield's edges
    (0 when on the table)."""
    return reach_past(parts, table.width_in, table.depth_in)


class _TableEdge(Clause):
    what = ""

    def check(self, ctx: WarhammerContext) -> ClauseResult:
        over = overhang(ctx.covered, ctx.scenario.battlefield)
        message = f"{self.what} reaches {over:.3f}\" past the table edge, limit 0\""
        return self.result("overhang", over, 0.0, within(over, 0.0), message)


class TableEdge(_TableEdge):
    id = "whfb7.table_edge"
    judges = Judges.WAY

    examples = (
        RuleExample("touching the far edge is on the table", field(depth=19.0),
                    march(fw(8.0)), False, ("overhang", 0.0)),
        RuleExample("a hair past it is not", field(depth=18.99), march(fw(8.0)), True,
                    ("overhang", 0.01)),
        RuleExample("the whole unit stays on the table on its way: wheeling right, the "
                    "rear-left corner swings past the left edge",
                    field(unit(centre=(2.6, 10.0))), march(wh(-90.0)), True,
                    ("overhang", math.sqrt(29.0) - 5.1)),
        RuleExample("the same wheel from further in stays on",
                    field(unit(centre=(2.9, 10.0))), march(wh(-90.0)), False,
                    ("overhang", 0.0)),
        RuleExample("a unit against the rear edge cannot turn: its models' corners swing "
                    "past it", field(unit(centre=(36.0, 1.0))), move(tn(180.0)), True),
        RuleExample("0.3\" from it, they clear it", field(unit(centre=(36.0, 1.3))),
                    move(tn(180.0)), False, ("overhang", 0.0)),
    )
    what = "the unit, on its way or at the end,"

    def masker(self, setting: MaskSetting) -> Masker:
        """The overhang of the start and prefix (the checker's own parts' bounds), of leg 1
        (its rectangles' bounds), the wheel's area (its bounds slid by a f) and leg 2 and
        the end (the wheeled rectangle's), within 0 (exact but within a float's noise)."""
        geometry, table = whfb7_setting(setting).ways(), setting.scenario.battlefield
        prefixes: dict[tuple[float, float], float] = {}

        def judge(poses: WayBatch, ok: np.ndarray) -> np.ndarray:
            start, verdicts = poses.start, Verdicts(len(poses))
            if poses.prefix not in prefixes:
                prefixes[poses.prefix] = bounds_overhang(start.bounds, table)
            verdicts.within(np.full(len(poses), prefixes[poses.prefix]), 0.0)
            over = rect_overhang(np.asarray(start.unit.corners()), poses.origin,
                                 poses.leg_end, table)
            for k, rows in poses.by_way:
                offsets = poses.end_offsets[k]
                for centres in (poses.q[rows], poses.d[rows]):
                    over[rows] = np.maximum(over[rows], rect_overhang(
                        offsets, np.zeros(2), centres, table))
                if poses.delta[k]:
                    sweep = geometry.wheel_sweep(poses.prefix, float(poses.delta[k]))
                    over[rows] = np.maximum(over[rows], sweep.overhang(poses.a[rows], table))
            verdicts.within(over, 0.0)
            return poses.record(ok, verdicts)
        return Masker(self.id, Stage.END, judge)

    def encode(self, ectx: EncodeContext) -> None:
        """The whole way's area on the table (constraints.whfb7.way_rows)."""
        encode_way_table(ectx, self.id)


class ReformTableEdge(_TableEdge):
    id = "whfb7.reform.table_edge"
    judges = Judges.END_POSE

    examples = (
        RuleExample("a reform must end on the table",
                    field(unit(files=10, centre=(36.0, 0.5))), reform(2, 0.0), True,
                    ("overhang", 0.5)),
        RuleExample("a reform that keeps the unit's footprint stays on it",
                    field(unit(files=10, centre=(36.0, 0.5))), reform(10, 270.0), False,
                    ("overhang", 0.0)),
    )
    what = "the reformed unit"

    def masker(self, setting: MaskSetting) -> Masker:
        """Each (files, facing) judged once by this check (exact)."""
        return reform_masker(self, setting)

    def encode(self, ectx: EncodeContext) -> None:
        """A reform option's pose is fixed (the centre kept): forbid those it refuses."""
        for index in reform_failing(self, ectx):
            ectx.enc.forbid(index, self.id)
