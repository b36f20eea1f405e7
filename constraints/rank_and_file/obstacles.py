"""What a unit's models walk around: other units and impassable terrain, as a path finder."""

from __future__ import annotations

import math

import shapely

from constraints.core.cache import remembered
from constraints.core.scenario import Scenario
from constraints.geometry.paths import ROUNDING_IN, PathFinder, grown
from constraints.rank_and_file.start_close import HAIR_IN, StartClose
from constraints.rank_and_file.unit import Unit

NEAR_ROOM_IN = 0.01  # kept obstacles reach this much past the exact reach, for float noise


def path_finder(scenario: Scenario, unit_id: str, clearance_in: float,
                reach_in: float = math.inf) -> PathFinder:
    """Paths around everything `unit_id`'s models must avoid, with their centres kept
    `clearance_in` from it; built once per scenario, unit, clearance and reach.

    Obstacles farther than `reach_in` + `clearance_in` from the unit are left out: a walk no
    longer than `reach_in` from a start inside the unit never comes near them, so every path
    of at most that length, and every verdict "at most that length", is exact; a longer path
    may be measured shorter, but never down to `reach_in` (its shortening would be a walk
    within reach, which the left-out obstacles cannot touch)."""
    def build() -> PathFinder:
        here = scenario.unit(unit_id).boundary()
        near = [shape for _, shape in scenario.obstacles_for(unit_id)
                if shape.distance(here) <= reach_in + clearance_in + NEAR_ROOM_IN]
        return PathFinder(near, clearance_in)
    return remembered(scenario, ("paths", unit_id, clearance_in, reach_in), build)


def walking_clearance(unit: Unit, spacing_in: float) -> float:
    """How far a walking model's centre keeps from obstacles (docs/rules.md §8.9).

    The base keeps more than `spacing_in` from them and may turn as it walks, so its centre
    keeps half the base's smaller side more: a base passes a gap wider than its smaller side
    plus twice the spacing.
    """
    return spacing_in + min(unit.base.width_in, unit.base.depth_in) / 2.0


def walking_paths(scenario: Scenario, unit: Unit, spacing_in: float,
                  reach_in: float = math.inf) -> PathFinder:
    """The path finder for `unit`'s walking models (the clearance of `walking_clearance`),
    exact for walks of at most `reach_in` (see `path_finder`).

    A20: towards an object the unit starts within `spacing_in` of, a model keeps the unit's
    start distance instead (less the grown outline's ROUNDING_IN, so that no model starts
    inside it), and one touched at the start only its own base (no overlap beyond a hair)."""
    close = StartClose.of(scenario, unit.id)
    if not close.any_close(spacing_in):
        return path_finder(scenario, unit.id, walking_clearance(unit, spacing_in), reach_in)
    half = min(unit.base.width_in, unit.base.depth_in) / 2.0

    def build() -> PathFinder:
        here = scenario.unit(unit.id).boundary()
        zones = []
        for label, shape in scenario.obstacles_for(unit.id):
            limit = close.limit(label, spacing_in)
            keep = spacing_in if limit >= spacing_in else \
                max(close.gaps[label] - ROUNDING_IN, 0.0) - HAIR_IN
            if shape.distance(here) <= reach_in + half + keep + NEAR_ROOM_IN:
                zones.append(grown([shape], half + keep))
        return PathFinder.around(shapely.union_all(zones)) if zones else PathFinder([], 0.0)
    return remembered(scenario, ("paths_a20", unit.id, spacing_in, half, reach_in), build)
