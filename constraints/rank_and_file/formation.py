"""Formations: files, ranks and the slots that rank-and-file models and characters stand in.

A slot is (rank, file): rank 0 is the front rank, file 0 the unit's leftmost file as seen
from behind it (docs/formats.md).  Default layout: models fill the ranks front to back, `files` to
a rank; an incomplete rear rank is centred, an odd leftover empty slot going to the right.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import cached_property

Slot = tuple[int, int]


@dataclass(frozen=True)
class Character:
    """A model on a matching base standing in the formation at `slot`."""

    id: str
    slot: Slot


@dataclass(frozen=True)
class Formation:
    """How a unit's models stand: files, rank-and-file count, characters, empty slots."""

    files: int
    models: int
    characters: tuple[Character, ...] = ()
    empty: tuple[Slot, ...] = ()

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
