"""Where any Advance or March can end, with any number of Snaking Forward Moves: a relaxation
of the reachable end poses under the budget and the heading window, box by box of its
parameters (docs/rules.md §8.10, docs/techniques.md §9).

March.  Headings are relative to the start facing h0; u(t) is the unit vector at heading
h0 + t, W the frontage, rho = W/2, D the depth, B the budget, w the window.  Take a way that
ends at heading h and whose headings span [p, q] (so -w <= p <= min(0, h), max(0, h) <= q
<= w).  With lo = min(0, h), hi = max(0, h) and J(a, b) the integral of u over [a, b]:

    F1 - F0 - V  lies in  M x Sector[p, q],      Sector = {r u(t) : 0 <= r <= 1, p <= t <= q}
    V = rho [2 J(p, lo) + J(lo, hi) + 2 J(hi, q)],
    M = B - rho T - W min(L(-p) + L(q - p) + L(q - h), L(q) + L(q - p) + L(h - p)),
    T = 2 (q - p) - |h|,

F0, F1 the start and end front centres, psi the wheel's cost beyond rho per radian (a wheel
of x costs rho x + W psi(x): psi(x) = sin x - x / 2 for T9A's projection W sin x, x / 2 for
Warhammer's arc W x, 2 sin(x / 2) - x / 2 for its chord), and L(x) = L_R(x) the least
sum of psi over wheels of at most R = min(q - p, 90 deg) each, either way, whose signed
turns add up to exactly x.
Why: the front centre moves along the current heading, a forward step by its length and a
wheel by rho per radian.  The heading runs continuously from 0 to h through p and q, so every
heading in [p, lo] and [hi, q] is swept by wheels at least twice and every one in [lo, hi]
once: that moves the front centre by V at least and turns T in all at least.  The rest of
the path (forward steps, extra turning) has length at most the budget left and runs at
headings in [p, q], so it adds a point of (length) x conv u[p, q], inside M x Sector.  If p
is reached before q, the wheels before that turn by -p net (right), those up to q by q - p
net (left), the later ones by q - h net (right) (the other order alike), and no wheel turns
more than R.  Each psi above is concave with psi(0) = 0, psi >= 0 up to 90 deg, and two
wheels of opposite signs a >= b cost at least their net, psi(a) + psi(b) >= psi(a - b)
(`net_psi`); so pairing off opposite wheels leaves wheels of one sign adding up to the net
x, whose psi-sum is at least L_R(x) = floor(x / R) psi(R) + psi(x mod R).  Over a box each
run's net lies in a range, and L_R's least over it is taken (`least_net_psi`).  (Until
2026-12-02 the runs were charged m_R(x) = floor(x / R) psi(R) + min(psi(x mod R), psi(R)),
L's least over every y >= x, as if a run could turn past its net for free: a sidestep's
wheel of 86 deg was charged psi(90 deg), 0.137" of budget too little for 5 files.)  The end
centre is F1 - D/2 u(h).

Advance.  After a free Pivot by phi the same holds from heading h0 + phi (`AdvanceReach`:
the March's pieces turned about the centre over a box of Pivots).

Over a box of parameters, a piece (constraints.geometry.pieces) holds every front centre of
every point of the box: the radius is M's largest value there, the arc the union of the
arcs, and the sector is grown by the box's half widths times Lipschitz constants of the
apex.  Every clause but the budget and the window is left out: the relaxation only grows.
Asked for (`pieces(..., hull=True)`), a piece also carries a second set, the hull of what the
budget left buys at each heading once a leg there pays for splitting its run of wheels
(constraints.rank_and_file.snaking_hull); the certificate asks where the sector leaves a box
open.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import ClassVar

import numpy as np

from constraints.geometry.pieces import FULL, ReachPieces, hull_reach
from constraints.rank_and_file.snaking_hull import hull_pieces

INITIAL_CELL = math.radians(15.0)  # the first boxes' width in every parameter


def _u(angle: np.ndarray) -> np.ndarray:
    return np.stack([np.cos(angle), np.sin(angle)], axis=-1)


def _left(angle: np.ndarray) -> np.ndarray:
    return np.stack([-np.sin(angle), np.cos(angle)], axis=-1)


def _cells(lo: float, hi: float) -> tuple[np.ndarray, np.ndarray]:
    """Mid points and half widths of equal cells of at most INITIAL_CELL covering [lo, hi]."""
    count = max(1, math.ceil((hi - lo) / INITIAL_CELL - 1e-9))
    half = (hi - lo) / count / 2.0
    return lo + half * (2 * np.arange(count) + 1), np.full(count, half)


def _grid(*axes: tuple[np.ndarray, np.ndarray]) -> tuple[np.ndarray, np.ndarray]:
    mids = np.stack([m.reshape(-1) for m in np.meshgrid(*(a[0] for a in axes),
                                                          indexing="ij")], axis=1)
    halves = np.stack([m.reshape(-1) for m in np.meshgrid(*(a[1] for a in axes),
                                                            indexing="ij")], axis=1)
    return mids, halves


def _abs_range(mid: np.ndarray, half: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The least and largest |x| over [mid - half, mid + half]."""
    lo, hi = mid - half, mid + half
    least = np.where((lo <= 0) & (hi >= 0), 0.0, np.minimum(np.abs(lo), np.abs(hi)))
    return least, np.maximum(np.abs(lo), np.abs(hi))


