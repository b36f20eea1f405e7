"""What the clauses tell a rank-and-file move family about its limits (`Clause.bound`).

A family (the options a search enumerates, the batch mask's ways) needs a few numbers that
only the rules know: how far a Snaking move may go, how far it may turn, how far a Reform's
centre may travel, how much its files may change.  Each clause tightens the ones it sets;
None means no clause of the profile limits it (the family then uses its own default).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace
from typing import Any, TypeVar

N = TypeVar("N", int, float)


@dataclass(frozen=True)
class FamilyLimits:
    budget_in: float | None = None        # Snaking Forward distance
    window_deg: float | None = None       # heading kept within this of the reference
    centre_reach_in: float | None = None  # a Reform's centre travel
    file_change: int | None = None        # a Reform's |files after - files before|
    # What a way's wheels and turns cost, where a system's distance clause says (Warhammer:
    # the outer corner's chord instead of its arc; a turn on the spot, inches); None: unsaid
    wheel_chord: bool | None = None
    turn_in: float | None = None
    # (limit name, clause id) of the clause that set each limit, so that a proof using a
    # limit (the end-pose checker's) can name the clause whose limit it is
    set_by: tuple[tuple[str, str], ...] = ()

    def tightened(self, *, budget_in: float | None = None, window_deg: float | None = None,
                  centre_reach_in: float | None = None,
                  file_change: int | None = None) -> FamilyLimits:
        """These limits with each given one lowered to the given value (never raised)."""
        return replace(self, budget_in=_lower(self.budget_in, budget_in),
                       window_deg=_lower(self.window_deg, window_deg),
                       centre_reach_in=_lower(self.centre_reach_in, centre_reach_in),
                       file_change=_lower(self.file_change, file_change))

    def clause_for(self, limit: str) -> str | None:
        """The id of the clause that set `limit` (a field name, e.g. "budget_in"), if any."""
        return dict(self.set_by).get(limit)

    def budget_or(self, default: float) -> float:
        return default if self.budget_in is None else self.budget_in

    def window_or(self, default: float) -> float:
        return default if self.window_deg is None else self.window_deg

    def centre_reach_or(self, default: float) -> float:
        return default if self.centre_reach_in is None else self.centre_reach_in


def family_limits(clauses: Iterable[Any], unit: Any) -> FamilyLimits:
    """The limits the clauses set for `unit` (each through its `bound`)."""
    limits = FamilyLimits()
    for clause in clauses:
        tightened = clause.bound(unit, limits)
        changed = tuple((name, clause.id) for name in _LIMITS
                        if getattr(tightened, name) != getattr(limits, name))
        limits = replace(tightened, set_by=tuple(
            (name, by) for name, by in limits.set_by if name not in dict(changed)) + changed)
    return limits


_LIMITS = ("budget_in", "window_deg", "centre_reach_in", "file_change")


def _lower(old: N | None, new: N | None) -> N | None:
    if new is None:
        return old
    return new if old is None else min(old, new)
