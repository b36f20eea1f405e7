"""Move files (docs/formats.md "Move (Warhammer Fantasy Battle 7th)"): Warhammer moves, read
through their model (`constraints.schema.move.Whfb7Move`, which decides what a file may
hold)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from constraints.core.jsonread import read_json
from constraints.errors import InvalidInputError
from constraints.rank_and_file.steps import steps_from_model
from constraints.whfb7.moves import Manoeuvre, WarhammerMove


def load_move(path: str | Path) -> WarhammerMove:
    try:
        return move_from_json(read_json(path))
    except InvalidInputError as exc:
        raise exc.in_file(str(path)) from None


def move_from_json(data: Any) -> WarhammerMove:
    from constraints.schema.errors import read_as

    return move_from_model(read_as("move:Whfb7Move", data))


def move_from_model(model: Any) -> WarhammerMove:
    """The move a validated `Whfb7Move` describes."""
    return WarhammerMove(
        unit=model.unit, manoeuvre=Manoeuvre(model.manoeuvre),
        steps=steps_from_model(model.steps), files=model.files, facing_deg=model.facing,
        assignment=None if model.assignment is None else tuple(
            (key, tuple(slot)) for key, slot in model.assignment.items()))
