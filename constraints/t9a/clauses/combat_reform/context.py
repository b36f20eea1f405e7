"""What the Combat Reform clauses judge: reforms, and the units as they stood before them.

A context holds the scenario before (every unit as it stands before these reforms), the
reforms (one for a clause judging one unit's reform, all of a player's for a deferred clause)
and the combat result.  Everything the clauses share is derived here once, on demand: the
scenario after, the combats before, and which models touch which enemy models.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import cached_property
from itertools import combinations
from typing import Any

from constraints.core.scenario import Scenario
from constraints.rank_and_file.combats import combats, engagements
from constraints.rank_and_file.contact import contact_tolerance, gap_blockers, model_contacts
from constraints.rank_and_file.unit import Unit
from constraints.t9a.combat_reform import UnitReform, placed
from constraints.t9a.combat_reform_io import CombatResult


@dataclass(frozen=True)
class ModelContacts:
    """Base contacts between opposing models (RULES §2.6.1-2, across gaps included):
    `opposing` maps every model of the units looked at to the enemy models it touches,
    `owner` each model to its unit."""

    opposing: Mapping[str, frozenset[str]]
    owner: Mapping[str, str]

    def touching(self, model: str) -> bool:
        return bool(self.opposing.get(model))

    def count(self, unit_id: str) -> int:
        """How many of the unit's models touch an enemy model."""
        return sum(1 for m, o in self.owner.items() if o == unit_id and self.opposing[m])


def contacts_among(scenario: Scenario, ids: frozenset[str]) -> ModelContacts:
    """The model contacts between the units `ids` of `scenario` (each pair of opposing units
    once; what may block a contact across a gap is every other unit and Impassable Terrain)."""
    units: list[Unit] = [scenario.unit(i) for i in sorted(ids)]
    opposing: dict[str, set[str]] = {m: set() for u in units for m in u.model_ids()}
    owner = {m: u.id for u in units for m in u.model_ids()}
    for a, b in combinations(units, 2):
        if a.player == b.player:
            continue
        for own, their in model_contacts(a, b, gap_blockers(scenario, a.id, b.id),
                                         contact_tolerance(scenario)):
            opposing[own].add(their)
            opposing[their].add(own)
    return ModelContacts({m: frozenset(s) for m, s in opposing.items()}, owner)


@dataclass(frozen=True)
class ReformContext:
    """Reforms to judge: `before` holds every unit as it stands before the first of them."""

    before: Scenario
    reforms: tuple[UnitReform, ...]
    result: CombatResult

    @property
    def reform(self) -> UnitReform:
        """The reform judged (the first: a context of one unit's reform holds only it)."""
        return self.reforms[0]

    @property
    def unit_id(self) -> str:
        return self.reform.unit

    @cached_property
    def after(self) -> Scenario:
        return placed(self.before, self.reforms)

    @cached_property
    def unit(self) -> Unit:
        return self.before.unit(self.unit_id)

    @cached_property
    def end_unit(self) -> Unit:
        return self.after.unit(self.unit_id)

    @property
    def player(self) -> str:
        return self.unit.player

    def param(self, name: str) -> Any:
        return self.before.profile.param(name)

    @cached_property
    def contact_in(self) -> float:
        """The contact tolerance (A21): Facings closer than this touch."""
        return contact_tolerance(self.before)

    @cached_property
    def engaged_before(self) -> dict[str, str]:
        """Enemy id -> the unit's own Facing in which it engages it, before the reform."""
        return engagements(self.before.units, self.contact_in).get(self.unit_id, {})

    @cached_property
    def combat_before(self) -> frozenset[str]:
        """The units of the combat the (first) reformed unit stood in before."""
        return self._combat_of(self.unit_id)

    @cached_property
    def involved(self) -> frozenset[str]:
        """The units of every combat a reformed unit stood in before."""
        found: set[str] = set()
        for reform in self.reforms:
            found |= self._combat_of(reform.unit)
        return frozenset(found)

    def _combat_of(self, unit_id: str) -> frozenset[str]:
        for combat in self._combats:
            if unit_id in combat:
                return frozenset(combat)
        return frozenset({unit_id})

    @cached_property
    def _combats(self) -> list[tuple[str, ...]]:
        return combats(self.before.units, self.contact_in)

    @cached_property
    def contacts_before(self) -> ModelContacts:
        return contacts_among(self.before, self.involved)

    @cached_property
    def contacts_after(self) -> ModelContacts:
        return contacts_among(self.after, self.involved)

    def enemies_touched_before(self, unit_id: str) -> list[Unit]:
        """The enemy units whose Unit Boundaries touched `unit_id`'s before."""
        unit = self.before.unit(unit_id)
        return [u for u in self.before.units if u.player != unit.player
                and unit.boundary().distance(u.boundary()) <= self.contact_in]

    def characters(self) -> list[str]:
        """The Characters of the units involved, in unit order."""
        return [c.id for u in self.before.units if u.id in self.involved
                for c in u.formation.characters]
