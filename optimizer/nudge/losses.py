"""The casualties file of `manoeuvre nudge` (docs/formats.md, "Casualties"): per unit a count,
the slots of the models removed, or `{"count": N, "outside_melee": true}`."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from constraints.core.jsonread import read_json
from constraints.core.scenario import Scenario
from constraints.errors import InvalidInputError
from constraints.rank_and_file.formation import Slot


@dataclass(frozen=True)
class Loss:
    """One unit's casualties: a count (removed by the rules' order) or the slots removed;
    `outside_melee` for losses outside the Melee Phase (boundaries not frozen)."""

    unit: str
    count: int = 0
    slots: tuple[Slot, ...] = ()
    outside_melee: bool = False


def load_losses(path: str | Path, scenario: Scenario) -> tuple[Loss, ...]:
    try:
        return losses_from_json(read_json(path), scenario)
    except InvalidInputError as exc:
        raise exc.in_file(str(path)) from None


def losses_from_json(data: Any, scenario: Scenario) -> tuple[Loss, ...]:
    """Validated losses: the casualties model decides the file's shape
    (`constraints.schema.casualties`); here, known units, at most their rank-and-file models
    by count, slots inside their formation and holding a model."""
    from constraints.schema.errors import read_as

    model = read_as("casualties:Casualties", data)
    return tuple(_loss(uid, value, f"$.{uid}", scenario) for uid, value in model.root.items())


def _loss(uid: str, value: Any, where: str, scenario: Scenario) -> Loss:
    if not scenario.has_unit(uid):
        known = ", ".join(u.id for u in scenario.units)
        raise InvalidInputError(f"unknown unit {uid!r} (units: {known})", path=where)
    unit = scenario.unit(uid)
    if isinstance(value, list):
        occupied = set(unit.formation.occupied_slots())
        slots = tuple(tuple(s) for s in value)
        for i, slot in enumerate(slots):
            if slot not in occupied:
                raise InvalidInputError(f"slot {list(slot)} of {uid} holds no model (ranks "
                                        f"{unit.formation.ranks} x files {unit.files})",
                                        path=f"{where}[{i}]")
            if slots.index(slot) != i:
                raise InvalidInputError(f"slot {list(slot)} is listed twice",
                                        path=f"{where}[{i}]")
        return Loss(uid, slots=slots)
    outside = False
    if not isinstance(value, int):  # {"count": N, "outside_melee": true}
        outside, value, where = value.outside_melee, value.count, f"{where}.count"
    if value > unit.formation.models:
        raise InvalidInputError(f"{value} casualties but {uid} has {unit.formation.models} "
                                "rank-and-file models", path=where)
    return Loss(uid, count=value, outside_melee=outside)


def losses_to_json(losses: tuple[Loss, ...]) -> dict[str, Any]:
    """The losses as the casualties file writes them (`losses_from_json` reads them back)."""
    out: dict[str, Any] = {}
    for i, loss in enumerate(losses):
        if not isinstance(loss, Loss):
            raise InvalidInputError(f"expected a Loss, got {type(loss).__name__}",
                                    path=f"losses[{i}]")
        if loss.unit in out:
            raise InvalidInputError(f"two losses for unit {loss.unit!r}", path=f"losses[{i}]")
        if loss.slots:
            out[loss.unit] = [list(s) for s in loss.slots]
        elif loss.outside_melee:
            out[loss.unit] = {"count": loss.count, "outside_melee": True}
        else:
            out[loss.unit] = loss.count
    return out
