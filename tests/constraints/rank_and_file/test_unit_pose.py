"""Unit.with_pose checks only the new pose (the rest was checked when the unit was made): it
must agree with the whole constructor (dataclasses.replace), the reference, on every pose."""

from __future__ import annotations

import math
from dataclasses import replace

import pytest

from constraints.core.scenario import Pose
from constraints.core.scenario_io import load_scenario
from constraints.errors import InvalidInputError
from tests.support import ROOT

SPEARS = load_scenario(ROOT / "examples" / "spears.json").unit("spears")


@pytest.mark.parametrize("pose", [
    Pose((1.0, 2.0), 90.0),
    Pose((1.0, 2.0), 450.0),       # facings wrap into [0, 360)
    Pose((0.0, 0.0), -1e-20),      # ... 0, not 360
    Pose([3, 4], 10),              # a list centre and whole numbers, as JSON gives them
])
def test_a_legal_pose_gives_the_unit_the_constructor_gives(pose):
    fast, reference = SPEARS.with_pose(pose), replace(SPEARS, pose=pose)
    assert fast == reference and fast.pose == reference.pose
    assert isinstance(fast.pose.centre, tuple)
    assert (fast.width_in, fast.depth_in) == (reference.width_in, reference.depth_in)
    assert SPEARS.pose == Pose((36.0, 10.0), 90.0)  # the unit moved is left as it was


@pytest.mark.parametrize("pose", [
    Pose((math.nan, 1.0), 0.0),
    Pose((1.0, math.inf), 0.0),
    Pose((1.0, 2.0), math.nan),
    Pose((1.0,), 0.0),
    (1.0, 2.0),
])
def test_a_bad_pose_is_refused_as_the_constructor_refuses_it(pose):
    with pytest.raises(InvalidInputError) as fast:
        SPEARS.with_pose(pose)
    with pytest.raises(InvalidInputError) as reference:
        replace(SPEARS, pose=pose)
    assert fast.value.path == reference.value.path
