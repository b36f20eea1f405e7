"""Manoeuvre: the exact referee and optimiser for unit movement.

The public Python API.  Queries never raise for an illegal move: they return verdicts.
"""

from constraints.checker import check_move
from constraints.domain import Pose, Scenario, Unit
from constraints.errors import EncodingMismatchError, InvalidInputError
from constraints.move_io import load_move, move_from_json
from constraints.moves import Move, Step, forward, wheel
from constraints.scenario_io import load_scenario, save_scenario, scenario_from_json
from constraints.verdict import Verdict, Violation

__all__ = [
    "EncodingMismatchError",
    "InvalidInputError",
    "Move",
    "Pose",
    "Scenario",
    "Step",
    "Unit",
    "Verdict",
    "Violation",
    "check_move",
    "forward",
    "load_move",
    "load_scenario",
    "move_from_json",
    "save_scenario",
    "scenario_from_json",
    "wheel",
]
