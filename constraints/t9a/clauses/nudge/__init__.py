"""The clauses of "Nudge units to maintain contact" (seed 001; docs/rules.md §11)."""

from constraints.t9a.clauses.nudge.base import NudgeClause
from constraints.t9a.clauses.nudge.contact import NudgeRegain
from constraints.t9a.clauses.nudge.eligible import NudgeEligible
from constraints.t9a.clauses.nudge.legs import NudgeLegs
from constraints.t9a.clauses.nudge.minimum import NudgeMinimum
from constraints.t9a.clauses.nudge.new_enemy import NudgeNewEnemy
from constraints.t9a.clauses.nudge.order import NudgeOrder
from constraints.t9a.clauses.nudge.path import NudgePath
from constraints.t9a.clauses.nudge.table import NudgeTable

NUDGE_CLAUSES: tuple[type[NudgeClause], ...] = (
    NudgeEligible, NudgeLegs, NudgePath, NudgeNewEnemy, NudgeRegain, NudgeTable)
# Clauses of a player's nudges as a whole, judged against what a search finds (the least
# nudge, the best order): optimizer.nudge.judge applies them.
PLAYER_CLAUSES: tuple[type[NudgeMinimum] | type[NudgeOrder], ...] = (NudgeMinimum, NudgeOrder)

__all__ = ["NUDGE_CLAUSES", "PLAYER_CLAUSES", "NudgeClause"]
