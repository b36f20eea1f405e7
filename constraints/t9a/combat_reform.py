"""A proposed Combat Reform as values: where a reformed unit stands and each model in it.

    "When performing a Combat Reform, remove a unit from the Battlefield and place it back,
    following these restrictions: [...] All models in the unit must be placed with their
    centre within their March Rate from their position before the Combat Reform."
    [seed 002]

A `UnitReform` names the unit, its files, the centre of its new Unit Boundary, its facing and
where some of its models stand (`ModelPlacement`: a model id as the unit had it before the
reform, and its slot (rank, file) in the new formation).  Characters must be placed: where a
Character stands is the player's choice and changes contacts.  Rank-and-file models left out
are interchangeable: they take the other slots of the default layout (front to back, the
rear rank centred), and `model_moves` gives them the assignment minimising the longest move,
as a Reform does (docs/rules.md §8.4).

The formation has as few ranks as hold its models (ceil(models / files)); a slot outside
those ranks x files is malformed input, not an illegal reform.  Every slot of that rectangle
not occupied is listed as `empty`, so a gap in the new formation stays where it was placed
and the formation clause can refuse it.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, replace

import numpy as np

from constraints.core.jsonread import number, point, text, whole
from constraints.core.scenario import Pose, Scenario
from constraints.errors import InvalidInputError
from constraints.geometry.assignment import bottleneck_assignment
from constraints.geometry.plane import Point, normalise_deg
from constraints.rank_and_file.formation import (
    MAX_MODELS,
    Character,
    Formation,
    Slot,
    checked_slot,
)
from constraints.rank_and_file.unit import Unit

# A unit holds at most MAX_MODELS rank-and-file models and as many Characters.
MAX_PLACEMENTS = 2 * MAX_MODELS


@dataclass(frozen=True)
class ModelPlacement:
    """One model of the reformed unit (`UNIT.INDEX` or a Character's id, as before the
    reform) and the slot (rank, file) it stands in after it."""

    id: str
    slot: Slot

    def __post_init__(self) -> None:
        object.__setattr__(self, "id", text(self.id, "id"))
        object.__setattr__(self, "slot", checked_slot(self.slot, "slot"))


@dataclass(frozen=True)
class UnitReform:
    """One unit's Combat Reform: its files, the centre of its new Unit Boundary, the way its
    Front Facing looks (degrees) and the models it places (all its Characters, any of its
    rank-and-file models)."""

    unit: str
    files: int
    centre: Point
    facing_deg: float
    models: tuple[ModelPlacement, ...] = ()

    def __post_init__(self) -> None:
        object.__setattr__(self, "unit", text(self.unit, "unit"))
        object.__setattr__(self, "files", whole(self.files, "files", minimum=1,
                                                maximum=MAX_MODELS))
        object.__setattr__(self, "centre", point(self.centre, "centre"))
        facing = normalise_deg(number(self.facing_deg, "facing_deg"))
        object.__setattr__(self, "facing_deg", 0.0 if facing >= 360.0 else facing)
        models = self.models
        if isinstance(models, str | bytes) or not hasattr(models, "__len__") \
                or len(models) > MAX_PLACEMENTS:
            raise InvalidInputError(f"expected at most {MAX_PLACEMENTS} model placements",
                                    path="models")
        for i, placed in enumerate(models):
            if not isinstance(placed, ModelPlacement):
                raise InvalidInputError(f"expected a ModelPlacement, got "
                                        f"{type(placed).__name__}", path=f"models[{i}]")
        object.__setattr__(self, "models", tuple(models))

    @property
    def pose(self) -> Pose:
        return Pose(self.centre, self.facing_deg)


@dataclass(frozen=True)
class _Placement:
    """Where every model of the unit goes: the listed ones by their own slot, the unlisted
    rank-and-file models (by their id before the reform) into `fill`, in no set order."""

    listed: dict[str, Slot]
    unlisted: tuple[str, ...]
    fill: tuple[Slot, ...]
    ranks: int


def reformed_unit(before: Unit, reform: UnitReform) -> Unit:
    """The unit as `reform` places it: the new formation, each Character at its slot, every
    other slot of the files x ranks rectangle that no model takes listed as `empty`.

    Raises InvalidInputError (the path relative to the reform) when the reform names
    another unit, a model the unit does not have, a model twice, a slot twice or a slot
    outside the rectangle, or leaves a Character out."""
    plan = _placement(before, reform)
    chars = {c.id for c in before.formation.characters}
    characters = tuple(Character(mid, slot) for mid, slot in plan.listed.items()
                       if mid in chars)
    occupied = set(plan.listed.values()) | set(plan.fill)
    empty = tuple((r, f) for r in range(plan.ranks) for f in range(reform.files)
                  if (r, f) not in occupied)
    formation = Formation(reform.files, before.formation.models, characters, empty)
    return replace(before, formation=formation, pose=reform.pose)


def model_moves(before: Unit, reform: UnitReform) -> dict[str, float]:
    """How far each model's centre goes (inches), by its id before the reform.

    Listed models go to their own slot.  The unlisted rank-and-file models take the slots
    left to them in the assignment minimising the longest move (a bottleneck assignment,
    docs/rules.md §8.4): the rules let the player put any of them anywhere."""
    plan = _placement(before, reform)
    after = reformed_unit(before, reform)
    start = dict(zip(before.model_ids(), before.formation.layout(), strict=True))
    moves: dict[str, float] = {}
    for mid, slot in plan.listed.items():
        moves[mid] = _distance(before.slot_centre(start[mid][1]), after.slot_centre(slot))
    if plan.unlisted:
        origins = np.array([before.slot_centre(start[mid][1]) for mid in plan.unlisted])
        targets = np.array([after.slot_centre(slot) for slot in plan.fill])
        cost = np.hypot(*(origins[:, None, :] - targets[None, :, :]).transpose(2, 0, 1))
        chosen = bottleneck_assignment(cost).slots
        for row, mid in enumerate(plan.unlisted):
            moves[mid] = float(cost[row, chosen[row]])
    return moves


def placed(scenario: Scenario, reforms: Sequence[UnitReform]) -> Scenario:
    """`scenario` with each reformed unit placed, in order (errors name `reforms[i]`)."""
    for i, reform in enumerate(reforms):
        if not scenario.has_unit(reform.unit):
            known = ", ".join(u.id for u in scenario.units)
            raise InvalidInputError(f"unknown unit {reform.unit!r} (units: {known})",
                                    path=f"reforms[{i}].unit")
        try:
            scenario = scenario.with_unit(reformed_unit(scenario.unit(reform.unit), reform))
        except InvalidInputError as exc:
            raise exc.at(f"reforms[{i}].{exc.path}") from None
    return scenario


def _placement(before: Unit, reform: UnitReform) -> _Placement:
    if reform.unit != before.id:
        raise InvalidInputError(f"the reform is of unit {reform.unit!r}, not {before.id!r}",
                                path="unit")
    total = before.formation.model_count
    ranks = max(1, math.ceil(total / reform.files))
    listed = _listed(before, reform, ranks)
    chars = [c.id for c in before.formation.characters]
    missing = [c for c in chars if c not in listed]
    if missing:
        raise InvalidInputError(f"Character {missing[0]!r} is not placed (every Character "
                                "needs a slot)", path="models")
    unlisted = tuple(m for m in before.model_ids() if m not in listed)
    taken = set(listed.values())
    default = Formation(reform.files, total).all_slots()
    # Enough free default slots are left: each listed model takes at most one of them.
    fill = tuple(s for s in default if s not in taken)[: len(unlisted)]
    return _Placement(listed, unlisted, fill, ranks)


def _listed(before: Unit, reform: UnitReform, ranks: int) -> dict[str, Slot]:
    """The listed models' slots, each model and slot once, inside the rectangle."""
    known = set(before.model_ids())
    listed: dict[str, Slot] = {}
    holder: dict[Slot, str] = {}
    for i, placement in enumerate(reform.models):
        mid, slot = placement.id, placement.slot
        if mid not in known:
            raise InvalidInputError(f"unit {before.id!r} has no model {mid!r}",
                                    path=f"models[{i}].id")
        if mid in listed:
            raise InvalidInputError(f"model {mid!r} is placed twice", path=f"models[{i}].id")
        if slot[0] >= ranks or slot[1] >= reform.files:
            raise InvalidInputError(f"slot {list(slot)} is outside the formation ({ranks} "
                                    f"ranks x {reform.files} files)", path=f"models[{i}].slot")
        if slot in holder:
            raise InvalidInputError(f"slot {list(slot)} holds {holder[slot]!r} already",
                                    path=f"models[{i}].slot")
        listed[mid] = slot
        holder[slot] = mid
    return listed


def _distance(a: Point, b: Point) -> float:
    return math.hypot(a[0] - b[0], a[1] - b[1])
