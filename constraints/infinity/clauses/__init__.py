"""The route clauses of Infinity N4 (docs/rules.md §13.4, §13.8), one module each (the
Jump's, the Climb's, the Dodge's clauses one module per skill), in the order a verdict lists
them; each judges the skills in its `skills`."""

from constraints.infinity.clauses.base import Kept, RouteClause
from constraints.infinity.clauses.climb import (
    ClimbClear,
    ClimbDistance,
    ClimbProne,
    ClimbShape,
    ClimbWall,
)
from constraints.infinity.clauses.dodge import Dodge
from constraints.infinity.clauses.end_surface import EndSurface
from constraints.infinity.clauses.end_troopers import EndTroopers
from constraints.infinity.clauses.enemy_contact import EnemyContact
from constraints.infinity.clauses.jump import JumpClear, JumpDistance, JumpProne
from constraints.infinity.clauses.length import Length
from constraints.infinity.clauses.levels import Levels
from constraints.infinity.clauses.scenery import Scenery
from constraints.infinity.clauses.surface import Surface
from constraints.infinity.clauses.table import Table
from constraints.infinity.clauses.troopers import Troopers

ROUTE_CLAUSES: tuple[type[RouteClause], ...] = (
    Levels, Length, Dodge, JumpDistance, JumpClear, JumpProne, ClimbShape, ClimbWall,
    ClimbDistance, ClimbClear, ClimbProne, Scenery, Surface, Table, Troopers, EnemyContact,
    EndSurface, EndTroopers)

__all__ = ["ROUTE_CLAUSES", "Kept", "RouteClause"]
