"""Silhouettes and bases (docs/rules.md §13.1; RULES.md §5.1, decision A15).

A trooper is a vertical cylinder: its base's diameter, and a height set by its Silhouette
(S) value.  The table is the N3 one, believed unchanged in N4.  Heights, not S numbers,
are what rules compare: an S2 (40 mm) is taller than an S3 (32 mm).
"""

from __future__ import annotations

MM_PER_IN = 25.4

# Silhouette -> (usual base diameter, height), millimetres (N3 Volume and Silhouette table).
SILHOUETTES_MM: dict[int, tuple[float, float]] = {
    1: (25.0, 25.0), 2: (25.0, 40.0), 3: (40.0, 32.0), 4: (55.0, 32.0),
    5: (40.0, 45.0), 6: (40.0, 55.0), 7: (55.0, 67.0), 8: (70.0, 70.0),
}
BASES_MM = (25.0, 40.0, 55.0, 70.0)
# Prone: the Silhouette becomes the base's height (S0 in N3/N4, 3 mm tall).
PRONE_HEIGHT_MM = 3.0


def height_in(silhouette: int, prone: bool = False) -> float:
    """The Silhouette's height in inches (the base's height when prone)."""
    return (PRONE_HEIGHT_MM if prone else SILHOUETTES_MM[silhouette][1]) / MM_PER_IN
