"""Everything a whfb7 rule clause needs to judge one move, computed once and shared."""

from __future__ import annotations

from functools import cached_property

import shapely
from shapely.geometry import Polygon

from constraints.core.profile import RulesProfile
from constraints.core.scenario import Pose, Scenario
from constraints.rank_and_file.kinematics import Costs, Trajectory, arc, chord, snake
from constraints.rank_and_file.sweeps import unit_sweep_parts
from constraints.rank_and_file.unit import Unit
from constraints.whfb7.moves import WarhammerMove


def costs_for(mobility_in: float, turn_mob: float, wheel_chord: bool) -> Costs:
    """What a wheel and a turn cost a unit of Move `mobility_in` (docs/rules.md §14): the
    outer corner's arc (or its chord, a profile option), and `turn_mob` x M per turn."""
    return Costs(wheel=chord if wheel_chord else arc, turn_in=turn_mob * mobility_in)


class WarhammerContext:
    """A move of one unit in one scenario: start, trajectory, end, the area it covers."""

    def __init__(self, scenario: Scenario, move: WarhammerMove) -> None:
        self.scenario = scenario
        self.move = move
        self.unit: Unit = scenario.unit(move.unit)
        self.profile: RulesProfile = scenario.profile

    def trajectory_with(self, costs: Costs) -> Trajectory:
        """The steps as executed, each leg costed by `costs` (the poses do not depend on
        them)."""
        return snake(self.unit, 0.0, self.move.steps, costs)

    @cached_property
    def trajectory(self) -> Trajectory:
        return self.trajectory_with(costs_for(self.unit.mobility_in, 0.0, False))

    @cached_property
    def end_unit(self) -> Unit:
        """The unit at the end: after its steps (a turn changes its files), or reformed about
        its centre."""
        if not self.move.manoeuvre.steps:
            files, facing = self.move.files, self.move.facing_deg
            assert files is not None and facing is not None  # a reform gives both
            return self.unit.with_formation(self.unit.formation.reformed(files)).with_pose(
                Pose(self.unit.pose.centre, facing))
        trajectory = self.trajectory
        formation = trajectory.formation or self.unit.formation
        return self.unit.with_formation(formation).with_pose(trajectory.end)

    @cached_property
    def covered(self) -> tuple[shapely.Geometry, ...]:
        """What the unit covers throughout a move or march (start, every step, end), or at
        the end of a reform (its models rearrange inside and around it: docs/rules.md §14),
        as parts measured one by one (constraints.geometry.parts), never their union."""
        if not self.move.manoeuvre.steps:
            return (self.end_unit.boundary(),)
        return tuple(unit_sweep_parts(self.unit, self.move.steps))

    @cached_property
    def obstacles(self) -> list[tuple[str, Polygon]]:
        """(label, shape) of other units, friend or foe, and impassable terrain."""
        return self.scenario.obstacles_for(self.unit.id)

    @property
    def mobility_in(self) -> float:
        """The unit's Move characteristic, M."""
        return self.unit.mobility_in
