"""The one scale of CP-SAT models: the lattice (ticks per inch, heading steps), half-planes,
and inscribed polygons for "within R of a point"."""

from __future__ import annotations

import math
from dataclasses import dataclass

from constraints.core.jsonread import number
from constraints.geometry.plane import Point

# Sane lattices (a bad one is an InvalidInputError, not a model with no rows or a search that
# never ends): centre ticks from a thousandth of an inch (CP-SAT domains stay far inside its
# integer range) to 10"; heading steps from 0.25 deg (an Advance then has 1,440 Pivots) to
# 90 deg; an Advance's wheel step from 1 deg.
INCH_RANGE = (0.001, 10.0)
DEGREE_RANGE = (0.25, 90.0)
ADVANCE_WHEEL_RANGE = (1.0, 90.0)


@dataclass(frozen=True)
class Lattice:
    """The grid answers live on: centre ticks (inches) and heading steps (degrees).

    `advance_wheel_deg` is the step of an Advance's wheel angle (its Pivot uses `degree`).
    The default was chosen by benchmarks/bench_lattice.py (README there): 0.005" and 1 deg
    solved the 13 bench cases in the same median time as 0.01" and 1 deg with half the
    objective given up; 0.5 deg cost 1.5x the time and a time-out.  Each step must lie in
    its range (`INCH_RANGE`, `DEGREE_RANGE`, `ADVANCE_WHEEL_RANGE`), else
    `InvalidInputError`.
    """

    inch: float = 0.005
    degree: float = 1.0
    advance_wheel_deg: float = 15.0

    def __post_init__(self) -> None:
        for name, (low, high) in (("inch", INCH_RANGE), ("degree", DEGREE_RANGE),
                                  ("advance_wheel_deg", ADVANCE_WHEEL_RANGE)):
            object.__setattr__(self, name, number(getattr(self, name), name, minimum=low,
                                                  maximum=high))

    def to_json(self) -> dict[str, float]:
        return {"inch": self.inch, "degree": self.degree,
                "advance_wheel_deg": self.advance_wheel_deg}


@dataclass(frozen=True)
class HalfPlane:
    """normal . d <= rhs, in frame inches."""

    normal: Point
    rhs: float


def inscribed_polygon(radius: float, sides: int = 32) -> list[HalfPlane]:
    """Half-planes of a regular polygon inscribed in the disc of `radius` about the origin.

    Every point of the polygon is in the disc; it gives up radius * (1 - cos(pi / sides)).
    """
    apothem = radius * math.cos(math.pi / sides)
    return [HalfPlane((math.cos(2 * math.pi * k / sides), math.sin(2 * math.pi * k / sides)),
                      apothem) for k in range(sides)]
