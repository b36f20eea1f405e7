"""Verdicts: whether a move is legal, every broken clause with its measurement and limit.

A verdict is in one of three states (`Verdict.status`): "legal" (proved: the move, or a way
found to its end pose, passes every clause), "illegal" (proved: the violations hold for every
way the rules allow) or "not_proved" (an end-pose move for which the search found no legal way
and nothing proves there is none: docs/rules.md §4.8).  `legal` is True only when proved.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

from constraints.core.jsonwrite import json_number
from constraints.core.referee import referee_call
from constraints.geometry.plane import Point

if TYPE_CHECKING:  # scenario imports profile, which imports this module
    from constraints.core.scenario import Pose


@dataclass(frozen=True)
class Violation:
    """One broken rule clause: measured value against its limit, and where it was measured.

    `witness` is the measurement behind the verdict as a polyline (e.g. the corner and the
    nearest start corner), so it can be drawn.
    """

    clause: str
    measured: float
    limit: float
    dimension: str
    message: str
    witness: tuple[Point, ...] = ()

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"clause": self.clause, "measured": json_number(self.measured),
                               "limit": json_number(self.limit), "dimension": self.dimension,
                               "message": self.message}
        if self.witness:  # what `render` draws in red, for clients that draw it too
            out["witness"] = [[round(float(c), 6) for c in p] for p in self.witness]
        return out


@dataclass(frozen=True)
class Reading:
    """One measurement of a clause against its limit, legal or not: what referee mode
    (A21, `constraints.core.referee`) reads for the close calls."""

    clause: str
    measured: float
    limit: float
    dimension: str
    legal: bool


@dataclass(frozen=True)
class ClauseResult:
    """What one clause found: named measurements, any violations, and the readings of its
    measurements against their limits (where the clause gives them)."""

    measurements: dict[str, float] = field(default_factory=dict)
    violations: tuple[Violation, ...] = ()
    readings: tuple[Reading, ...] = ()


def measurement(clause_id: str, name: str, value: float, limit: float, legal: bool,
             message: str, witness: tuple[Point, ...] = (), dimension: str = "in") -> ClauseResult:
    """One measurement of a clause, and a violation carrying it when the clause is broken
    (what every clause protocol's `result` returns)."""
    violations = () if legal else (
        Violation(clause_id, value, limit, dimension, message, witness),)
    return ClauseResult({name: value}, violations,
                        (Reading(clause_id, value, limit, dimension, legal),))


@dataclass(frozen=True)
class ModelPlace:
    """Where one model's base ends: its id (`UNIT.INDEX`, characters by id), centre and
    facing."""

    id: str
    centre: Point
    facing_deg: float


@dataclass(frozen=True)
class Verdict:
    """The exact checker's judgement of one move.

    `not_proved` holds the reason when neither legality nor a violation could be proved
    (violations are then empty); it is None in the other two states.
    """

    unit: str
    manoeuvre: str
    end_centre: Point
    end_facing_deg: float
    end_files: int
    end_corners: tuple[Point, ...]
    violations: tuple[Violation, ...]
    measurements: dict[str, float]
    steps: tuple[dict[str, float], ...] | None = None  # how an end-pose move was reached
    not_proved: str | None = None
    readings: tuple[Reading, ...] = ()  # every clause's measurement against its limit
    referee: Any = None  # a `constraints.core.referee.RefereeCall` in referee mode (A21)
    # The Dangerous Terrain tests the move triggers (T9A; {"terrain", "dice", "test"} each);
    # None where the rules have none to report.
    dangerous_terrain: tuple[dict[str, Any], ...] | None = None
    # Where each model ends (id, base centre, facing), so a client draws the bases without
    # re-deriving the formation; asked for only when the verdict is written out (a search
    # judges many ways and writes one), None where the checker has no end formation.
    models_of: Callable[[], tuple[ModelPlace, ...]] | None = field(
        default=None, compare=False, repr=False)
    # The unit's pose after the Pivot and after each step (a move with steps), for animation.
    poses: tuple[Pose, ...] | None = None
    # What the checker did not judge and the answer should say (a T9A Reform's unstated
    # placement mid-move, say); written as `notes` when there are any.
    notes: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        if self.not_proved is not None and self.violations:
            raise ValueError("a verdict that proves violations is not 'not proved'")

    @property
    def models(self) -> tuple[ModelPlace, ...] | None:
        return None if self.models_of is None else self.models_of()

    @property
    def legal(self) -> bool:
        """Proved legal: no violation, and nothing left unproved."""
        return not self.violations and self.not_proved is None

    @property
    def status(self) -> str:
        """One of "legal", "illegal" (violations proved) and "not_proved"."""
        if self.violations:
            return "illegal"
        return "legal" if self.not_proved is None else "not_proved"

    def clauses(self) -> tuple[str, ...]:
        return tuple(v.clause for v in self.violations)

    def to_json(self) -> dict[str, Any]:
        legal = None if self.not_proved is not None else self.legal  # null: not proved
        out: dict[str, Any] = {
            "legal": legal, "unit": self.unit, "manoeuvre": self.manoeuvre,
            "end": {"centre": _rounded(self.end_centre), "facing": round(self.end_facing_deg, 6),
                    "files": self.end_files,
                    "corners": [_rounded(c) for c in self.end_corners]},
            "violations": [v.to_json() for v in self.violations],
            "measurements": {k: json_number(v) for k, v in self.measurements.items()},
        }
        models = self.models
        if models is not None:
            out["end"]["models"] = {m.id: {"centre": _rounded(m.centre),
                                           "facing": round(m.facing_deg, 6)}
                                    for m in models}
        if self.poses is not None:
            out["poses"] = [{"centre": _rounded(p.centre), "facing": round(p.facing_deg, 6)}
                            for p in self.poses]
        if self.steps is not None:
            out["steps"] = list(self.steps)
        if self.not_proved is not None:
            out["not_proved"] = self.not_proved
        if self.referee is not None:
            out["referee"] = self.referee.to_json()
        if self.dangerous_terrain is not None:
            out["dangerous_terrain"] = [dict(t) for t in self.dangerous_terrain]
        if self.notes:
            out["notes"] = list(self.notes)
        return out

    def refereed(self, tolerance: float | None) -> Verdict:
        """This verdict with the referee's reading at `tolerance` inches (A21); unchanged
        when `tolerance` is None (referee mode off)."""
        if tolerance is None:
            return self
        return replace(self, referee=referee_call(self.status, self.violations,
                                                  self.readings, tolerance))


def _rounded(point: Point) -> list[float]:
    return [round(float(point[0]), 6), round(float(point[1]), 6)]