Psi = Callable[[np.ndarray], np.ndarray]


def psi_projected(x: np.ndarray) -> np.ndarray:
    """T9A: a wheel costs W sin x."""
    return np.sin(x) - x / 2.0


def psi_arc(x: np.ndarray) -> np.ndarray:
    """Warhammer: a wheel costs the outer corner's arc, W x."""
    return x / 2.0


def psi_chord(x: np.ndarray) -> np.ndarray:
    """Warhammer played by the chord: a wheel costs 2 W sin(x / 2)."""
    return 2.0 * np.sin(x / 2.0) - x / 2.0


def least_psi(x: np.ndarray, r: np.ndarray, psi: Psi = psi_projected) -> np.ndarray:
    """m_R(x): the least sum of psi over turns of at most R adding up to x or more
    (nondecreasing in x; for a smaller R it is no smaller, so R's largest value bounds it)."""
    safe = np.maximum(r, 1e-9)
    whole = np.floor(x / safe)
    value = whole * psi(safe) + np.minimum(psi(x - whole * safe), psi(safe))
    return np.where(r > 1e-9, value, 0.0)


def net_psi(x: np.ndarray, r: np.ndarray, psi: Psi = psi_projected) -> np.ndarray:
    """L_R(x) = floor(x / R) psi(R) + psi(x mod R): the least psi-sum of wheels of at most R
    (R <= 90 deg) in either direction whose signed turns add up to exactly x >= 0.  Two
    wheels of opposite signs, a >= b, cost at least their net: psi(a) + psi(b) >= psi(a -
    b) (docs/techniques.md §9, "Runs of a known net turn"), so pairing them off leaves turns
    of one sign adding up to x, whose concave psi-sum is least with all but one at R.  Not
    monotone in x (psi falls past 60 deg): `m_R` is its least over every y >= x."""
    safe = np.maximum(r, 1e-9)
    whole = np.floor(x / safe)
    return np.where(r > 1e-9, whole * psi(safe) + psi(x - whole * safe), 0.0)


def least_net_psi(lo: np.ndarray, hi: np.ndarray, r: np.ndarray,
                  psi: Psi = psi_projected) -> np.ndarray:
    """The least of L_R(x) over x in [lo, hi] (0 <= lo <= hi): L_R is concave between the
    multiples of R and continuous, so its least is at an end or at the first multiple k R
    past lo (k psi(R), the least of them, psi(R) >= 0)."""
    safe = np.maximum(r, 1e-9)
    ends = np.minimum(net_psi(lo, r, psi), net_psi(hi, r, psi))
    k = np.ceil(lo / safe)
    inner = np.where(k * safe < hi, k * psi(safe), np.inf)
    return np.where(r > 1e-9, np.minimum(ends, inner), 0.0)


class _LeastPsi:
    """`least_psi(x, r, psi)` for many x with one r: psi(R) computed once (the same
    values, bit for bit)."""

    def __init__(self, r: np.ndarray, psi: Psi) -> None:
        self.r, self.psi = r, psi
        self.safe = np.maximum(r, 1e-9)
        self.at_r = psi(self.safe)

    def __call__(self, x: np.ndarray) -> np.ndarray:
        whole = np.floor(x / self.safe)
        value = whole * self.at_r + np.minimum(self.psi(x - whole * self.safe), self.at_r)
        return np.where(self.r > 1e-9, value, 0.0)


