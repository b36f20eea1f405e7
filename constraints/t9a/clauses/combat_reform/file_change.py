"""Files changed (variant A, profile `t9a-2025`).  RULES §2.12 (A) 3.1: "any viable formation
with |Δfiles| <= 2 (4 with a Musician)"; [T9A3 "Musician"]: a unit with a Musician "may change
files by 4 instead of the normal 2 in Reform Moves and Combat Reforms".

The limits are the profile's `max_file_change` and `max_file_change_musician`, as for a
Reform Move.  Measured: |files after - files before|.
"""

from __future__ import annotations

from constraints.core.verdict import ClauseResult
from constraints.t9a.clauses.combat_reform.base import CombatReformClause, ReformExample, Role
from constraints.t9a.clauses.combat_reform.context import ReformContext
from constraints.t9a.clauses.combat_reform.examples import foe, line, reform, scene

_PLAIN = scene(line(), foe(0.0), rules="t9a-2025")
_MUSICIAN = scene(line(musician=True), foe(0.0), rules="t9a-2025")


class FileChange(CombatReformClause):
    id = "combat_reform.file_change"
    role = Role.FILE_CHANGE
    examples = (
        ReformExample("5 to 7 files is a change of 2", _PLAIN, (reform(files=7),), False,
                      ("file_change", 2.0)),
        ReformExample("5 to 8 files is more than 2", _PLAIN, (reform(files=8),), True,
                      ("file_change", 3.0)),
        ReformExample("with a Musician, 4: 5 to 9 files", _MUSICIAN, (reform(files=9),), False,
                      ("file_change", 4.0)),
        ReformExample("with a Musician, 5 to 10 files is more than 4", _MUSICIAN,
                      (reform(files=10, y=10.5),), True, ("file_change", 5.0)),
    )

    def check(self, ctx: ReformContext) -> ClauseResult:
        name = "max_file_change_musician" if ctx.unit.musician else "max_file_change"
        limit = int(ctx.param(name))
        change = abs(ctx.reform.files - ctx.unit.files)
        return self.result("file_change", float(change), float(limit), change <= limit,
                           f"{ctx.unit_id} goes from {ctx.unit.files} to {ctx.reform.files} "
                           f"files, a change of more than {limit}", dimension="files")
