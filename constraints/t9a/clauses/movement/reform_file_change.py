"""Reform file change (seed 000; docs/rules.md §5.3, §7, §8.1).

"The formation of the unit may change only as long as the number of Files has not changed
by more than 3" (profile `t9a`); 2, or 4 with a Musician, in the June 2025 rulebook
(profile `t9a-2025`).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from constraints.core.clause import Clause, Masker, RuleExample, Stage
from constraints.core.verdict import ClauseResult
from constraints.rank_and_file.family_limits import FamilyLimits
from constraints.rank_and_file.poses import MaskSetting, ReformPoses
from constraints.rank_and_file.unit import Unit
from constraints.sat.context import EncodeContext
from constraints.t9a.context import MoveContext
from constraints.t9a.examples import field, reform, unit


def _block(rules: str = "t9a", musician: bool = False) -> dict:
    return field(unit(models=20, files=5, centre=(36.0, 20.0), mobility=12.0,
                      musician=musician), rules=rules)


class FileChange(Clause):
    id = "t9a.reform.file_change"

    examples = (
        RuleExample("seed 000: files may change by 3", _block(), reform(files=8), False,
                    ("file_change", 3.0)),
        RuleExample("seed 000: but not by 4", _block(), reform(files=9), True,
                    ("file_change", 4.0)),
        RuleExample("seed 000: narrower by 3", _block(), reform(files=2), False),
        RuleExample("2025 rulebook: only by 2", _block("t9a-2025"), reform(files=8), True),
        RuleExample("2025 rulebook: by 2 is fine", _block("t9a-2025"), reform(files=7), False),
        RuleExample("2025 rulebook: a Musician allows 4", _block("t9a-2025", True),
                    reform(files=9), False),
        RuleExample("2025 rulebook: but not 5 even with a Musician", _block("t9a-2025", True),
                    reform(files=10), True),
        RuleExample("a scenario's rule options override the limit",
                    field(unit(models=20, files=5, centre=(36.0, 20.0), mobility=12.0),
                          max_file_change=1), reform(files=7), True),
    )

    def check(self, ctx: MoveContext) -> ClauseResult:
        change = abs(ctx.end_unit.files - ctx.unit.files)
        limit = self.limit_for(ctx.unit)
        message = (f"files change from {ctx.unit.files} to {ctx.end_unit.files} "
                   f"({change}), limit {limit}")
        return self.result("file_change", change, limit, change <= limit, message,
                           dimension="files")

    def limit_for(self, unit: Unit) -> int:
        return self.whole("musician_limit" if unit.musician else "limit")

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
