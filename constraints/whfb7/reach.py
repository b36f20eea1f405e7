"""Where any Warhammer 7th move can end: a relaxation of every move of forward steps, wheels
(each costing the outer corner's arc, W x angle) and turns on the spot (each costing T =
`turn_mob` x M), in any order and number within the budget B = M (docs/rules.md §14.7).
optimizer.search.certify bounds the objective over it, box by box of its parameters.

Split by the number of turns j (at most floor(B / T)); the discrete kind is the first
parameter of every box (its half width is 0: never split).

- j = 0: a march of the budget B (constraints.rank_and_file.snaking_reach.MarchReach's
  pieces, Warhammer's arc).
- j = 1, turn tau (90, -90, 180): the unit of formation 0 (width W0 = 2 rho0, depth D0)
  until the turn, of the turned formation 1 (W1, D1, its centre shifted by sigma in the
  frame of the heading at the turn, constraints.rank_and_file.turns) after it.  The wheels'
  heading phi (the heading less the turn) runs continuously from 0 through b (at the turn)
  to h; its range is [p, q].  The front centre moves along the heading: a forward step by
  its length, a wheel by rho per radian (rho of the formation of the time); at the turn it
  jumps by J(b) = R(b) (sigma + D1/2 u(tau) - D0/2 u(0)).  Every phi between 0 and b is
  swept before the turn at least once, every phi between b and h after it: those sweeps
  move the front by V = rho0 int_{0..b} u + rho1 int_{b..h} u(. + tau) at least and cost
  W0 |b| + W1 |h - b|.  The path visits p and q too, so it turns T_min = max(|b| + |h - b|,
  2 (q - p) - |h|) radians or more; the excess E = T_min - |b| - |h - b| costs W per radian
  and moves the front by rho per radian at most, as forward steps do by 1 per inch: "free
  motion", whose total length is at most
      M = B - T - W0 |b| - W1 |h - b| - (rho0 X0 + rho1 X1),  X0 + X1 >= E
  (the budget left after the forced sweeps, less what the excess turning X0 before the turn
  and X1 after it costs beyond its own motion): at least min(rho0, rho1) E, and, as the
  drift of X0 is free motion before the turn (rho0 X0 <= t), at least
  rho0 min(E, t / rho0) + rho1 (E - t / rho0)+ when rho0 < rho1.  Free motion before the
  turn (length t) runs at headings in [p, q], after it at headings in [p, q] + tau.  So the
  end front centre F1 satisfies
      F1 - F0 - V - J(b) - t c  in  (M - t) Sector[p + tau, q + tau]  grown by t d,
  c = u(mid(p, q)), d = 2 sin((q - p) / 4) (conv u[p, q] lies within d of c), and the end
  heading is h + tau.  Parameters (b, h, p, q, t).
- j >= 2: the centre only: it moves at most kappa per inch spent (a forward step 1, a wheel
  the half diagonal r_c per radian for W per radian: kappa = max(1, r_c / W) over the
  formations turns can make), and each turn shifts it by at most sigma_max; so the end centre
  lies within kappa (B - j T) + j sigma_max of the start centre, at any facing g (the one
  parameter, for the front: F1 = C1 + D/2 u(g), one kind per end depth D).

Every clause but the budget is left out (the 1" rule, the table edge): the set only grows.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from constraints.geometry.pieces import FULL, ReachPieces
from constraints.rank_and_file.snaking_reach import (
    SnakingShape,
    _abs_range,
    _u,
    _way_pieces,
    psi_arc,
)
from constraints.rank_and_file.steps import Step, StepKind
from constraints.rank_and_file.turns import turned
from constraints.rank_and_file.unit import Unit

PARAMS = 6               # kind, then at most five parameters
TURNS_DEG = (90.0, -90.0, 180.0)
MAX_WINDOW_DEG = 540.0   # past this a kind's heading window falls back on the centre's disc
CELL = math.radians(15.0)
TURN_BOXES = 6_000       # a one-turn kind's first boxes, at most (its cells grow to fit)
# Boxes a certificate over every move may judge (optimizer.search.certify; its default is
# 120,000): a one-turn kind has five parameters, and goblins.json's move to (19, 12) closed
# only after 487,000 boxes (0.6 s; benchmarks/README.md, bench_whfb7).  A certificate that
# cannot close still stops at certify's STUCK_BOXES.
MAX_BOXES = 1_000_000
FRACTIONS = 3            # cells of t, the free motion before the turn


@dataclass(frozen=True)
class _Kind:
    turns: int                 # j
    tau: float = 0.0           # the turn (j = 1), radians
    width0: float = 0.0
    depth0: float = 0.0
    width1: float = 0.0
    depth1: float = 0.0
    jump: tuple[float, float] = (0.0, 0.0)  # sigma + D1/2 u(tau) - D0/2 u(0), local frame
    lip_b: float = 0.0         # how fast the apex moves with b, at most (inches a radian)
    window: float = 0.0        # radians
    radius: float = 0.0        # j >= 2: the end centre's distance from the start, at most
    disc: bool = False         # the centre's disc (j >= 2, or a window too wide)


def _shift(unit: Unit, after: Unit) -> tuple[float, float]:
    """The turned unit's centre less the unit's, in the unit's frame (x ahead, y left)."""
    s = math.radians(unit.pose.facing_deg)
    dx, dy = after.pose.centre[0] - unit.pose.centre[0], after.pose.centre[1] - unit.pose.centre[1]
    return dx * math.cos(s) + dy * math.sin(s), -dx * math.sin(s) + dy * math.cos(s)


