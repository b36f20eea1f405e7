"""The poses of whfb7 ways in batches: a way's prefix (an optional wheel, then an optional turn
on the spot) as steps and as the unit it leaves, the poses a prefix and end centres make,
and the poses of turns on the spot (constraints.whfb7.masks judges them)."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from constraints.geometry.frame import Frame
from constraints.geometry.plane import signed_deg
from constraints.rank_and_file.steps import Step, forward, turn, wheel
from constraints.rank_and_file.sweeps import step_sweep
from constraints.rank_and_file.unit import Unit
from constraints.rank_and_file.ways import Ways, group_ways, legs
from constraints.whfb7.ways import TURNS_DEG

WORLD = Frame((0.0, 0.0), 90.0)
WHEEL_LIMIT_DEG = 90.0


@dataclass(frozen=True)
class WayPoses:
    """Poses of one turn's ways: each pose's way (`ways.inverse`), legs and whether its way
    exists (legs not backwards, a straight way's centre on its line, a wheel within 90)."""

    prefix: tuple[float, float]  # (wheel, turn) before leg 1, either 0 for none
    start: Unit            # the unit after them (where leg 1 starts)
    ways: Ways
    a: np.ndarray
    b: np.ndarray
    exists: np.ndarray

    def subset(self, rows: np.ndarray) -> WayPoses:
        inverse = self.ways.inverse[rows]
        return WayPoses(self.prefix, self.start, _with_inverse(self.ways, inverse),
                        self.a[rows], self.b[rows], self.exists[rows])


def _with_inverse(ways: Ways, inverse: np.ndarray) -> Ways:
    return Ways(ways.pivot, ways.facing, ways.delta, inverse, ways.shift, ways.fp, ways.fe,
                ways.det, ways.f, ways.half_right, ways.half_ahead)


def way_poses(start: Unit, prefix: tuple[float, float], centres: np.ndarray,
              facings: np.ndarray) -> WayPoses:
    """The one-wheel ways of `start` (the unit after its `prefix`) to world end poses."""
    ways = group_ways(start, facings, np.zeros(len(facings)))
    x0, y0 = start.pose.centre
    a, b, ok = legs(ways, centres[:, 0] - x0, centres[:, 1] - y0)
    ok &= np.abs(ways.delta[ways.inverse]) <= WHEEL_LIMIT_DEG + 1e-9
    return WayPoses(prefix, start, ways, a, b, ok)


def prefix_steps(prefix: tuple[float, float]) -> tuple[Step, ...]:
    """The steps before leg 1: the prefix's wheel, then its turn (either may be 0)."""
    pre, spin = prefix
    return tuple(s for s in (wheel(pre) if pre else None, turn(spin) if spin else None)
                 if s is not None)


def prefix_start(unit: Unit, prefix: tuple[float, float]) -> Unit:
    """The unit after its prefix, as the checker executes it."""
    for step in prefix_steps(prefix):
        unit = step_sweep(unit, step)[1]
    return unit


def steps_of(prefix: tuple[float, float], a: float, wheel_deg: float,
             b: float) -> tuple[Step, ...]:
    """The move of a pose's way: the prefix, forward a, the wheel, forward b (zero steps
    left out)."""
    return prefix_steps(prefix) + tuple(
        s for s in (forward(a) if a > 0 else None, wheel(wheel_deg) if wheel_deg else None,
                    forward(b) if b > 0 else None) if s is not None)


def turn_poses(unit: Unit, centres: np.ndarray, facings: np.ndarray,
               turns: np.ndarray | None, pre_wheels: np.ndarray | None = None) \
        -> tuple[list[tuple[np.ndarray, WayPoses]], np.ndarray]:
    """The poses grouped by their prefix, a wheel (`pre_wheels`, within 90 deg) then a turn
    on the spot (`turns`: 0, 90, -90 or 180), each default none: per prefix, its rows and
    their ways; and whether each pose's way exists."""
    centres, facings = np.asarray(centres, float), np.asarray(facings, float)
    spins = np.zeros(len(facings)) if turns is None else np.asarray(turns, float)
    pres = np.zeros(len(facings)) if pre_wheels is None else np.asarray(pre_wheels, float)
    exists = np.zeros(len(facings), dtype=bool)
    groups = []
    keys = np.stack([pres, spins], axis=1).view(np.complex128).reshape(-1)
    for key in np.unique(keys):
        pre, spin = float(key.real), float(key.imag)
        known = [t for t in TURNS_DEG if abs(signed_deg(np.array(spin - t))) < 1e-9]
        if not known or abs(pre) > WHEEL_LIMIT_DEG:
            continue
        rows = np.flatnonzero(keys == key)
        prefix = (pre, known[0])
        found = way_poses(prefix_start(unit, prefix), prefix, centres[rows], facings[rows])
        exists[rows] = found.exists
        groups.append((rows, found))
    return groups, exists
