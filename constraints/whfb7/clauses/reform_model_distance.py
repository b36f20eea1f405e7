"""No model moves more than 2 x M in a reform (RULES §4.3-4.4): measured as the longest
straight move of a base centre from where it stood to its new slot, under the move's
assignment or the best one (`constraints.whfb7.reform.model_moves`)."""

from __future__ import annotations

import math

from constraints.core.clause import Clause, Judges, Masker, RuleExample
from constraints.core.limits import within
from constraints.core.verdict import ClauseResult
from constraints.rank_and_file.poses import MaskSetting
from constraints.sat.context import EncodeContext
from constraints.whfb7.context import WarhammerContext
from constraints.whfb7.examples import field, reform, unit
from constraints.whfb7.mask_poses import reform_masker
from constraints.whfb7.reform import model_moves
from constraints.whfb7.unit_io import model_ids
from constraints.whfb7.ways import reform_failing


def _line(movement: float) -> dict:
    """A line of ten 1" models at (36, 20): into a column, the end models move
    sqrt(4.5^2 + 0.5^2) = 4.53"."""
    return field(unit(files=10, centre=(36.0, 20.0), movement=movement))


_SWAP = {f"u.{i}": [0, i] for i in range(1, 4)} | {f"u.{i}": [1, i - 5] for i in range(5, 10)}


class ModelDistance(Clause):
    id = "whfb7.reform.model_distance"
    judges = Judges.END_POSE

    examples = (
        RuleExample("a line of ten into a column: the end models move 4.53\", within 2 x 2.3",
                    _line(2.3), reform(1, 90.0), False, ("model_move", math.sqrt(20.5))),
        RuleExample("but not within 2 x 2.25", _line(2.25), reform(1, 90.0), True,
                    ("model_move", math.sqrt(20.5))),
        RuleExample("an about-face: the command group steps through to the new front, 1\"",
                    field(unit(movement=0.5, command=["champion", "standard"])),
                    reform(5, 270.0), False, ("model_move", 1.0)),
        RuleExample("the mover's own assignment is measured: swapping the front rank's ends "
                    "moves them 4\"", field(unit(movement=1.9)),
                    reform(5, 90.0, assignment=_SWAP | {"u.0": [0, 4], "u.4": [0, 0]}),
                    True, ("model_move", 4.0)),
        RuleExample("and every model staying put moves none", field(unit(movement=1.9)),
                    reform(5, 90.0, assignment=_SWAP | {"u.0": [0, 0], "u.4": [0, 4]}),
                    False, ("model_move", 0.0)),
    )

    def check(self, ctx: WarhammerContext) -> ClauseResult:
        found = model_moves(ctx.unit, ctx.end_unit, ctx.move.assignment)
        limit = self.number("mob_factor") * ctx.mobility_in
        worst = model_ids(ctx.unit)[found.worst_model]
        message = f"model {worst} moves {found.bottleneck:.3f}\", limit {limit:.3f}\""
        sx, sy = ctx.unit.model_positions()[found.worst_model]
        ex, ey = ctx.end_unit.model_positions()[found.slots[found.worst_model]]
        return self.result("model_move", found.bottleneck, limit,
                           within(found.bottleneck, limit), message,
                           ((float(sx), float(sy)), (float(ex), float(ey))))

    def masker(self, setting: MaskSetting) -> Masker:
        """Each (files, facing) judged once by this check (exact)."""
        return reform_masker(self, setting)

    def encode(self, ectx: EncodeContext) -> None:
        """A reform option's pose is fixed (the centre kept): forbid those it refuses."""
        for index in reform_failing(self, ectx):
            ectx.enc.forbid(index, self.id)
