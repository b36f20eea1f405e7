"""Every clause of a T9A move's manoeuvre run on a prepared move context: the verdict of a
move with steps (constraints.t9a.checker) and of each way to an end pose that
constraints.t9a.end_pose tries."""

from __future__ import annotations

from constraints.core.scenario import Pose
from constraints.core.verdict import Verdict
from constraints.t9a.clauses.movement.dangerous_terrain import move_tests, unchecked_mid
from constraints.t9a.context import MoveContext


def judge(ctx: MoveContext) -> Verdict:
    """Run every clause of the move's manoeuvre on a prepared context."""
    found = ctx.profile.judge_all(ctx, ctx.move.manoeuvre)
    end = ctx.end_unit
    return Verdict(ctx.unit.id, ctx.move.manoeuvre, end.pose.centre, end.pose.facing_deg,
                   end.files, end.corners(), found.violations, found.measurements,
                   readings=found.readings,
                   dangerous_terrain=tuple(t.to_json() for t in move_tests(ctx)),
                   notes=unchecked_mid(ctx),
                   models_of=end.model_places, poses=_poses(ctx))


def _poses(ctx: MoveContext) -> tuple[Pose, ...] | None:
    """After the Pivot and each step, for a move that has them (a Reform has neither)."""
    manoeuvre = ctx.move.manoeuvre
    return ctx.trajectory.poses if manoeuvre.snaking or manoeuvre.pivot_only else None
