"""T9A units in scenario files (docs/formats.md, "Scenario"): from the validated model, and
written back."""

from __future__ import annotations

from typing import Any

from constraints.core.scenario import Pose
from constraints.rank_and_file.formation import MAX_MODELS
from constraints.rank_and_file.unit import Base, Unit
from constraints.rank_and_file.unit_io import formation_from_model

TERRAIN_KINDS = ("impassable", "dangerous")

__all__ = ["MAX_MODELS", "TERRAIN_KINDS", "named_ids", "read_unit", "unit_to_json"]


def read_unit(model: Any, path: str) -> Unit:
    """A T9A unit from its validated model (`constraints.schema.units.T9AUnit`) at `path`."""
    base = Base(*model.base)
    return Unit(model.id, model.player, base, formation_from_model(model, path),
                Pose(tuple(model.centre), model.facing), model.mobility, model.height,
                model.musician, model.light_troops, model.state)


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
