"""The Ninth Age's move families: Advance (a Pivot, then Snaking), March (Snaking), Reform.
(The manoeuvres that are a Pivot alone have no family: optimizer.search.ways.pivot.)"""

from constraints.t9a import SYSTEM
from constraints.t9a.moves import Manoeuvre
from optimizer.families.base import register_family
from optimizer.families.reform import ReformFamily
from optimizer.families.snaking import SnakingFamily

register_family(SYSTEM.name, Manoeuvre.ADVANCE, SnakingFamily("advance", pivots=True))
register_family(SYSTEM.name, Manoeuvre.MARCH, SnakingFamily("march", pivots=False))
register_family(SYSTEM.name, Manoeuvre.REFORM, ReformFamily())
