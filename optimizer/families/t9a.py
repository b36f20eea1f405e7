"""The Ninth Age's move families: Advance (a Pivot, then Snaking), March (Snaking), Reform;
and the manoeuvres that are a Pivot alone (a Post-Combat Pivot), each its own search."""

from constraints.t9a import SYSTEM
from constraints.t9a.moves import Manoeuvre
from optimizer.families.base import register_family, register_search
from optimizer.families.reform import ReformFamily
from optimizer.families.snaking import SnakingFamily
from optimizer.post_combat import best_pivot

register_family(SYSTEM.name, Manoeuvre.ADVANCE, SnakingFamily("advance", pivots=True))
register_family(SYSTEM.name, Manoeuvre.MARCH, SnakingFamily("march", pivots=False))
register_family(SYSTEM.name, Manoeuvre.REFORM, ReformFamily())
for manoeuvre in Manoeuvre:
    if manoeuvre.pivot_only:
        register_search(SYSTEM.name, manoeuvre, best_pivot)
