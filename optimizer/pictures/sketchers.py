"""How each rank-and-file system's moves are sketched (optimizer.pictures.sketch)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import shapely

from constraints.core.scenario import Scenario
from constraints.core.system import find_system
from constraints.core.verdict import Verdict
from constraints.errors import InvalidInputError
from constraints.rank_and_file.steps import StepKind as Kind
from constraints.t9a.context import MoveContext
from constraints.t9a.moves import Move, Step, StepKind
from constraints.whfb7.context import WarhammerContext
from constraints.whfb7.moves import WarhammerMove
from optimizer.pictures.sketch import MoveSketch, centre_path, outer_arcs, step_marks


def sketch_t9a(scenario: Scenario, move: Move, verdict: Verdict) -> MoveSketch:
    """The front's sweep and the centre's path of an Advance or March with steps (the
    checker's own steps for one given by its end pose); a Reform only starts and ends."""
    unit = scenario.unit(move.unit)
    executed = executed_move(move, verdict)
    found = MoveSketch(unit.id, unit.corners(), verdict.end_corners, verdict.end_files)
    if not executed.manoeuvre.snaking or not executed.steps:
        return found
    trajectory = MoveContext(scenario, executed).trajectory
    return MoveSketch(unit.id, found.start, found.end, found.end_files, trajectory.front_sweep,
                      "front sweep", centre_path(trajectory), steps=step_marks(trajectory))


def executed_move(move: Move, verdict: Verdict) -> Move:
    """An end-pose move as the steps the checker found for it; any other move as given."""
    if not move.is_end_pose or not verdict.steps:
        return move
    steps, pivot = [], 0.0
    for step in verdict.steps:
        for kind, value in step.items():
            if kind == "pivot":
                pivot = float(value)
            else:
                steps.append(Step(StepKind(kind), float(value)))
    return Move(move.unit, move.manoeuvre, tuple(steps), pivot_deg=pivot, files=move.files)


def sketch_whfb7(scenario: Scenario, move: WarhammerMove, verdict: Verdict) -> MoveSketch:
    """The whole unit's sweep (what the 1" rule looks at), each wheel's outer-corner arc (what
    it costs) and each turn on the spot; a reform only starts and ends."""
    unit = scenario.unit(move.unit)
    found = MoveSketch(unit.id, unit.corners(), verdict.end_corners, verdict.end_files)
    if not move.steps:
        return found
    ctx = WarhammerContext(scenario, move)
    trajectory = ctx.trajectory
    turns = [(leg.before.centre, leg.step.value) for leg in trajectory.legs
             if leg.step.kind is Kind.TURN]
    return MoveSketch(unit.id, found.start, found.end, found.end_files,
                      shapely.union_all(ctx.covered),
                      "whole unit's sweep", centre_path(trajectory), outer_arcs(trajectory),
                      turns, step_marks(trajectory))


Sketcher = Callable[[Scenario, Any, Verdict], MoveSketch]
# Each rank-and-file system's sketcher, by the type of its moves (System.move_type).
SKETCHERS: dict[type, Sketcher] = {Move: sketch_t9a, WarhammerMove: sketch_whfb7}


def sketch(scenario: Scenario, move: Any, verdict: Verdict) -> MoveSketch:
    """`move` with its `verdict` as the scenario's system draws it."""
    kind = find_system(scenario.rules).move_type
    found = SKETCHERS.get(kind) if kind is not None else None
    if found is None:
        raise InvalidInputError(f"no picture of a {find_system(scenario.rules).name} move "
                                "here (a route: render)", path="move")
    return found(scenario, move, verdict)
