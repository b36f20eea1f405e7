"""Reform file change (seed 000; RULES.md 2.5.4.2, A1).

"The formation of the unit may change only as long as the number of Files has not changed
by more than 3" (profile `t9a`); 2, or 4 with a Musician, in the June 2025 rulebook
(profile `t9a-2025`).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from constraints.core.clause import Clause, Masker, Stage
from constraints.core.verdict import ClauseResult
from constraints.rank_and_file.family_limits import FamilyLimits
from constraints.rank_and_file.poses import MaskSetting, ReformPoses
from constraints.rank_and_file.unit import Unit
from constraints.sat.context import EncodeContext
from constraints.t9a.context import MoveContext


class FileChange(Clause):

    def check(self, ctx: MoveContext) -> ClauseResult:
        change = abs(ctx.end_unit.files - ctx.unit.files)
        limit = self.limit_for(ctx.unit)
        message = (f"files change from {ctx.unit.files} to {ctx.end_unit.files} "
                   f"({change}), limit {limit}")
        return self.result("file_change", change, limit, change <= limit, message,
                           dimension="files")

    def limit_for(self, unit: Unit) -> int:
        return int(self.params["musician_limit" if unit.musician else "limit"])

    def bound(self, unit: Any, limits: FamilyLimits) -> FamilyLimits:
        return limits.tightened(file_change=self.limit_for(unit))

    def masker(self, setting: MaskSetting) -> Masker:
        start, limit = setting.unit.files, self.limit_for(setting.unit)

        def judge(poses: ReformPoses, ok: np.ndarray) -> np.ndarray:
            return ok & (np.abs(poses.files - start) <= limit)
        return Masker(self.id, Stage.WAY, judge)

    def encode(self, ectx: EncodeContext) -> None:
        limit = self.limit_for(ectx.unit)
        for option in ectx.options:
            if abs(option.files - ectx.unit.files) > limit:
                ectx.enc.forbid(option.index, self.id)
