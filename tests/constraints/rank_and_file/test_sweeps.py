"""The whole unit's swept area (Warhammer's 1" rule) against a reference: the unit drawn at
many poses along each step.  The sweep must hold every sampled pose (it is circumscribed) and
exceed their union by no more than a sliver."""

from __future__ import annotations

import numpy as np
import pytest
import shapely
from shapely.geometry import Polygon

from constraints.core.scenario import Pose
from constraints.geometry.plane import rotate_about
from constraints.rank_and_file.formation import Formation
from constraints.rank_and_file.steps import Step, forward, turn, wheel
from constraints.rank_and_file.sweeps import segment_sweep, unit_sweep, wheel_area
from constraints.rank_and_file.turns import turned
from constraints.rank_and_file.unit import Base, Unit

SAMPLES = 400
REACH = 12.0  # inches: farther than any corner of these units from a pivot


def block(files: int = 5, models: int = 15, base: tuple[float, float] = (25.0, 25.0),
          facing: float = 90.0) -> Unit:
    return Unit("u", "red", Base(*base), Formation(files, models), Pose((20.0, 20.0), facing),
                4.0)


def sampled(unit: Unit, steps: tuple[Step, ...]) -> shapely.Geometry:
    """The reference: the unit at SAMPLES poses along every forward and wheel step, and its
    boundary before and after every turn."""
    shapes = [unit.boundary()]
    for step in steps:
        if step.kind == "turn":
            unit = turned(unit, step.value)
            shapes.append(unit.boundary())
            continue
        corners = unit.corners()
        for s in np.linspace(0.0, 1.0, SAMPLES):
            if step.kind == "forward":
                d = np.array(unit_vector(unit.pose.facing_deg)) * step.value * s
                shapes.append(Polygon([(x + d[0], y + d[1]) for x, y in corners]))
            else:
                pivot = corners[0] if step.value > 0 else corners[1]
                shapes.append(Polygon([rotate_about(c, pivot, step.value * s)
                                       for c in corners]))
        unit = _after(unit, step)
    return shapely.union_all(shapes)


def unit_vector(facing: float) -> tuple[float, float]:
    r = np.radians(facing)
    return float(np.cos(r)), float(np.sin(r))


def _after(unit: Unit, step: Step) -> Unit:
    corners = unit.corners()
    if step.kind == "forward":
        dx, dy = unit_vector(unit.pose.facing_deg)
        x, y = unit.pose.centre
        return unit.with_pose(Pose((x + dx * step.value, y + dy * step.value),
                                   unit.pose.facing_deg))
    pivot = corners[0] if step.value > 0 else corners[1]
    return unit.with_pose(Pose(rotate_about(unit.pose.centre, pivot, step.value),
                               unit.pose.facing_deg + step.value))


@pytest.mark.parametrize("steps", [
    (forward(3.0),),
    (wheel(90.0),),
    (wheel(-45.0), forward(2.0), wheel(30.0)),
    (forward(1.0), wheel(-90.0), wheel(-90.0)),
], ids=["forward", "wheel left 90", "S", "about turn by wheels"])
@pytest.mark.parametrize("base", [(25.0, 25.0), (25.0, 50.0)])
def test_the_sweep_holds_every_pose_and_little_else(steps, base):
    unit = block(base=base)
    sweep = unit_sweep(unit, steps)
    reference = sampled(unit, steps)
    assert reference.difference(sweep).area < 1e-9
    # Between two sampled poses a corner moves at most REACH x the sample step: within that
    # of the samples, the sweep holds nothing more.
    step = np.radians(max((abs(s.value) for s in steps if s.kind == "wheel"), default=0.0))
    slack = REACH * step / (SAMPLES - 1) + max((s.value for s in steps if s.kind == "forward"),
                                              default=0.0) / (SAMPLES - 1)
    assert sweep.difference(reference.buffer(slack + 1e-6)).area < 1e-9


def test_a_turn_covers_each_model_turning_where_it_stands():
    unit = block(files=5, models=12)
    sweep = unit_sweep(unit, (turn(90.0),))
    assert sweep.contains(unit.boundary()) and sweep.contains(turned(unit, 90.0).boundary())
    corner = unit.corners()[0]  # the front-left model's corner swings out as it turns
    half = 25.0 / 25.4 / 2.0
    model = unit.model_positions()[0]
    swung = rotate_about(corner, tuple(model), 45.0)
    assert np.hypot(swung[0] - model[0], swung[1] - model[1]) == pytest.approx(half * 2 ** 0.5)
    assert sweep.buffer(1e-9).contains(shapely.Point(swung))
    assert not unit.boundary().buffer(1e-9).contains(shapely.Point(swung))


def test_a_segment_through_the_foot_of_the_perpendicular_is_split():
    pieces = segment_sweep((-1.0, 1.0), (1.0, 1.0), (0.0, 0.0), 30.0)
    assert len(pieces) == 2
    whole = wheel_area(((-1.0, 1.0), (1.0, 1.0), (1.0, 2.0), (-1.0, 2.0)), (0.0, 0.0), 30.0)
    assert whole.is_valid and whole.area > 2.0
