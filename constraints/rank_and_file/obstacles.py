"""What a unit's models walk around: other units and impassable terrain, as a path finder."""

from __future__ import annotations

from constraints.core.cache import remembered
from constraints.core.scenario import Scenario
from constraints.geometry.paths import PathFinder


def path_finder(scenario: Scenario, unit_id: str, clearance_in: float) -> PathFinder:
    """Paths around everything `unit_id`'s models must avoid, built once per scenario."""
    def build() -> PathFinder:
        return PathFinder([shape for _, shape in scenario.obstacles_for(unit_id)], clearance_in)
    return remembered(scenario, ("paths", unit_id, clearance_in), build)
