"""T9A units in scenario files (docs/formats.md, "Scenario"): read, validate, write."""

from __future__ import annotations

from typing import Any

from constraints.core.jsonread import Node
from constraints.core.scenario import Pose
from constraints.rank_and_file.formation import MAX_MODELS
from constraints.rank_and_file.unit import MAX_BASE_MM, MAX_MOBILITY_IN, Base, Unit
from constraints.rank_and_file.unit_io import read_formation, read_state

TERRAIN_KINDS = ("impassable", "dangerous")

__all__ = ["MAX_MODELS", "TERRAIN_KINDS", "named_ids", "read_unit", "unit_to_json"]


_UNIT_REQUIRED = ("id", "player", "base", "models", "files", "centre", "facing", "mobility")


_UNIT_OPTIONAL = ("height", "musician", "light_troops", "characters", "empty",
                  "state")


def read_unit(node: Node) -> Unit:
    f = node.fields(_UNIT_REQUIRED, _UNIT_OPTIONAL)
    width, depth = f["base"].items(length=2)
    base = Base(width.number(positive=True, maximum=MAX_BASE_MM),
                depth.number(positive=True, maximum=MAX_BASE_MM))
    formation = read_formation(f)
    return Unit(f["id"].string(), f["player"].string(), base, formation,
                Pose(f["centre"].point(), f["facing"].number()),
                f["mobility"].number(positive=True, maximum=MAX_MOBILITY_IN),
                f["height"].integer(minimum=0, maximum=5) if "height" in f else 1,
                f["musician"].boolean() if "musician" in f else False,
                f["light_troops"].boolean() if "light_troops" in f else False,
                read_state(f["state"]) if "state" in f else None)


def unit_to_json(u: Unit) -> dict[str, Any]:
    f = u.formation
    return {"id": u.id, "player": u.player, "base": [u.base.frontage_mm, u.base.depth_mm],
            "models": f.models, "files": f.files, "centre": list(u.pose.centre),
            "facing": u.pose.facing_deg, "mobility": u.mobility_in, "height": u.height,
            "musician": u.musician, "light_troops": u.light_troops,
            "characters": [{"id": c.id, "slot": list(c.slot)} for c in f.characters],
            "empty": [list(s) for s in f.empty],
            **({"state": u.state} if u.state is not None else {})}


def named_ids(unit: Unit) -> list[tuple[str, str]]:
    """(JSON path suffix, id) of the unit and of every character in it."""
    return [(".id", unit.id)] + [(f".characters[{j}].id", c.id)
                                 for j, c in enumerate(unit.formation.characters)]
