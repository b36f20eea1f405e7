"""Warnings on stderr (one line each) and in JSON output (`warnings`): input that is legal
but likely a slip of units (constraints/core/plausible.py, docs/formats.md "Warnings")."""

from __future__ import annotations

import sys
from collections.abc import Sequence
from typing import Any

from constraints.core.plausible import move_warnings, point_warnings, scenario_warnings
from constraints.core.scenario import Scenario


def warned(scenario: Scenario, points: Sequence[tuple[Any, str]] = (),
           move: Any = None) -> list[str]:
    """Every warning of the scenario, of `points` ((x, y) or None, and what it is) and of a
    move file's JSON, each printed once on stderr as `manoeuvre: warning: ...`."""
    found = scenario_warnings(scenario)
    for point, what in points:
        found += point_warnings(scenario, point, what)
    found += move_warnings(scenario, move)
    unique = list(dict.fromkeys(found))
    for line in unique:
        print(f"manoeuvre: warning: {line}", file=sys.stderr)
    return unique


def with_warnings(data: Any, warnings: list[str]) -> Any:
    """JSON output with its `warnings` list, when there are any (else unchanged)."""
    if warnings and isinstance(data, dict):
        return {**data, "warnings": warnings}
    return data
