"""A turn's new front rank (RULES §4.4, seed 003): after a quarter or half turn "déplacez le
champion, le musicien et le porte-étendard pour qu'ils se trouvent dans le nouveau rang
avant" (move the champion, the musician and the standard bearer into the new front rank),
and every character joining the unit stands in the front rank too.  A turn whose new front
rank has fewer files than the unit has command models and characters cannot do that: the
rules refuse it.

Measured as the most command models and characters that one of the move's turns leaves
outside its new front rank, max(0, command + characters - new files); limit 0.
"""

from __future__ import annotations

from constraints.core.clause import Clause, Judges, Masker, RuleExample
from constraints.core.verdict import ClauseResult
from constraints.rank_and_file.poses import MaskSetting
from constraints.rank_and_file.steps import StepKind
from constraints.rank_and_file.turns import turned
from constraints.rank_and_file.unit import Unit
from constraints.sat.context import EncodeContext
from constraints.whfb7.context import WarhammerContext
from constraints.whfb7.examples import field, fw, move, tn, unit
from constraints.whfb7.mask_poses import turn_masker
from constraints.whfb7.reform import front_models
from constraints.whfb7.ways import option_turn

_COMMAND = ["champion", "standard", "musician"]
# 10 goblins in 5 files x 2 ranks: a quarter turn leaves a front rank of 2 files.
_TWO_DEEP = field(unit("goblins", command=_COMMAND))
# 20 goblins in 5 files x 4 ranks: a quarter turn leaves a front rank of 4 files.
_FOUR_DEEP = field(unit("goblins", models=20, command=_COMMAND))
_BOSS = field(unit("goblins", models=15, command=_COMMAND,
                   characters=[{"id": "boss", "slot": [0, 4]}]))


def left_behind(start: Unit, angles: list[float]) -> int:
    """The most front models (command group and characters) that one of these turns, made
    in order, leaves outside its new front rank."""
    need, worst, now = len(front_models(start)), 0, start
    for angle in angles:
        now = turned(now, angle)
        worst = max(worst, need - now.files)
    return worst


class TurnFrontRank(Clause):
    id = "whfb7.move.turn_front_rank"
    judges = Judges.WAY

    examples = (
        RuleExample("seed 003: champion, musician and standard move into the new front rank; "
                    "a quarter turn of 5 x 2 leaves a front of 2", _TWO_DEEP,
                    move(tn(90.0), uid="goblins"), True, ("out_of_front_rank", 1.0)),
        RuleExample("a front of 4 files holds the command group", _FOUR_DEEP,
                    move(tn(-90.0), fw(1.0), uid="goblins"), False, ("out_of_front_rank", 0.0)),
        RuleExample("a half turn keeps the files: the command group fits", _TWO_DEEP,
                    move(tn(180.0), uid="goblins"), False, ("out_of_front_rank", 0.0)),
        RuleExample("a character joining the unit needs a place in front too: 5 x 3 turned "
                    "has 3 files for 4", _BOSS, move(tn(90.0), uid="goblins"), True,
                    ("out_of_front_rank", 1.0)),
    )

    def check(self, ctx: WarhammerContext) -> ClauseResult:
        angles = [step.value for step in ctx.move.steps if step.kind is StepKind.TURN]
        behind = max(0, left_behind(ctx.unit, angles))
        need = len(front_models(ctx.unit))
        message = (f"a turn leaves {behind} of the {need} command models and characters "
                   f"outside the new front rank, limit 0")
        return self.result("out_of_front_rank", float(behind), 0.0, behind == 0, message,
                           dimension="models")

    def encode(self, ectx: EncodeContext) -> None:
        """An option's turn is fixed: forbid those whose new front rank is too narrow."""
        for option in ectx.options:
            angle = option_turn(option)
            if angle and left_behind(ectx.unit, [angle]) > 0:
                ectx.enc.forbid(option.index, self.id)

    def refuses_turn(self, unit: Unit, angle_deg: float) -> bool:
        return bool(angle_deg) and left_behind(unit, [angle_deg]) > 0

    def masker(self, setting: MaskSetting) -> Masker:
        """Every pose whose way begins with a refused turn, blocked (exact)."""
        return turn_masker(self, setting)