def _formations(unit: Unit, turns: int) -> list[list[tuple[Unit, float]]]:
    """Per number of turns k <= `turns`: the units k turns can make (with the shift of the
    last turn), every order and angle."""
    levels: list[list[tuple[Unit, float]]] = [[(unit, 0.0)]]
    for _ in range(turns):
        seen: dict[tuple[int, int, float], tuple[Unit, float]] = {}
        for before, _shifted in levels[-1]:
            for tau in TURNS_DEG:
                after = turned(before, tau)
                key = (after.files, after.formation.model_count, round(after.depth_in, 9))
                shift = math.hypot(*_shift(before, after))
                if key not in seen or seen[key][1] < shift:
                    seen[key] = (after, shift)
        levels.append(list(seen.values()))
    return levels


class MoveReach:
    """Every whfb7 move (forward, wheels, turns in any order) within the budget: boxes of
    (kind, parameters), the kinds of the module docstring."""

    max_boxes = MAX_BOXES

    def __init__(self, unit: Unit, budget: float, turn_cost: float) -> None:
        self.unit, self.budget, self.turn_cost = unit, budget, turn_cost
        self.centre = np.asarray(unit.pose.centre, dtype=float)
        self.start = math.radians(unit.pose.facing_deg)
        most = int(math.floor(budget / turn_cost + 1e-9))
        levels = _formations(unit, most)
        kinds: list[_Kind] = []
        wide: set[int] = set()  # numbers of turns whose heading window is too wide
        window = budget / unit.width_in
        if math.degrees(window) > MAX_WINDOW_DEG:
            wide.add(0)
        else:
            kinds.append(_Kind(0, width0=unit.width_in, depth0=unit.depth_in, window=window))
        if most >= 1:
            left = budget - turn_cost
            for tau in TURNS_DEG:
                after = turned(unit, tau)
                sigma = _shift(unit, after)
                t = math.radians(tau)
                jump = (sigma[0] + after.depth_in / 2 * math.cos(t) - unit.depth_in / 2,
                        sigma[1] + after.depth_in / 2 * math.sin(t))
                window = left / min(unit.width_in, after.width_in)
                if math.degrees(window) > MAX_WINDOW_DEG:
                    wide.add(1)
                    continue
                # d apex / d b = R(b) (s1 rho0 u(0) - s2 rho1 u(tau) + perp(jump)), the signs
                # those of b and h - b: every sign, as a box may hold both.
                lip = max(math.hypot(s1 * unit.width_in / 2 - s2 * after.width_in / 2 *
                                     math.cos(t) - jump[1],
                                     -s2 * after.width_in / 2 * math.sin(t) + jump[0])
                          for s1 in (-1.0, 1.0) for s2 in (-1.0, 1.0))
                kinds.append(_Kind(1, t, unit.width_in, unit.depth_in, after.width_in,
                                   after.depth_in, jump, lip, window))
        # The centre's disc for two turns or more (and for a kind too wide).
        seen = [u for level in levels for u, _ in level]
        kappa = max(1.0, *(math.hypot(u.width_in, u.depth_in) / 2.0 / u.width_in
                           for u in seen))
        shift = max((s for level in levels for _, s in level), default=0.0)
        self.kappa, self.shift = kappa, shift
        for j in range(0, most + 1):
            if j < 2 and j not in wide:
                continue
            radius = kappa * (budget - j * turn_cost) + j * shift
            for depth in sorted({round(u.depth_in, 9) for u, _ in levels[j]}):
                kinds.append(_Kind(j, depth1=depth, radius=radius, disc=True))
        self.kinds = kinds
        rho = unit.width_in / 2.0
        most_rho = max(u.width_in for u in seen) / 2.0
        most_depth = max(u.depth_in for u in seen)
        most_jump = max((math.hypot(*k.jump) for k in kinds), default=0.0)
        # Inches a radian (an inch for t) each parameter moves a piece by, roughly: which one
        # to split first (measured: splitting b twice and p, q a quarter as often as their
        # Lipschitz terms say closed the certificates of the bench's moves 3x sooner).
        self.weights = np.array([
            0.0,
            2 * max(3 * rho + unit.depth_in / 2, 2 * most_rho + most_jump, most_depth / 2),
            max(6 * rho, most_rho + most_depth / 2),
            1.5 * most_rho + budget / 4,
            1.5 * most_rho + budget / 4,
            2.0])

    def parameters(self, steps: Sequence[Step]) -> np.ndarray | None:
        """The point (kind, parameters) of the box parameters a move's steps take (the
        module docstring's names; for tests of soundness), or None when no kind holds it
        (more turns than the budget allows)."""
        phi, lo, hi, b, pre, spent, unit = 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, self.unit
        turns: list[float] = []
        for step in steps:
            if step.kind is StepKind.TURN:
                if not turns:
                    b, pre = phi, pre + unit.width_in / 2.0 * (spent - abs(phi))
                turns.append(step.value)
                unit = turned(unit, step.value)
            elif step.kind is StepKind.WHEEL:
                phi += math.radians(step.value)
                lo, hi = min(lo, phi), max(hi, phi)
                if not turns:
                    spent += abs(math.radians(step.value))
            elif not turns:
                pre += step.value
        j = len(turns)
        point = np.zeros(PARAMS)
        for index, kind in enumerate(self.kinds):
            if kind.turns != j:
                continue
            if kind.disc and round(unit.depth_in, 9) == kind.depth1:
                g = math.atan2(math.sin(phi + math.radians(sum(turns))),
                               math.cos(phi + math.radians(sum(turns))))
                point[:2] = (index, g)
                return point
            if not kind.disc and j == 0:
                point[:4] = (index, phi, lo, hi)
                return point
            if not kind.disc and j == 1 and math.isclose(kind.tau, math.radians(turns[0])):
                point[:] = (index, b, phi, lo, hi, pre)
                return point
        return None

    # -- boxes -----------------------------------------------------------------------------

    def initial(self) -> tuple[np.ndarray, np.ndarray]:
        mids, halves = [], []
        for index, kind in enumerate(self.kinds):
            m, h = self._initial(kind)
            mids.append(np.column_stack([np.full(len(m), float(index)), m,
                                         np.zeros((len(m), PARAMS - 1 - m.shape[1]))]))
            halves.append(np.column_stack([np.zeros(len(m)), h,
                                           np.zeros((len(m), PARAMS - 1 - h.shape[1]))]))
        return np.concatenate(mids), np.concatenate(halves)

    def _initial(self, kind: _Kind) -> tuple[np.ndarray, np.ndarray]:
        if kind.disc:
            return _grid(_cells(-math.pi, math.pi, CELL))
        w = kind.window
        if kind.turns == 0:
            return _grid(_cells(-w, w, CELL), _cells(-w, 0.0, CELL), _cells(0.0, w, CELL))
        # (2w/c)^2 (w/c)^2 FRACTIONS boxes at most TURN_BOXES.
        cell = max(CELL, w * (4.0 * FRACTIONS / TURN_BOXES) ** 0.25)
        left = self.budget - self.turn_cost
        return _grid(_cells(-w, w, cell), _cells(-w, w, cell), _cells(-w, 0.0, cell),
                     _cells(0.0, w, cell), _cells(0.0, left, left / FRACTIONS))

    def tighter_pieces(self, mids: np.ndarray, halves: np.ndarray) -> None:
        """None: a move's turns on the spot have no hull set."""
        return None

    def pieces(self, mids: np.ndarray, halves: np.ndarray) -> ReachPieces:
        n = len(mids)
        out = {"facing": np.zeros(n), "spread": np.zeros(n), "apex": np.zeros((n, 2)),
               "radius": np.full(n, -1.0), "arc_lo": np.zeros(n), "arc_hi": np.zeros(n),
               "grow": np.zeros(n), "back": np.zeros((n, 2)), "back_grow": np.zeros(n)}
        which = np.round(mids[:, 0]).astype(int)
        for index in np.unique(which):
            rows = np.flatnonzero(which == index)
            kind = self.kinds[index]
            if kind.disc:
                piece = self._disc(kind, mids[rows, 1], halves[rows, 1])
            elif kind.turns == 0:
                piece = self._march(kind, mids[rows, 1:4], halves[rows, 1:4])
            else:
                piece = self._one_turn(kind, mids[rows, 1:6], halves[rows, 1:6])
            for name, values in out.items():
                values[rows] = getattr(piece, name)
        return ReachPieces(**out)

    # -- kinds -----------------------------------------------------------------------------

    def _march(self, kind: _Kind, mids: np.ndarray, halves: np.ndarray) -> ReachPieces:
        shape = SnakingShape(self.unit.pose.centre, self.unit.pose.facing_deg, kind.width0,
                             kind.depth0, self.budget, math.degrees(kind.window), psi_arc)
        return _way_pieces(shape, np.full(len(mids), self.start), mids, halves)

    def _disc(self, kind: _Kind, g: np.ndarray, dg: np.ndarray) -> ReachPieces:
        """The end centre within kind.radius of the start centre, at any facing g."""
        facing = self.start + g
        half = kind.depth1 / 2.0
        n = len(g)
        return ReachPieces(np.degrees(facing), np.degrees(dg),
                           self.centre + half * _u(facing), np.full(n, kind.radius),
                           np.zeros(n), np.full(n, FULL), half * dg, -half * _u(facing),
                           half * dg)

    def _one_turn(self, kind: _Kind, mids: np.ndarray, halves: np.ndarray) -> ReachPieces:
        b, h, p, q, t = mids.T
        db, dh, dp, dq, dt = halves.T
        s, tau = self.start, kind.tau
        rho0, rho1 = kind.width0 / 2.0, kind.width1 / 2.0

        def integral(base: float, a: np.ndarray, c: np.ndarray) -> np.ndarray:
            lo, hi = np.minimum(a, c), np.maximum(a, c)
            return np.stack([np.sin(base + hi) - np.sin(base + lo),
                             np.cos(base + lo) - np.cos(base + hi)], axis=1)

        zero = np.zeros_like(b)
        drift = rho0 * integral(s, zero, b) + rho1 * integral(s + tau, b, h)
        at = s + b
        jx, jy = kind.jump
        jump = np.stack([jx * np.cos(at) - jy * np.sin(at), jx * np.sin(at) + jy * np.cos(at)],
                        axis=1)
        middle = s + (p + q) / 2.0
        front0 = self.centre + kind.depth0 / 2.0 * np.array([math.cos(s), math.sin(s)])
        apex = front0 + drift + jump + t[:, None] * _u(middle)
        # The least of each forced cost over the box.
        b_least, _ = _abs_range(b, db)
        hb_least, _ = _abs_range(h - b, dh + db)
        h_least, h_most = _abs_range(h, dh)
        span_least = np.maximum((q - dq) - (p + dp), 0.0)
        span_most = (q + dq) - (p - dp)
        turns = np.maximum.reduce([2 * span_least - h_most, span_least, h_least,
                                   b_least + hb_least])
        rho = min(rho0, rho1)
        forced = (kind.width0 - rho) * b_least + (kind.width1 - rho) * hb_least + rho * turns
        if rho0 < rho1:
            # The excess turning X0 before the turn is free motion before it too (rho0 X0
            # <= t): the rest is done after the turn, at rho1 a radian.
            b_most = np.abs(b) + db
            hb_most = np.abs(h - b) + dh + db
            excess = np.maximum(turns - b_most - hb_most, 0.0)
            before = np.minimum(excess, (t + dt) / rho0)
            split = kind.width0 * b_least + kind.width1 * hb_least + rho0 * before + \
                rho1 * (excess - before)
            forced = np.maximum(forced, split)
        free = self.budget - self.turn_cost - forced
        radius = free - np.maximum(t - dt, 0.0)
        # No point of the box keeps p <= min(0, b, h) <= max(0, b, h) <= q, or t <= M.
        empty = (p - dp > np.minimum.reduce([zero, b + db, h + dh])) | \
            (q + dq < np.maximum.reduce([zero, b - db, h - dh])) | (t - dt > free)
        radius = np.where(empty, -1.0, np.maximum(radius, 0.0))
        spread = np.minimum(2.0 * np.sin(np.minimum(span_most, FULL) / 4.0), 2.0)
        t_most = t + dt
        grow = kind.lip_b * db + rho1 * dh + \
            t_most * spread + t_most * (dp + dq) / 2.0 + dt
        arc_lo, arc_hi = s + tau + p - dp, s + tau + q + dq
        arc_hi = np.where(arc_hi - arc_lo > np.pi, arc_lo + FULL, arc_hi)
        facing = s + tau + h
        return ReachPieces(np.degrees(facing), np.degrees(dh), apex, radius, arc_lo, arc_hi,
                           grow, -kind.depth1 / 2.0 * _u(facing), kind.depth1 / 2.0 * dh)


def _cells(lo: float, hi: float, cell: float) -> tuple[np.ndarray, np.ndarray]:
    """Mid points and half widths of equal cells of at most `cell` covering [lo, hi]."""
    count = max(1, math.ceil((hi - lo) / cell - 1e-9))
    half = (hi - lo) / count / 2.0
    return lo + half * (2 * np.arange(count) + 1), np.full(count, half)


def _grid(*axes: tuple[np.ndarray, np.ndarray]) -> tuple[np.ndarray, np.ndarray]:
    mids = np.array(list(itertools.product(*(a[0] for a in axes))))
    halves = np.array(list(itertools.product(*(a[1] for a in axes))))
    return mids.reshape(-1, len(axes)), halves.reshape(-1, len(axes))
