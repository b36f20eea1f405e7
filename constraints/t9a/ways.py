"""Ways to an end pose with at most two wheels, each exact to float precision (rules.md §4.8).

A way is an Advance's Pivot, then forward a, wheel t1, forward b, wheel t2, forward c.  Its
angles are found from the closed forms of `way_algebra` (never on a grid); its legs are then
solved from those angles (`way_problem.evaluate`), so the executed way ends on the asked
pose up to rounding, whatever the angles.

- One wheel.  A March's angle is fixed by the end facing: one 2 x 2 solve.  After an
  Advance's free Pivot it is `circle_wheel_points` with the unit's centre as Q, alpha = D/2:
  every end of every interval of feasible wheels, i.e. the cheapest way exactly.
- Two wheels from a fixed heading (a March, or an Advance after a given Pivot): three
  one-parameter families, each solved in closed form (`two_wheels`), so the cheapest
  is exact too.
- Two wheels after a free Pivot: the cheapest over the Pivot is a minimum of the exact
  two-wheel value per Pivot, found by a 1 deg scan and golden-section refinement of each
  local minimum to 1e-10 deg.  Being a scan, it could miss a narrow dip between two scanned
  Pivots; every way it returns is still exact, so a miss costs a "not proved", never a false
  verdict.
"""

from __future__ import annotations

import math

import numpy as np

from constraints.t9a.two_wheels import two_wheel_angles
from constraints.t9a.way_algebra import angle_of, circle_wheel_points, in_frame, side_range
from constraints.t9a.way_problem import LEG_NOISE, Way, WayProblem, evaluate, signed_deg

SCAN_DEG = 1.0      # Pivot scan of the two-wheel Advance family, refined afterwards
REFINE_DEG = 1e-10  # golden-section tolerance on that Pivot
_GOLDEN = (math.sqrt(5.0) - 1.0) / 2.0


