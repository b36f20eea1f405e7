"""Warhammer units in scenario files (docs/formats.md, "Warhammer Fantasy Battle 7th"): read,
validate, write.  As T9A's, but the Move characteristic is `"movement"` (M, inches) and a unit
may carry a command group (`"command"`: champion, standard, musician)."""

from __future__ import annotations

from typing import Any

from constraints.core.jsonread import Node
from constraints.core.scenario import Pose
from constraints.errors import InvalidInputError
from constraints.rank_and_file.unit import (
    COMMAND,
    MAX_BASE_MM,
    MAX_MOBILITY_IN,
    Base,
    Unit,
)
from constraints.rank_and_file.unit_io import read_formation, read_state

TERRAIN_KINDS = ("impassable", "dangerous")

__all__ = ["TERRAIN_KINDS", "command_ids", "model_ids", "named_ids", "read_unit",
           "unit_to_json"]

_UNIT_REQUIRED = ("id", "player", "base", "models", "files", "centre", "facing", "movement")
_UNIT_OPTIONAL = ("height", "command", "characters", "empty", "state")


def read_unit(node: Node) -> Unit:
    if isinstance(node.value, dict) and "mobility" in node.value:
        # A T9A unit pasted into a Warhammer scenario: say what the key is called here.
        raise InvalidInputError('a whfb7 unit gives its Move as "movement" (M, inches), '
                                'not the T9A "mobility"', path=f"{node.path}.mobility")
    f = node.fields(_UNIT_REQUIRED, _UNIT_OPTIONAL)
    width, depth = f["base"].items(length=2)
    base = Base(width.number(positive=True, maximum=MAX_BASE_MM),
                depth.number(positive=True, maximum=MAX_BASE_MM))
    formation = read_formation(f)
    command = _command(f["command"]) if "command" in f else ()
    if len(command) > formation.models:
        raise f["command"].fail(f"{len(command)} command models but only "
                                f"{formation.models} rank-and-file models")
    return Unit(f["id"].string(), f["player"].string(), base, formation,
                Pose(f["centre"].point(), f["facing"].number()),
                f["movement"].number(positive=True, maximum=MAX_MOBILITY_IN),
                height=f["height"].integer(minimum=0, maximum=5) if "height" in f else 1,
                state=read_state(f["state"]) if "state" in f else None, command=command)


def _command(node: Node) -> tuple[str, ...]:
    found: list[str] = []
    for item in node.items():
        name = item.string()
        if name not in COMMAND:
            raise item.fail(f"unknown command model {name!r} (known: {', '.join(COMMAND)})")
        if name in found:
            raise item.fail(f"command model {name!r} is listed twice")
        found.append(name)
    return tuple(found)


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
