"""The one scale of CP-SAT models: the lattice (ticks per inch, heading steps), half-planes,
and inscribed polygons for "within R of a point"."""

from __future__ import annotations

import math
from dataclasses import dataclass

from constraints.geometry.plane import Point


@dataclass(frozen=True)
class Lattice:
    """The grid answers live on: centre ticks (inches) and heading steps (degrees).

    `advance_wheel_deg` is the step of an Advance's wheel angle (its Pivot uses `degree`).
    The default was chosen by benchmarks/bench_lattice.py (README there): 0.005" and 1 deg
    solved the 13 bench cases in the same median time as 0.01" and 1 deg with half the
    objective given up; 0.5 deg cost 1.5x the time and a time-out.
    """

    inch: float = 0.005
    degree: float = 1.0
    advance_wheel_deg: float = 15.0

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
