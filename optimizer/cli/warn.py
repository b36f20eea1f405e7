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
    move file's JSON, once each (printed by `with_warnings` with the output, so that bad
    input found later still gives its one line alone)."""
    found = scenario_warnings(scenario)
    for point, what in points:
        found += point_warnings(scenario, point, what)
    found += move_warnings(scenario, move)
    return list(dict.fromkeys(found))


def shown(text: str, warnings: list[str]) -> str:
    """Text output, its warnings printed on stderr first (one line each)."""
    for line in warnings:
        print(f"manoeuvre: warning: {line}", file=sys.stderr)
    return text


def with_warnings(data: Any, warnings: list[str]) -> Any:
    """Print the warnings on stderr, one line each (`manoeuvre: warning: ...`), as the
    output is written; JSON output gets its `warnings` list when there are any."""
    for line in warnings:
        print(f"manoeuvre: warning: {line}", file=sys.stderr)
    if warnings and isinstance(data, dict):
        return {**data, "warnings": warnings}
    return data
