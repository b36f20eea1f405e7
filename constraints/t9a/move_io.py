"""Move files (docs/formats.md "Move"): T9A Move Manoeuvres, read through their model
(`constraints.schema.move.T9AMove`, which decides what a file may hold) and written back."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from constraints.core.jsonread import read_json
from constraints.errors import InvalidInputError
from constraints.rank_and_file.steps import steps_from_model
from constraints.t9a.moves import Manoeuvre, MidPlacement, Move


def load_move(path: str | Path) -> Move:
    try:
        return move_from_json(read_json(path))
    except InvalidInputError as exc:
        raise exc.in_file(str(path)) from None


def move_from_json(data: Any) -> Move:
    from constraints.schema.errors import read_as

    return move_from_model(read_as("move:T9AMove", data))


def move_from_model(model: Any) -> Move:
    """The move a validated `T9AMove` describes."""
    return Move(unit=model.unit, manoeuvre=Manoeuvre(model.manoeuvre),
                steps=steps_from_model(model.steps),
                pivot_deg=0.0 if model.pivot is None else model.pivot,
                files=model.files,
                centre=None if model.centre is None else tuple(model.centre),
                facing_deg=model.facing,
                assignment=None if model.assignment is None else tuple(
                    (key, tuple(slot)) for key, slot in model.assignment.items()),
                mid=None if model.mid is None else MidPlacement(
                    tuple(model.mid.centre), model.mid.facing, model.mid.files))

