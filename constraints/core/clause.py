"""What every rule clause is: a stable id, its parameters from a profile, an exact check.

Like CPMpy's constraints, a clause module holds the exact checker (the specification) and,
where the optimiser needs it, the CP-SAT encoding of the same clause beside it.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from typing import Any, ClassVar

from constraints.core.profile import ClauseSpec, RulesProfile
from constraints.core.verdict import ClauseResult, Violation
from constraints.geometry.plane import Point
from constraints.rank_and_file.unit import Unit
from constraints.sat.context import EncodeContext
from constraints.t9a.context import MoveContext

CLAUSE_KINDS: dict[str, type[Clause]] = {}


class Clause(ABC):
    """A rule clause bound to a profile's parameters."""

    kind: ClassVar[str]

    def __init__(self, spec: ClauseSpec, profile: RulesProfile) -> None:
        self.id = spec.id
        self.params: dict[str, Any] = {name: profile.param(key) for name, key in spec.bind.items()}

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if "kind" in cls.__dict__:
            CLAUSE_KINDS[cls.kind] = cls

    @abstractmethod
    def check(self, ctx: MoveContext) -> ClauseResult:
        """Measure the move against this clause."""

    def encode(self, ectx: EncodeContext) -> None:
        """Post this clause's CP-SAT rows (sound: every accepted pose passes `check`)."""
        raise NotImplementedError(f"{self.id} has no CP-SAT encoding yet")

    def limit_in(self, unit: Unit) -> float:
        """The clause's distance limit for `unit`, where it has one (mob_factor x Mob)."""
        return float(self.params["mob_factor"]) * unit.mobility_in

    def result(self, name: str, measured: float, limit: float, legal: bool, message: str,
               witness: tuple[Point, ...] = (), dimension: str = "in") -> ClauseResult:
        """One measurement, and a violation carrying it when the clause is broken."""
        violations = () if legal else (
            Violation(self.id, measured, limit, dimension, message, witness),)
        return ClauseResult({name: measured}, violations)


def clause_for(spec: ClauseSpec, profile: RulesProfile) -> Clause:
    return CLAUSE_KINDS[spec.kind](spec, profile)
