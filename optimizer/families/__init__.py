"""Each system's move families: the options a search enumerates (optimizer.families.base).
Importing this package registers them."""

from optimizer.families import t9a, whfb7  # noqa: F401  (registers each system's families)
