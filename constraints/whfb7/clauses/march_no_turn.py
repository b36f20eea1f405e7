"""No turn in a march (RULES §4.5, §4.8): a march moves forward, with wheels allowed; turning
on the spot is for a normal move.  Written as a violation, not bad input: the move file is
well formed, the rules refuse it.  Measured as the number of turns."""

from __future__ import annotations

from constraints.core.clause import Clause, Judges, Masker, RuleExample
from constraints.core.verdict import ClauseResult
from constraints.rank_and_file.poses import MaskSetting
from constraints.rank_and_file.steps import StepKind
from constraints.rank_and_file.unit import Unit
from constraints.sat.context import EncodeContext
from constraints.whfb7.context import WarhammerContext
from constraints.whfb7.examples import field, fw, march, tn, wh
from constraints.whfb7.mask_poses import turn_masker
from constraints.whfb7.ways import option_turn


class NoTurnInMarch(Clause):
    id = "whfb7.march.no_turn"
    judges = Judges.WAY

    examples = (
        RuleExample("a march may not turn", field(), march(tn(90.0), fw(1.0)), True,
                    ("turns", 1.0)),
        RuleExample("not even a half turn at the end", field(), march(fw(2.0), tn(180.0)),
                    True, ("turns", 1.0)),
        RuleExample("a march goes forward and wheels", field(), march(fw(2.0), wh(30.0)),
                    False, ("turns", 0.0)),
    )

    def check(self, ctx: WarhammerContext) -> ClauseResult:
        turns = [i for i, step in enumerate(ctx.move.steps) if step.kind is StepKind.TURN]
        message = (f"a march may not turn on the spot: {len(turns)} turn(s) "
                   f"(steps {', '.join(str(i) for i in turns)}), limit 0")
        return self.result("turns", float(len(turns)), 0.0, not turns, message,
                           dimension="turns")

    def refuses_turn(self, unit: Unit, angle_deg: float) -> bool:
        return bool(angle_deg)

    def masker(self, setting: MaskSetting) -> Masker:
        """Every pose whose way begins with a refused turn, blocked (exact)."""
        return turn_masker(self, setting)

    def encode(self, ectx: EncodeContext) -> None:
        """An option that turns on the spot is forbidden (a march's options never do)."""
        for option in ectx.options:
            if option_turn(option):
                ectx.enc.forbid(option.index, self.id)
