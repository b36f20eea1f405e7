"""The clauses of "Combat Reforms", per rules profile (seed 002 = variant B for `t9a`,
RULES §2.12 (A) for `t9a-2025`).  Order: who may reform, where it is placed, then the
contacts it must keep; deferred clauses (judged after all of a player's reforms) last."""

from constraints.t9a.clauses.combat_reform.aligned import Aligned
from constraints.t9a.clauses.combat_reform.base import CombatReformClause, ReformExample, Role
from constraints.t9a.clauses.combat_reform.characters import Characters, CharactersAfterAll
from constraints.t9a.clauses.combat_reform.contact_count import (
    ContactCount,
    ContactCountAfterAll,
)
from constraints.t9a.clauses.combat_reform.eligible import Eligible, EligibleCommand
from constraints.t9a.clauses.combat_reform.enemy_models import EnemyModels
from constraints.t9a.clauses.combat_reform.file_change import FileChange
from constraints.t9a.clauses.combat_reform.formation import LegalFormation
from constraints.t9a.clauses.combat_reform.march_rate import MarchRate
from constraints.t9a.clauses.combat_reform.new_enemy import NewEnemy
from constraints.t9a.clauses.combat_reform.overlap import Overlap
from constraints.t9a.clauses.combat_reform.same_enemies import SameEnemies
from constraints.t9a.clauses.combat_reform.spacing import Spacing
from constraints.t9a.clauses.combat_reform.table import OnTable

CLAUSES: dict[str, tuple[type[CombatReformClause], ...]] = {
    "t9a": (Eligible, LegalFormation, Spacing, Overlap, OnTable, NewEnemy, SameEnemies,
            MarchRate, Characters, ContactCount, EnemyModels),
    "t9a-2025": (EligibleCommand, FileChange, LegalFormation, Overlap, OnTable, NewEnemy,
                 SameEnemies, Aligned, CharactersAfterAll, ContactCountAfterAll),
}

__all__ = ["CLAUSES", "CombatReformClause", "ReformExample", "Role"]
