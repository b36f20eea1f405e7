"""An end pose to reach, the ways to it, and the exact legs of a way with given angles.

A way is an Advance's Pivot, then forward a, wheel t1, forward b, wheel t2, forward c
(docs/rules.md §4.8).  Once its angles are chosen its legs follow from a 2 x 2 linear system:
the end centre fixes two coordinates, and of the three legs the cheapest non-negative choice
has one zero (a linear programme's vertex), so `evaluate` solves the three choices and keeps
the cheapest.  Headings are summed in degrees as the kinematics sums them, so the legs are
those of the way that will be executed and it ends on the asked pose up to rounding.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

LEG_NOISE = 1e-10   # a solved leg this close to zero is zero (float noise at a root)
# At a way whose legs all vanish together (two wheels with nothing between, docs/rules.md
# §4.8) the end pose fixes more coordinates than the way has free angles, so an end pose
# written to 9 decimals solves to legs a few 1e-9" below zero (its rounding over the sine of
# the angle between two legs' directions).  The end-pose checker looks again with this
# noise when no way is found with LEG_NOISE; the clamped way ends within
# `end_pose.REACH_IN` of the pose asked, which `end_pose` checks.
ROUNDED_LEG_NOISE = 1e-7


@dataclass(frozen=True)
class WayProblem:
    """An Advance or March of one rectangle to a fixed end pose (inches, degrees)."""

    centre: tuple[float, float]
    facing_deg: float
    end_centre: tuple[float, float]
    end_facing_deg: float
    width_in: float
    depth_in: float
    pivots: bool
    window_deg: float

    @property
    def rho(self) -> float:
        return self.width_in / 2.0

    @property
    def turn_limit(self) -> float:
        """Largest |heading change| of one wheel, radians: 90 deg and the window."""
        return math.radians(min(self.window_deg, 90.0))

    def end_turn_deg(self, pivot_deg: np.ndarray | float = 0.0) -> np.ndarray:
        """The end facing from the heading after the Pivot, in [-180, 180)."""
        return signed_deg(self.end_facing_deg - self.facing_deg - np.asarray(pivot_deg))


@dataclass(frozen=True)
class Way:
    """One way found: its Snaking distance, Pivot, wheels and legs (a, b, c)."""

    cost: float
    pivot_deg: float
    wheels_deg: tuple[float, float]
    legs: tuple[float, float, float]

    @property
    def wheel_count(self) -> int:
        return sum(1 for t in self.wheels_deg if t != 0.0)


def signed_deg(angle_deg: np.ndarray | float) -> np.ndarray:
    """The same turn in [-180, 180) degrees."""
    return (np.asarray(angle_deg, dtype=float) + 180.0) % 360.0 - 180.0


def _fv(h_deg: np.ndarray) -> np.ndarray:
    rad = np.radians(h_deg)
    return np.stack([np.cos(rad), np.sin(rad)], axis=-1)


def _lv(h_deg: np.ndarray) -> np.ndarray:
    rad = np.radians(h_deg)
    return np.stack([-np.sin(rad), np.cos(rad)], axis=-1)


def _cross(u: np.ndarray, v: np.ndarray) -> np.ndarray:
    return u[..., 0] * v[..., 1] - u[..., 1] * v[..., 0]


def _front_shift(rho: float, h_deg: np.ndarray, t_deg: np.ndarray) -> np.ndarray:
    """The front centre's displacement in a wheel by t from heading h."""
    return np.sign(t_deg)[..., None] * rho * (_lv(h_deg) - _lv(h_deg + t_deg))


def evaluate(problem: WayProblem, pivot: np.ndarray, t1: np.ndarray,
             t2: np.ndarray, leg_noise: float = LEG_NOISE) -> tuple[np.ndarray, np.ndarray]:
    """Legs (N, 3) and cost (N,) of the cheapest way with these angles (degrees); NaN where no
    non-negative legs reach the end centre (a leg within `leg_noise` of zero is zero).
    Headings are summed in degrees as the kinematics sums them, so the legs are solved for
    the way that will be executed."""
    pivot, t1, t2 = np.broadcast_arrays(*(np.asarray(x, dtype=float) for x in (pivot, t1, t2)))
    h = problem.facing_deg + pivot
    dirs = [_fv(h), _fv(h + t1), _fv(h + t1 + t2)]
    start = np.asarray(problem.centre) + problem.depth_in / 2.0 * dirs[0]
    end = np.asarray(problem.end_centre) + problem.depth_in / 2.0 * dirs[2]
    rest = end - start - _front_shift(problem.rho, h, t1) - _front_shift(problem.rho, h + t1, t2)
    best_legs = np.full(pivot.shape + (3,), np.nan)
    best = np.full(pivot.shape, np.inf)
    for free in ((0, 1), (0, 2), (1, 2)):
        legs = np.zeros(pivot.shape + (3,))
        pair = _pair_solve(dirs[free[0]], dirs[free[1]], rest)
        legs[..., free[0]], legs[..., free[1]] = pair[..., 0], pair[..., 1]
        ok = np.all(legs >= -leg_noise, axis=-1)
        legs = np.where(legs <= leg_noise, 0.0, legs)
        total = np.where(ok, legs.sum(axis=-1), np.inf)
        better = total < best
        best = np.where(better, total, best)
        best_legs = np.where(better[..., None], legs, best_legs)
    wheel_cost = problem.width_in * (np.abs(np.sin(np.radians(t1)))
                                     + np.abs(np.sin(np.radians(t2))))
    return best_legs, np.where(np.isfinite(best), best + wheel_cost, np.nan)


def _pair_solve(d1: np.ndarray, d2: np.ndarray, rhs: np.ndarray) -> np.ndarray:
    """(x, y) with x d1 + y d2 = rhs; for parallel d1, d2 all of it on d1 when rhs lies along
    d1 (the way then has a zero leg); NaN where there is no solution."""
    det = _cross(d1, d2)
    with np.errstate(divide="ignore", invalid="ignore"):
        x = _cross(rhs, d2) / det
        y = _cross(d1, rhs) / det
    parallel = np.abs(det) < 1e-12
    along = np.sum(rhs * d1, axis=-1)
    straight = np.abs(_cross(d1, rhs)) <= LEG_NOISE
    x = np.where(parallel, np.where(straight, along, np.nan), x)
    y = np.where(parallel, np.where(straight, 0.0, np.nan), y)
    return np.stack([x, y], axis=-1)
