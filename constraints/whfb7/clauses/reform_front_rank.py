"""A reform's front rank (RULES §4.4, seed 003): "the standard bearer, the musician and the
champion (and any character joining the unit) must be in the front rank".  The reformed unit
takes the default layout (all ranks equal but the last, its centre kept: by construction),
so the clause asks whether its front rank holds them all.

Measured as the number of command models and characters outside the new front rank: with
an assignment, those it places behind; without one, how many the front rank (`files` wide)
cannot hold, max(0, command + characters - files).
"""

from __future__ import annotations

from constraints.core.clause import Clause, Judges, Masker, RuleExample
from constraints.core.verdict import ClauseResult
from constraints.rank_and_file.poses import MaskSetting
from constraints.sat.context import EncodeContext
from constraints.whfb7.context import WarhammerContext
from constraints.whfb7.examples import field, reform, unit
from constraints.whfb7.mask_poses import reform_masker
from constraints.whfb7.reform import chosen_slots, front_models
from constraints.whfb7.ways import reform_failing

_COMMAND = ["champion", "standard", "musician"]
_GOBLINS = field(unit("goblins", models=20, files=5, centre=(36.0, 20.0), base=(20.0, 20.0),
                      command=_COMMAND))
_BOSS = field(unit("goblins", models=20, files=5, centre=(36.0, 20.0), base=(20.0, 20.0),
                   command=_COMMAND, characters=[{"id": "boss", "slot": [0, 4]}]))
# Six models in 3 files, a champion: in an assignment it is "u.champion", the others u.1-u.5.
_SIX = field(unit(models=6, files=3, centre=(36.0, 20.0), command=["champion"]))
_OTHERS = {"u.1": [0, 0], "u.2": [0, 2], "u.3": [1, 0], "u.4": [1, 2]}


class FrontRank(Clause):
    id = "whfb7.reform.front_rank"
    judges = Judges.END_POSE

    examples = (
        RuleExample("seed 003: a reform keeps the centre and puts the command group in front",
                    _GOBLINS, reform(8, 0.0, uid="goblins"), False, ("out_of_front_rank", 0.0)),
        RuleExample("a front rank of 2 cannot hold champion, standard and musician", _GOBLINS,
                    reform(2, 0.0, uid="goblins"), True, ("out_of_front_rank", 1.0)),
        RuleExample("a character joining the unit needs a place in front too", _BOSS,
                    reform(3, 90.0, uid="goblins"), True, ("out_of_front_rank", 1.0)),
        RuleExample("four files hold the command group and the character", _BOSS,
                    reform(4, 90.0, uid="goblins"), False, ("out_of_front_rank", 0.0)),
        RuleExample("an assignment may not put the champion in the second rank", _SIX,
                    reform(3, 270.0, assignment={**_OTHERS, "u.champion": [1, 1],
                                                 "u.5": [0, 1]}),
                    True, ("out_of_front_rank", 1.0)),
        RuleExample("the champion in the middle of the new front rank", _SIX,
                    reform(3, 270.0, assignment={**_OTHERS, "u.champion": [0, 1],
                                                 "u.5": [1, 1]}),
                    False, ("out_of_front_rank", 0.0)),
    )

    def check(self, ctx: WarhammerContext) -> ClauseResult:
        start, end = ctx.unit, ctx.end_unit
        front = front_models(start)
        behind = end.formation.behind_front_rank(
            front, chosen_slots(start, end, ctx.move.assignment), end.files)
        message = (f"{behind} of the {len(front)} command models and characters are not in "
                   f"the front rank of {end.files} files, limit 0")
        return self.result("out_of_front_rank", float(behind), 0.0, behind == 0, message,
                           dimension="models")

    def masker(self, setting: MaskSetting) -> Masker:
        """Each (files, facing) judged once by this check (exact)."""
        return reform_masker(self, setting)

    def encode(self, ectx: EncodeContext) -> None:
        """A reform option's pose is fixed (the centre kept): forbid those it refuses."""
        for index in reform_failing(self, ectx):
            ectx.enc.forbid(index, self.id)
