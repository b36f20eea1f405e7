"""The least nudge against a slow, independent reference.

The reference knows nothing of configuration obstacles or event lines: it walks rays out of
the enemy's centre (in the nudged unit's frame) and bisects, with shapely overlap tests,
for the shifts at which the unit just stops overlapping the enemy: samples of every shift
that touches it.  Each sample is judged by the exact checker (both orders of legs).  The
solver must never be beaten by a sample, must find a nudge whenever a sample is legal, and
its own answer must pass the checker.
"""

from __future__ import annotations

import math
import random

import numpy as np
import pytest

from constraints.core.scenario import Pose
from constraints.geometry.frame import Frame
from constraints.rank_and_file.unit import Base
from constraints.t9a.clauses.nudge.checker import check_nudge
from constraints.t9a.clauses.nudge.context import legs_of
from optimizer.nudge.least import least_nudge
from tests.depth import rows
from tests.support import scenario, unit, wall

RAYS = 120


def _scene(seed: int):
    rng = random.Random(seed)
    base = Base(rng.choice([20.0, 25.0, 40.0]), rng.choice([20.0, 25.0, 50.0]))
    u = unit("U", models=rng.randint(2, 8), files=rng.randint(2, 4), base=base,
             centre=(36.0, 20.0), facing=rng.uniform(0.0, 360.0))
    frame = Frame(u.pose.centre, u.pose.facing_deg)
    # The enemy ahead of U's front, a little off, turned a little: not touching U.
    ahead = u.depth_in / 2.0 + rng.uniform(0.6, 1.5)
    e_local = (rng.uniform(-3.0, 3.0), ahead + rng.uniform(0.1, 0.8))
    e = unit("E", models=4, files=rng.randint(2, 4), player="blue",
             centre=frame.world(e_local),
             facing=u.pose.facing_deg + 180.0 + rng.uniform(-20.0, 20.0))
    others = [u, e]
    if seed % 2:
        others.append(unit("F", models=2, files=2, centre=frame.world(
            (rng.choice([-1, 1]) * (u.width_in / 2 + 1.2), 0.0)), facing=u.pose.facing_deg))
    terrain = ()
    if seed % 3 == 0:
        x, y = frame.world((rng.uniform(-4, 4), -u.depth_in / 2 - 1.5))
        terrain = (wall("rock", x - 0.7, y - 0.7, x + 0.7, y + 0.7),)
    scn = scenario(*others, terrain=terrain)
    if any(a.boundary().distance(b.boundary()) <= 1e-3 for a in scn.units for b in scn.units
           if a.id < b.id) or any(t.shape.distance(a.boundary()) <= 1e-3
                                  for t in scn.terrain for a in scn.units):
        return None
    return scn


def _touching_shifts(scn) -> np.ndarray:
    """Shifts (s, f) in U's frame at which U just touches E, by bisection along rays."""
    u, e = scn.unit("U"), scn.unit("E")
    frame = Frame(u.pose.centre, u.pose.facing_deg)
    inner = np.asarray(frame.point(e.pose.centre))
    found = []
    for k in range(RAYS):
        theta = 2 * math.pi * k / RAYS
        d = np.array([math.cos(theta), math.sin(theta)])
        lo, hi = 0.0, 40.0
        for _ in range(45):
            mid = (lo + hi) / 2
            if _placed(u, inner + mid * d).boundary().intersection(e.boundary()).area > 0:
                lo = mid
            else:
                hi = mid
        found.append(inner + hi * d)
    return np.array(found)


def _placed(u, shift):
    fx, fy = math.cos(math.radians(u.pose.facing_deg)), math.sin(math.radians(u.pose.facing_deg))
    s, f = shift
    x = u.pose.centre[0] + f * fx + s * fy
    y = u.pose.centre[1] + f * fy - s * fx
    return u.with_pose(Pose((x, y), u.pose.facing_deg))


@pytest.mark.parametrize("seed", rows(range(10), 6))
def test_least_nudge_against_the_reference(seed):
    scn = _scene(seed)
    if scn is None:
        pytest.skip("the random scene put two things in contact")
    previous = {"E": "front"}
    best_ref = math.inf
    for s, f in _touching_shifts(scn):
        for first in (True, False):
            if check_nudge(scn, "U", previous, legs_of(float(f), float(s), first)).legal:
                best_ref = min(best_ref, abs(s) + abs(f))
                break
    found = least_nudge(scn, "U", previous)
    if best_ref < math.inf:
        assert found is not None
    if found is not None:
        assert check_nudge(scn, "U", previous, found.legs).legal
        assert found.distance_in <= best_ref + 1e-6
