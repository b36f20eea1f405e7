"""Reorder at the end of an Advance or March (seed 000).

"Models may be repositioned within the unit, as long as the number of files does not change."
Measured as the change in files asked for by the move's `files`.
"""

from __future__ import annotations

from constraints.core.clause import Clause, Judges, Masker, RuleExample
from constraints.core.verdict import ClauseResult
from constraints.rank_and_file.poses import MaskSetting
from constraints.sat.context import EncodeContext
from constraints.t9a.context import MoveContext
from constraints.t9a.examples import field, fw, march


class ReorderFiles(Clause):
    id = "t9a.reorder.files"
    judges = Judges.END_POSE  # the files a way ends in

    examples = (
        RuleExample("a Reorder keeps the files", field(), march(fw(1.0), files=5), False,
                    ("reorder_file_change", 0.0)),
        RuleExample("it may not change them", field(), march(fw(1.0), files=4), True,
                    ("reorder_file_change", 1.0)),
    )

    def check(self, ctx: MoveContext) -> ClauseResult:
        wanted = ctx.move.files
        change = 0 if wanted is None else abs(wanted - ctx.unit.files)
        message = (f"a Reorder keeps the number of files ({ctx.unit.files}); the move asks "
                   f"for {wanted}")
        return self.result("reorder_file_change", change, 0, change == 0, message,
                           dimension="files")

    def masker(self, setting: MaskSetting) -> Masker | None:
        """Batched Advance and March poses keep the unit's files: nothing to refuse."""
        return None

    def encode(self, ectx: EncodeContext) -> None:
        """Snaking options keep the unit's files, so there is nothing to post."""
        for option in ectx.options:
            if option.files != ectx.unit.files:
                ectx.enc.forbid(option.index, self.id)
