"""Statuses of a search: an enum whose members are their JSON spellings."""

from __future__ import annotations

from enum import StrEnum


class Status(StrEnum):
    OPTIMAL = "OPTIMAL"        # proved best (on the stated lattice and family)
    FEASIBLE = "FEASIBLE"      # legal, not proved best
    INFEASIBLE = "INFEASIBLE"  # proved: no legal answer (on the stated lattice)
    NOT_FOUND = "NOT_FOUND"    # none in the family searched; ways outside it not ruled out
    TIMEOUT = "TIMEOUT"        # the limit ran out with no answer; never "no legal move"

    @property
    def found(self) -> bool:
        """Whether a search with this status has an answer."""
        return self in (Status.OPTIMAL, Status.FEASIBLE)
