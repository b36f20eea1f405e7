"""Pivot model distance (docs/rules.md §4.1, §8.4).

"No model may move more than 2xMob, measured as the straight line between its base centre
before and after."  Models may be reordered keeping the number of files, so the measure is
the bottleneck of the best assignment of models to the pivoted slots: a rigid rotation can
fail where a reordering passes.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import ClassVar

import numpy as np

from constraints.core.clause import Clause, Judges, Masker, RuleExample, Stage
from constraints.core.limits import FLOAT_NOISE, within
from constraints.core.scenario import Pose
from constraints.core.verdict import ClauseResult
from constraints.geometry.assignment import perfect_matching
from constraints.rank_and_file.poses import MaskSetting, SnakingPoses
from constraints.rank_and_file.unit import Unit
from constraints.sat.context import EncodeContext
from constraints.t9a.clauses.movement.model_moves import allowed_pairs, assign, straight_costs
from constraints.t9a.context import MoveContext
from constraints.t9a.examples import advance, field, unit
from constraints.t9a.ways_sweep import WayContext


class PivotModelDistance(Clause):
    id = "t9a.pivot.model_distance"
    judges = Judges.WAY

    examples: ClassVar[tuple[RuleExample, ...]] = (
        RuleExample("a Pivot in place moves nobody", field(), advance(), False,
                    ("pivot_model_move", 0.0)),
        RuleExample("a quarter turn of a square block is short",
                    field(unit(models=25, files=5)), advance(pivot=90.0), False),
        RuleExample("a long line turning 90 deg swings its ends far",
                    field(unit(models=20, files=20, centre=(36.0, 20.0), mobility=2.0)),
                    advance(pivot=90.0), True),
        RuleExample("no angle limit: an about-face is a Pivot, and each model may take the "
                    "slot that lands on its own place", field(unit(mobility=1.0)),
                    advance(pivot=180.0), False, ("pivot_model_move", 0.0)),
        RuleExample("a rigid about-face would move a line's end models 9\"; reordered, none",
                    field(unit(models=10, files=10, mobility=2.0)), advance(pivot=180.0),
                    False, ("pivot_model_move", 0.0)),
    )

    def check(self, ctx: MoveContext) -> ClauseResult:
        end = ctx.pivoted_unit
        cost = straight_costs(ctx.unit, end)
        found = assign(ctx, end, cost)
        limit = self.number("mob_factor") * ctx.mobility_in
        start_pts, end_pts = ctx.unit.model_positions(), end.model_positions()
        worst = found.worst_model
        model = ctx.unit.model_ids()[worst]
        witness = (tuple(start_pts[worst]), tuple(end_pts[found.slots[worst]]))
        message = (f"in the Pivot model {model} moves {found.bottleneck:.3f}\" under the best "
                   f"reordering, limit {limit:.3f}\"")
        return self.result("pivot_model_move", found.bottleneck, limit,
                           within(found.bottleneck, limit), message, witness)

    def masker(self, setting: MaskSetting) -> Masker:
        limit = self.limit_in(setting.unit)
        return pivot_masker(self.id, lambda angle: pivot_passes(setting.unit, angle, limit))

    def encode(self, ectx: EncodeContext) -> None:
        """The Pivot's model moves are fixed per angle: rule out the angles that fail."""
        limit = self.limit_in(ectx.unit)
        verdicts: dict[float, bool] = {}
        for option in ectx.options:
            angle = option.pivot_deg
            if angle not in verdicts:
                verdicts[angle] = pivot_passes(ectx.unit, angle, limit)
            if not verdicts[angle]:
                ectx.enc.forbid(option.index, self.id)

    def encode_ways(self, wctx: WayContext) -> None:
        """The same, over the model's Pivot headings."""
        limit, way = self.limit_in(wctx.ectx.unit), wctx.way
        for p in way.shape.pivots:
            if not pivot_passes(wctx.ectx.unit, p * way.shape.step_deg, limit):
                way.forbid_pivot(p)


def pivot_passes(unit: Unit, angle_deg: float, limit: float) -> bool:
    """Whether every model moves at most `limit` in a Pivot by `angle_deg`, best reordering
    (the check's verdict, decided without measuring the bottleneck).

    Without reordering each model moves 2 r sin(angle / 2) for its distance r from the
    centre; when that already passes, no assignment is needed.  Otherwise it passes exactly
    when the pairs (model, slot) within the limit hold a perfect matching: one matching test,
    after the quick refusal of a model or slot with no partner that near.
    """
    start = unit.model_positions()
    reach = float(np.max(np.hypot(*(start - unit.pose.centre).T)))
    if within(2 * reach * abs(math.sin(math.radians(angle_deg) / 2)), limit):
        return True
    end = unit.with_pose(Pose(unit.pose.centre, unit.pose.facing_deg + angle_deg))
    near = allowed_pairs(unit, end) & (straight_costs(unit, end) <= limit + FLOAT_NOISE)
    return perfect_matching(near) is not None


def pivot_masker(clause_id: str, passes: Callable[[float], bool]) -> Masker:
    """A Pivot clause's mask: it depends on the Pivot angle alone, so each distinct angle of a
    batch is judged once (`passes`, remembered)."""
    verdicts: dict[float, bool] = {}

    def remembered(pivot: float) -> bool:
        if pivot not in verdicts:
            verdicts[pivot] = passes(pivot)
        return verdicts[pivot]

    def judge(poses: SnakingPoses, ok: np.ndarray) -> np.ndarray:
        values, inverse = np.unique(poses.ways.pivot, return_inverse=True)
        per_way = np.array([remembered(float(p)) for p in values], dtype=bool)[inverse]
        return ok & per_way[poses.inv]
    return Masker(clause_id, Stage.WAY, judge)
