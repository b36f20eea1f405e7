"""Snaking Forward distance of an Advance (<= Mob) or a March (<= 2 x Mob).

Seed 000: "any number of Snaking Forward Moves, with a distance no more than equal to its
Mobility" (Advance), "a total distance no more than equal to twice its Mobility" (March).
docs/rules.md §4.3: forward steps cost their length; a wheel costs how far the outer front
corner advances along the unit's forward direction, frontage x sin(angle).
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from constraints.core.clause import Clause, Judges, Masker, RuleExample, Stage
from constraints.core.limits import within
from constraints.core.verdict import ClauseResult
from constraints.rank_and_file.family_limits import FamilyLimits
from constraints.rank_and_file.poses import MaskSetting, SnakingPoses
from constraints.sat.context import EncodeContext
from constraints.t9a.context import MoveContext
from constraints.t9a.examples import advance, field, fw, march, unit, wh
from constraints.t9a.moves import StepKind
from constraints.t9a.ways_model import LEG_IN
from constraints.t9a.ways_sweep import WayContext


class SnakingDistance(Clause):
    judges = Judges.WAY

    examples = (
        RuleExample("forward steps cost the distance moved", field(),
                    march(fw(2.0), fw(3.5)), False, ("distance", 5.5)),
        RuleExample("a 90 deg wheel costs exactly the frontage", field(), march(wh(90.0)),
                    False, ("distance", 5.0)),
        RuleExample("a wheel costs frontage x sin(angle), not the arc", field(),
                    march(wh(30.0)), False, ("distance", 2.5)),
        RuleExample("right wheels cost the same as left wheels", field(), march(wh(-30.0)),
                    False, ("distance", 2.5)),
        RuleExample("forward, wheel, forward adds up", field(),
                    march(fw(1.0), wh(30.0), fw(1.0)), False, ("distance", 4.5)),
        RuleExample("a zero step costs nothing", field(), march(fw(0.0), wh(0.0)), False,
                    ("distance", 0.0)),
        RuleExample("a March goes exactly twice its Mobility", field(), march(fw(8.0)), False,
                    ("distance", 8.0)),
        RuleExample("but not a hundredth more", field(), march(fw(8.01)), True,
                    ("distance", 8.01)),
        RuleExample("an Advance goes its Mobility", field(), advance(fw(4.0)), False,
                    ("distance", 4.0)),
        RuleExample("and no more", field(), advance(fw(4.01)), True, ("distance", 4.01)),
        RuleExample('"The example Wheel moved 4 inches": a 4" front wheeling 90 deg',
                    field(unit(models=8, files=4, mobility=2.0)), march(wh(90.0), fw(0.01)),
                    True, ("distance", 4.01)),
    )

    def check(self, ctx: MoveContext) -> ClauseResult:
        trajectory = ctx.trajectory
        used = trajectory.distance_in
        limit = self.number("mob_factor") * ctx.mobility_in
        wheels = sum(leg.cost_in for leg in trajectory.legs if leg.step.kind == StepKind.WHEEL)
        message = (f"Snaking Forward Moves total {used:.3f}\" (wheels {wheels:.3f}\"), "
                   f"limit {limit:.3f}\"")
        witness = (trajectory.start.centre, trajectory.end.centre)
        return self.result("distance", used, limit, within(used, limit), message, witness)

    def bound(self, unit: Any, limits: FamilyLimits) -> FamilyLimits:
        return limits.tightened(budget_in=self.limit_in(unit))

    def masker(self, setting: MaskSetting) -> Masker:
        """a + wheel cost + b within the limit, per pose."""
        unit, limit = setting.unit, self.limit_in(setting.unit)

        def judge(poses: SnakingPoses, ok: np.ndarray) -> np.ndarray:
            cost = poses.a + poses.b
            cost += unit.width_in * np.abs(np.sin(np.radians(poses.ways.delta)))[poses.inv]
            return ok & (cost <= limit + poses.tol)
        return Masker(self.id, Stage.LEGS, judge)

    def encode_ways(self, wctx: WayContext) -> None:
        """Legs and wheel costs (each rounded up) within the limit, in whole LEG_IN."""
        way = wctx.way
        limit = math.floor(self.limit_in(wctx.ectx.unit) / LEG_IN + 1e-9)
        way.model.add(sum(way.leg_totals) + sum(way.costs) <= limit)

    def encode(self, ectx: EncodeContext) -> None:
        """a + wheel cost + b <= limit, with a and b affine in the end centre per option."""
        enc, limit = ectx.enc, self.limit_in(ectx.unit)
        for option, lit in zip(ectx.options, enc.option_vars, strict=True):
            spare = limit - option.wheel_cost_in
            if spare < 0:
                enc.forbid(option.index, self.id)
                continue
            a, b = option.a_map, option.b_map
            enc.affine_row((a[0] + b[0], a[1] + b[1], a[2] + b[2]), spare, [lit])


# One class an id (docs/architecture.md): the rule is the same, its limit the profile's.
class AdvanceDistance(SnakingDistance):
    id = "t9a.advance.distance"


class MarchDistance(SnakingDistance):
    id = "t9a.march.distance"
