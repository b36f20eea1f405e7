"""The parts of a rank-and-flank unit that every system's scenario file shares (docs/formats.md,
"Scenario"), from the unit's validated model (constraints/schema/units.py): its formation
(models, files, characters, empty slots), checked where the model cannot see (a slot inside
the formation, a slot used twice, at least one model)."""

from __future__ import annotations

from typing import Any

from constraints.errors import InvalidInputError
from constraints.rank_and_file.formation import Character, Formation


def formation_from_model(unit: Any, path: str) -> Formation:
    """The formation of the unit model `unit` (a `RankAndFileUnit`) at the JSON path `path`."""
    chars = tuple(Character(c.id, tuple(c.slot)) for c in unit.characters)
    empty = tuple(tuple(s) for s in unit.empty)
    formation = Formation(unit.files, unit.models, chars, empty)
    if formation.model_count == 0:
        raise InvalidInputError("a unit needs at least one model", path=f"{path}.models")
    if unit.files > formation.model_count:
        raise InvalidInputError(f"{unit.files} files but only {formation.model_count} models",
                                path=f"{path}.files")
    slots = set(formation.all_slots())
    taken: set[tuple[int, int]] = set()
    for key, group in (("characters", [c.slot for c in chars]), ("empty", list(empty))):
        for i, slot in enumerate(group):
            where = f"{path}.{key}[{i}]"
            if slot not in slots:
                raise InvalidInputError(f"slot {list(slot)} is outside the formation "
                                        f"({formation.ranks} ranks x {unit.files} files)",
                                        path=where)
            if slot in taken:
                raise InvalidInputError(f"slot {list(slot)} is used twice", path=where)
            taken.add(slot)
    return formation
