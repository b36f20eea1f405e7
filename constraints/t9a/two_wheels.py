"""Ways with two wheels from a fixed heading: three one-parameter families in closed form.

After the Pivot (if any) the heading h and the end turn T = t1 + t2 are fixed.  For fixed
wheels the legs are a linear programme whose cheapest solution has a zero leg
(`way_problem`), so the two-wheel ways are three families, one per zero leg and per pair of
wheel signs, each with one free angle:

- first leg zero (wheel, forward, wheel, forward): after the first wheel the front centre
  lies on a circle tied to the heading between the wheels, so the rest is
  `circle_wheel_points` with the first wheel's cost added;
- last leg zero (forward, wheel, forward, wheel): the same family run backwards from the end
  pose (a way reversed is a way: the front centre runs along the same straight pieces and
  arcs with the heading turned round);
- middle leg zero (forward, wheel, wheel, forward): the wheels turn opposite ways (the same
  way with nothing between is one wheel, only dearer), and legs and cost are sinusoids of t1.

Each family's candidates hold every end of every interval where its legs are non-negative
and every stationary point of its cost, so the cheapest two-wheel way is among them.
"""

from __future__ import annotations

import math
from typing import NamedTuple

import numpy as np

from constraints.t9a.way_algebra import (
    angle_of,
    circle_wheel_points,
    in_frame,
    side_range,
    sinusoid_min,
    sinusoid_roots,
)
from constraints.t9a.way_problem import WayProblem


class _Setup(NamedTuple):
    """One batch of start headings (radians, (N,)), shared by the three families."""

    start: np.ndarray  # front centre after the Pivot (N, 2)
    front: np.ndarray  # front centre at the end pose (2,)
    h: np.ndarray      # heading after the Pivot
    end: np.ndarray    # end heading, broadcast to (N,)
    turn: np.ndarray   # T = t1 + t2
    rho: float
    limit: float       # largest |t1|: 90 deg and the window
    samples: int


def two_wheel_angles(problem: WayProblem, pivot: np.ndarray,
                     samples: int = 6) -> tuple[np.ndarray, np.ndarray]:
    """Candidate (t1, t2) in degrees, (N, k), of two-wheel ways after each given Pivot.

    The end turn T = t1 + t2 is fixed by the Pivot; per pair of wheel signs and zero leg the
    family is one-parameter and its candidates hold its cheapest way (module docstring).
    """
    pivot = np.asarray(pivot, dtype=float)
    turn = np.radians(problem.end_turn_deg(pivot))
    h = np.radians(problem.facing_deg + pivot)
    end_h = math.radians(problem.end_facing_deg)
    front = np.asarray(problem.end_centre) + problem.depth_in / 2.0 * _unit(np.array(end_h))
    setup = _Setup(np.asarray(problem.centre) + problem.depth_in / 2.0 * _unit(h), front,
                   h, np.full_like(h, end_h), turn, problem.rho, problem.turn_limit, samples)
    allowed = np.abs(turn) <= math.radians(problem.window_deg) + 1e-12
    found: list[np.ndarray] = []
    for s1 in (1.0, -1.0):
        for s2 in (1.0, -1.0):
            found.append(_first_leg_zero(setup, s1, s2))
            found.append(_last_leg_zero(setup, s1, s2))
        found.append(_middle_leg_zero(setup, s1))
    t1 = np.concatenate(found, axis=-1)
    t1 = np.where(allowed[:, None], t1, np.nan)
    return np.degrees(t1), np.degrees(turn)[:, None] - np.degrees(t1)


def _unit(h: np.ndarray) -> np.ndarray:
    return np.stack([np.cos(h), np.sin(h)], axis=-1)


def _left(h: np.ndarray) -> np.ndarray:
    return np.stack([-np.sin(h), np.cos(h)], axis=-1)


