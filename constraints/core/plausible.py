"""Warnings for input that is valid but likely a slip of units (docs/formats.md "Warnings").

A base under 10 mm on a side is smaller than any wargame base: inches given where the file
wants millimetres, say.  A target or centre more than a table's width off the table is
likely a point in millimetres or centimetres.  Both are legal input, so they are warnings
(one line each on stderr, and a `warnings` list in JSON output), never errors.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from constraints.core.scenario import Scenario

SMALLEST_BASE_MM = 10.0


def scenario_warnings(scenario: Scenario) -> list[str]:
    """One warning per unit whose base is under 10 mm on a side."""
    found = []
    for unit in scenario.units:
        sides = _base_sides_mm(unit)
        if sides and min(sides) < SMALLEST_BASE_MM:
            shown = " x ".join(f"{s:g}" for s in sides)
            found.append(f"unit {unit.id!r} has a base of {shown} mm, under "
                         f"{SMALLEST_BASE_MM:g} mm on a side: inches given as millimetres?")
    return found


def point_warnings(scenario: Scenario, point: Sequence[float] | None, what: str) -> list[str]:
    """A warning when `point` (x, y in inches) lies more than a table's width off the
    table; none for None or a malformed point (the readers report those)."""
    if point is None or len(point) < 2 \
            or not all(isinstance(v, int | float) and not isinstance(v, bool)
                       and math.isfinite(v) for v in point[:2]):
        return []
    field = scenario.battlefield
    off = field.overhang_in([(float(point[0]), float(point[1]))])
    if off <= field.width_in:
        return []
    return [f"{what} ({float(point[0]):g}, {float(point[1]):g}) lies {off:g}\" off the "
            f"{field.width_in:g}\" x {field.depth_in:g}\" table, more than its width: "
            "millimetres given as inches?"]


def move_warnings(scenario: Scenario, data: Any) -> list[str]:
    """The warnings of a move file's JSON: its `centre`, when it gives one."""
    if isinstance(data, dict) and isinstance(data.get("centre"), list):
        return point_warnings(scenario, data["centre"], "the move's centre")
    return []


def _base_sides_mm(unit: Any) -> tuple[float, ...]:
    """A unit's base sides in mm: a rectangle's frontage and depth, a round base's diameter
    (Infinity troopers); none for a unit of another kind."""
    base = getattr(unit, "base", None)
    if base is not None and hasattr(base, "frontage_mm"):
        return (float(base.frontage_mm), float(base.depth_mm))
    if isinstance(getattr(unit, "base_mm", None), int | float):
        return (float(unit.base_mm),)
    return ()
