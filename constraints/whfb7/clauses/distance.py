"""Distance of a move (M) or a march (2 x M) (RULES §4.2, §4.5, §4.8; seed 003).

Forward steps cost their length; a wheel costs what its outside model moves, the outer
front corner's arc W x angle in radians (or its chord 2 W sin(angle / 2), when the profile's
`wheel_chord` option says so); a turn on the spot costs a quarter of M, "the same for a
quarter turn or a half turn" (seed 003).
"""

from __future__ import annotations

import math
from dataclasses import replace
from typing import Any

import numpy as np

from constraints.core.clause import Clause, Judges, Masker, RuleExample, Stage
from constraints.core.limits import within
from constraints.core.verdict import ClauseResult
from constraints.rank_and_file.family_limits import FamilyLimits
from constraints.rank_and_file.poses import MaskSetting
from constraints.rank_and_file.steps import StepKind
from constraints.sat.context import EncodeContext
from constraints.whfb7.context import WarhammerContext, costs_for
from constraints.whfb7.examples import field, fw, march, move, tn, unit, wh
from constraints.whfb7.mask_poses import Verdicts, WayBatch
from constraints.whfb7.ways import option_turn

_W100 = 100.0 / 25.4            # a 100 mm frontage: five 20 mm bases, in inches
_GOBLINS = unit(base=(20.0, 20.0))
_TWO_INCH_WHEEL = math.degrees(2.0 / _W100)  # the wheel whose outer corner moves 2"


class Distance(Clause):
    judges = Judges.WAY

    examples = (
        RuleExample('seed 003: an M4 unit that turns has 3" left', field(),
                    move(tn(90.0), fw(3.0)), False, ("distance", 4.0)),
        RuleExample('and not 3.01"', field(), move(tn(90.0), fw(3.01)), True,
                    ("distance", 4.01)),
        RuleExample("seed 003: a half turn costs the same as a quarter turn", field(),
                    move(tn(180.0), fw(3.0)), False, ("distance", 4.0)),
        RuleExample("two turns cost half the move", field(),
                    move(tn(90.0), tn(-90.0), fw(2.0)), False, ("distance", 4.0)),
        RuleExample('a 100 mm-wide unit wheeling 90 degrees spends about 6.18"',
                    field(_GOBLINS), march(wh(90.0)), False, ("distance", _W100 * math.pi / 2)),
        RuleExample("which an M4 move cannot pay", field(_GOBLINS), move(wh(-90.0)), True,
                    ("distance", _W100 * math.pi / 2)),
        RuleExample("the chord option charges the straight displacement",
                    field(_GOBLINS, wheel_chord=True), march(wh(90.0)), False,
                    ("distance", _W100 * math.sqrt(2.0))),
        RuleExample('RULES §4.2, Empire Spearmen: wheel 2" + forward 2" = 4"', field(_GOBLINS),
                    move(wh(_TWO_INCH_WHEEL), fw(2.0)), False, ("distance", 4.0)),
        RuleExample("and no more", field(_GOBLINS), move(wh(_TWO_INCH_WHEEL), fw(2.01)), True,
                    ("distance", 4.01)),
        RuleExample("a march goes twice M", field(), march(fw(8.0)), False, ("distance", 8.0)),
        RuleExample("but not a hundredth more", field(), march(fw(8.01)), True,
                    ("distance", 8.01)),
    )

    def check(self, ctx: WarhammerContext) -> ClauseResult:
        costs = costs_for(ctx.mobility_in, self.number("turn_mob"),
                          bool(self.params["wheel_chord"]))
        trajectory = ctx.trajectory_with(costs)
        used = trajectory.distance_in
        limit = self.number("mob_factor") * ctx.mobility_in
        spent = {kind: math.fsum(leg.cost_in for leg in trajectory.legs if leg.step.kind is kind)
                 for kind in (StepKind.WHEEL, StepKind.TURN)}
        message = (f"the move totals {used:.3f}\" (wheels {spent[StepKind.WHEEL]:.3f}\", turns "
                   f"{spent[StepKind.TURN]:.3f}\"), limit {limit:.3f}\"")
        witness = (trajectory.start.centre, trajectory.end.centre)
        return self.result("distance", used, limit, within(used, limit), message, witness)

    def bound(self, unit: Any, limits: FamilyLimits) -> FamilyLimits:
        """The budget (M or 2M), and what a wheel and a turn cost, for the move family."""
        return replace(limits.tightened(budget_in=self.limit_in(unit)),
                       wheel_chord=bool(self.params["wheel_chord"]),
                       turn_in=self.number("turn_mob") * unit.mobility_in)

    def masker(self, setting: MaskSetting) -> Masker:
        """a + the wheel's cost + b + the prefix's within the limit, per pose (exact but
        for a total within a float's noise of it, left to the checker)."""
        unit, limit = setting.unit, self.limit_in(setting.unit)
        costs = costs_for(unit.mobility_in, self.number("turn_mob"),
                          bool(self.params["wheel_chord"]))

        def cost(width_in: float, wheel_deg: float) -> float:
            return costs.wheel(width_in, wheel_deg) if wheel_deg else 0.0

        def judge(poses: WayBatch, ok: np.ndarray) -> np.ndarray:
            pre, spin = poses.prefix
            width = poses.start.unit.width_in
            wheels = np.array([cost(width, float(t)) for t in poses.delta])
            spent = cost(unit.width_in, pre) + (costs.turn_in if spin else 0.0)
            verdicts = Verdicts(len(poses))
            verdicts.within(poses.a + (wheels[poses.poses.ways.inverse] + spent) + poses.b,
                            limit)
            return poses.record(ok, verdicts)
        return Masker(self.id, Stage.LEGS, judge)

    def encode(self, ectx: EncodeContext) -> None:
        """a + b <= limit - the wheel's cost - the turn's, per option (a and b affine in the
        end centre); an option whose wheel and turn alone cost too much is forbidden."""
        enc, limit = ectx.enc, self.limit_in(ectx.unit)
        costs = costs_for(ectx.unit.mobility_in, self.number("turn_mob"),
                          bool(self.params["wheel_chord"]))
        for option, lit in zip(ectx.options, enc.option_vars, strict=True):
            spent = costs.wheel(option.width_in, option.wheel_deg) + \
                (costs.turn_in if option_turn(option) else 0.0)
            if limit - spent < 0:
                enc.forbid(option.index, self.id)
                continue
            a, b = option.a_map, option.b_map
            enc.affine_row((a[0] + b[0], a[1] + b[1], a[2] + b[2]), limit - spent, [lit])


# One class an id (docs/architecture.md): the rule is the same, its limit the profile's.
class MoveDistance(Distance):
    id = "whfb7.move.distance"


class MarchDistance(Distance):
    id = "whfb7.march.distance"
