"""A search's answer: the move with its verdict, its objective value, the lattice searched, and
what the search proved (optimizer.search.proof), from which its status, bound and family
follow (docs/formats.md, "Search result")."""

from __future__ import annotations

import math
from dataclasses import dataclass, field, replace
from typing import Any

from constraints.core.status import Status
from constraints.core.verdict import Verdict
from constraints.sat.lattice import Lattice
from optimizer.search.objectives import Objective
from optimizer.search.proof import Proof


@dataclass(frozen=True)
class SearchResult:
    """A search's answer: objective, lattice, time, the move with its verdict, and what the
    search proved about it (`proof`: the status and bound read from it)."""

    objective: Objective
    value: float | None
    lattice: Lattice
    elapsed_s: float
    proof: Proof
    move: Any = None
    verdict: Verdict | None = None
    blocking: tuple[str, ...] = ()
    stats: dict[str, Any] = field(default_factory=dict)

    @property
    def found(self) -> bool:
        return self.move is not None

    @property
    def status(self) -> Status:
        return self.proof.status(self.found)

    @property
    def bound(self) -> float | None:
        return self.proof.bound

    @property
    def bound_covers(self) -> str | None:
        return self.proof.bound_covers

    @property
    def tolerance(self) -> float | None:
        return self.proof.tolerance

    @property
    def stopped_by(self) -> str | None:
        return self.proof.stopped_by

    @property
    def family(self) -> dict[str, Any]:
        return self.proof.family

    @property
    def family_status(self) -> Status | None:
        return self.proof.family_claim

    def proved(self, **facts: Any) -> SearchResult:
        """This result with `facts` of its proof changed (optimizer.search.proof.Proof)."""
        return replace(self, proof=replace(self.proof, **facts))

    def to_json(self) -> dict[str, Any]:
        objective: dict[str, Any] = {"name": self.objective.name, "value": _round(self.value),
                                     "bound": _round(self.bound)}
        if self.bound_covers is not None:
            objective["bound_covers"] = self.bound_covers
            objective["tolerance"] = self.tolerance
            if self.value is not None and self.bound is not None:
                objective["gap"] = _round(abs(self.value - self.bound))
        out: dict[str, Any] = {
            "status": str(self.status), "objective": objective,
            "lattice": self.lattice.to_json(), "elapsed_s": round(self.elapsed_s, 4),
            "move": self.move.to_json() if self.move else None,
            "verdict": self.verdict.to_json() if self.verdict else None,
            "stopped_by": self.stopped_by}
        if self.family:
            # A search without a status of its own within the family (the Post-Combat
            # Pivot's family is every angle) has the answer's.
            status = self.status if self.family_status is None else self.family_status
            out["family"] = {**self.family, "status": str(status)}
        if self.blocking:
            out["blocking"] = list(self.blocking)
        return out


def _round(value: float | None) -> float | None:
    return None if value is None or not math.isfinite(value) else round(value, 6)
