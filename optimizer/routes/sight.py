"""Line of Fire and a route's exposure, as public queries (docs/rules.md §13.10): the rules
module's answers (constraints.infinity.lof, .exposure) behind the system's gate."""

from __future__ import annotations

from typing import Any

from constraints.core.scenario import Scenario
from constraints.errors import InvalidInputError
from constraints.infinity.exposure import DEFAULT_SPACING_IN, Exposure
from constraints.infinity.lof import DEFAULT_MIN_VISIBLE_MM, LineOfFire
from optimizer.dispatch import require

MIN_SPACING_IN = 0.01


def line_of_fire(scenario: Scenario, viewer: str, target: str,
                 min_visible_mm: float = DEFAULT_MIN_VISIBLE_MM) -> LineOfFire:
    """Whether trooper `viewer` draws Line of Fire to trooper `target` (from its front 180°
    when it has a facing): `lof`, `in_arc`, `witness` (a clear segment), `all_around` (the
    viewer has no facing).  Sampled; see constraints.infinity.lof."""
    require(scenario, "line_of_fire")
    from constraints.infinity.lof import line_of_fire as decide

    return decide(scenario, viewer, target, min_visible_mm)


def route_exposure(scenario: Scenario, route: Any, spacing_in: float = DEFAULT_SPACING_IN,
                   min_visible_mm: float = DEFAULT_MIN_VISIBLE_MM) -> Exposure:
    """Each enemy's Line of Fire and Zone of Control stretches along a declared route, who
    may ARO (`aro_by`) and who only senses it (`zoc_by`).  LoF is sampled every
    `spacing_in` (the answer says so); the Zone of Control is exact."""
    require(scenario, "route_exposure")
    from constraints.infinity.exposure import route_exposure as expose
    from constraints.infinity.route import Route

    if not isinstance(route, Route):
        raise InvalidInputError(f"expected a Route, got {type(route).__name__}", path="route")
    if not isinstance(spacing_in, int | float) or not MIN_SPACING_IN <= spacing_in <= 2.0:
        raise InvalidInputError(f"the sampling spacing is {MIN_SPACING_IN:g} to 2 in",
                                path="spacing")
    return expose(scenario, route, float(spacing_in), min_visible_mm)
