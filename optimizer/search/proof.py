"""What a search has proved: one record, refined by each stage, from which the answer's status
follows in one place (`Proof.status`).

Each stage of a search states facts, never a status: the solver's claim over what it
searched (`claim`) and whether that speaks for every way the rules allow or for the family
searched alone (`scope`); a bound over every legal way and whether the answer is within the
tolerance of it (`bound_covers`, `bound_proves`); that some family search found no legal
move (`none_in_family`); that a clause refuses every move (`refused`); and which limit
stopped it.  The status then reads (docs/formats.md, "Search result"):

- INFEASIBLE: a clause refuses every move, or the claim is INFEASIBLE over every way;
- OPTIMAL: an answer, within the tolerance of a bound over every way, or the claim OPTIMAL
  over every way;
- FEASIBLE: any other answer (legal, re-checked);
- NOT_FOUND: no answer, and a search over a family (not every way) found none;
- TIMEOUT: no answer, and nothing proved.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from enum import StrEnum

from constraints.core.status import Status


class Scope(StrEnum):
    """What the solver's claim speaks for."""

    EVERY_WAY = "every_way"  # every way the rules allow (on the lattice)
    FAMILY = "family"        # the family searched alone (docs/formats.md "family")


@dataclass(frozen=True)
class Proof:
    """What a search has proved so far (the module docstring)."""

    claim: Status                        # the solver's status over what it searched
    scope: Scope = Scope.EVERY_WAY
    bound: float | None = None           # the objective's bound, where one is known
    bound_covers: str | None = None      # "any_wheels", "any_way": it holds for every way
    bound_proves: bool = False           # the answer is within `tolerance` of that bound
    tolerance: float | None = None
    none_in_family: bool = False         # a search of a family proved it holds no legal move
    refused: bool = False                # a clause refuses every move (`blocking` names it)
    stopped_by: str | None = None        # "deterministic_time", "wall_clock", "cancelled"
    family: dict[str, object] = field(default_factory=dict)  # what was searched, if not all
    family_claim: Status | None = None   # the claim within the family, as reported

    def status(self, found: bool) -> Status:
        """The answer's status under the rules (`found`: it has a legal move)."""
        if self.refused:
            return Status.INFEASIBLE
        every_way = self.scope == Scope.EVERY_WAY
        if found:
            proved = self.bound_proves or (self.claim == Status.OPTIMAL and every_way)
            return Status.OPTIMAL if proved else Status.FEASIBLE
        if self.claim == Status.INFEASIBLE and every_way:
            return Status.INFEASIBLE
        if self.claim == Status.INFEASIBLE or self.none_in_family:
            return Status.NOT_FOUND
        return Status.TIMEOUT

    def within_family(self, family: Mapping[str, object] | None = None,
                      bound: float | None = None) -> Proof:
        """The claim speaks for the family searched alone (`family` says which, where
        given); a bound known only within it is left out unless `bound` is one."""
        return replace(self, scope=Scope.FAMILY, bound=bound, bound_covers=None,
                       bound_proves=False,
                       family=self.family if family is None else dict(family))

    def bounded(self, bound: float, covers: str, proves: bool, tolerance: float) -> Proof:
        """A bound over every legal way (`covers` says how far), and whether the answer
        is within `tolerance` of it."""
        return replace(self, bound=bound, bound_covers=covers, bound_proves=proves,
                       tolerance=tolerance)
