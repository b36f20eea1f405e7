"""Everything a rule clause needs to judge one move, computed once and shared."""

from __future__ import annotations

from functools import cached_property

from shapely.geometry import Polygon

from constraints.core.profile import RulesProfile
from constraints.core.scenario import Pose, Scenario
from constraints.rank_and_file.formation import Formation
from constraints.rank_and_file.kinematics import Trajectory, snake
from constraints.rank_and_file.unit import Unit
from constraints.t9a.moves import Move


class MoveContext:
    """A move of one unit in one scenario: start, trajectory, end, obstacles."""

    def __init__(self, scenario: Scenario, move: Move) -> None:
        self.scenario = scenario
        self.move = move
        self.unit: Unit = scenario.unit(move.unit)
        self.profile: RulesProfile = scenario.profile

    @cached_property
    def trajectory(self) -> Trajectory:
        """Pivot and Snaking Forward steps, as executed (Advance and March)."""
        return snake(self.unit, self.move.pivot_deg, self.move.steps)

    @cached_property
    def end_formation(self) -> Formation:
        files = self.move.files
        if self.move.manoeuvre.pivot_only:
            return self.unit.formation
        if not self.move.manoeuvre.snaking and files is not None:
            return self.unit.formation.reformed(files)
        return self.unit.formation

    @cached_property
    def end_pose(self) -> Pose:
        if not self.move.manoeuvre.snaking and not self.move.manoeuvre.pivot_only:
            centre = self.move.centre if self.move.centre is not None else self.unit.pose.centre
            facing = self.move.facing_deg
            return Pose(centre, self.unit.pose.facing_deg if facing is None else facing)
        return self.trajectory.end

    @cached_property
    def end_unit(self) -> Unit:
        return self.unit.with_formation(self.end_formation).with_pose(self.end_pose)

    @cached_property
    def mid_unit(self) -> Unit | None:
        """Where a Reform places the unit mid-move (the move's `mid`), or None."""
        mid = self.move.mid
        if mid is None:
            return None
        formation = self.unit.formation if mid.files is None else \
            self.unit.formation.reformed(mid.files)
        return self.unit.with_formation(formation).with_pose(Pose(mid.centre, mid.facing_deg))

    @cached_property
    def pivoted_unit(self) -> Unit:
        return self.unit.with_pose(self.trajectory.after_pivot)

    @cached_property
    def obstacles(self) -> list[tuple[str, Polygon]]:
        """(label, shape) of other units and impassable terrain."""
        return self.scenario.obstacles_for(self.unit.id)

    @property
    def mobility_in(self) -> float:
        return self.unit.mobility_in
