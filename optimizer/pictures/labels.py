"""What pictures say: the line that shows a measurement.

Players know rules by name (docs/rules.md), not by clause id; pictures name the rule (its
profile's name for it, constraints.core.profile.rule_name) and keep the id beside it.  A
measurement's witness is the polyline the clause gives, except where that line is only a
chord of what was measured: a distance measured along the steps is drawn as the centre's own
path.
"""

from __future__ import annotations

import math

from constraints.core.verdict import Violation
from constraints.geometry.plane import Point
from optimizer.pictures.sketch import MoveSketch


def witness_line(sketch: MoveSketch, violation: Violation) -> list[Point]:
    """The line to draw for a violation's measurement: its witness, or the path of the unit's
    centre when the witness is only the chord from start to end of a measured path."""
    witness = list(violation.witness)
    path = sketch.centre_path
    if len(witness) != 2 or not path or violation.dimension != "in":
        return witness
    chord = math.dist(witness[0], witness[1])
    if abs(chord - violation.measured) <= 1e-6 * max(1.0, violation.measured):
        return witness  # the straight line is what was measured
    if math.dist(path[0], witness[0]) > 1e-6 or math.dist(path[-1], witness[1]) > 1e-6:
        return witness
    return path
