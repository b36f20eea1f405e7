"""A search's answer: its status, objective and bound, the lattice and family searched, the
move with its verdict (docs/formats.md, "Search result")."""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

from constraints.core.status import Status
from constraints.core.verdict import Verdict
from constraints.sat.lattice import Lattice
from optimizer.search.objectives import Objective


@dataclass(frozen=True)
class SearchResult:
    """A search's answer: status, objective, lattice, time, and the move with its verdict."""

    status: Status
    objective: Objective
    value: float | None
    bound: float | None
    lattice: Lattice
    elapsed_s: float
    move: Any = None
    verdict: Verdict | None = None
    blocking: tuple[str, ...] = ()
    stats: dict[str, Any] = field(default_factory=dict)
    stopped_by: str | None = None  # "deterministic_time", "wall_clock", "cancelled" or None
    family: dict[str, Any] = field(default_factory=dict)  # what was searched, if not all
    family_status: Status | None = None  # the solver's status within the family searched
    bound_covers: str | None = None  # "any_wheels": the bound holds for every legal way
    tolerance: float | None = None   # OPTIMAL: value within this of the bound

    @property
    def found(self) -> bool:
        return self.move is not None

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
