"""The Ninth Age's move families: Advance (a Pivot, then Snaking), March (Snaking), Reform."""

from optimizer.families.base import register_family
from optimizer.families.reform import ReformFamily
from optimizer.families.snaking import SnakingFamily

register_family("t9a", "advance", SnakingFamily("advance", pivots=True))
register_family("t9a", "march", SnakingFamily("march", pivots=False))
register_family("t9a", "reform", ReformFamily())
