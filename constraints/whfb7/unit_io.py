"""Warhammer units in scenario files (docs/formats.md, "Warhammer Fantasy Battle 7th"): from
the validated model, and written back.  As T9A's, but the Move characteristic is `"movement"`
(M, inches) and a unit may carry a command group (`"command"`: champion, standard,
musician)."""

from __future__ import annotations

from typing import Any

from constraints.core.scenario import Pose
from constraints.errors import InvalidInputError
from constraints.rank_and_file.unit import Base, Unit
from constraints.rank_and_file.unit_io import formation_from_model

TERRAIN_KINDS = ("impassable", "dangerous")

__all__ = ["TERRAIN_KINDS", "command_ids", "model_ids", "named_ids", "read_unit",
           "unit_to_json"]

def read_unit(model: Any, path: str) -> Unit:
    """A Warhammer unit from its validated model (`constraints.schema.units.Whfb7Unit`) at
    `path`; the command group must fit in the rank and file."""
    formation = formation_from_model(model, path)
    command = tuple(model.command)
    if len(command) > formation.models:
        raise InvalidInputError(f"{len(command)} command models but only "
                                f"{formation.models} rank-and-file models",
                                path=f"{path}.command")
    return Unit(model.id, model.player, Base(*model.base), formation,
                Pose(tuple(model.centre), model.facing), model.movement,
                height=model.height, state=model.state, command=command)


def unit_to_json(u: Unit) -> dict[str, Any]:
    f = u.formation
    return {"id": u.id, "player": u.player, "base": [u.base.frontage_mm, u.base.depth_mm],
            "models": f.models, "files": f.files, "centre": list(u.pose.centre),
            "facing": u.pose.facing_deg, "movement": u.mobility_in, "height": u.height,
            "command": list(u.command),
            "characters": [{"id": c.id, "slot": list(c.slot)} for c in f.characters],
            "empty": [list(s) for s in f.empty],
            **({"state": u.state} if u.state is not None else {})}


def named_ids(unit: Unit) -> list[tuple[str, str]]:
    """(JSON path suffix, id) of the unit and of every character in it."""
    return [(".id", unit.id)] + [(f".characters[{j}].id", c.id)
                                 for j, c in enumerate(unit.formation.characters)]


def command_ids(unit: Unit) -> tuple[str, ...]:
    """The command models' ids: `<unit>.champion`, `<unit>.standard`, `<unit>.musician`."""
    return tuple(f"{unit.id}.{name}" for name in unit.command)


def model_ids(unit: Unit) -> tuple[str, ...]:
    """Every model's id in `formation.layout()` order (docs/formats.md): characters by id,
    rank-and-file models `<unit>.<index>`, except that the command models are the first
    rank-and-file models of the layout (the front rank's leftmost free slots), named
    `<unit>.champion` and so on in the order `command` lists them."""
    named = dict(zip((str(i) for i in range(len(unit.command))), command_ids(unit),
                     strict=True))
    chars = {c.id for c in unit.formation.characters}
    return tuple(key if key in chars else named.get(key, f"{unit.id}.{key}")
                 for key, _ in unit.formation.layout())
