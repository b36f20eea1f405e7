"""A route search's answer (optimizer.routes.shortest, and the Jumps and Climbs of
optimizer.routes.air): status, path, length and its bound, the exact checker's verdict."""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

from constraints.core.status import Status
from constraints.infinity.checker import RouteVerdict
from constraints.infinity.clauses import ROUTE_CLAUSES, Kept
from constraints.infinity.route import Route
from constraints.infinity.scenery import Point3

# Clauses of the MOV budget: a route that breaks only those is too long, not wrong.
BUDGET = frozenset(c.id for c in ROUTE_CLAUSES if c.kept is Kept.BUDGET)


@dataclass(frozen=True)
class RouteResult:
    status: Status
    unit: str
    skill: str
    path: tuple[Point3, ...] = ()
    midpoint: int | None = None
    length_in: float = math.inf
    bound_in: float = math.inf         # no legal route is shorter
    verdict: RouteVerdict | None = None
    reason: str = ""
    tolerance_in: float = 0.01
    extra: dict[str, Any] = field(default_factory=dict)
    prone: bool | None = None           # Prone entered (True) or left (False) at the start

    @property
    def legal(self) -> bool:
        """Whether the route returned is a legal Move (or Move + Move)."""
        return self.verdict is not None and self.verdict.legal

    @property
    def idle(self) -> bool:
        """Proved: no legal Move reaches the target, so the trooper would perform Idle."""
        return self.status == Status.INFEASIBLE or (
            self.verdict is not None and not self.verdict.legal and self.status.found
            and set(self.verdict.clauses()) <= BUDGET
            and self.bound_in > self.limit_in + 1e-9)

    @property
    def limit_in(self) -> float:
        return float(self.extra.get("mov_in", math.inf))

    def route(self) -> Route | None:
        return Route(self.unit, self.skill, self.path, self.midpoint, self.prone) \
            if self.path else None
