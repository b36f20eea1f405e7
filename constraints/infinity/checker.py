"""The exact checker of a declared route (docs/rules.md §13.4): every route clause, every
violation with its measurement."""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, field, replace
from typing import Any

from constraints.core.referee import RefereeCall, referee_call
from constraints.core.scenario import Scenario
from constraints.core.verdict import Reading, Violation
from constraints.infinity.clauses import ROUTE_CLAUSES
from constraints.infinity.clauses.context import RouteContext
from constraints.infinity.clauses.enemy_contact import Contact, EnemyContact, first_contact
from constraints.infinity.route import Route
from constraints.infinity.scenery import Point3


@dataclass(frozen=True)
class RouteVerdict:
    unit: str
    skill: str
    path: tuple[Point3, ...]
    move_lengths_in: tuple[float, ...]
    violations: tuple[Violation, ...]
    measurements: dict[str, float] = field(default_factory=dict)
    readings: tuple[Reading, ...] = ()
    referee: RefereeCall | None = None  # referee mode (A21)
    # A22: the route met an enemy's base before its end; executed up to there (`path`).
    cut_at: Point3 | None = None
    contact: tuple[str, ...] = ()

    @property
    def legal(self) -> bool:
        return not self.violations

    @property
    def status(self) -> str:
        return "legal" if self.legal else "illegal"

    @property
    def length_in(self) -> float:
        return sum(self.move_lengths_in)

    def clauses(self) -> tuple[str, ...]:
        return tuple(v.clause for v in self.violations)

    def to_json(self) -> dict[str, Any]:
        return {"legal": self.legal, "unit": self.unit, "skill": self.skill,
                "length": round(self.length_in, 6),
                "moves": [round(v, 6) for v in self.move_lengths_in],
                "end": [round(v, 6) for v in self.path[-1]],
                "violations": [v.to_json() for v in self.violations],
                "measurements": {k: round(v, 6) for k, v in self.measurements.items()
                                 if v != float("inf")},
                **({"cut_at": [round(v, 6) for v in self.cut_at],
                    "path": [[round(v, 6) for v in p] for p in self.path],
                    "contact": list(self.contact)} if self.cut_at is not None else {}),
                **({"referee": self.referee.to_json()} if self.referee is not None else {})}

    def refereed(self, tolerance: float | None) -> RouteVerdict:
        """This verdict with the referee's reading at `tolerance` inches (A21); unchanged
        when `tolerance` is None."""
        if tolerance is None:
            return self
        return replace(self, referee=referee_call(self.status, self.violations,
                                                  self.readings, tolerance))

    def text(self) -> str:
        word = "LEGAL" if self.legal else "ILLEGAL"
        moves = " + ".join(f"{v:.3f}" for v in self.move_lengths_in)
        lines = [f"{self.unit} {self.skill}: {word}",
                 f"  length {self.length_in:.3f} in ({moves}), end {json.dumps(self.path[-1])}"]
        if self.cut_at is not None:
            lines.append(f"  cut short at {json.dumps([round(v, 3) for v in self.cut_at])}: "
                         f"Silhouette contact with enemy {', '.join(self.contact)} (the Move "
                         "ends there)")
        for v in self.violations:
            lines.append(f"  broken {v.clause}: {v.message} "
                         f"(measured {v.measured:.3f} {v.dimension}, limit {v.limit:.3f})")
        if self.referee is not None:
            lines.append(self.referee.text())
        return "\n".join(lines)


def check_route(scenario: Scenario, route: Route,
                referee: float | None = None) -> RouteVerdict:
    """Judge a declared route exactly (bad input raises InvalidInputError); `referee`: a
    referee tolerance in inches (A21), None for the exact verdict alone."""
    ctx = RouteContext(scenario, route)
    contact = first_contact(ctx) if route.skill in EnemyContact.skills else None
    if contact is not None:  # A22: executed up to the first contact, and ends there
        ctx = RouteContext(scenario, cut_short(route, contact))
    violations: list[Violation] = []
    measurements: dict[str, float] = {}
    readings: list[Reading] = []
    for clause in ROUTE_CLAUSES:
        if route.skill not in clause.skills:
            continue
        found = clause().check(ctx)
        violations += found.violations
        readings += found.readings
        measurements.update(found.measurements)
    return RouteVerdict(route.unit, route.skill, ctx.route.path, tuple(ctx.move_lengths()),
                        tuple(violations), measurements, tuple(readings),
                        cut_at=None if contact is None else contact.point,
                        contact=() if contact is None else contact.enemies).refereed(referee)


def cut_short(route: Route, contact: Contact) -> Route:
    """The route up to its first enemy contact (seed 004: "Movement ends automatically
    whenever he enters Silhouette contact with an enemy, even if the specified movement
    route is cut short").  Cut in the first of two Moves, the Order's second Move never
    starts: what is left is the first Move's walk."""
    path = route.path[:contact.leg + 1]
    if math.dist(path[-1], contact.point) > 1e-9:
        path = (*path, contact.point)
    if route.midpoint is not None and contact.leg < route.midpoint:
        return replace(route, skill="move", path=path, midpoint=None)
    return replace(route, path=path)
