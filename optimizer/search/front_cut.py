"""The front centre's reach by heading of one request (constraints.rank_and_file.front_reach),
made when a certificate's end-position cut first asks for it and kept beside the scenario
(docs/techniques.md §9, "The front's reach by heading").

Only for a Snaking relaxation (a March or an Advance) whose profile keeps the Front Facing's
sweep clear of other units and Impassable Terrain (`t9a.snaking.front_spacing`).  Towards an
object the unit starts within the limit of (A20) the limit is its start distance, and towards
one it touches (A21) minus the contact tolerance: no overlap deeper than that
(`StartClose.relaxed`, at most the checker's limit).
"""

from __future__ import annotations

import math

import numpy as np
import shapely

from constraints.core.cache import remembered
from constraints.core.clause import KeepsClear, keeping_clear
from constraints.core.scenario import Scenario
from constraints.geometry.frame import Frame
from constraints.geometry.overlap import convex_parts
from constraints.rank_and_file.front_cone import FrontCone
from constraints.rank_and_file.front_layers import COARSE, FINE
from constraints.rank_and_file.front_reach import FrontReach
from constraints.rank_and_file.snaking_reach import AdvanceReach, MarchReach
from constraints.rank_and_file.start_close import StartClose
from constraints.rank_and_file.unit import Unit


def front_reach(scenario: Scenario, unit: Unit, manoeuvre: str, relaxation: object,
                deadline: float | None = None, fine: bool = False) -> FrontReach | None:
    """The request's front reach (start frame of `unit`), or None: no such clause, no
    relaxation of this kind, nothing to keep clear of, or past the deadline (then it is
    made again when asked with time left).  `fine`: the reach at the FINE resolution, kept
    within the coarse one (a March's only: an Advance's bands go all round)."""
    if not isinstance(relaxation, MarchReach | AdvanceReach) or \
            fine and not isinstance(relaxation, MarchReach):
        return None
    coarse = front_reach(scenario, unit, manoeuvre, relaxation, deadline) if fine else None
    if fine and coarse is None:
        return None
    clause = keeping_clear(scenario.profile.clauses(manoeuvre), KeepsClear.FRONT_SWEEP)
    if clause is None:
        return None
    shape = relaxation.shape
    key = ("front_reach", unit.id, manoeuvre, shape.budget, shape.window_deg,
           isinstance(relaxation, AdvanceReach), fine)
    found = remembered(scenario, key, lambda: _Slot())
    # Made again only for a later deadline than the one that cut it short (no work twice).
    again = found.reach is not None and not found.reach.finished and (
        deadline is None or found.deadline is not None and deadline > found.deadline)
    if found.reach is None or again:
        found.deadline = deadline
        limit = clause.number("spacing_in")
        pieces = front_pieces(scenario, unit, Frame(unit.pose.centre, unit.pose.facing_deg),
                              StartClose.of(scenario, unit.id), limit)
        if not pieces:
            return None
        obstacles, limits = [p for p, _ in pieces], [own for _, own in pieces]
        window = None if isinstance(relaxation, AdvanceReach) else shape.window
        reach = FrontReach(unit.width_in, unit.depth_in, shape.budget,
                           window if window is None or window < math.pi else None,
                           isinstance(relaxation, AdvanceReach), shape.psi, obstacles,
                           limit, deadline, limits, FINE if fine else COARSE, coarse)
        found.reach = reach
    return found.reach if found.reach.usable else None


def front_cone(scenario: Scenario, unit: Unit, manoeuvre: str,
               relaxation: object) -> FrontCone | None:
    """The request's front cone (constraints.rank_and_file.front_cone, start frame of
    `unit`), or None: not a March, no such clause, or nothing to keep clear of."""
    clause = keeping_clear(scenario.profile.clauses(manoeuvre), KeepsClear.FRONT_SWEEP)
    if not isinstance(relaxation, MarchReach) or clause is None:
        return None
    shape = relaxation.shape

    def made() -> FrontCone | None:
        pieces = front_pieces(scenario, unit, Frame(unit.pose.centre, unit.pose.facing_deg),
                              StartClose.of(scenario, unit.id), clause.number("spacing_in"))
        if not pieces:
            return None
        rho, most = unit.width_in / 2.0, math.pi / 2.0
        cost = unit.width_in * float(most / 2.0 + shape.psi(np.array(most))) / most
        # F moves along its path at most max(1, rho / cost) per inch of the budget (a wheel
        # moves it rho per radian for at least cost per radian: FrontReach.speed).
        reach = shape.budget * max(1.0, rho / cost)
        return FrontCone(unit.width_in, unit.depth_in, reach, [p for p, _ in pieces],
                         [own for _, own in pieces])

    return remembered(scenario, ("front_cone", unit.id, manoeuvre, shape.budget), made)


def front_pieces(scenario: Scenario, unit: Unit, frame: Frame, close: StartClose,
                 limit: float) -> list[tuple[np.ndarray, float]]:
    """The convex pieces (start frame) of what the front must clear, each with its limit.  An
    object the unit touches counts only where it is convex: the checker measures an overlap
    convex part by convex part, so a piece's depth speaks for it only when the piece is the
    whole object."""
    out = []
    for label, shape in scenario.obstacles_for(unit.id):
        own = close.relaxed(label, limit)
        for part in shapely.get_parts(shapely.transform(shape, frame.point_array)):
            if part.geom_type != "Polygon" or part.is_empty:
                continue
            parts = convex_parts(shapely.orient_polygons(part)
                                 if hasattr(shapely, "orient_polygons") else part)
            if own < 0 and len(parts) > 1:
                continue
            out += [(piece, own) for piece in parts]
    return out


class _Slot:
    """A request's reach, once made (one cut short by its deadline is made again only under
    a later one)."""

    def __init__(self) -> None:
        self.reach: FrontReach | None = None
        self.deadline: float | None = None  # the deadline it was made under
