"""Each family's way search (optimizer.search.ways.base): importing this package registers
them."""

from optimizer.search.ways import pivot, snaking, whfb7  # noqa: F401  (registers each)
from optimizer.search.ways.base import WaySearchStrategy, own_search, ways_of

__all__ = ["WaySearchStrategy", "own_search", "ways_of"]
