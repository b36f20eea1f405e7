"""The front centre's reach by heading of one request (constraints.rank_and_file.front_reach),
made when a certificate's end-position cut first asks for it and kept beside the scenario
(docs/techniques.md §9, "The front's reach by heading").

Only for a Snaking relaxation (a March or an Advance) whose profile keeps the Front Facing's
sweep clear of other units and Impassable Terrain (`t9a.snaking.front_spacing`).  Towards an
object the unit starts within the limit of (A20; touched: A21) the limit is lower: such an
object is left out, which only lets more through.
"""

from __future__ import annotations

import math

import shapely

from constraints.core.cache import remembered
from constraints.core.clause import KeepsClear, keeping_clear
from constraints.core.scenario import Scenario
from constraints.geometry.frame import Frame
from constraints.geometry.overlap import convex_parts
from constraints.rank_and_file.front_reach import FrontReach
from constraints.rank_and_file.snaking_reach import AdvanceReach, MarchReach
from constraints.rank_and_file.start_close import StartClose
from constraints.rank_and_file.unit import Unit


def front_reach(scenario: Scenario, unit: Unit, manoeuvre: str, relaxation: object,
                deadline: float | None = None) -> FrontReach | None:
    """The request's front reach (start frame of `unit`), or None: no such clause, no
    relaxation of this kind, nothing to keep clear of, or past the deadline (then it is
    made again when asked with time left)."""
    if not isinstance(relaxation, MarchReach | AdvanceReach):
        return None
    clause = keeping_clear(scenario.profile.clauses(manoeuvre), KeepsClear.FRONT_SWEEP)
    if clause is None:
        return None
    shape = relaxation.shape
    key = ("front_reach", unit.id, manoeuvre, shape.budget, shape.window_deg,
           isinstance(relaxation, AdvanceReach))
    found = remembered(scenario, key, lambda: _Slot())
    # Made again only for a later deadline than the one that cut it short (no work twice).
    again = found.reach is not None and not found.reach.finished and (
        deadline is None or found.deadline is not None and deadline > found.deadline)
    if found.reach is None or again:
        found.deadline = deadline
        limit = clause.number("spacing_in")
        frame = Frame(unit.pose.centre, unit.pose.facing_deg)
        close = StartClose.of(scenario, unit.id)
        obstacles = [piece for label, shape_ in scenario.obstacles_for(unit.id)
                     if close.limit(label, limit) >= limit
                     for part in shapely.get_parts(shapely.transform(shape_, frame.point_array))
                     if part.geom_type == "Polygon" and not part.is_empty
                     for piece in convex_parts(shapely.orient_polygons(part)
                                               if hasattr(shapely, "orient_polygons") else part)]
        if not obstacles:
            return None
        window = None if isinstance(relaxation, AdvanceReach) else shape.window
        reach = FrontReach(unit.width_in, unit.depth_in, shape.budget,
                           window if window is None or window < math.pi else None,
                           isinstance(relaxation, AdvanceReach), shape.psi, obstacles,
                           limit, deadline)
        found.reach = reach
    return found.reach if found.reach.usable else None


class _Slot:
    """A request's reach, once made (one cut short by its deadline is made again only under
    a later one)."""

    def __init__(self) -> None:
        self.reach: FrontReach | None = None
        self.deadline: float | None = None  # the deadline it was made under
