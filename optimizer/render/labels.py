"""What pictures say: the line that shows a measurement, and the path a unit's centre takes.

Players know rules by name (docs/rules.md), not by clause id; pictures name the rule (its
profile's name for it, constraints.core.profile.rule_name) and keep the id beside it.  A
measurement's witness is the polyline the clause gives, except where that line is only a
chord of what was measured: a Snaking distance is measured along the steps, so the centre's
own path is drawn.
"""

from __future__ import annotations

import math

import numpy as np

from constraints.core.scenario import Scenario
from constraints.core.verdict import Violation
from constraints.geometry.plane import Point
from constraints.rank_and_file.kinematics import advance_step
from constraints.t9a.context import MoveContext
from constraints.t9a.moves import Move, Step, StepKind

WHEEL_SAMPLES = 16  # points per wheel on a drawn path


def witness_line(scenario: Scenario, move: Move, violation: Violation) -> list[Point]:
    """The line to draw for a violation's measurement: its witness, or the path of the unit's
    centre when the witness is only the chord from start to end of a measured path."""
    witness = list(violation.witness)
    if len(witness) != 2 or not move.manoeuvre.snaking or not move.steps \
            or violation.dimension != "in":
        return witness
    chord = math.dist(witness[0], witness[1])
    if abs(chord - violation.measured) <= 1e-6 * max(1.0, violation.measured):
        return witness  # the straight line is what was measured
    path = centre_path(scenario, move)
    if math.dist(path[0], witness[0]) > 1e-6 or math.dist(path[-1], witness[1]) > 1e-6:
        return witness
    return path


def centre_path(scenario: Scenario, move: Move) -> list[Point]:
    """The centre of the Unit Boundary through the move's steps: straight forwards, wheels
    as arcs (sampled)."""
    trajectory = MoveContext(scenario, move).trajectory
    width, depth = trajectory.width_in, trajectory.depth_in
    path: list[Point] = [trajectory.after_pivot.centre]
    for leg in trajectory.legs:
        if leg.step.kind is StepKind.WHEEL:
            for part in np.linspace(0.0, 1.0, WHEEL_SAMPLES + 1)[1:-1]:
                step = Step(StepKind.WHEEL, float(leg.step.value * part))
                path.append(advance_step(leg.before, step, width, depth).after.centre)
        path.append(leg.after.centre)
    return path
