"""What a unit's models walk around: other units and impassable terrain, as a path finder."""

from __future__ import annotations

from constraints.core.cache import remembered
from constraints.core.scenario import Scenario
from constraints.geometry.paths import PathFinder
from constraints.rank_and_file.unit import Unit


def path_finder(scenario: Scenario, unit_id: str, clearance_in: float) -> PathFinder:
    """Paths around everything `unit_id`'s models must avoid, with their centres kept
    `clearance_in` from it; built once per scenario, unit and clearance."""
    def build() -> PathFinder:
        return PathFinder([shape for _, shape in scenario.obstacles_for(unit_id)], clearance_in)
    return remembered(scenario, ("paths", unit_id, clearance_in), build)


def walking_clearance(unit: Unit, spacing_in: float) -> float:
    """How far a walking model's centre keeps from obstacles (docs/rules.md §8.9).

    The base keeps more than `spacing_in` from them and may turn as it walks, so its centre
    keeps half the base's smaller side more: a base passes a gap wider than its smaller side
    plus twice the spacing.
    """
    return spacing_in + min(unit.base.width_in, unit.base.depth_in) / 2.0


def walking_paths(scenario: Scenario, unit: Unit, spacing_in: float) -> PathFinder:
    """The path finder for `unit`'s walking models (the clearance of `walking_clearance`)."""
    return path_finder(scenario, unit.id, walking_clearance(unit, spacing_in))
