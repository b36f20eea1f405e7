"""Removing casualties while Unit Boundaries are frozen (RULES §2.7.1-§2.7.3).

"Casualties come from as far back in the unit as possible, one model at a time in any
order. When they must come from the first rank, remove equally from both sides, one by
one." While the boundaries are frozen there is "no gap filling": a removed model leaves an
empty slot, so the Unit Boundary, the pose and the formation's positions stay as they were
(`unfreeze.unfreeze` re-forms the unit afterwards).
"""

from __future__ import annotations

from collections.abc import Iterable
from numbers import Integral
from typing import Any

from constraints.errors import InvalidInputError
from constraints.rank_and_file.formation import Formation, Slot, checked_slot
from constraints.rank_and_file.unit import Unit

FRONT_SIDES = ("both", "left", "right")


def remove_casualties(unit: Unit, count: int, front_side: str = "both") -> Unit:
    """`unit` after losing `count` rank-and-file models, its boundaries frozen.

    "Casualties come from as far back in the unit as possible": the rear-most rank that
    still holds rank-and-file models loses them first.  See `casualty_slots` for which
    models go.  Characters are never removed by a count: "if the model in a slot to be
    removed belongs to another Health Pool (e.g. a Character), remove the next eligible
    model".  More casualties than rank-and-file models remove them all.
    """
    slots = casualty_slots(unit, count, front_side)
    return unit.with_formation(_emptied(unit.formation, slots))


def casualty_slots(unit: Unit, count: int, front_side: str = "both") -> tuple[Slot, ...]:
    """The slots whose rank-and-file models `count` casualties remove, in removal order.

    Decision (the rules leave the order within a rank open): a rank behind the front rank
    loses its outermost rank-and-file models, alternating right, left, right, ...  The front
    rank with `front_side="both"` does the same: "remove equally from both sides, one by one",
    so an odd count takes the extra model from the right.  `"left"` or `"right"` takes every
    front-rank casualty from that side (RULES §2.7.2: "take them from the side that keeps
    engaged units in contact"; the caller tries both sides).
    """
    wanted = _casualty_count(count)
    side = _front_side(front_side)
    by_rank = _rank_and_file_files(unit.formation)
    chosen: list[Slot] = []
    for rank in sorted(by_rank, reverse=True):
        take = min(wanted - len(chosen), len(by_rank[rank]))
        how = side if rank == 0 else "both"
        chosen += [(rank, file) for file in _outermost(by_rank[rank], take, how)]
    return tuple(chosen)


def remove_slots(unit: Unit, slots: Iterable[Slot]) -> Unit:
    """`unit` without the models standing in `slots` (a character's slot removes it).

    For losses the rules place by slot (a model slain in base contact, a Character killed).
    The slots become empty: the boundaries are frozen.
    """
    formation = unit.formation
    inside = set(formation.all_slots())
    occupied = set(formation.occupied_slots())
    chosen: list[Slot] = []
    for i, raw in enumerate(_listed(slots)):
        slot = checked_slot(raw, f"slots[{i}]")
        problem = ("is outside the formation" if slot not in inside
                   else "is repeated" if slot in chosen
                   else "holds no model" if slot not in occupied else "")
        if problem:
            raise InvalidInputError(f"slot {slot} {problem}", path=f"slots[{i}]")
        chosen.append(slot)
    return unit.with_formation(_emptied(formation, chosen))


def is_wiped_out(unit: Unit) -> bool:
    """Whether no model, rank-and-file or character, is left in `unit`."""
    return unit.formation.model_count == 0


def _rank_and_file_files(formation: Formation) -> dict[int, list[int]]:
    """Rank -> the files (sorted) holding rank-and-file models; characters are skipped."""
    characters = formation.character_slots()
    by_rank: dict[int, list[int]] = {}
    for rank, file in sorted(formation.occupied_slots()):
        if (rank, file) not in characters:
            by_rank.setdefault(rank, []).append(file)
    return by_rank


def _outermost(files: list[int], take: int, side: str) -> list[int]:
    """`take` of a rank's occupied `files` (sorted), each from the outer end of the
    remaining ones: right, left, right, ... for "both", else all from `side`."""
    left, right = 0, len(files) - 1
    picked: list[int] = []
    for i in range(take):
        if side == "right" or (side == "both" and i % 2 == 0):
            picked.append(files[right])
            right -= 1
        else:
            picked.append(files[left])
            left += 1
    return picked


def _emptied(formation: Formation, slots: list[Slot] | tuple[Slot, ...]) -> Formation:
    """`formation` with `slots` emptied: the same positions, so the same slots and boundary."""
    gone = set(slots)
    characters = tuple(c for c in formation.characters if c.slot not in gone)
    rank_and_file_lost = len(gone) - (len(formation.characters) - len(characters))
    return Formation(formation.files, formation.models - rank_and_file_lost, characters,
                     formation.empty + tuple(slots))


def _casualty_count(count: Any) -> int:
    # Not `jsonread.whole`: a count beyond any limit is fine (it removes every model).
    if isinstance(count, bool) or not isinstance(count, Integral):
        raise InvalidInputError(f"expected a whole number of casualties, got "
                                f"{type(count).__name__}", path="count")
    if count < 0:
        raise InvalidInputError("expected a whole number of casualties >= 0, got a "
                                "negative one", path="count")
    return int(count)


def _front_side(side: Any) -> str:
    if not isinstance(side, str) or side not in FRONT_SIDES:
        raise InvalidInputError(f"expected one of {', '.join(FRONT_SIDES)}, got {side!r}",
                                path="front_side")
    return side


def _listed(slots: Any) -> list[Any]:
    if isinstance(slots, str | bytes) or not isinstance(slots, Iterable):
        raise InvalidInputError("expected a sequence of slots (rank, file)", path="slots")
    return list(slots)
