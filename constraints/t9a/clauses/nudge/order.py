"""The order of the nudges (seed 001): "move Active Player's units first", in the order that
keeps the most units in combat (docs/rules.md §11).

Judged over a player's nudges (optimizer.nudge.judge), not by `check_nudge`: the best order
is found by a search (optimizer.nudge.order).  Measured: the Active Player's units moved
after the other side's (limit 0), or the units the order keeps in combat against the best
order's.
"""

from __future__ import annotations

from typing import ClassVar

from constraints.core.verdict import Violation


class NudgeOrder:
    id: ClassVar[str] = "nudge.order"

    @classmethod
    def late(cls, late: list[str], player: str) -> Violation:
        return Violation(cls.id, float(len(late)), 0.0, "units",
                         f"{', '.join(late)} ({player}, the Active Player) moved after the "
                         "other side's units (\"move Active Player's units first\")")

    @classmethod
    def fewer_kept(cls, kept: int, best: int) -> Violation:
        return Violation(cls.id, float(kept), float(best), "units",
                         f"{kept} units end in combat, but the order "
                         f"{'proved best' if best else 'found'} keeps {best}")
