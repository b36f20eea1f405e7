"""The way search of T9A's Snaking family (an Advance or a March): ways of several wheels.

- a model of every way of up to K wheels, or of the ways near some stage headings
  (optimizer.search.ways.snaking_ways);
- candidate ways of two wheels by exact geometry (optimizer.search.ways.snaking_candidates);
- an Advance's answer refined on the lattice's degree (its options wheel on a coarser one).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy as np
import shapely

from constraints.sat.option import Option
from constraints.t9a.moves import Move
from optimizer.families.snaking import SnakingFamily, angles, snaking_options, triangles
from optimizer.search.geometric import geometric_answer
from optimizer.search.ways.base import WaySearchStrategy, register_ways, states_what_it_judges
from optimizer.search.ways.snaking_candidates import two_wheel_way
from optimizer.search.ways.snaking_ways import WaySearch, template_reach, templates

if TYPE_CHECKING:
    from constraints.core.verdict import Verdict
    from optimizer.search.clock import Clock
    from optimizer.search.request import SearchRequest

# An Advance's answer is refined over Pivots and wheels this close to its own (degrees).
REFINE_PIVOT_DEG = 10.0
REFINE_WHEEL_DEG = 15.0


class SnakingWays(WaySearchStrategy[Move]):
    """Ways of several wheels: candidates, templates, then one model."""

    def models_ways(self, request: SearchRequest) -> bool:
        """Each clause must say what it judges: its rows might otherwise hold for the end
        pose and not for the way."""
        return states_what_it_judges(request)

    def way_search(self, request: SearchRequest, wheels: int, deadline: float,
                   around: Sequence[Sequence[int]] | None = None, margin: int = 0,
                   start: Move | None = None) -> WaySearch | None:
        if not self.models_ways(request):
            return None
        return WaySearch(request, wheels, deadline, around, margin, start)

    def way_templates(self, request: SearchRequest, wheels: int, points: np.ndarray, count: int,
                      spread: int) -> list[list[int]]:
        return templates(request, wheels, points, count, spread)

    def way_candidates(self, request: SearchRequest, wheels: int, value: float | None,
                       deadline: float) -> tuple[Move, Verdict, dict[str, object]] | None:
        """The best legal way of two wheels on a coarse grid that beats `value`, by exact
        geometry per heading sequence, judged by the checker; None below two wheels."""
        if wheels < 2:
            return None
        return two_wheel_way(request, value, deadline)

    def refine_wheel(self, request: SearchRequest, move: Move,
                     clock: Clock | None = None) -> tuple[Move, Verdict] | None:
        """An Advance's answer of at most one wheel, its wheel on the lattice's degree:
        the options within REFINE_PIVOT_DEG of its Pivot and REFINE_WHEEL_DEG of its wheel,
        their best legal point by exact geometry (optimizer.search.geometric) with the
        checker's verdict; None for a March (its options are on the degree already), for
        ways of several wheels, or when no point judged is legal (the `clock`'s limit may
        cut it short: the answer then keeps its wheel as it was)."""
        family = request.family
        wheels = [s.value for s in move.steps if s.kind == "wheel"]
        if not family.pivots or len(wheels) > 1 or family.holds_ways(1, request.lattice):
            return None
        degree, limits = request.lattice.degree, request.limits
        turn, pivot = (wheels[0] if wheels else 0.0), move.pivot_deg
        pivots = sorted({_wrapped(pivot + d) for d in angles(degree, REFINE_PIVOT_DEG)})
        window = min(90.0, limits.window_or(90.0))
        spins = [t for t in angles(degree, window) if abs(t - turn) <= REFINE_WHEEL_DEG]
        options = snaking_options(request.unit, request.frame, pivots, spins,
                                  limits.budget_or(4.0 * request.unit.mobility_in))
        bounds = request.goal.bounds(options, triangles(options))
        found = geometric_answer(request, options, bounds, clock, share=1.0).answer
        return None if found is None else (found.move, found.verdict)

    def way_template_reach(self, request: SearchRequest, wheels: int, headings: Sequence[int]
                           ) -> tuple[Option | None, shapely.Geometry | None] | None:
        """A template's end facing and every end centre of its ways (None: unknown); None
        when no legal way follows it (optimizer.search.ways.snaking_ways.template_reach)."""
        return template_reach(request, wheels, headings)


def _wrapped(angle: float) -> float:
    """An angle in (-180, 180]."""
    wrapped = math.remainder(angle, 360.0)
    return 180.0 if wrapped == -180.0 else wrapped


register_ways(SnakingFamily, SnakingWays())
