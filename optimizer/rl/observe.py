"""A fixed-size observation of one unit, the units nearest it and the terrain about it.

Every length is in the unit's frame (x to its right, y ahead, origin at its centre) divided
by `SCALE_IN`; angles are given as cosine and sine.  The vector (float32) holds, in order:

- the unit (8): table position x / width and y / depth, cos and sin of its facing (world),
  width, depth, the move it may make (Mobility or Movement), 1;
- the objective (4): its point (x, y; 0 without one), 1 when it has a point, 1 when larger
  values are better (`forward`);
- the `NEAREST` other units nearest it by centre (8 each, zeros where fewer): 1, 1 for an
  enemy (another player) else 0, centre x, y, cos and sin of its facing relative to the
  unit's, width, depth;
- the terrain (`GRID` x `GRID`, row by row from the rear left): at points `GRID_STEP_IN`
  apart centred on the unit, 1 where the point is impassable terrain or off the table, 0.5
  in other terrain, 0 in the open.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import shapely

from optimizer import Objective, Scenario

SCALE_IN = 24.0
NEAREST = 4
GRID = 9
GRID_STEP_IN = 2.0
SIZE = 8 + 4 + 8 * NEAREST + GRID * GRID
LIMIT = 100.0  # observations are clipped to [-LIMIT, LIMIT] (the space's bounds)


def observe(scenario: Scenario, unit_id: str, objective: Objective | None) -> np.ndarray:
    """The observation of `unit_id` (see the module's docstring)."""
    unit = scenario.unit(unit_id)
    (cx, cy), facing = unit.pose.centre, unit.pose.facing_deg
    field = scenario.battlefield
    ahead = math.radians(facing)
    out = [cx / field.width_in, cy / field.depth_in, math.cos(ahead), math.sin(ahead),
           unit.width_in / SCALE_IN, unit.depth_in / SCALE_IN, unit.mobility_in / SCALE_IN,
           1.0]
    out += _objective(objective, unit)
    out += _nearest(scenario, unit)
    out += _terrain(scenario, unit).tolist()
    return np.clip(np.asarray(out, dtype=np.float32), -LIMIT, LIMIT)


def _framed(unit: Any, points: np.ndarray) -> np.ndarray:
    """World points (N, 2) in the unit's frame, scaled."""
    cx, cy = unit.pose.centre
    ahead = math.radians(unit.pose.facing_deg)
    right = np.array([math.sin(ahead), -math.cos(ahead)])
    front = np.array([math.cos(ahead), math.sin(ahead)])
    rel = np.asarray(points, dtype=float) - (cx, cy)
    return np.stack([rel @ right, rel @ front], axis=1) / SCALE_IN


def _objective(objective: Objective | None, unit: Any) -> list[float]:
    if objective is None:
        return [0.0, 0.0, 0.0, 0.0]
    maximise = 1.0 if objective.maximise else 0.0
    if objective.point is None:
        return [0.0, 0.0, 0.0, maximise]
    x, y = _framed(unit, np.array([objective.point]))[0]
    return [float(x), float(y), 1.0, maximise]


def _nearest(scenario: Scenario, unit: Any) -> list[float]:
    others = sorted(scenario.others(unit.id),
                    key=lambda u: (math.dist(u.pose.centre, unit.pose.centre), u.id))
    out: list[float] = []
    for other in others[:NEAREST]:
        x, y = _framed(unit, np.array([other.pose.centre]))[0]
        turn = math.radians(other.pose.facing_deg - unit.pose.facing_deg)
        out += [1.0, 1.0 if other.player != unit.player else 0.0, float(x), float(y),
                math.cos(turn), math.sin(turn), other.width_in / SCALE_IN,
                other.depth_in / SCALE_IN]
    return out + [0.0] * (8 * NEAREST - len(out))


def _terrain(scenario: Scenario, unit: Any) -> np.ndarray:
    offsets = (np.arange(GRID) - (GRID - 1) / 2) * GRID_STEP_IN
    fx, fy = np.meshgrid(offsets, offsets, indexing="xy")  # row by row from the rear
    ahead = math.radians(unit.pose.facing_deg)
    right = np.array([math.sin(ahead), -math.cos(ahead)])
    front = np.array([math.cos(ahead), math.sin(ahead)])
    world = np.asarray(unit.pose.centre) + np.outer(fx.ravel(), right) + \
        np.outer(fy.ravel(), front)
    values = np.zeros(len(world))
    for feature in scenario.terrain:
        inside = shapely.intersects_xy(feature.shape, world[:, 0], world[:, 1])
        values = np.maximum(values, np.where(inside, 1.0 if feature.impassable else 0.5, 0.0))
    field = scenario.battlefield
    off = (world[:, 0] < 0) | (world[:, 1] < 0) | (world[:, 0] > field.width_in) | \
        (world[:, 1] > field.depth_in)
    values[off] = 1.0
    return values
