"""Warhammer 7th's move families (docs/rules.md §14.7): the ways a whfb7 search enumerates.

- march: forward a, one wheel t (a multiple of the lattice's degree within +-90), forward b;
  the wheel costs the outer corner's arc W |t| (its chord with the profile's `wheel_chord`);
  a relaxation of every march with any number of wheels bounds the answer (`relaxation`).
- move: the same after an optional turn on the spot at the start (none, 90, -90, 180: each
  a different unit, `turned`, costing `turn_mob` x M); a relaxation of every move (any
  turns and wheels in any order, constraints.whfb7.reach) bounds the answer.
- with more than one wheel asked for (`max_wheels`, default 3), when the bound is not met:
  ways with a wheel first (and a move's turn after it), then the way above
  (optimizer.search.ways.whfb7_prefix, through its way search): a sidestep
  (wheel, forward, wheel back), a wheel before a turn.  Turns after a forward step or a
  wheel but the first, and third wheels, are not searched (docs/rules.md §14.7).
- reform: the centre kept, every number of files and every facing on the lattice's degree.
Options are T9A's Snaking options (optimizer.families.snaking), costed by Warhammer's wheel.
A search starts from exact geometry (optimizer.search.ways.whfb7: whfb7_start for a move or
march, whfb7_reform for a reform) and models only the options that might beat it.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import replace
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
from constraints.whfb7 import SYSTEM
from constraints.whfb7.masks import WarhammerJudge
from constraints.whfb7.moves import Manoeuvre, WarhammerMove
from constraints.whfb7.reach import MoveReach
from constraints.whfb7.ways import (
    option_pre_wheel,
    option_turn,
    reform_move,
    way_start,
    way_steps,
)
from optimizer.families.base import Family, register_family
from optimizer.families.snaking import SnakingFamily, angles, legs, snaking_options, triangles

MARCH_WAYS = "forward, one wheel on the lattice's degree (within +-90 deg), forward"
MOVE_WAYS = ("an optional turn on the spot at the start (90, -90 or 180), then forward, one "
             "wheel on the lattice's degree (within +-90 deg), forward; with more wheels, a "
             "wheel before the turn too; turns later in the move are not searched")
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
    judge_kind = WarhammerJudge
    many_ways_per_end = True

    def __init__(self, manoeuvre: str, turns: tuple[float, ...], description: str) -> None:
        super().__init__(manoeuvre, pivots=False)
        self.turns, self.description = turns, description

    def options(self, unit: Unit, frame: Frame, lattice: Lattice,
                limits: FamilyLimits) -> tuple[list[Option], list[shapely.Geometry]]:
        found: list[Option] = []
        for turn in self.turns:
            found += self.prefix_options(unit, frame, lattice, limits, 0.0, turn,
                                         first=len(found))[0]
        return found, triangles(found)

    def prefix_options(self, unit: Unit, frame: Frame, lattice: Lattice,
                       limits: FamilyLimits, pre: float, turn: float,
                       first: int = 0) -> tuple[list[Option], list[shapely.Geometry]]:
        """The ways after one prefix: the wheel `pre`, then the turn (either may be 0),
        then forward, one wheel on the lattice's degree, forward (the prefix wheel is the
        option's `pivot_deg`, constraints.whfb7.ways)."""
        budget = limits.budget_or(2.0 * unit.mobility_in)
        cost = chord if limits.wheel_chord else arc
        spent = ((limits.turn_in or 0.0) if turn else 0.0) + cost(unit.width_in, pre)
        if spent > budget:
            return [], []
        ways = snaking_options(way_start(unit, turn, pre), frame, [0.0],
                               angles(lattice.degree, 90.0), budget, cost, spent, first=first)
        if pre:
            ways = [replace(o, pivot_deg=pre) for o in ways]
        return ways, triangles(ways)

    def move(self, unit_id: str, frame: Frame, option: Option,  # type: ignore[override]
             centre: tuple[float, float]) -> WarhammerMove:
        a, b = legs(option, centre)
        return WarhammerMove(unit_id, Manoeuvre(self.manoeuvre),
                             steps=way_steps(option_turn(option), a, option.wheel_deg, b,
                                             option_pre_wheel(option)))

    def post_rows(self, enc: MoveEncoding, limits: FamilyLimits) -> None:
        """Snaking's rows, and a + b within what the prefix and the wheel leave of the
        budget for the options with a wheel before their turn (the distance clause's rows
        charge the wheel and the turn only)."""
        super().post_rows(enc, limits)
        if limits.budget_in is None:
            return  # Snaking's rows hold the family's own budget already
        for option, lit in zip(enc.options, enc.option_vars, strict=True):
            if option_pre_wheel(option):
                a, b = option.a_map, option.b_map
                enc.affine_row((a[0] + b[0], a[1] + b[1], a[2] + b[2]), option.spare_in, [lit])

    def poses(self, unit: Unit, centres: np.ndarray, facings: np.ndarray,
              turns: np.ndarray | None, files: np.ndarray | None,
              tol: float) -> tuple[Any, Any]:
        """The searched ways to the poses (each after its turn on the spot, `turns`, default
        none): per turn the rows it holds and their ways and legs, and whether each pose's
        way exists (constraints.whfb7.masks; the rules' limits are the judge's)."""
        from constraints.whfb7.way_poses import turn_poses
        return turn_poses(unit, centres, facings, turns)

    def mask(self, judge: Any, world: np.ndarray, chosen: Sequence[Option],
             inverse: np.ndarray) -> np.ndarray:
        """`judge.mask` (a constraints.whfb7.masks.WarhammerJudge) of the options' poses,
        each with its option's prefix (a wheel, then a turn on the spot)."""
        from constraints.whfb7.ways import option_pre_wheel
        facings = np.array([o.facing_deg for o in chosen])[inverse]
        turns = np.array([option_turn(o) for o in chosen])[inverse]
        pres = np.array([option_pre_wheel(o) for o in chosen])[inverse]
        return np.asarray(judge.mask(world, facings, turns=turns, pre_wheels=pres))

    def stand_still(self, options: Sequence[Option], unit: Unit) -> int | None:
        """No turn, no wheel: straight ahead with legs of 0."""
        return next((o.index for o in options if o.wheel_deg == 0 and
                     not option_pre_wheel(o) and o.frame_facing_deg == 90.0), None)

    def holds_ways(self, wheels: int, lattice: Lattice) -> bool:
        """The options hold ways of one wheel (after a move's turn); with more wheels
        asked for, the ways with a wheel before (optimizer.search.ways.whfb7_prefix) are
        searched when the bound is not met."""
        return wheels <= 1

    def relaxation(self, unit: Unit, limits: FamilyLimits) -> MarchReach | MoveReach | None:
        """A march: every march with any number of wheels, each of at most 90 deg, within the
        budget (constraints.rank_and_file.snaking_reach, with Warhammer's wheel cost).  Its
        heading never strays further than the budget's worth of wheels: B / W radians by the
        arc, B / (W x CHORD_PER_RADIAN) by the chord.  A move: every move of forward steps,
        wheels and turns in any order (constraints.whfb7.reach, docs/rules.md §14.7), with
        the arc's cost (none with the chord option, or when a turn costs nothing)."""
        if limits.budget_in is None:
            return None
        if self.turns != (0.0,):
            if limits.wheel_chord or not limits.turn_in or limits.turn_in <= 0:
                return None
            return MoveReach(unit, limits.budget_in, limits.turn_in)
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
    judge_kind = WarhammerJudge
    many_ways_per_end = True

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
        """A reform keeps the centre: the poses (files per pose, default the unit's), and
        whether each is a reform at all (its centre the start's, its files the models')."""
        chosen = np.full(len(facings), unit.files) if files is None else np.asarray(files)
        kept = np.hypot(*(np.asarray(centres) - np.asarray(unit.pose.centre)).T) <= 1e-9
        return chosen, kept & (chosen >= 1) & (chosen <= unit.formation.model_count)

    def mask(self, judge: Any, world: np.ndarray, chosen: Sequence[Option],
             inverse: np.ndarray) -> np.ndarray:
        """`judge.mask` (a constraints.whfb7.masks.WarhammerJudge) of the options' poses."""
        facings = np.array([o.facing_deg for o in chosen])[inverse]
        files = np.array([o.files for o in chosen])[inverse]
        return np.asarray(judge.mask(world, facings, files=files))

    def stand_still(self, options: Sequence[Option], unit: Unit) -> int | None:
        return next((o.index for o in options if o.files == unit.files
                     and o.frame_facing_deg == 90.0), None)


register_family(SYSTEM.name, Manoeuvre.MARCH, WarhammerWays("march", (0.0,), MARCH_WAYS))
register_family(SYSTEM.name, Manoeuvre.MOVE,
                WarhammerWays("move", (0.0, 90.0, -90.0, 180.0), MOVE_WAYS))
register_family(SYSTEM.name, Manoeuvre.REFORM, WarhammerReform())
