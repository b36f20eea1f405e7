"""The rulebook: domain values, geometry, rule clauses, rules profiles, scenario I/O.

The game systems are imported here so that each registers itself (constraints.core.system);
shared code never imports a system.
"""

from constraints import (
    infinity,  # noqa: F401  (registers the system)
    t9a,  # noqa: F401  (registers the system)
    whfb7,  # noqa: F401  (registers the system)
)