@dataclass(frozen=True)
class SnakingShape:
    """The unit at the start of the move, and what the rules give it (world terms)."""

    centre: tuple[float, float]
    facing_deg: float
    width: float
    depth: float
    budget: float
    window_deg: float  # how far the heading strays either way (unwrapped; may pass 180)
    psi: Psi = psi_projected

    @property
    def rho(self) -> float:
        return self.width / 2.0

    @property
    def window(self) -> float:
        return math.radians(self.window_deg)

    def front(self, heading: np.ndarray) -> np.ndarray:
        return np.asarray(self.centre) + self.depth / 2.0 * _u(heading)


def _way_pieces(s: SnakingShape, start: np.ndarray, mids: np.ndarray,
                halves: np.ndarray, hull: bool = False) -> ReachPieces:
    """Pieces of boxes of (h, p, q) (radians) from start headings `start` (world radians, per
    box): the March's relaxation (module docstring).  A box on one side of h = 0 gets its
    corner's apex and no margin (`_corner_apex`); a box across h = 0 the middle's apex grown
    by how far it moves within the box."""
    h, p, q = mids.T
    dh, dp, dq = halves.T

    # Each heading's sine and cosine once (the certificate judges ~1e5 boxes a request): lo =
    # min(0, h) and hi = max(0, h) are 0 or h, and start + 0.0 is start, so theirs are
    # start's or h's, bit for bit.
    facing = start + h
    trig = {name: (np.sin(a), np.cos(a))
            for name, a in (("p", start + p), ("h", facing), ("q", start + q), ("0", start))}
    for name, side in (("lo", h < 0), ("hi", h > 0)):
        trig[name] = (np.where(side, trig["h"][0], trig["0"][0]),
                      np.where(side, trig["h"][1], trig["0"][1]))

    def integral(a: str, b: str) -> np.ndarray:
        return np.stack([trig[b][0] - trig[a][0], trig[a][1] - trig[b][1]], axis=1)

    drift = s.rho * (2 * integral("p", "lo") + integral("lo", "hi") + 2 * integral("hi", "q"))
    h_least, h_most = _abs_range(h, dh)
    span_least = np.maximum((q - dq) - (p + dp), 0.0)
    turns = np.maximum.reduce([2 * span_least - h_most, span_least, h_least])
    r = np.minimum((q + dq) - (p - dp), np.pi / 2)

    def runs(*nets: tuple[np.ndarray, np.ndarray]) -> np.ndarray:
        return sum((least_net_psi(np.maximum(lo, 0.0), np.maximum(hi, 0.0), r, s.psi)
                    for lo, hi in nets), np.zeros_like(h))

    # p reached first: right -p, left q - p, right q - h; q first: left q, right q - p,
    # left h - p: each run's net turn exactly that, in its range over the box.
    span = (span_least, (q + dq) - (p - dp))
    psi_least = np.minimum(
        runs((-(p + dp), -(p - dp)), span, ((q - dq) - (h + dh), (q + dq) - (h - dh))),
        runs((q - dq, q + dq), span, ((h - dh) - (p + dp), (h + dh) - (p - dp))))
    radius = s.budget - s.rho * turns - s.width * psi_least
    grow = s.rho * (dh + 2 * dp + 2 * dq)
    one_side = (h - dh >= 0.0) | (h + dh <= 0.0)
    # The hull of what the budget left buys at each heading (module snaking_hull): only
    # for boxes with their corner's apex; an infinite margin leaves the others a sector.
    hull_points = np.zeros((len(h), 2, 2))
    hull_bend = np.zeros((len(h), 1))
    hull_grow = np.full(len(h), np.inf)
    hull = hull and bool(one_side.any())
    if one_side.any():
        corner, corner_turns = _corner_apex(s, start[one_side], mids[one_side],
                                            halves[one_side])
        drift[one_side] = corner
        radius[one_side] = s.budget - s.rho * corner_turns - s.width * psi_least[one_side]
        grow[one_side] = 0.0
    if hull:
        side_points, side_bend, hull_grow[one_side] = hull_pieces(
            _LeastPsi(r[one_side][:, None], s.psi), start[one_side], mids[one_side],
            halves[one_side], s.budget - s.rho * corner_turns, corner_turns, s.rho,
            s.width, s.window)
        hull_points = np.zeros((len(h),) + side_points.shape[1:])
        hull_bend = np.zeros((len(h), side_bend.shape[1]))
        hull_points[one_side], hull_bend[one_side] = side_points, side_bend
    # No point of the box keeps p <= min(0, h) and q >= max(0, h): no way at all.
    radius = np.where((p - dp > np.minimum(0.0, h + dh)) |
                      (q + dq < np.maximum(0.0, h - dh)), -1.0, radius)
    arc_lo, arc_hi = start + p - dp, start + q + dq
    wide = arc_hi - arc_lo > np.pi  # not convex: the whole disc holds conv u[p, q]
    arc_hi = np.where(wide, arc_lo + FULL, arc_hi)
    # s.front(start) and _u(facing), from the sines and cosines above.
    front = np.asarray(s.centre) + s.depth / 2.0 * np.stack([trig["0"][1], trig["0"][0]], -1)
    ahead = np.stack([trig["h"][1], trig["h"][0]], axis=-1)
    return ReachPieces(
        np.degrees(facing), np.degrees(dh), front + drift, radius, arc_lo, arc_hi,
        grow, -s.depth / 2.0 * ahead, s.depth / 2.0 * dh,
        *((hull_points, hull_bend, hull_grow) if hull else (None, None, None)))