def _first_leg_zero(setup: _Setup, s1: float, s2: float) -> np.ndarray:
    """Wheel t1, forward b, wheel t2, forward c: after the first wheel the front centre is on
    a circle tied to the heading between the wheels; the second wheel is the free one."""
    start, front, h, end, turn, rho, limit, samples = setup
    q = start + s1 * rho * _left(h)
    p = in_frame(front - q, end)
    lo = np.where(s1 > 0, turn - limit, turn)  # t1 = T - t2 of sign s1, |t1| <= limit
    hi = np.where(s1 > 0, turn, turn + limit)
    w_range = side_range(s2, np.maximum(lo, -np.pi / 2), np.minimum(hi, np.pi / 2))
    w = circle_wheel_points(p, np.zeros_like(h), np.full_like(h, -s1 * rho), rho, s2,
                            w_range, (turn, -1.0, s1), samples)
    return turn[:, None] - angle_of(w, s2)


def _last_leg_zero(setup: _Setup, s1: float, s2: float) -> np.ndarray:
    """Forward a, wheel t1, forward b, wheel t2: the same family run backwards from the end,
    whose front centre before the last wheel is on a circle; t' = -t1 is the free wheel."""
    start, front, h, end, turn, rho, limit, samples = setup
    q = front + s2 * rho * _left(end)
    p = in_frame(start - q, h + np.pi)
    lo = np.where(s2 > 0, -turn, -np.pi / 2 - turn)  # t2 = T + t' of sign s2, |t2| <= 90
    hi = np.where(s2 > 0, np.pi / 2 - turn, -turn)
    w_range = side_range(-s1, np.maximum(lo, -limit), np.minimum(hi, limit))
    w = circle_wheel_points(p, np.zeros_like(h), np.full_like(h, s2 * rho), rho, -s1,
                            w_range, (turn, 1.0, s2), samples)
    return -angle_of(w, -s1)


def _middle_leg_zero(setup: _Setup, s1: float) -> np.ndarray:
    """Forward a, wheel t1, wheel t2 the other way, forward c: legs and cost are sinusoids
    of t1 (derivation in the module docstring of `way_algebra`)."""
    start, front, h, end, turn, rho, limit, samples = setup
    sin_t, cos_t = np.sin(turn), np.cos(turn)
    fh, fe = _unit(h), _unit(end)
    rest = front - start - s1 * rho * (_left(h) + _left(end))
    a_coef = (_cross(rest, fe), -2 * s1 * rho * cos_t, -2 * s1 * rho * sin_t)
    c_coef = (_cross(fh, rest), np.full_like(h, 2 * s1 * rho), np.zeros_like(h))
    with np.errstate(divide="ignore", invalid="ignore"):
        k_cos = (a_coef[1] + c_coef[1]) / sin_t - 2 * rho * s1 * sin_t
        k_sin = (a_coef[2] + c_coef[2]) / sin_t + 2 * rho * s1 * (1 + cos_t)
    if s1 > 0:
        lo, hi = np.maximum(0.0, turn), np.minimum(limit, turn + np.pi / 2)
    else:
        lo, hi = np.maximum(-limit, turn - np.pi / 2), np.minimum(0.0, turn)
    fractions = np.arange(1, samples + 1) / (samples + 1.0)
    t = np.concatenate([sinusoid_roots(*a_coef), sinusoid_roots(*c_coef),
                        sinusoid_min(k_cos, k_sin), lo[:, None], hi[:, None],
                        lo[:, None] + (hi - lo)[:, None] * fractions], axis=-1)
    ok = (t >= lo[:, None] - 1e-12) & (t <= hi[:, None] + 1e-12) & (lo <= hi)[:, None]
    return np.where(ok, np.clip(t, lo[:, None], hi[:, None]), np.nan)


def _cross(u: np.ndarray, v: np.ndarray) -> np.ndarray:
    return u[..., 0] * v[..., 1] - u[..., 1] * v[..., 0]
