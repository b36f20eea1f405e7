"""A tighter piece for the relaxation of snaking ways (constraints.rank_and_file.snaking_reach):
the budget left is not free in every direction of [p, q] (docs/techniques.md §9, "Legs inside
a run of wheels").

The way's headings, in time, run from 0 to h, reaching p and q (first p, or first q).  Call
an *event* at heading t a leg at heading t, or a turn of direction of the wheels at t (both
happen between two wheels).  The first reaching of p and of q, the start and the end split
the way into phases; an event at t in a phase adds t as a checkpoint, and the wheels between
consecutive checkpoints a, b turn by |b - a| or more in all, so (the wheel sets being
disjoint) the wheels' psi-sum is at least the sum of m(|b - a|) over consecutive checkpoints:

    p first:  0 t p q h | 0 p t q h | 0 p q t h      q first:  0 t q p h | 0 q t p h | 0 q p t h

Psi(t), the least of these six, bounds the psi-sum of every way with an event at t.  A
heading swept by wheels more often than the least (module snaking_reach) is crossed two more
times in one phase, which has turns of direction on both sides of t (or beyond it) in that
order; m is nondecreasing, so the same checkpoint sums bound that way as well.  Every leg and
every extra sweep of a way with psi-sum P therefore lies at headings t with Psi(t) <= P, and
what it adds to the front centre lies in (B - rho T - W P) x conv(0, u(t) : Psi(t) <= P),
inside H = conv(0, M(t) u(t) : p <= t <= q), M(t) = B - rho T - W Psi(t).

Over a box of (h, p, q) with its corner c (module snaking_reach, `_corner_apex`) the front
centre is F0 + V(c) + [V(way) - V(c)] + D, D in H(way); the bracket lies in rho L x the
unit disc, L = T(way) - T(c) <= L_max = 2 (q_hi - p_lo) - |h|_least - T(c), and M_way(t) <=
B - rho T(c) - W Psi_box(t), Psi_box(t) the checkpoint sums with every argument at its least
over the box.  So the front lies in F0 + V(c) + conv(0, r(t) u(t) : p_lo <= t <= q_hi) grown
by rho L_max, r(t) = max(0, B - rho T(c) - W Psi_box(t)).  Psi_box is concave in t between
its kinks (m is concave between multiples of R, and every argument is linear in t there),
so r is at most the chord of its values at points that include every kink; the curve
r(t) u(t) strays from the chord P_i P_(i+1) by the bend of `hull_pieces`, in any direction.
The piece (constraints.geometry.pieces) is the sector and this set together: an objective's
bound over it is the tighter of the two.
"""

from __future__ import annotations

import math

import numpy as np

HULL_GRID = 16  # equal steps over the way's range of headings, besides Psi's kinks
RADIUS_FLOOR = 1e-9  # the least radius of a point (its heading kept)


def _pos(x: np.ndarray) -> np.ndarray:
    return np.maximum(x, 0.0)


def least_event_psi(least, t_lo: np.ndarray, t_hi: np.ndarray, h_lo: np.ndarray,
                    h_hi: np.ndarray, p_hi: np.ndarray, q_lo: np.ndarray) -> np.ndarray:
    """The least psi-sum of any way of the box with an event at a heading of [t_lo, t_hi]
    (radians relative to the start; every array (n, k), box values broadcast): the least of
    the six checkpoint sums, each argument at its least over the box and the sub-interval.

    `least(x)` is m_R(x) (nondecreasing).  p_hi is the largest p and q_lo the least q any
    way of the box can have (p <= min(0, h), q >= max(0, h))."""
    abs_t = np.where((t_lo <= 0) & (t_hi >= 0), 0.0,
                     np.minimum(np.abs(t_lo), np.abs(t_hi)))
    # |t - h| for t in [t_lo, t_hi], h in [h_lo, h_hi]: the gap between the intervals.
    t_h = _pos(np.maximum(t_lo - h_hi, h_lo - t_hi))
    m_t = least(abs_t)
    m_tp = least(_pos(t_lo - p_hi))
    m_qt = least(_pos(q_lo - t_hi))
    m_th = least(t_h)
    m_p = least(_pos(-p_hi))
    m_q = least(_pos(q_lo))
    m_qp = least(_pos(q_lo - p_hi))
    m_qh = least(_pos(q_lo - h_hi))
    m_hp = least(_pos(h_lo - p_hi))
    return np.minimum.reduce([
        m_t + m_tp + m_qp + m_qh,     # p first, t before p
        m_p + m_tp + m_qt + m_qh,     # p first, t between p and q
        m_p + m_qp + m_qt + m_th,     # p first, t after q
        m_t + m_qt + m_qp + m_hp,     # q first, t before q
        m_q + m_qt + m_tp + m_hp,     # q first, t between q and p
        m_q + m_qp + m_tp + m_th,     # q first, t after p
    ])