def one_wheel_angles(problem: WayProblem) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(pivot, t1, t2) in degrees of the ways with at most one wheel worth trying: a March's
    one wheel (its angle is the end turn); after an Advance's Pivot, the candidates of
    `circle_wheel_points` (the unit's centre is Q, alpha = D/2), the way without a Pivot and
    the Pivot to the end facing with no wheel."""
    turn = float(problem.end_turn_deg())
    if not problem.pivots:
        return np.zeros(2), np.array([turn, 0.0]), np.zeros(2)
    end = math.radians(problem.end_facing_deg)
    front = np.asarray(problem.end_centre) + problem.depth_in / 2.0 * np.array(
        [math.cos(end), math.sin(end)])
    p = in_frame((front - np.asarray(problem.centre))[None], np.array([end]))
    limit = problem.turn_limit
    turns = [np.array([turn, 0.0])]
    for side in (1.0, -1.0):
        w_range = side_range(side, np.array([-limit]), np.array([limit]))
        w = circle_wheel_points(p, np.array([problem.depth_in / 2.0]), np.zeros(1),
                                problem.rho, side, w_range)[0]
        turns.append(np.degrees(angle_of(w[np.isfinite(w)], side)))
    t1 = np.concatenate(turns)
    pivot = signed_deg(problem.end_facing_deg - problem.facing_deg - t1)
    pivot[0] = 0.0  # exactly no Pivot, not a rounding of one
    return pivot, t1, np.zeros_like(t1)


def cheapest_two_wheel(problem: WayProblem,
                       pivot: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Per Pivot: the least cost (inf where none) of a two-wheel way and its (t1, t2)."""
    t1, t2 = two_wheel_angles(problem, pivot, samples=0)
    _legs, cost = evaluate(problem, pivot[:, None], t1, t2)
    cost = np.where(np.isfinite(cost), cost, np.inf)
    k = np.argmin(cost, axis=-1)
    rows = np.arange(len(pivot))
    return cost[rows, k], t1[rows, k], t2[rows, k]


def refined_pivots(problem: WayProblem) -> np.ndarray:
    """Pivots (degrees) at which an Advance's cheapest two-wheel way is least: a scan of the
    end turn in SCAN_DEG steps, then golden-section search round each local minimum."""
    window = min(problem.window_deg, 180.0)
    turns = np.unique(np.concatenate([np.arange(-window, window, SCAN_DEG), [window],
                                      [float(problem.end_turn_deg())]]))
    turns = turns[np.abs(turns) <= window]
    pivots = signed_deg(problem.end_facing_deg - problem.facing_deg - turns)
    cost = cheapest_two_wheel(problem, pivots)[0]
    finite = np.isfinite(cost)
    left = np.concatenate([[np.inf], cost[:-1]])
    right = np.concatenate([cost[1:], [np.inf]])
    minima = np.nonzero(finite & (cost <= left) & (cost <= right))[0]
    if len(minima) == 0:
        return pivots[finite]
    lo = turns[np.maximum(minima - 1, 0)]
    hi = turns[np.minimum(minima + 1, len(turns) - 1)]
    best_turns = _golden(problem, lo, hi, turns[minima], cost[minima])
    refined = signed_deg(problem.end_facing_deg - problem.facing_deg - best_turns)
    return np.concatenate([refined, pivots[finite]])


def _golden(problem: WayProblem, lo: np.ndarray, hi: np.ndarray, best: np.ndarray,
            best_cost: np.ndarray) -> np.ndarray:
    """Golden-section search of the end turn on each bracket; the best turn seen (a scanned
    one stays when refinement finds nothing cheaper)."""
    base = problem.end_facing_deg - problem.facing_deg

    def value(turn: np.ndarray) -> np.ndarray:
        return cheapest_two_wheel(problem, signed_deg(base - turn))[0]

    x1, x2 = hi - _GOLDEN * (hi - lo), lo + _GOLDEN * (hi - lo)
    f1, f2 = value(x1), value(x2)
    best, best_cost = best.copy(), best_cost.copy()
    while np.max(hi - lo) > REFINE_DEG:
        for x, fx in ((x1, f1), (x2, f2)):
            better = fx < best_cost
            best, best_cost = np.where(better, x, best), np.where(better, fx, best_cost)
        go_left = f1 <= f2
        hi, lo = np.where(go_left, x2, hi), np.where(go_left, lo, x1)
        new = np.where(go_left, hi - _GOLDEN * (hi - lo), lo + _GOLDEN * (hi - lo))
        f_new = value(new)
        x1, x2, f1, f2 = (np.where(go_left, new, x2), np.where(go_left, x1, new),
                          np.where(go_left, f_new, f2), np.where(go_left, f1, f_new))
    return best


def find_ways(problem: WayProblem, leg_noise: float = LEG_NOISE) -> list[Way]:
    """Every way worth judging, cheapest first (fewer wheels, then a smaller Pivot, on ties):
    the exact cheapest with at most one wheel and with two, and others spread along each
    family for when the cheapest break a clause that depends on the way.  A leg solved
    within `leg_noise` of zero is zero (`way_problem.ROUNDED_LEG_NOISE` for a rounded pose)."""
    pivot, t1, t2 = one_wheel_angles(problem)
    pivots = refined_pivots(problem) if problem.pivots else np.zeros(1)
    w1, w2 = two_wheel_angles(problem, pivots)
    pivot = np.concatenate([pivot, np.repeat(pivots, w1.shape[1])])
    t1 = np.concatenate([t1, w1.ravel()])
    t2 = np.concatenate([t2, w2.ravel()])
    t1, t2 = (np.where(np.abs(t) < 1e-9, 0.0, t) for t in (t1, t2))
    keep = _allowed(problem, t1, t2)
    pivot, t1, t2 = pivot[keep], t1[keep], t2[keep]
    legs, cost = evaluate(problem, pivot, t1, t2, leg_noise)
    ways: dict[tuple[float, float, float], Way] = {}
    for k in np.nonzero(np.isfinite(cost))[0]:
        way = Way(float(cost[k]), float(pivot[k]), (float(t1[k]), float(t2[k])),
                  (float(legs[k, 0]), float(legs[k, 1]), float(legs[k, 2])))
        key = (round(way.pivot_deg, 9), round(way.wheels_deg[0], 9), round(way.wheels_deg[1], 9))
        if key not in ways or way.cost < ways[key].cost:
            ways[key] = way
    return sorted(ways.values(),
                  key=lambda w: (round(w.cost, 9), w.wheel_count, abs(w.pivot_deg)))


def _allowed(problem: WayProblem, t1: np.ndarray, t2: np.ndarray) -> np.ndarray:
    """Wheels of at most 90 deg, and the heading within the window after each wheel."""
    window = problem.window_deg + 1e-9
    finite = np.isfinite(t1) & np.isfinite(t2)
    with np.errstate(invalid="ignore"):
        return (finite & (np.abs(t1) <= 90.0 + 1e-9) & (np.abs(t2) <= 90.0 + 1e-9)
                & (np.abs(t1) <= window) & (np.abs(t1 + t2) <= window))