def _corner_apex(s: SnakingShape, start: np.ndarray, mids: np.ndarray,
                 halves: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """For boxes with h on one side of 0: the drift V and turn T at the box's corner c = (h*,
    p*, q*) of least T (h* the h of largest |h|, p* the largest p, q* the least q that a way
    in the box can have), so that every way's front centre in the box lies in F0 + V(c) +
    M(c) x Sector[p_lo, q_hi], M(c) = B - rho T(c) - W psi_least, with no margin.

    Proof (docs/techniques.md §9, "Pieces without a margin"), for h >= 0 (h <= 0 mirrors
    it): for a way at (h, p, q) of the box, V(h, p, q) - V(c) = rho [2 J(p, p*) + 2 J(q*, q)
    + J(h, h*)] if h <= h*, and rho [2 J(p, p*) + J(q*, h) + 2 J(h, q)] if h > h* (then h* =
    q* and q >= h): integrals of u over forward intervals inside [p_lo, q_hi] of total length
    L = T(h, p, q) - T(c) >= 0, so it lies in rho L x Sector[p_lo, q_hi] (a convex set
    holding 0 while the arc is at most pi; the disc otherwise); the rest of the way lies in
    M(h, p, q) x the same, and M(h, p, q) <= M(c) - rho L.  Since a S + b S = (a + b) S for a
    convex S holding 0, the front lies in F0 + V(c) + M(c) S."""
    h, p, q = mids.T
    dh, dp, dq = halves.T
    right = h + dh <= 0.0  # (a box with h - dh = 0 = h + dh is a point: either side holds)
    # The largest p and least q of a way in the box (p <= min(0, h), q >= max(0, h)); the
    # corner's h the farthest from 0 a way can have, but not past p* or q*: a way with h
    # beyond q* (q >= h) has its J(h*, h) folded into its longer q instead (the proof).
    p_star = np.minimum(np.minimum(p + dp, 0.0), np.where(right, h + dh, 0.0))
    q_star = np.maximum(np.maximum(q - dq, 0.0), np.where(right, 0.0, h - dh))
    h_star = np.where(right, np.maximum(h - dh, p_star), np.minimum(h + dh, q_star))
    # V = rho [2 J(p, 0) + 2 J(0, q) - J(0, h)] for h >= 0, rho [2 J(p, 0) + 2 J(0, q) -
    # J(h, 0)] for h <= 0: both are rho [2 J(p, 0) + 2 J(0, q)] - rho sign(h) J(0, h).
    u0 = _left(start)  # the integral of u over [a, b] is left(a) - left(b), world terms
    drift = s.rho * (2 * (_left(start + p_star) - u0) + 2 * (u0 - _left(start + q_star))
                     - (u0 - _left(start + h_star)) * np.where(right, -1.0, 1.0)[:, None])
    turns = 2 * (q_star - p_star) - np.abs(h_star)
    return drift, turns

def _way_cells(window: float) -> tuple[tuple[np.ndarray, np.ndarray], ...]:
    """Cells of h, p and q; h's meet at 0, so that every split box of h lies on one side
    of it (pieces without a margin)."""
    right, left = _cells(-window, 0.0), _cells(0.0, window)
    h = (np.concatenate([right[0], left[0]]), np.concatenate([right[1], left[1]]))
    return h, right, left


class MarchReach:
    """Boxes of (h, p, q) (radians, relative to the start facing)."""

    max_boxes: ClassVar[int | None] = None  # a certificate judges the search's default

    def __init__(self, shape: SnakingShape) -> None:
        self.shape = shape
        # Inches per radian: how fast a piece moves or grows with each parameter.
        self.weights = np.array([3 * shape.rho + shape.depth / 2.0, 6 * shape.rho,
                                 6 * shape.rho])

    def initial(self) -> tuple[np.ndarray, np.ndarray]:
        return _grid(*_way_cells(self.shape.window))

    def pieces(self, mids: np.ndarray, halves: np.ndarray, hull: bool = False) -> ReachPieces:
        """The pieces: sectors, and with `hull` the hull set too (tighter, dearer)."""
        start = np.full(len(mids), math.radians(self.shape.facing_deg))
        return _way_pieces(self.shape, start, mids, halves, hull)

    def tighter_pieces(self, mids: np.ndarray, halves: np.ndarray) -> ReachPieces:
        """The sectors with the hull set too (constraints.rank_and_file.snaking_hull)."""
        return self.pieces(mids, halves, hull=True)


class AdvanceReach:
    """Boxes of (phi, h, p, q): the Pivot, then the March's parameters from its heading."""

    max_boxes: ClassVar[int | None] = None  # a certificate judges the search's default

    def __init__(self, shape: SnakingShape) -> None:
        self.shape = shape
        rho, depth = shape.rho, shape.depth
        self.weights = np.array([depth / 2.0 + 4 * rho + shape.budget,
                                 3 * rho + depth / 2.0, 6 * rho, 6 * rho])

    def initial(self) -> tuple[np.ndarray, np.ndarray]:
        return _grid(_cells(-np.pi, np.pi), *_way_cells(self.shape.window))

    def tighter_pieces(self, mids: np.ndarray, halves: np.ndarray) -> ReachPieces:
        """The March's pieces with the hull set, turned by the Pivot."""
        return self.pieces(mids, halves, hull=True)

    def pieces(self, mids: np.ndarray, halves: np.ndarray, hull: bool = False) -> ReachPieces:
        """The pieces: sectors, and with `hull` the hull set too (tighter, dearer)."""
        s = self.shape
        dphi = halves[:, 0]
        start = math.radians(s.facing_deg) + mids[:, 0]
        inner = _way_pieces(s, start, mids[:, 1:], halves[:, 1:], hull)
        # Within the box the Pivot turns the whole piece about the centre by at most dphi:
        # its apex moves by at most |apex - centre| dphi, its sector turns (the arc widened
        # by dphi either side, where that keeps it convex; else grown by its radius x dphi,
        # how far a point of it moves), the facing spreads and the offset turns with it.
        moved = np.hypot(*(inner.apex - np.asarray(s.centre)).T) * dphi
        width = inner.arc_hi - inner.arc_lo
        turn = width + 2 * dphi <= np.pi
        full = width >= FULL - 1e-12
        arc_lo = np.where(turn, inner.arc_lo - dphi, inner.arc_lo)
        arc_hi = np.where(turn, inner.arc_hi + dphi, inner.arc_hi)
        moved = moved + np.where(turn | full, 0.0, np.maximum(inner.radius, 0.0) * dphi)
        # The hull set turns too: a point x of it moves by at most |x - centre| dphi, and
        # |x - apex| is at most its farthest point, margins included (`moved` holds the
        # apex's own share, through `grow`).
        hull_grow = None
        if inner.hull_points is not None:
            reach = hull_reach(inner)
            finite = np.isfinite(reach)
            hull_grow = np.where(finite, inner.hull_grow + (np.where(finite, reach, 0.0) +
                                                            inner.grow) * dphi, np.inf)
        return ReachPieces(
            inner.facing, inner.spread + np.degrees(dphi), inner.apex, inner.radius,
            arc_lo, arc_hi, inner.grow + moved, inner.back,
            inner.back_grow + s.depth / 2.0 * dphi, inner.hull_points, inner.hull_bend,
            hull_grow)
