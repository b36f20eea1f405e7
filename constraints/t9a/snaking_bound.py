"""A lower bound on the Snaking distance of every way to an end pose, with any number of wheels.

This is what lets the end-pose checker prove an end pose too far (docs/rules.md §4.8,
docs/techniques.md §9 in its simplest form).  With W the frontage, rho = W/2, D the depth,
f(h) = (cos h, sin h), l(h) = (-sin h, cos h):

Claim.  Let a way start, after any Pivot, at heading h with front centre F0, end with front
centre F1 and an unwrapped net turn T, and keep its heading within w of h (the heading
window).  Then its Snaking distance is at least

    L(h, T) = rho |T| + W Phi(|T|) + G_h(F1 - F0 - V(h, T))

where V(h, T) = sign(T) rho (l(h) - l(h + T)) is where one wheel by T takes the front centre,
G_h is the gauge of K = conv{f(x) : |x - h| <= w} (the least m >= 0 with v in m K: |v| when
v points within w of h; for other v, infinite when w <= 90 deg, else (v . f(h)) / cos w, where
the ray leaves K through its chord), psi(u) = sin u - u/2
and Phi(x) = min(psi(x), psi(pi/2)) for x <= pi/2, psi(pi/2) beyond.

Proof.  (1) In every step the front centre moves along the current heading: a forward step
by its length; a wheel on a circle of radius rho about the inner corner, dF = rho f(x) |dx|.
So F1 - F0 is the integral of f against the measure mu of "front-centre path length spent at
heading x"; its mass is S = sum of legs + rho sum |t_i|.  (2) A wheel of |t| <= 90 deg costs
W sin|t| = rho |t| + W psi(|t|) with psi >= 0, so the distance is S + W sum psi(|t_i|).
(3) The heading runs continuously from h to h + T and changes only in wheels, so each heading
between is swept by some wheel: mu >= nu = rho x (length on [h, h + T]), and the integral
of f against nu is V.  (4) Every heading visited is within w of h (the window is checked
after each wheel and a wheel turns one way), so mu - nu lives there and
F1 - F0 - V lies in |mu - nu| K; hence S >= rho |T| + G_h(F1 - F0 - V).  (5) sum |t_i| >= |T|
with each |t_i| <= pi/2; psi is concave on [0, pi/2] with psi(0) = 0, so over such angles
with a given sum the least sum of psi is at a vertex (all but one angle 0 or pi/2), which
gives sum psi(|t_i|) >= Phi(|T|).  Valid Final Position and the other clauses only remove
ways, so they are ignored.

A March has h and F0 fixed and T the one turn within the window equal to the end facing's.
After an Advance's free Pivot h = H - T for every T with |T| <= w, F0 = centre + D/2 f(h);
there G_h is replaced by the plain length |.| (K lies in the unit disc, so this only lowers
the bound) and the least over T is taken by branch and bound with the Lipschitz constant
3W/2 + D/2 per radian (rho |T|: W/2; W Phi: W/2, as |psi'| <= 1/2; D/2 f(h): D/2;
V with h + T fixed: W/2), so the minimum returned is a certified lower bound.
"""

from __future__ import annotations

import math

import numpy as np

from constraints.t9a.way_problem import WayProblem

_PSI_QUARTER = 1.0 - math.pi / 4.0  # psi(pi/2)
_ANGLE_NOISE = 1e-9  # radians; a direction this close to the window's edge counts as inside
_CELLS = 64
_MAX_ROUNDS = 60
_MAX_CELLS = 20_000


def psi_floor(turn: np.ndarray) -> np.ndarray:
    """Phi(|T|): the least sum of psi over wheels turning |T| in all (claim, step 5)."""
    x = np.abs(turn)
    return np.where(x <= np.pi / 2, np.minimum(np.sin(x) - x / 2.0, _PSI_QUARTER), _PSI_QUARTER)


def window_gauge(vector: np.ndarray, heading: float, window: float,
                 slack: float = 0.0) -> float:
    """G_h(vector): the least path length at headings within `window` of `heading` (radians)
    whose sum of f(heading) x length is `vector`; inf when no such path exists.  With
    `slack` > 0, a lower bound on G_h over every vector within `slack` of `vector` (an end
    pose is reached within a tolerance: a way with all its legs zero leaves a residual of
    that size pointing anywhere, which must not read as "its front would move backwards")."""
    length = float(np.hypot(*vector))
    shorter = max(0.0, length - slack)
    if length <= 1e-12 or window >= math.pi:
        return shorter
    off = abs(math.remainder(math.atan2(vector[1], vector[0]) - heading, 2.0 * math.pi))
    if off <= window + _ANGLE_NOISE:
        return shorter
    if window <= math.pi / 2:
        # The hull lies in the window's cone: no sum of steps points outside it, unless the
        # slack reaches the cone (then at least the length less the slack).
        gap = off - window
        to_cone = length if gap >= math.pi / 2 else length * math.sin(gap)
        return shorter if to_cone <= slack else math.inf
    # Past a right angle the hull's chord runs behind the start; the ray leaves it there.
    # The hull holds a disc of radius |cos w| about the start, so the gauge changes by at
    # most 1 / |cos w| per inch of slack.
    along = float(vector[0] * math.cos(heading) + vector[1] * math.sin(heading))
    return max(0.0, (along - slack) / math.cos(window)) if slack else along / math.cos(window)


