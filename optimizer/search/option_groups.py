"""Bounds over groups of a Reform's options: one region for a run of facings (docs/techniques.md
§8, "Groups of facings").

A Reform has an option per files and lattice facing (2,520 at 1 deg), and a relaxed region
costs a few milliseconds, so bounding every option one by one costs seconds where the
objective does not tell the facings apart (the centre's distance to a point, how far forward
it ends).  A group (one number of files, facings in [c - d, c + d]) gets one region that holds
every legal end centre of each of its options: the travel disc, the table and Unit Spacing
judged for the rectangle that every member's end rectangle holds, and the formation.

Why that holds them.  Let R(t) be the end rectangle (width W, depth D, half-diagonal r) at
facing t about the end centre, and E the rectangle R(c) shrunk by r d on every side.  A point
q of E lies within r of the centre, so turning it by t - c (|t - c| <= d) moves it by at most
r d, which keeps it in R(c): so E lies in R(t) for every member t.  If E is empty, the square
inscribed in the disc of radius min(W, D) / 2 is used: the disc lies in every R(t).  Unit
Spacing and the table are monotone in the shape (a shape inside a legal end rectangle is more
than the gap from every obstacle and on the table too), so a legal member's centre passes
them for E: it lies in the region the relaxed regions (`CentreRegions(outer=True)`) give E.
Valid Final Position is left out (an end corner of E is not an end corner of the unit), and
the clauses without regions are, as in every relaxed region.  Only the clauses that say so
(`Clause.monotone_in_shape`) cut the region: leaving a clause out only grows it, so a clause
that does not say loosens the bound and never breaks it.
"""

from __future__ import annotations

import math
from dataclasses import replace

import shapely

from constraints.core.scenario import Scenario
from constraints.rank_and_file.unit import Unit
from constraints.sat.option import Option
from optimizer.search.objectives import Goal
from optimizer.search.regions import CentreRegions

GROUP_SIZE = 64  # facings in a first group (then halved, best first)
EMPTY_SIDE = 1e-6


def facing_runs(options: list[Option], size: int = GROUP_SIZE) -> list[tuple[int, ...]]:
    """The options (their places in `options`) cut into runs of at most `size` facings in
    order, one number of files each."""
    by_files: dict[int, list[int]] = {}
    for k, option in enumerate(options):
        by_files.setdefault(option.files, []).append(k)
    runs = []
    for files in sorted(by_files):
        row = sorted(by_files[files], key=lambda k: (options[k].frame_facing_deg, k))
        runs += [tuple(row[n:n + size]) for n in range(0, len(row), size)]
    return runs


def halves(members: tuple[int, ...]) -> list[tuple[int, ...]]:
    """A run cut in two runs of consecutive facings."""
    mid = len(members) // 2
    return [members[:mid], members[mid:]]


def shared_shape(options: list[Option], members: tuple[int, ...]) -> Option:
    """An option standing for the group: its middle facing and a rectangle that every
    member's end rectangle holds (the module docstring)."""
    first = options[members[0]]
    facings = [options[k].frame_facing_deg for k in members]
    low, high = min(facings), max(facings)
    middle, spread = (low + high) / 2.0, math.radians(high - low) / 2.0
    width, depth = first.width_in, first.depth_in
    reach = math.hypot(width, depth) / 2.0 * spread
    half_w, half_d = width / 2.0 - reach, depth / 2.0 - reach
    if min(half_w, half_d) <= EMPTY_SIDE:  # the square inside the inscribed disc
        half_w = half_d = min(width, depth) / (2.0 * math.sqrt(2.0))
    return replace(first, facing_deg=first.facing_deg + (middle - first.frame_facing_deg),
                   frame_facing_deg=middle, width_in=2.0 * half_w, depth_in=2.0 * half_d)


class GroupRegions:
    """Regions holding every legal end centre of a group's options (the module docstring)."""

    def __init__(self, scenario: Scenario, unit: Unit, manoeuvre: str, goal: Goal) -> None:
        assert goal.centre_only, goal.name
        self.goal = goal
        self.regions = CentreRegions(scenario, unit, manoeuvre, outer=True)
        self.regions.clauses = [c for c in self.regions.clauses if c.monotone_in_shape]

    def of(self, options: list[Option], members: tuple[int, ...]) -> shapely.Geometry:
        """The group's region (empty: no member has a legal end centre)."""
        return self.regions.of(shared_shape(options, members))

    def bound(self, options: list[Option], members: tuple[int, ...],
              region: shapely.Geometry) -> float:
        """The goal's bound over the group's region (a goal that reads the centre alone,
        `Goal.centre_only`: the same for every member)."""
        return float(self.goal.bounds([options[members[0]]], [region])[0])
