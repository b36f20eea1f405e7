"""Heading window of Snaking Forward Moves (seed 000; docs/rules.md §4.4, §8.3).

"The direction the unit is facing must stay within 90 degrees (in either direction) from the
direction the unit was facing after the Pivot" (Advance) / "before the March Move" (March).
Inclusive; each wheel turns one way only, so checking after every wheel is enough.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from constraints.core.clause import Clause, Judges, Masker, RuleExample, Stage
from constraints.core.limits import FLOAT_NOISE, within
from constraints.core.verdict import ClauseResult
from constraints.rank_and_file.family_limits import FamilyLimits
from constraints.rank_and_file.poses import MaskSetting, SnakingPoses
from constraints.sat.context import EncodeContext
from constraints.t9a.context import MoveContext
from constraints.t9a.examples import advance, field, march, unit, wh
from constraints.t9a.ways_sweep import WayContext

# Two models on 1" bases with Mobility 10: room for any pair of wheels.
_PAIR = field(unit(models=2, files=2, mobility=10.0, centre=(36.0, 20.0)))


class HeadingWindow(Clause):
    judges = Judges.WAY

    examples = (
        RuleExample("exactly 90 deg from the start heading is within", _PAIR,
                    march(wh(45.0), wh(45.0)), False, ("heading_change", 90.0)),
        RuleExample("a second wheel past 90 deg is not", _PAIR, march(wh(60.0), wh(40.0)),
                    True, ("heading_change", 100.0)),
        RuleExample("wheels the other way come back", _PAIR, march(wh(80.0), wh(-80.0)),
                    False, ("heading_change", 80.0)),
        RuleExample("either direction counts", _PAIR, march(wh(-50.0), wh(-41.0)), True,
                    ("heading_change", 91.0)),
        RuleExample("an Advance's window is measured from the heading after its Pivot", _PAIR,
                    advance(wh(80.0), pivot=90.0), False, ("heading_change", 80.0)),
        RuleExample("after the Pivot, the wheels may still turn 90 deg at most", _PAIR,
                    advance(wh(-60.0), wh(-40.0), pivot=-90.0), True,
                    ("heading_change", 100.0)),
    )

    def check(self, ctx: MoveContext) -> ClauseResult:
        turns = ctx.trajectory.headings_after_wheels()
        worst = max((abs(t) for t in turns), default=0.0)
        limit = self.number("window_deg")
        message = (f"heading turns {worst:.3f} deg from the reference heading during the "
                   f"Snaking Forward Moves, limit {limit:.3f} deg")
        return self.result("heading_change", worst, limit, within(worst, limit), message,
                           dimension="deg")

    def bound(self, unit: Any, limits: FamilyLimits) -> FamilyLimits:
        return limits.tightened(window_deg=self.number("window_deg"))

    def masker(self, setting: MaskSetting) -> Masker:
        """Each pose's one wheel within the window (per way)."""
        window = self.number("window_deg") + FLOAT_NOISE

        def judge(poses: SnakingPoses, ok: np.ndarray) -> np.ndarray:
            return ok & (np.abs(poses.ways.delta) <= window)[poses.inv]
        return Masker(self.id, Stage.WAY, judge)

    def encode_ways(self, wctx: WayContext) -> None:
        """Every stage's heading within the window of the first (the heading after the
        Pivot), in whole lattice steps."""
        way = wctx.way
        steps = int(math.floor(self.number("window_deg") / way.shape.step_deg + 1e-9))
        first = way.stages[0].value
        for stage in way.stages[1:]:
            way.model.add(stage.value - first <= steps)
            way.model.add(first - stage.value <= steps)

    def encode(self, ectx: EncodeContext) -> None:
        """Options have one wheel, so the window rules out options with a larger wheel."""
        limit = self.number("window_deg")
        for option in ectx.options:
            if not within(abs(option.wheel_deg), limit):
                ectx.enc.forbid(option.index, self.id)


# One class an id (docs/architecture.md): the rule is the same for both manoeuvres.
class AdvanceHeadingWindow(HeadingWindow):
    id = "t9a.advance.heading_window"


class MarchHeadingWindow(HeadingWindow):
    id = "t9a.march.heading_window"