def least_distance(problem: WayProblem, slack_in: float = 0.0) -> float:
    """A certified lower bound on the Snaking distance of every way to the pose (inches):
    inf when no way within the heading window exists at all.  With `slack_in`, a bound for
    every way whose end front centre is within `slack_in` of the pose's."""
    if problem.pivots:
        return _least_after_pivot(problem, slack_in)
    return _least_march(problem, slack_in)


def turn_lipschitz(problem: WayProblem) -> float:
    """How much the bound may change per radian of end turn: rho |T| (W/2), W Phi (W/2,
    as |psi'| <= 1/2), D/2 f(h) (D/2) and V with h + T fixed (W/2)."""
    return 1.5 * problem.width_in + problem.depth_in / 2.0


def _front(problem: WayProblem, centre: tuple[float, float], heading: float) -> np.ndarray:
    return np.asarray(centre) + problem.depth_in / 2.0 * np.array(
        [math.cos(heading), math.sin(heading)])


def _drift(rho: float, heading: np.ndarray, turn: np.ndarray) -> np.ndarray:
    """V(h, T): the front centre's displacement in one wheel by T from heading h."""
    left = np.stack([-np.sin(heading), np.cos(heading)], axis=-1)
    after = np.stack([-np.sin(heading + turn), np.cos(heading + turn)], axis=-1)
    return np.sign(turn)[..., None] * rho * (left - after)


def _least_march(problem: WayProblem, slack: float) -> float:
    h = math.radians(problem.facing_deg)
    window = math.radians(problem.window_deg)
    start = _front(problem, problem.centre, h)
    end = _front(problem, problem.end_centre, math.radians(problem.end_facing_deg))
    base = math.radians(float(problem.end_turn_deg()))
    best = math.inf
    for turn in (base - 2 * math.pi, base, base + 2 * math.pi):
        if abs(turn) > window + _ANGLE_NOISE:
            continue
        rest = end - start - _drift(problem.rho, np.array(h), np.array(turn))
        turning = problem.rho * abs(turn) + problem.width_in * float(psi_floor(np.array(turn)))
        best = min(best, turning + window_gauge(rest, h, window, slack))
    return best


def _relaxed_after_pivot(problem: WayProblem, turn: np.ndarray, slack: float) -> np.ndarray:
    """L(H - T, T) with the plain length for the gauge, per end turn T (radians)."""
    end_h = math.radians(problem.end_facing_deg)
    h = end_h - turn
    start = np.asarray(problem.centre) + problem.depth_in / 2.0 * np.stack(
        [np.cos(h), np.sin(h)], axis=-1)
    rest = _front(problem, problem.end_centre, end_h) - start - _drift(problem.rho, h, turn)
    turning = problem.rho * np.abs(turn) + problem.width_in * psi_floor(turn)
    return turning + np.maximum(np.hypot(rest[..., 0], rest[..., 1]) - slack, 0.0)


def _least_after_pivot(problem: WayProblem, slack: float) -> float:
    """Branch and bound over the end turn: each cell's floor is its middle value less the
    Lipschitz constant times its half width; cells whose floor could still be the least are
    halved until every floor is within 1e-9" of the best value seen (or a cap is hit, which
    only leaves the bound lower, never wrong)."""
    window = math.radians(min(problem.window_deg, 180.0))
    lipschitz = turn_lipschitz(problem)
    edges = np.linspace(-window, window, _CELLS + 1)
    mids, half = (edges[:-1] + edges[1:]) / 2.0, np.full(_CELLS, window / _CELLS)
    values = _relaxed_after_pivot(problem, mids, slack)
    for _ in range(_MAX_ROUNDS):
        floors = np.maximum(values - lipschitz * half, 0.0)
        open_ = floors < float(values.min()) - 1e-9
        if not open_.any() or len(mids) + open_.sum() > _MAX_CELLS:
            break
        split = np.concatenate([mids[open_] - half[open_] / 2, mids[open_] + half[open_] / 2])
        mids = np.concatenate([split, mids[~open_]])
        half = np.concatenate([half[open_] / 2, half[open_] / 2, half[~open_]])
        values = np.concatenate([_relaxed_after_pivot(problem, split, slack),
                                 values[~open_]])
    return float(np.min(np.maximum(values - lipschitz * half, 0.0)))
