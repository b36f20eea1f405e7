"""Reform centre travel (seed 000; docs/rules.md §5.2, §8.6).

"The centre of the unit can not travel further than half the unit's Mobility": the straight
distance between the Unit Boundary's centres before and after.  Light Troops use 2 x Mob.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from constraints.core.clause import Clause, Masker, RuleExample, Stage
from constraints.core.limits import within
from constraints.core.verdict import ClauseResult
from constraints.rank_and_file.family_limits import FamilyLimits
from constraints.rank_and_file.poses import MaskSetting, ReformPoses
from constraints.rank_and_file.unit import Unit
from constraints.sat.context import EncodeContext
from constraints.sat.lattice import inscribed_polygon
from constraints.t9a.context import MoveContext
from constraints.t9a.examples import field, reform, unit

_BLOCK = field(unit(models=20, files=5, centre=(36.0, 20.0)))
_LIGHT = field(unit(models=20, files=5, centre=(36.0, 20.0), light_troops=True))


class CentreTravel(Clause):
    id = "t9a.reform.centre_travel"
    monotone_in_shape = True  # it reads the centre alone

    examples = (
        RuleExample("up to half the Mobility: exactly 2\" at Mob 4", _BLOCK,
                    reform(centre=(36.0, 22.0)), False, ("centre_travel", 2.0)),
        RuleExample("a hundredth more is too far", _BLOCK, reform(centre=(36.0, 22.01)), True,
                    ("centre_travel", 2.01)),
        RuleExample("measured as the straight line between centres", _BLOCK,
                    reform(centre=(37.2, 21.6)), False, ("centre_travel", 2.0)),
        RuleExample("Light Troops may move the centre 2 x Mob", _LIGHT,
                    reform(centre=(36.0, 28.0)), False, ("centre_travel", 8.0)),
        RuleExample("but not more", _LIGHT, reform(centre=(36.0, 28.01)), True,
                    ("centre_travel", 8.01)),
    )

    def check(self, ctx: MoveContext) -> ClauseResult:
        start, end = ctx.unit.pose.centre, ctx.end_unit.pose.centre
        travel = math.dist(start, end)
        limit = self.limit_in(ctx.unit)
        message = f"the unit's centre travels {travel:.3f}\", limit {limit:.3f}\""
        return self.result("centre_travel", travel, limit, within(travel, limit), message,
                           (start, end))

    def limit_in(self, unit: Unit) -> float:
        factor = "light_troops_mob_factor" if unit.light_troops else "mob_factor"
        return self.number(factor) * unit.mobility_in

    def bound(self, unit: Any, limits: FamilyLimits) -> FamilyLimits:
        return limits.tightened(centre_reach_in=self.limit_in(unit))

    def masker(self, setting: MaskSetting) -> Masker:
        limit = self.limit_in(setting.unit)

        def judge(poses: ReformPoses, ok: np.ndarray) -> np.ndarray:
            return ok & (poses.travel <= limit + poses.tol)
        return Masker(self.id, Stage.LEGS, judge)

    def encode(self, ectx: EncodeContext) -> None:
        """The centre in a 128-gon inscribed in the travel disc (gives up 0.03% of it)."""
        for hp in inscribed_polygon(self.limit_in(ectx.unit), 128):
            ectx.enc.centre_row(hp.normal, hp.rhs)
