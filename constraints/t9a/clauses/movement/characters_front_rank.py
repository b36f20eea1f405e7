"""Characters keep the front rank (docs/rules.md §2.5, §8.11).

"Attachable models (all Characters, War Platforms) go in the front rank" (RULES §2.1.9): a
character that starts in the front rank must end in it whenever models change places, in
a Pivot (§4.1), the Reorder at the end of an Advance or March (§4.7) and a Reform (§5.5).

Measured as the number of such characters outside the end formation's front rank: with the
move's `assignment`, those it places behind; without one the checker's own assignment keeps
them in front (`model_moves.allowed_pairs`) whenever the front rank has room, so those it
cannot hold, max(0, characters - front-rank slots).
"""

from __future__ import annotations

import numpy as np

from constraints.core.clause import Clause, Judges, Masker, RuleExample, Stage
from constraints.core.verdict import ClauseResult
from constraints.rank_and_file.formation import Formation
from constraints.rank_and_file.poses import MaskSetting, ReformPoses
from constraints.rank_and_file.unit import Unit
from constraints.sat.context import EncodeContext
from constraints.t9a.clauses.movement.model_moves import chosen_slots
from constraints.t9a.context import MoveContext
from constraints.t9a.examples import advance, field, fw, march, reform, unit

# Five rank-and-file models and a captain in 3 files (2 ranks): u.0 [0, 0], captain [0, 1],
# u.1 [0, 2] in front, u.2-u.4 behind.  A move's assignment names each model's end slot.
_BAND = field(unit(models=5, files=3, centre=(36.0, 20.0),
                   characters=[{"id": "captain", "slot": [0, 1]}]))
_KEEP = {"u.0": [0, 0], "captain": [0, 1], "u.1": [0, 2], "u.2": [1, 0], "u.3": [1, 1],
         "u.4": [1, 2]}
_BEHIND = {**_KEEP, "captain": [1, 0], "u.2": [0, 1]}
# The captain starting in the second rank may end anywhere.
_SECOND = field(unit(models=5, files=3, centre=(36.0, 20.0),
                     characters=[{"id": "captain", "slot": [1, 1]}]))
_SECOND_KEEP = {"u.0": [0, 0], "u.1": [0, 1], "u.2": [0, 2], "captain": [1, 1],
                "u.3": [1, 0], "u.4": [1, 2]}
_SECOND_MOVED = {**_SECOND_KEEP, "captain": [1, 0], "u.3": [1, 1]}


def front_characters(start: Unit) -> list[int]:
    """Indices (in the unit's model order) of the characters that start in the front rank."""
    chars = {c.id for c in start.formation.characters}
    return [i for i, (key, slot) in enumerate(start.formation.layout())
            if key in chars and slot[0] == 0]


def front_slots(formation: Formation) -> int:
    return sum(1 for slot in formation.occupied_slots() if slot[0] == 0)


class CharactersFrontRank(Clause):
    id = "t9a.characters.front_rank"
    judges = Judges.END_POSE  # the end formation and the assignment, whatever the way

    examples = (
        RuleExample("a Reform may not put a front-rank character behind", _BAND,
                    reform(files=3, assignment=_BEHIND), True, ("out_of_front_rank", 1.0)),
        RuleExample("a Reform that keeps it in front is fine", _BAND,
                    reform(files=3, assignment=_KEEP), False, ("out_of_front_rank", 0.0)),
        RuleExample("a Pivot's reordering may not put it behind", _BAND,
                    advance(pivot=180.0, assignment=_BEHIND), True,
                    ("out_of_front_rank", 1.0)),
        RuleExample("a Pivot that keeps it in front is fine", _BAND,
                    advance(pivot=180.0, assignment=_KEEP), False,
                    ("out_of_front_rank", 0.0)),
        RuleExample("the Reorder after a March may not put it behind", _BAND,
                    march(fw(2.0), assignment=_BEHIND), True, ("out_of_front_rank", 1.0)),
        RuleExample("a Reorder within the front rank is fine", _BAND,
                    march(fw(2.0), assignment={**_KEEP, "captain": [0, 0], "u.0": [0, 1]}),
                    False, ("out_of_front_rank", 0.0)),
        RuleExample("a character that starts behind the front rank is not held to it",
                    _SECOND, march(fw(2.0), assignment=_SECOND_MOVED), False,
                    ("out_of_front_rank", 0.0)),
        RuleExample("without an assignment the checker's own keeps it in front", _BAND,
                    reform(files=2, facing=270.0), False, ("out_of_front_rank", 0.0)),
    )

    def check(self, ctx: MoveContext) -> ClauseResult:
        end, front = ctx.end_unit, front_characters(ctx.unit)
        behind = end.formation.behind_front_rank(front, chosen_slots(ctx, end),
                                                 front_slots(end.formation))
        message = (f"{behind} of the {len(front)} characters that start in the front rank "
                   f"end behind it, limit 0")
        return self.result("out_of_front_rank", float(behind), 0.0, behind == 0, message,
                           dimension="models")

    def masker(self, setting: MaskSetting) -> Masker | None:
        """Searched moves carry no assignment: only a Reform to files whose front rank
        cannot hold the characters breaks the clause."""
        need = len(front_characters(setting.unit))
        if not need or setting.manoeuvre != "reform":
            return None
        formation = setting.unit.formation

        def judge(poses: ReformPoses, ok: np.ndarray) -> np.ndarray:
            files = np.unique(poses.files)
            room = {int(f): front_slots(formation.reformed(int(f))) >= need for f in files}
            return ok & np.array([room[int(f)] for f in poses.files], dtype=bool)
        return Masker(self.id, Stage.WAY, judge)

    def encode(self, ectx: EncodeContext) -> None:
        """Decoded moves carry no assignment: forbid the options whose end formation's
        front rank cannot hold the characters (a Reform's narrow files)."""
        need = len(front_characters(ectx.unit))
        if not need:
            return
        # An Advance's or March's end formation is the start's, whose front rank holds the
        # characters already; the default layout in as many files has as much room.
        formation = ectx.unit.formation
        for option in ectx.options:
            if front_slots(formation.reformed(option.files)) < need:
                ectx.enc.forbid(option.index, self.id)
