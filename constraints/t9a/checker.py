"""The exact checker: judge one move against every clause its profile applies.

This is the specification.  It never raises for an illegal move (that is a verdict with
violations); it raises `InvalidInputError` only for a move that does not fit the scenario.
"""

from __future__ import annotations

from constraints.core.scenario import Scenario, validate_manoeuvre
from constraints.core.verdict import Verdict
from constraints.errors import InvalidInputError
from constraints.t9a.context import MoveContext
from constraints.t9a.judge import judge
from constraints.t9a.moves import Move


def check_move(scenario: Scenario, move: Move, referee: float | None = None) -> Verdict:
    """Judge `move` in `scenario`: every clause of its manoeuvre, measured.

    Parameters
    ----------
    scenario : Scenario
        The battlefield, its terrain and units, under a T9A rules profile.
    move : Move
        An Advance, March or Reform of one unit; an Advance or March may give its end pose
        instead of steps (a way there is looked for, and the verdict says which).
    referee : float, optional
        Referee mode (A21): a tolerance in inches; the verdict then carries the referee's
        reading (`Verdict.referee`: close calls, and `within_tolerance` when every broken
        clause is one).  The exact verdict is the same either way.

    Returns
    -------
    Verdict
        Legal, or every broken clause with its measurement, limit and witness.  An illegal
        move is a verdict, never an exception; `InvalidInputError` means the move does not
        fit the scenario (an unknown unit, say).  A move given by its end pose may also be
        "not proved" (`Verdict.status`, docs/rules.md §4.8): no legal way was found and
        none is ruled out, so it carries the reason and no violation.
    """
    if not isinstance(move, Move):
        raise InvalidInputError(f"expected a Move, got {type(move).__name__}", path="move")
    validate_move(scenario, move)
    if move.is_end_pose:
        # Imported when first needed: the ways to an end pose are a larger machine than a
        # check of steps (a `manoeuvre check` of steps never loads them).
        from constraints.t9a.end_pose import check_end_pose

        return check_end_pose(scenario, move).refereed(referee)
    return judge(MoveContext(scenario, move)).refereed(referee)


def validate_move(scenario: Scenario, move: Move) -> None:
    """Raise `InvalidInputError` for a move that cannot apply to this scenario at all."""
    validate_manoeuvre(scenario, move.unit, move.manoeuvre)
    if not move.manoeuvre.snaking and move.files is not None and move.files < 1:
        raise InvalidInputError(f"files must be at least 1, got {move.files}", path="$.files")
    if move.assignment is not None:
        models = scenario.unit(move.unit).model_ids()
        for model, _slot in move.assignment:
            if model not in models:
                raise InvalidInputError(f"unknown model {model!r} in unit {move.unit!r}",
                                        path=f"$.assignment.{model}")
