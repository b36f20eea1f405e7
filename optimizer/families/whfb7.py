"""Warhammer 7th's move families (docs/rules.md §14.11): the ways a whfb7 search enumerates.

- march: forward a, one wheel t (a multiple of the lattice's degree within +-90), forward b;
  the wheel costs the outer corner's arc W |t| (its chord with the profile's `wheel_chord`);
  a relaxation of every march with any number of wheels bounds the answer (`relaxation`).
- move: the same after an optional turn on the spot at the start (none, 90, -90, 180: each
  a different unit, `turned`, costing `turn_mob` x M).  Turns later in the move, and more
  wheels, are not searched, and no relaxation bounds them: OPTIMAL only at the objective's
  floor (optimizer.search.more_wheels).
- reform: the centre kept, every number of files and every facing on the lattice's degree.
Options are T9A's Snaking options (optimizer.families.snaking), costed by Warhammer's wheel.
There are no batch masks or regions for whfb7 yet: a search models every option.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import numpy as np
import shapely

from constraints.geometry.frame import Frame
from constraints.rank_and_file.family_limits import FamilyLimits
from constraints.rank_and_file.kinematics import arc, chord
from constraints.rank_and_file.snaking_reach import MarchReach, SnakingShape, psi_arc, psi_chord
from constraints.rank_and_file.unit import Unit
from constraints.sat.encoding import MoveEncoding
from constraints.sat.lattice import Lattice
from constraints.sat.option import Option
from constraints.whfb7.moves import Manoeuvre, WarhammerMove
from constraints.whfb7.ways import option_turn, reform_move, way_start, way_steps
from optimizer.families.base import Family, register_family
from optimizer.families.snaking import SnakingFamily, _triangles, _ways, angles, legs

MARCH_WAYS = "forward, one wheel on the lattice's degree (within +-90 deg), forward"
MOVE_WAYS = ("an optional turn on the spot at the start (90, -90 or 180), then forward, one "
             "wheel on the lattice's degree (within +-90 deg), forward; turns later in the "
             "move and further wheels are not searched")
# A march's relaxation boxes grow with the square of the heading window: past this window (a
# narrow unit with a long march) the bound is left out (FEASIBLE, not OPTIMAL).
MAX_WINDOW_DEG = 540.0
# The least a wheel's chord costs per radian of turn, over W (wheels of at most 90 deg):
# 2 sin(x / 2) >= x 2 sqrt(2) / pi.
CHORD_PER_RADIAN = 2.0 * math.sqrt(2.0) / math.pi


class WarhammerWays(SnakingFamily):
    """A whfb7 move (`turns`: the turns on the spot it may start with) or march."""

    prefilters = False
    holds_every_way = False

    def __init__(self, manoeuvre: str, turns: tuple[float, ...], description: str) -> None:
        super().__init__(manoeuvre, pivots=False)
        self.turns, self.description = turns, description

    def options(self, unit: Unit, frame: Frame, lattice: Lattice,
                limits: FamilyLimits) -> tuple[list[Option], list[shapely.Geometry]]:
        budget = limits.budget_or(2.0 * unit.mobility_in)
        cost = chord if limits.wheel_chord else arc
        wheels = angles(lattice.degree, 90.0)
        found: list[Option] = []
        for turn in self.turns:
            spent = (limits.turn_in or 0.0) if turn else 0.0
            found += _ways(way_start(unit, turn), frame, [0.0], wheels, budget, cost, spent,
                           first=len(found))
        return found, _triangles(found)

    def move(self, unit_id: str, frame: Frame, option: Option,  # type: ignore[override]
             centre: tuple[float, float]) -> WarhammerMove:
        a, b = legs(option, centre)
        return WarhammerMove(unit_id, Manoeuvre(self.manoeuvre),
                             steps=way_steps(option_turn(option), a, option.wheel_deg, b))

    def poses(self, unit: Unit, centres: np.ndarray, facings: np.ndarray,
              turns: np.ndarray | None, files: np.ndarray | None,
              tol: float) -> tuple[Any, Any]:
        raise NotImplementedError("whfb7 has no batch masks yet")

    def mask(self, judge: Any, world: np.ndarray, chosen: Sequence[Option],
             inverse: np.ndarray) -> np.ndarray:
        raise NotImplementedError("whfb7 has no batch masks yet")

    def stand_still(self, options: Sequence[Option], unit: Unit) -> int | None:
        """No turn, no wheel: straight ahead with legs of 0."""
        return next((o.index for o in options
                     if o.wheel_deg == 0 and o.frame_facing_deg == 90.0), None)

    def holds_ways(self, wheels: int, lattice: Lattice) -> bool:
        """No model of ways with several wheels for whfb7: the relaxation's bound stands."""
        return True

    def way_search(self, request: Any, wheels: int, deadline: float,
                   around: Sequence[Sequence[int]] | None = None, margin: int = 0,
                   start: Any = None) -> None:
        return None

    def relaxation(self, unit: Unit, limits: FamilyLimits) -> MarchReach | None:
        """A march: every march with any number of wheels, each of at most 90 deg, within the
        budget (constraints.rank_and_file.snaking_reach, with Warhammer's wheel cost).  Its
        heading never strays further than the budget's worth of wheels: B / W radians by the
        arc, B / (W x CHORD_PER_RADIAN) by the chord.  None for a move (turns change the
        unit: no relaxation yet)."""
        if self.turns != (0.0,) or limits.budget_in is None:
            return None
        per_radian = unit.width_in * (CHORD_PER_RADIAN if limits.wheel_chord else 1.0)
        window = math.degrees(limits.budget_in / per_radian)
        if window > MAX_WINDOW_DEG:
            return None
        shape = SnakingShape(unit.pose.centre, unit.pose.facing_deg, unit.width_in,
                             unit.depth_in, limits.budget_in, window,
                             psi_chord if limits.wheel_chord else psi_arc)
        return MarchReach(shape)


