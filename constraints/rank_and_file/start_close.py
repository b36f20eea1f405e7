"""Units that start close (RULES.md §2.3.2.4, decision A20; docs/rules.md §3.5).

    "A unit that ended within 1" through an uncontrolled move or unintended event may stay
    within 1" until the units are more than 1" apart; then the normal rule applies again."

After a charge, a nudge, a combat or a failed charge a unit often stands within a Unit
Spacing limit of a friend, an enemy or Impassable Terrain.  A20: towards each such object the
limit for the unit and for each of its models (the end position, a Pivot, the Front Facing's
sweep, a Reform's walking models) becomes the unit's start distance to it: nothing comes
closer than the unit stood.  A unit that starts in contact with an object (within the
contact tolerance, A21) may stay in contact or leave it, but never overlap it.  Towards an
object farther than the limit the normal limit applies.

Reading (docs/rules.md §3.5): a move is judged from its start, so the start distance holds
for the whole move; a move that ends more than 1" away leaves the next one the normal limit.

Three forms of the limit, for the three forms of a clause:
- `limit` (the checker): "more than" this; the start distance less a hair (so standing still
  passes), or `CONTACT` for an object touched at the start (then no overlap deeper than the
  contact tolerance);
- `sound` (rows, masks, sound regions): at least the checker's (0 for a touched object: any
  gap at all), so what they accept the checker accepts;
- `relaxed` (relaxed regions, sweep cuts): at most the checker's (minus the contact
  tolerance for a touched object), so what they cut the checker refuses.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import shapely

from constraints.core.cache import remembered
from constraints.core.limits import more_than
from constraints.core.scenario import Scenario
from constraints.geometry.overlap import convex_parts, penetration
from constraints.geometry.plane import closest_points

HAIR_IN = 1e-6  # the start distance less this: standing still passes "more than" it
CONTACT = -1.0  # the checker's limit towards an object touched at the start: no overlap


@dataclass(frozen=True)
class StartClose:
    """The unit's start distance to each object it must keep away from (by label), and the
    contact tolerance."""

    gaps: Mapping[str, float]
    touch: float

    @classmethod
    def of(cls, scenario: Scenario, unit_id: str) -> StartClose:
        """Measured once per scenario and unit."""
        def build() -> StartClose:
            here = scenario.unit(unit_id).boundary()
            found = scenario.obstacles_for(unit_id)
            gaps = shapely.distance(here, [s for _, s in found]) if found else []
            return cls({label: float(g) for (label, _), g in zip(found, gaps, strict=True)},
                       max(scenario.contact_tolerance, HAIR_IN))
        return remembered(scenario, ("start_close", unit_id), build)

    def touched(self, label: str) -> bool:
        return self.gaps.get(label, np.inf) <= self.touch

    def limit(self, label: str, spacing: float) -> float:
        """The checker's limit towards `label` ("more than"; `CONTACT`: no overlap)."""
        gap = self.gaps.get(label, np.inf)
        if gap > spacing:
            return spacing
        return CONTACT if gap <= self.touch else gap - HAIR_IN

    def sound(self, label: str, spacing: float) -> float:
        """A limit at least the checker's ("more than" it implies the checker passes)."""
        limit = self.limit(label, spacing)
        return 0.0 if limit == CONTACT else limit

    def relaxed(self, label: str, spacing: float) -> float:
        """A limit at most the checker's (within it implies the checker refuses)."""
        limit = self.limit(label, spacing)
        return -self.touch if limit == CONTACT else limit

    def any_close(self, spacing: float) -> bool:
        """Whether the unit starts within `spacing` of anything."""
        return any(g <= spacing for g in self.gaps.values())


def nearest_limit(shape: shapely.Geometry | Sequence[shapely.Geometry],
                  obstacles: list[tuple[str, Any]], close: StartClose, spacing: float,
                  what: str) -> tuple[float, float, bool, str, tuple] | None:
    """Unit Spacing of `shape` against each obstacle, each with its own limit (A20): (gap,
    limit, legal, message, witness) of the one that breaks its limit, else of the one
    nearest its limit; None without obstacles.  Against a touched object the gap is minus
    the overlap's depth and the limit minus the contact tolerance.  `shape` may be given as
    its parts (a sweep's legs): each is measured on its own, never their union."""
    parts = [shape] if isinstance(shape, shapely.Geometry) else list(shape)
    parts = [p for p in parts if not p.is_empty]
    worst: tuple[tuple[bool, float], tuple[float, float, bool, str, tuple]] | None = None
    for label, obstacle in obstacles:
        limit = close.limit(label, spacing)
        witness: tuple = ()
        gaps = [float(p.distance(obstacle)) for p in parts]
        gap = min(gaps, default=float("inf"))
        if limit == CONTACT:
            depth = max((overlap_depth(p, obstacle, close.touch) for p in parts), default=0.0)
            gap = -depth if depth > 0 else gap
            lim, legal = -close.touch, depth <= close.touch
            why = f"{what} overlaps {label}, which it started touching, by {depth:.4f}\""
        else:
            lim, legal = limit, more_than(gap, limit)
            start = "it started at" if limit < spacing else "must be more than"
            why = f"{what} is {gap:.3f}\" from {label}, {start} {limit:.3f}\""
            if gap < float("inf"):
                witness = closest_points(parts[gaps.index(gap)], obstacle)
        rank = (legal, gap - lim)  # a broken limit first, then the nearest to its limit
        if worst is None or rank < worst[0]:
            worst = (rank, (gap, lim, legal, why, witness))
    return None if worst is None else worst[1]


def overlap_depth(shape: shapely.Geometry, obstacle: shapely.Geometry, touch: float) -> float:
    """How deep `shape` overlaps `obstacle`: the largest least separating shift between a
    convex part of each (0 when they do not overlap).  A line (a Front Facing that did not
    move) has no area: it overlaps by more than `touch` when it reaches that far inside."""
    if not shape.intersects(obstacle):
        return 0.0
    worst = 0.0
    for part in shapely.get_parts(shape):
        if part.geom_type == "Polygon" and not part.is_empty:
            for a in convex_parts(part):
                for b in _obstacle_parts(obstacle):
                    worst = max(worst, penetration(a, b))
        elif not part.is_empty and part.intersects(obstacle.buffer(-touch)):
            worst = max(worst, 2.0 * touch)
    return worst


def _obstacle_parts(obstacle: shapely.Geometry) -> list[np.ndarray]:
    return [a for p in shapely.get_parts(obstacle) if p.geom_type == "Polygon"
            for a in convex_parts(p)]
