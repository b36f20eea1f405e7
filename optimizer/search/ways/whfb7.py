"""The way search of Warhammer 7th's families (docs/rules.md §14.7).

- a move or march starts from exact geometry (optimizer.search.ways.whfb7_start) and, with
  more than one wheel asked for, searches prefixes (a wheel first, and a move's turn after
  it), one small model each (optimizer.search.ways.whfb7_prefix), best first by the
  relaxation's own points (the search's lattice points are T9A's parameters);
- a reform judges its options by the checker best first (optimizer.search.ways.whfb7_reform).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy as np
import shapely

from constraints.sat.option import Option
from constraints.whfb7.moves import WarhammerMove
from optimizer.families.snaking import angles
from optimizer.families.whfb7 import WarhammerReform, WarhammerWays
from optimizer.search.distance_goals import TargetDistance
from optimizer.search.heading_goals import Forward
from optimizer.search.ways.base import (
    Start,
    WaySearchStrategy,
    register_ways,
    states_what_it_judges,
)
from optimizer.search.ways.whfb7_prefix import PrefixRequest, PrefixSearch, prefix_of, templates
from optimizer.search.ways.whfb7_reform import reform_start
from optimizer.search.ways.whfb7_regions import way_regions
from optimizer.search.ways.whfb7_start import geometric_start

if TYPE_CHECKING:
    from optimizer.search.clock import Clock
    from optimizer.search.request import SearchRequest


class WarhammerWaySearch(WaySearchStrategy[WarhammerMove]):
    """A move's or march's prefixes of two wheels, each its own model."""

    template_points = False  # its templates come from its own relaxation's points

    def starting_answer(self, request: SearchRequest, options: list[Option],
                        reach: list[shapely.Geometry], clock: Clock) -> Start:
        """A legal answer by exact geometry and the options that might beat it."""
        return geometric_start(request, options, reach, clock)

    def models_ways(self, request: SearchRequest) -> bool:
        return states_what_it_judges(request)

    def way_templates(self, request: SearchRequest, wheels: int, points: np.ndarray, count: int,
                      spread: int) -> list[list[int]]:
        """The prefixes (pre wheel, turn) to search, best first by the relaxation."""
        step = request.lattice.degree
        return templates(request, step, [w for w in angles(step, 90.0) if w], count)

    def way_template_reach(self, request: SearchRequest, wheels: int, headings: Sequence[int]
                           ) -> tuple[Option | None, shapely.Geometry | None] | None:
        """Where a prefix's ways end: the union of its options' loose relaxed regions
        (optimizer.search.ways.whfb7_regions: every legal end centre of theirs lies in one),
        so the search leaves out a prefix that cannot beat its answer; None (unknown) for a
        goal that counts the end facing (the options' facings differ), and no region at all
        when no option has a legal end centre."""
        unit = request.unit
        whole = Option(0, unit.pose.facing_deg, 90.0, unit.files, unit.width_in,
                       unit.depth_in)
        if type(request.goal) not in (TargetDistance, Forward):
            return whole, None
        sub = PrefixRequest(request.scenario, request.unit_id, request.manoeuvre,
                            request.objective, request.lattice,
                            prefix=prefix_of(list(headings), request.lattice.degree))
        options, _ = sub.options()
        regions = way_regions(request.scenario, request.unit_id, request.manoeuvre,
                              request.frame)
        found = [r for r in (regions.of(o, outer=True, cells=False) for o in options)
                 if not r.is_empty]
        if not found:
            return None  # no legal way follows the prefix
        return whole, shapely.union_all(found)

    def way_search(self, request: SearchRequest, wheels: int, deadline: float,
                   around: Sequence[Sequence[int]] | None = None, margin: int = 0,
                   start: WarhammerMove | None = None) -> PrefixSearch | None:
        """One prefix's model (a template); None for anything wider (no model of the
        family's every way of several wheels)."""
        if around is None or len(around) != 1 or margin:
            return None
        return PrefixSearch(request, prefix_of(list(around[0]), request.lattice.degree),
                            deadline)


class WarhammerReformSearch(WaySearchStrategy[WarhammerMove]):
    """A reform's options judged by the checker best first; no ways."""

    def starting_answer(self, request: SearchRequest, options: list[Option],
                        reach: list[shapely.Geometry], clock: Clock) -> Start:
        return reform_start(request, options, clock)


register_ways(WarhammerWays, WarhammerWaySearch())
register_ways(WarhammerReform, WarhammerReformSearch())
