"""Derived data of a search: the options of a manoeuvre and where each lets the centre go.

Budgets and windows come from the profile's clauses (each through `Clause.bound`), so a
profile that changes a limit changes the search without touching this module.
"""

from __future__ import annotations

import math

import numpy as np
import shapely
from shapely.geometry import Point

from constraints.core.cache import remembered
from constraints.core.scenario import Scenario
from constraints.geometry.frame import Frame
from constraints.rank_and_file.family_limits import FamilyLimits, family_limits
from constraints.rank_and_file.unit import Unit
from constraints.sat.lattice import Lattice
from constraints.sat.option import Option
from optimizer.families.options import (
    advance_options,
    march_options,
    reach_polygons,
    reform_options,
)


def options_for(scenario: Scenario, unit: Unit, manoeuvre: str,
                lattice: Lattice) -> tuple[list[Option], list[shapely.Geometry]]:
    """The manoeuvre's options and, per option, every end centre it allows (frame inches).

    Built once per (scenario, unit, manoeuvre, lattice): scenarios are immutable, so AI
    opponents querying the same position again pay nothing."""
    options, regions = remembered(scenario, ("options", unit.id, manoeuvre, lattice),
                                  lambda: _options_for(scenario, unit, manoeuvre, lattice))
    return list(options), list(regions)


def _options_for(scenario: Scenario, unit: Unit, manoeuvre: str,
                 lattice: Lattice) -> tuple[list[Option], list[shapely.Geometry]]:
    limits = family_limits(scenario.profile.clauses(manoeuvre), unit)
    frame = Frame(unit.pose.centre, unit.pose.facing_deg)
    if manoeuvre == "reform":
        return _reform(unit, lattice, limits)
    # Without a distance clause the family still needs a bound: the Valid Final Position
    # reach (2 x Mob) twice over is more than any legal move can use.
    budget = limits.budget_or(4.0 * unit.mobility_in)
    window = limits.window_or(90.0)
    build = march_options if manoeuvre == "march" else advance_options
    options = build(unit, frame, lattice, budget, window)
    return options, _triangles(options)


def _triangles(options: list[Option]) -> list[shapely.Geometry]:
    """Per option, its reach: a triangle, or a segment when it goes straight (one shapely
    call for all, vectorised)."""
    pts = reach_polygons(options)
    straight = np.array([o.wheel_deg == 0 for o in options], dtype=bool)
    out = np.empty(len(options), dtype=object)
    out[~straight] = shapely.polygons(pts[~straight])
    out[straight] = shapely.linestrings(pts[straight][:, :2])
    return list(out)


def _reform(unit: Unit, lattice: Lattice,
            limits: FamilyLimits) -> tuple[list[Option], list[shapely.Geometry]]:
    radius = limits.centre_reach_or(2.0 * unit.mobility_in)
    reach = unit.formation.model_count if limits.file_change is None else limits.file_change
    files = [f for f in range(1, unit.formation.model_count + 1) if abs(f - unit.files) <= reach]
    options = reform_options(unit, lattice, files)
    # Circumscribed, so it contains every centre the travel clause's inscribed polygon allows.
    disc = Point(0.0, 0.0).buffer(radius / math.cos(math.pi / 64), 64)
    return options, [disc] * len(options)


def bound_in(regions: list[shapely.Geometry]) -> float:
    """Largest distance of any allowed centre from the start centre."""
    origin = Point(0.0, 0.0)
    return max((shapely.hausdorff_distance(origin, r) for r in regions), default=0.0) + \
        math.ulp(1.0)
