"""The whfb7 exact checker: judge one move against every clause its profile applies.

It never raises for an illegal move (that is a verdict with violations); it raises
`InvalidInputError` only for a move that does not fit the scenario.
"""

from __future__ import annotations

from constraints.core.scenario import Scenario, validate_manoeuvre
from constraints.core.verdict import Verdict
from constraints.errors import InvalidInputError
from constraints.whfb7.context import WarhammerContext
from constraints.whfb7.moves import WarhammerMove
from constraints.whfb7.reform import chosen_slots


def check_move(scenario: Scenario, move: WarhammerMove,
               referee: float | None = None) -> Verdict:
    """Judge `move` in `scenario`: every clause of its manoeuvre, measured.

    Returns a legal verdict, or every broken clause with its measurement, limit and
    witness; the end position is the executed one (a turn changes the files, a reform its
    files and facing about the centre).  `InvalidInputError` means the move does not fit
    the scenario: an unknown unit, more files than models, an assignment that does not
    place every model exactly once.  `referee`: a referee tolerance in inches (A21).
    """
    if not isinstance(move, WarhammerMove):
        raise InvalidInputError(f"expected a WarhammerMove, got {type(move).__name__}",
                                path="move")
    if scenario.profile.system != "whfb7":
        raise InvalidInputError(f"a Warhammer move needs a whfb7 scenario; this one is rules "
                                f"{scenario.rules!r}", path="scenario")
    validate_manoeuvre(scenario, move.unit, move.manoeuvre)
    ctx = WarhammerContext(scenario, move)
    _validate_reform(ctx)
    return judge(ctx).refereed(referee)


def judge(ctx: WarhammerContext) -> Verdict:
    """Run every clause of the move's manoeuvre on a prepared context."""
    found = ctx.profile.judge_all(ctx, str(ctx.move.manoeuvre))
    end = ctx.end_unit
    return Verdict(ctx.unit.id, str(ctx.move.manoeuvre), end.pose.centre, end.pose.facing_deg,
                   end.files, end.corners(), found.violations, found.measurements,
                   readings=found.readings, models_of=end.model_places,
                   poses=ctx.trajectory.poses if ctx.move.manoeuvre.steps else None)


def _validate_reform(ctx: WarhammerContext) -> None:
    """A reform's files fit the unit, and its assignment places every model once."""
    move, unit = ctx.move, ctx.unit
    if move.manoeuvre.steps:
        return
    files = move.files if move.files is not None else unit.files
    if files > unit.formation.model_count:
        raise InvalidInputError(f"{files} files but unit {unit.id!r} has only "
                                f"{unit.formation.model_count} models", path="$.files")
    chosen_slots(unit, ctx.end_unit, move.assignment)
