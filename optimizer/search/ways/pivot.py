"""The Ninth Age's manoeuvres that are a Pivot alone (a Post-Combat Pivot): no family of end
poses, one number searched by its own search (optimizer.post_combat)."""

from constraints.t9a import SYSTEM
from constraints.t9a.moves import Manoeuvre
from optimizer.post_combat import best_pivot
from optimizer.search.ways.base import register_search

for manoeuvre in Manoeuvre:
    if manoeuvre.pivot_only:
        register_search(SYSTEM.name, manoeuvre, best_pivot)