def _u(angle: np.ndarray) -> np.ndarray:
    return np.stack([np.cos(angle), np.sin(angle)], axis=-1)


def hull_pieces(least, start: np.ndarray, mids: np.ndarray, halves: np.ndarray,
                left: np.ndarray, corner_turns: np.ndarray, rho: float, width: float,
                window: float) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """For boxes of (h, p, q) on one side of h = 0 (their corner's apex, `_corner_apex`):
    points P_i (n, K, 2, relative to the apex, world), bends b_i (n, K - 1) and a margin g
    (n,) such that every way's front centre in the box lies in apex + conv(0 and curves from
    P_i to P_(i+1), each within b_i s (1 - s) of its chord at the fraction s) grown by g
    (constraints.geometry.pieces; docs/techniques.md §9).

    `left` is B - rho T(c) per box, `least` m_R with the box's R (shaped (n, 1)),
    `window` the heading window (radians: how many multiples of R fit the range)."""
    h, p, q = mids.T
    dh, dp, dq = halves.T
    p_lo, q_hi, h_lo, h_hi = p - dp, q + dq, h - dh, h + dh
    p_hi = np.minimum.reduce([p + dp, np.zeros_like(p), h_hi])
    q_lo = np.maximum.reduce([q - dq, np.zeros_like(q), h_lo])
    r = least.r[:, 0]  # (n, 1): one R per box
    # Psi's kinks: where an argument of m crosses 0 or a multiple k R of R.  Only kinks
    # strictly inside the range [p_lo, q_hi] (of length at most 2 window) matter, and
    # there k R < 2 window with R = 90 deg (a range under 90 deg is R itself: no k fits).
    count = max(1, math.ceil(4.0 * window / np.pi - 1e-9) - 1)
    mult = np.arange(1, count + 1)[None, :] * r[:, None]
    zero = np.zeros_like(h)[:, None]
    kinks = [zero, p_hi[:, None], q_lo[:, None], h_lo[:, None], h_hi[:, None],
             mult, -mult, p_hi[:, None] + mult, q_lo[:, None] - mult,
             h_lo[:, None] - mult, h_hi[:, None] + mult]
    grid = p_lo[:, None] + (q_hi - p_lo)[:, None] * np.linspace(0.0, 1.0, HULL_GRID + 1)
    t = np.sort(np.clip(np.concatenate(kinks + [grid], axis=1), p_lo[:, None],
                        q_hi[:, None]), axis=1)
    col = (lambda a: a[:, None])  # noqa: E731 - box values against every point
    psi = least_event_psi(least, t, t, col(h_lo), col(h_hi), col(p_hi), col(q_lo))
    # Between kinks Psi is concave in t, so the radius bound left - W Psi, clipped at 0, is
    # at most the chord r(t) of its clipped values at the points; the curve P(t) = r(t) u(t)
    # strays from the segment P_i P_(i+1), in any direction, by at most (t - t_i) (t_(i+1)
    # - t) / 2 max|P''|, and P'' = 2 r' left(t) - r u(t): the bend d^2/2 (r^2 + 4 r'^2)^0.5.
    # (Clipped at a hair above 0, not at 0: a point keeps its heading, which the budget set
    # reads (optimizer.search.budget_sets); the set grows by that hair only.)
    radius = np.maximum(col(left) - width * psi, RADIUS_FLOOR)
    points = radius[..., None] * _u(col(start) + t)
    step = np.diff(t, axis=1)
    bend = step / 2.0 * np.hypot(step * np.maximum(radius[:, 1:], radius[:, :-1]),
                                 2.0 * np.diff(radius, axis=1))
    h_abs_least = np.where((h_lo <= 0) & (h_hi >= 0), 0.0,
                           np.minimum(np.abs(h_lo), np.abs(h_hi)))
    drift = rho * np.maximum(2 * (q_hi - p_lo) - h_abs_least - corner_turns, 0.0)
    return points, bend, drift