# The centre of a reform is kept: its region is this small square about the start centre
# (the family's rows pin the centre to it).
KEPT = shapely.box(-1e-3, -1e-3, 1e-3, 1e-3)


class WarhammerReform(Family):
    """Every number of files and every facing on the lattice's degree, about the centre."""

    manoeuvre = "reform"
    prefilters = False

    def options(self, unit: Unit, frame: Frame, lattice: Lattice,
                limits: FamilyLimits) -> tuple[list[Option], list[shapely.Geometry]]:
        found: list[Option] = []
        for files in range(1, unit.formation.model_count + 1):
            end = unit.formation.reformed(files)
            width, depth = files * unit.base.width_in, end.ranks * unit.base.depth_in
            for turn in angles(lattice.degree, 180.0)[1:]:
                found.append(Option(len(found), unit.pose.facing_deg + turn, 90.0 + turn,
                                    files, width, depth))
        return found, [KEPT] * len(found)

    def reach(self, option: Option, travel_disc: shapely.Geometry) -> shapely.Geometry:
        return KEPT

    def post_rows(self, enc: MoveEncoding, limits: FamilyLimits) -> None:
        enc.sat_model.add(enc.right_ticks == 0)
        enc.sat_model.add(enc.forward_ticks == 0)

    def move(self, unit_id: str, frame: Frame, option: Option,
             centre: tuple[float, float]) -> WarhammerMove:
        return reform_move(unit_id, option)

    def poses(self, unit: Unit, centres: np.ndarray, facings: np.ndarray,
              turns: np.ndarray | None, files: np.ndarray | None,
              tol: float) -> tuple[Any, Any]:
        raise NotImplementedError("whfb7 has no batch masks yet")

    def mask(self, judge: Any, world: np.ndarray, chosen: Sequence[Option],
             inverse: np.ndarray) -> np.ndarray:
        raise NotImplementedError("whfb7 has no batch masks yet")

    def stand_still(self, options: Sequence[Option], unit: Unit) -> int | None:
        return next((o.index for o in options if o.files == unit.files
                     and o.frame_facing_deg == 90.0), None)


register_family("whfb7", "march", WarhammerWays("march", (0.0,), MARCH_WAYS))
register_family("whfb7", "move", WarhammerWays("move", (0.0, 90.0, -90.0, 180.0), MOVE_WAYS))
register_family("whfb7", "reform", WarhammerReform())
