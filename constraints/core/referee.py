"""Referee mode (decision A21): a move judged as a table measures it.

Positions at a real table come from a tape, a template or a drag on a screen, so no measure
is exact.  With a referee tolerance `T` (inches) every clause measured in inches whose
measurement lies within `T` of its limit, either side, is a *close call*, with its margin
(signed: positive inside the limit, negative past it).  The referee's verdict is
`within_tolerance` when the move is illegal and every broken clause is a close call, else the
exact verdict.  Clauses measured in degrees or counts are never close calls: a count has no
measuring error, and an angle is not in inches.  The exact verdict (`legal`) never changes.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from constraints.core.jsonwrite import json_number
from constraints.errors import InvalidInputError

if TYPE_CHECKING:  # types only: verdict.py calls this module (Verdict.refereed)
    from constraints.core.verdict import Reading, Violation

INCHES = "in"
MAX_REFEREE_IN = 1.0  # far beyond any tape's error; a larger T would call everything close


@dataclass(frozen=True)
class CloseCall:
    """One clause measured within the tolerance of its limit."""

    clause: str
    measured: float
    limit: float
    margin: float  # positive: inside the limit; negative: past it

    def to_json(self) -> dict[str, Any]:
        return {"clause": self.clause, "measured": json_number(self.measured),
                "limit": json_number(self.limit), "margin": json_number(self.margin)}


@dataclass(frozen=True)
class RefereeCall:
    """The referee's reading of one verdict."""

    tolerance: float
    verdict: str  # "legal", "illegal", "within_tolerance" (or "not_proved", as the exact one)
    close_calls: tuple[CloseCall, ...]

    def to_json(self) -> dict[str, Any]:
        return {"tolerance": self.tolerance, "verdict": self.verdict,
                "close_calls": [c.to_json() for c in self.close_calls]}

    @property
    def passes(self) -> bool:
        """Legal to the referee: legal exactly, or broken only by close calls."""
        return self.verdict in ("legal", "within_tolerance")

    def text(self) -> str:
        """One line for a verdict's text: the referee's word and the close calls."""
        word = self.verdict.replace("_", " ").upper()
        calls = "; ".join(f"{c.clause} {c.measured:.4f} vs {c.limit:.4f} "
                          f"(margin {c.margin:+.4f})" for c in self.close_calls)
        return f"  referee ({self.tolerance:g}): {word}" + (f": {calls}" if calls else "")


def checked_tolerance(value: Any, where: str = "referee") -> float:
    """A referee tolerance: a finite number of inches, 0 to `MAX_REFEREE_IN`."""
    if isinstance(value, bool) or not isinstance(value, int | float) \
            or not math.isfinite(value) or not 0.0 <= value <= MAX_REFEREE_IN:
        raise InvalidInputError(f"expected a referee tolerance in inches, 0 to "
                                f"{MAX_REFEREE_IN:g}, got {value!r}", path=where)
    return float(value)


def referee_call(status: str, violations: Iterable[Violation], readings: Iterable[Reading],
                 tolerance: float) -> RefereeCall:
    """The referee's reading of an exact verdict (`status`, its violations, and the readings
    of every clause that measured in inches against a limit)."""
    tolerance = checked_tolerance(tolerance)
    broken = tuple(violations)
    calls = [CloseCall(v.clause, v.measured, v.limit, -abs(v.measured - v.limit))
             for v in broken if _close(v.dimension, v.measured, v.limit, tolerance)]
    calls += [CloseCall(r.clause, r.measured, r.limit, abs(r.measured - r.limit))
              for r in readings
              if r.legal and _close(r.dimension, r.measured, r.limit, tolerance)]
    verdict = status
    if broken and all(_close(v.dimension, v.measured, v.limit, tolerance) for v in broken):
        verdict = "within_tolerance"
    return RefereeCall(tolerance, verdict, tuple(calls))


def _close(dimension: str, measured: float, limit: float, tolerance: float) -> bool:
    return dimension == INCHES and math.isfinite(measured) and math.isfinite(limit) \
        and abs(measured - limit) <= tolerance
