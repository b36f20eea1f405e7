"""The least nudge (seed 001): "move the unit the minimum amount required".

Judged over a player's nudges (optimizer.nudge.judge), not by `check_nudge`: the minimum is
the least legal nudge's length, which a search finds (optimizer.nudge.least_nudge).  A nudge
longer than that by more than the search's precision breaks it; measured: the nudge's length
against the least one's.
"""

from __future__ import annotations

from typing import ClassVar

from constraints.core.verdict import Violation


class NudgeMinimum:
    id: ClassVar[str] = "nudge.minimum"

    @classmethod
    def violation(cls, unit_id: str, length_in: float, least_in: float) -> Violation:
        return Violation(cls.id, length_in, least_in, "in",
                         f"{unit_id} is nudged {length_in:.6f}\", but {least_in:.6f}\" regains "
                         "contact (\"move the unit the minimum amount required\")")
