"""What every bench scene must be before it is timed: its units on the table, overlapping
neither each other nor impassable terrain (bench_nudge's and bench_reform's scenes)."""

from __future__ import annotations

import shapely

from constraints.core.scenario import Scenario


def check_placed(scenario: Scenario) -> None:
    """AssertionError naming the first unit off the table or overlapping something."""
    shapes = [(u.id, u.boundary()) for u in scenario.units]
    field = scenario.battlefield
    table = shapely.box(0.0, 0.0, field.width_in, field.depth_in)
    for k, (a, pa) in enumerate(shapes):
        if pa.difference(table).area > 1e-9:
            raise AssertionError(f"{a} is off the table")
        for b, pb in shapes[k + 1:] + [(t.id, t.shape) for t in scenario.impassable()]:
            if pa.intersection(pb).area > 1e-9:
                raise AssertionError(f"{a} overlaps {b}")
