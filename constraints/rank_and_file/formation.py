"""Formations: files, ranks and the slots that rank-and-file models and characters stand in.

A slot is (rank, file): rank 0 is the front rank, file 0 the unit's leftmost file as seen
from behind it (docs/formats.md).  Default layout: models fill the ranks front to back, `files` to
a rank; an incomplete rear rank is centred, an odd leftover empty slot going to the right.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import Any

from constraints.core.jsonread import text, whole
from constraints.errors import InvalidInputError

Slot = tuple[int, int]
MAX_MODELS = 1000  # rank-and-file models (and files) in one unit


@dataclass(frozen=True)
class Character:
    """A model on a matching base standing in the formation at `slot`."""

    id: str
    slot: Slot

    def __post_init__(self) -> None:
        object.__setattr__(self, "id", text(self.id, "character id"))
        object.__setattr__(self, "slot", checked_slot(self.slot, f"slot of {self.id}"))


def checked_slot(slot: Any, where: str) -> Slot:
    """`slot` as (rank, file), both whole numbers >= 0."""
    if isinstance(slot, str | bytes) or not hasattr(slot, "__len__") or len(slot) != 2:
        raise InvalidInputError("expected a slot (rank, file)", path=where)
    return (whole(slot[0], f"{where}[0]", minimum=0), whole(slot[1], f"{where}[1]", minimum=0))


@dataclass(frozen=True)
class Formation:
    """How a unit's models stand: files, rank-and-file count, characters, empty slots."""

    files: int
    models: int
    characters: tuple[Character, ...] = ()
    empty: tuple[Slot, ...] = ()

    def __post_init__(self) -> None:
        object.__setattr__(self, "files", whole(self.files, "files", minimum=1,
                                                maximum=MAX_MODELS))
        object.__setattr__(self, "models", whole(self.models, "models", minimum=0,
                                                 maximum=MAX_MODELS))
        object.__setattr__(self, "characters", _characters(self.characters))
        object.__setattr__(self, "empty", _empty(self.empty))

    @property
    def model_count(self) -> int:
        """Every model in the unit: rank-and-file and characters."""
        return self.models + len(self.characters)

    @property
    def positions(self) -> int:
        return self.model_count + len(self.empty)

    @cached_property
    def ranks(self) -> int:
        return max(1, math.ceil(self.positions / self.files))

    def rear_rank_files(self) -> range:
        """Files of the rear rank under the default (centred) layout."""
        in_rear = self.positions - (self.ranks - 1) * self.files
        left = (self.files - in_rear) // 2
        return range(left, left + in_rear)

    def all_slots(self) -> tuple[Slot, ...]:
        """Every slot of the formation, occupied or not, front to back, left to right."""
        slots = [(r, f) for r in range(self.ranks - 1) for f in range(self.files)]
        slots += [(self.ranks - 1, f) for f in self.rear_rank_files()]
        return tuple(slots)

    @cached_property
    def _layout(self) -> tuple[tuple[str, Slot], ...]:
        taken = {c.slot for c in self.characters} | set(self.empty)
        free = [s for s in self.all_slots() if s not in taken]
        pairs = [(str(i), slot) for i, slot in enumerate(free[: self.models])]
        return tuple(pairs + [(c.id, c.slot) for c in self.characters])

    def layout(self) -> tuple[tuple[str, Slot], ...]:
        """(model key, slot) for every model: rank-and-file by index, characters by id."""
        return self._layout

    def occupied_slots(self) -> tuple[Slot, ...]:
        return tuple(slot for _, slot in self.layout())

    def behind_front_rank(self, front: Sequence[int], slots: Sequence[int] | None,
                          front_room: int) -> int:
        """How many of the models `front` (indexes into the start's layout) do not end in
        this formation's front rank: through `slots` (each start model's index into
        `occupied_slots()`), or, with no assignment given, those beyond the `front_room`
        places the front rank has for them."""
        if slots is None:
            return max(0, len(front) - front_room)
        ends = self.occupied_slots()
        return sum(1 for i in front if ends[slots[i]][0] != 0)

    def character_slots(self) -> frozenset[Slot]:
        return frozenset(c.slot for c in self.characters)

    def reformed(self, files: int) -> Formation:
        """The default layout with `files` files: gaps closed, characters in the front rank."""
        characters: list[Character] = []
        used: set[Slot] = set()
        rows = (self.model_count + files - 1) // files
        order = [(r, f) for r in range(rows) for f in range(files)]
        for char in sorted(self.characters, key=lambda c: c.slot):
            want = min(char.slot[1], files - 1)
            free = [s for s in order if s not in used]
            slot = min(free, key=lambda s: (s[0], abs(s[1] - want), s[1]))
            used.add(slot)
            characters.append(Character(char.id, slot))
        return Formation(files, self.models, tuple(characters), ())

    def proper_ranks(self, proper_rank_width: int) -> int:
        """Ranks of at least `proper_rank_width` models, all counted (docs/rules.md §2.4)."""
        per_rank: dict[int, int] = {}
        for _, (rank, _file) in self.layout():
            per_rank[rank] = per_rank.get(rank, 0) + 1
        return sum(1 for n in per_rank.values() if n >= proper_rank_width)


def _characters(characters: Any) -> tuple[Character, ...]:
    if isinstance(characters, str | bytes) or not hasattr(characters, "__len__") \
            or len(characters) > MAX_MODELS:
        raise InvalidInputError(f"expected at most {MAX_MODELS} Characters",
                                path="characters")
    found = tuple(characters)
    for i, char in enumerate(found):
        if not isinstance(char, Character):
            raise InvalidInputError(f"expected a Character, got {type(char).__name__}",
                                    path=f"characters[{i}]")
    return found


def _empty(slots: Any) -> tuple[Slot, ...]:
    if isinstance(slots, str | bytes) or not hasattr(slots, "__len__") \
            or len(slots) > MAX_MODELS:
        raise InvalidInputError(f"expected at most {MAX_MODELS} slots (rank, file)",
                                path="empty")
    return tuple(checked_slot(slot, f"empty[{i}]") for i, slot in enumerate(slots))


def checked_assignment(pairs: Any) -> tuple[tuple[str, Slot], ...]:
    """A move's (model id, (rank, file)) pairs, built in Python from pairs or a mapping."""
    items = list(pairs.items()) if isinstance(pairs, Mapping) else pairs
    if isinstance(items, str | bytes) or not hasattr(items, "__len__"):
        raise InvalidInputError("expected (model id, (rank, file)) pairs", path="assignment")
    if len(items) > 2 * MAX_MODELS:  # rank-and-file models and as many characters
        raise InvalidInputError(f"expected at most {2 * MAX_MODELS} models, got {len(items)}",
                                path="assignment")
    found = []
    for item in items:
        if isinstance(item, str | bytes) or not hasattr(item, "__len__") or len(item) != 2:
            raise InvalidInputError("expected (model id, (rank, file)) pairs",
                                    path="assignment")
        model = text(item[0], "assignment")
        found.append((model, checked_slot(item[1], f"assignment.{model}")))
    return tuple(found)
