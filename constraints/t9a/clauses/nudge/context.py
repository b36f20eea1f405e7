"""What the nudge clauses judge: one unit's nudge, given where every unit stands before it.

A nudge is one or two straight legs in the unit's own frame, `forward` (negative: backwards)
or `sideways` (positive: to the unit's right), with no rotation (docs/rules.md §11).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import cached_property

import numpy as np

from constraints.core.scenario import Pose, Scenario
from constraints.errors import InvalidInputError
from constraints.geometry.overlap import convex_parts, swept
from constraints.geometry.plane import unit_vector
from constraints.rank_and_file.contact import contact_tolerance
from constraints.rank_and_file.unit import Unit

DIRECTIONS = ("forward", "sideways")
MAX_NUDGE_IN = 1000.0  # far beyond any battlefield: a longer leg is malformed input


@dataclass(frozen=True)
class Leg:
    """One straight leg: `forward` (negative backwards) or `sideways` (positive right)."""

    direction: str
    distance_in: float

    def __post_init__(self) -> None:
        if self.direction not in DIRECTIONS:
            raise InvalidInputError(f"a nudge leg goes {' or '.join(DIRECTIONS)}, not "
                                    f"{self.direction!r}", path="legs")
        d = self.distance_in
        if isinstance(d, bool) or not isinstance(d, int | float) or not np.isfinite(d) \
                or abs(d) > MAX_NUDGE_IN:
            raise InvalidInputError(f"a leg's distance must be a finite number of inches "
                                    f"within {MAX_NUDGE_IN:g}, got {d!r}", path="legs")
        object.__setattr__(self, "distance_in", float(d))

    def shift(self, facing_deg: float) -> np.ndarray:
        """The leg as a world vector for a unit facing `facing_deg`."""
        fx, fy = unit_vector(facing_deg)
        along = (fx, fy) if self.direction == "forward" else (fy, -fx)
        return np.array(along) * self.distance_in

    def to_json(self) -> dict[str, float]:
        return {self.direction: round(self.distance_in, 9)}


def legs_of(forward_in: float, sideways_in: float, forward_first: bool = True
            ) -> tuple[Leg, ...]:
    """The legs of a shift (f, s) in the unit's frame, zero legs left out."""
    legs = [Leg("forward", forward_in), Leg("sideways", sideways_in)]
    legs = legs if forward_first else legs[::-1]
    return tuple(leg for leg in legs if leg.distance_in != 0.0)


@dataclass(frozen=True)
class NudgeContext:
    """One unit's nudge: the scenario as the units stand before it, the enemies the unit
    touched before the Unit Boundaries changed (enemy id -> the unit's Facing that touched
    it), and the legs."""

    scenario: Scenario
    unit_id: str
    previous: Mapping[str, str]
    legs: tuple[Leg, ...]

    @cached_property
    def unit(self) -> Unit:
        return self.scenario.unit(self.unit_id)

    @cached_property
    def contact_in(self) -> float:
        """The contact tolerance (A21): Facings closer than this touch."""
        return contact_tolerance(self.scenario)

    @cached_property
    def shifts(self) -> list[np.ndarray]:
        return [leg.shift(self.unit.pose.facing_deg) for leg in self.legs]

    @cached_property
    def end_unit(self) -> Unit:
        start = self.unit.pose
        total = np.sum(self.shifts, axis=0) if self.shifts else np.zeros(2)
        centre = (start.centre[0] + float(total[0]), start.centre[1] + float(total[1]))
        return self.unit.with_pose(Pose(centre, start.facing_deg))

    def sweeps(self) -> list[np.ndarray]:
        """The area swept by each leg, in the order moved."""
        corners = np.asarray(self.unit.corners())
        out = []
        for shift in self.shifts:
            out.append(swept(corners, shift))
            corners = corners + shift
        return out

    @cached_property
    def others(self) -> tuple[Unit, ...]:
        return tuple(u for u in self.scenario.units if u.id != self.unit_id)

    def is_enemy(self, other: Unit) -> bool:
        return other.player != self.unit.player

    @cached_property
    def blockers(self) -> list[tuple[str, np.ndarray]]:
        """(label, convex vertices) of what a nudge may not pass through: other units'
        boundaries and impassable terrain (in convex parts)."""
        found = [(f"unit {u.id}", np.asarray(u.corners())) for u in self.others]
        for t in self.scenario.impassable():
            found += [(f"impassable terrain {t.id}", part) for part in convex_parts(t.shape)]
        return found
