"""A CP-SAT model of every Advance or March way with up to K Snaking Forward Moves: per-stage
headings and legs, not one option per way (docs/techniques.md §9, "the multi-wheel model").

Stage k (0..K) has a heading PHI_k (whole lattice steps, relative to the start facing, not
wrapped) and a forward leg a_k; wheel k (1..K) turns from PHI_{k-1} to PHI_k about a front
corner.  Headings are thermometers (theta[k][g] = PHI_k > g) with one-hot views (o[k][g]);
slice g (headings g to g + 1) is swept by wheel k exactly when theta[k-1][g] != theta[k][g]
(`cover`).  The front centre then moves, in the unit's start frame (x right, y forward,
dir(x) = (-sin x, cos x), left(x) = (-cos x, -sin x)):
- leg k: a_k dir(PHI_k), linear through one leg variable per heading (a[k][g] <= A o[k][g]);
- wheel k: rho times the integral of dir over the headings it sweeps, whichever way it
  turns: the sum of each covered slice's share, delta(g).
Positions are integers of POS_IN (1e-9"), exact sums of rounded coefficients; a leg of
a LEG_IN units moves them by a x round(dir LEG_IN / POS_IN), so their error is at most
budget x 1e-6 in all (4e-5" for the largest budget, 40"); the sines and cosines of the
headings are integers of 1/TRIG_SCALE.  Rows about these (`row`) keep MODEL_ROOM_IN back,
which holds every such error and the rows' own rounding (ROW_ERROR_IN).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

if TYPE_CHECKING:  # the solver is loaded by whoever builds a model, not by a check
    from ortools.sat.python import cp_model

LEG_IN = 5e-4          # legs and wheel costs are integers of this
POS_IN = 1e-9          # front positions are integers of this
TRIG_SCALE = 10**6     # a heading's sine and cosine are integers of 1 / TRIG_SCALE
ROW_ERROR_IN = 1e-5    # what rounding a row's coefficients may cost it, at most
MODEL_ROOM_IN = 1e-4   # rows about modelled positions keep this back
MAX_WHEEL_DEG = 90.0   # one wheel turns at most a quarter (docs/rules.md §4.2)
INT64_ROOM = 2**62


def direction(x_deg: np.ndarray) -> np.ndarray:
    """dir(x): the forward direction at heading x relative to the start, in the start frame."""
    x = np.radians(x_deg)
    return np.stack([-np.sin(x), np.cos(x)], axis=-1)


def left(x_deg: np.ndarray) -> np.ndarray:
    x = np.radians(x_deg)
    return np.stack([-np.cos(x), -np.sin(x)], axis=-1)


@dataclass(frozen=True)
class WayShape:
    """What the model needs of the unit and the rules: frontage and depth (inches), the
    budget, the heading window and lattice step (degrees), the Pivot's headings (steps; just
    [0] for a March) and the number of wheels."""

    width: float
    depth: float
    budget: float
    window_deg: float
    step_deg: float
    pivots: tuple[int, ...]
    wheels: int
    # Each stage's headings (lowest, highest), when narrowed: one heading each for a
    # template, a neighbourhood of some ways otherwise.
    ranges: tuple[tuple[int, int], ...] | None = None

    @property
    def rho(self) -> float:
        return self.width / 2.0

    @property
    def window(self) -> int:
        return int(math.floor(self.window_deg / self.step_deg + 1e-9))

    @property
    def quarter(self) -> int:
        return int(math.floor(MAX_WHEEL_DEG / self.step_deg + 1e-9))

    def domains(self) -> list[tuple[int, int]]:
        """Each stage's headings (lattice steps, lowest and highest): the Pivot's, then
        those within the window of some Pivot (the window itself is the heading-window
        clause's); the narrowed ones when given."""
        if self.ranges is not None:
            return list(self.ranges)
        lo, hi = min(self.pivots), max(self.pivots)
        return [(lo, hi)] + [(lo - self.window, hi + self.window)] * self.wheels


class Stage:
    """One stage's heading variables over its domain lo..hi (lattice steps)."""

    def __init__(self, model: cp_model.CpModel, k: int, lo: int, hi: int,
                 step_deg: float) -> None:
        self.lo, self.hi = lo, hi
        self.theta = {g: model.new_bool_var(f"heading_{k}_above_{g}") for g in range(lo, hi)}
        for g in range(lo, hi - 1):
            model.add_implication(self.theta[g + 1], self.theta[g])
        self.onehot = {g: model.new_bool_var(f"heading_{k}_is_{g}") for g in range(lo, hi + 1)}
        for g in range(lo, hi + 1):
            model.add(self.onehot[g] == self.above(g - 1) - self.above(g))
        self.value = lo + sum(self.theta.values())  # PHI_k
        # cos and sin of the heading, for rows about corners (left(x) = (-cos x, -sin x)).
        self.trig = []
        for name, f in (("cos", np.cos), ("sin", np.sin)):
            values = np.round(TRIG_SCALE * f(np.radians(self.values() * step_deg)))
            var = model.new_int_var(-TRIG_SCALE, TRIG_SCALE, f"heading_{k}_{name}")
            model.add(var == sum(int(v) * self.onehot[int(g)]
                                 for g, v in zip(self.values(), values, strict=True)))
            self.trig.append(var)

    def above(self, g: int) -> Any:
        """PHI_k > g, a literal or a constant."""
        if g < self.lo:
            return 1
        if g >= self.hi:
            return 0
        return self.theta[g]

    def values(self) -> np.ndarray:
        return np.arange(self.lo, self.hi + 1)


class WayModel:
    """The stages, legs, wheels and front positions of K-wheel ways on `model`."""

    def __init__(self, model: cp_model.CpModel, shape: WayShape) -> None:
        self.model, self.shape = model, shape
        s = shape
        self.stages = [Stage(model, k, lo, hi, s.step_deg)
                       for k, (lo, hi) in enumerate(shape.domains())]
        for p in self.stages[0].values():
            if p not in shape.pivots:
                model.add(self.stages[0].onehot[int(p)] == 0)
        self.cover: list[dict[int, Any]] = [{}]
        self.left_turn: list[Any] = [None]
        self.turns: list[Any] = []
        self.costs: list[Any] = []
        for k in range(1, s.wheels + 1):
            self._wheel(k)
        self.max_leg = int(math.floor(s.budget / LEG_IN))
        self.legs = [self._legs(k) for k in range(s.wheels + 1)]
        self.leg_totals = [sum(per.values()) for per in self.legs]
        self._canonical()
        self._positions()

    def _canonical(self) -> None:
        """One way, one solution: a wheel of 0 is followed by no leg and only wheels of 0
        (a way with fewer wheels has its unused stages at the end, empty)."""
        model = self.model
        still = [model.new_bool_var(f"wheel_{k}_none") for k in range(1, len(self.stages))]
        for k, none in enumerate(still, start=1):
            model.add(self.turns[k - 1] == 0).only_enforce_if(none)
            model.add(self.turns[k - 1] != 0).only_enforce_if(none.Not())
            model.add(self.leg_totals[k] == 0).only_enforce_if(none)
            if k < len(still):
                model.add_implication(none, still[k])

    # -- wheels --------------------------------------------------------------------------

    def _wheel(self, k: int) -> None:
        """Coverage of each slice, the turn's direction, its bounds and its cost."""
        model, s = self.model, self.shape
        before, after = self.stages[k - 1], self.stages[k]
        cover: dict[int, Any] = {}
        for g in range(min(before.lo, after.lo), max(before.hi, after.hi)):
            a, b = before.above(g), after.above(g)
            if isinstance(a, int) and isinstance(b, int):
                if a != b:
                    cover[g] = 1
                continue
            c = model.new_bool_var(f"wheel_{k}_sweeps_{g}")
            model.add(c >= a - b)
            model.add(c >= b - a)
            model.add(c <= a + b)
            model.add(c <= 2 - a - b)
            cover[g] = c
        self.cover.append(cover)
        turn = model.new_int_var(-s.quarter, s.quarter, f"wheel_{k}_turn")
        model.add(turn == after.value - before.value)
        self.turns.append(turn)
        towards_left = model.new_bool_var(f"wheel_{k}_left")
        model.add(turn >= 0).only_enforce_if(towards_left)
        model.add(turn <= 0).only_enforce_if(towards_left.Not())
        self.left_turn.append(towards_left)
        table = [int(math.ceil(s.width * abs(math.sin(math.radians(t * s.step_deg))) / LEG_IN))
                 for t in range(-s.quarter, s.quarter + 1)]
        index = model.new_int_var(0, 2 * s.quarter, f"wheel_{k}_index")
        model.add(index == turn + s.quarter)
        cost = model.new_int_var(0, max(table), f"wheel_{k}_cost")
        model.add_element(index, table, cost)
        self.costs.append(cost)

    def _legs(self, k: int) -> dict[int, Any]:
        """Leg k split by heading: only the variable of the heading taken may be non-zero."""
        model, stage = self.model, self.stages[k]
        per = {}
        for g in stage.values():
            a = model.new_int_var(0, self.max_leg, f"leg_{k}_at_{g}")
            model.add(a <= self.max_leg * stage.onehot[g])
            per[int(g)] = a
        return per

    # -- positions -----------------------------------------------------------------------

    def _positions(self) -> None:
        """Front centre at the start (`starts`) and end (`ends`) of each leg, as (x, y)
        integers of POS_IN."""
        s, model = self.shape, self.model
        reach = self.reach = int((s.budget + s.width + s.depth) / POS_IN) + 1
        step = s.step_deg

        def var(name: str) -> tuple[Any, Any]:
            return (model.new_int_var(-reach, reach, name + "_x"),
                    model.new_int_var(-reach, reach, name + "_y"))

        self.starts: list[tuple[Any, Any]] = []
        self.ends: list[tuple[Any, Any]] = []
        for k, stage in enumerate(self.stages):
            start = var(f"front_start_{k}")
            if k == 0:
                g = stage.values()
                shift = s.depth / 2.0 * direction(g * step) / POS_IN
                terms = [(stage.onehot[int(h)], v) for h, v in zip(g, np.round(shift), strict=True)]
            else:
                slices = np.array(sorted(self.cover[k]))
                lo, hi = np.radians(slices * step), np.radians((slices + 1) * step)
                delta = s.rho * np.stack([np.cos(hi) - np.cos(lo), np.sin(hi) - np.sin(lo)],
                                         axis=-1) / POS_IN
                terms = [(self.cover[k][int(h)], v) for h, v in
                         zip(slices, np.round(delta), strict=True)]
                previous = self.ends[-1]
            for axis in (0, 1):
                moved = sum(int(v[axis]) * lit for lit, v in terms)
                model.add(start[axis] == (moved if k == 0 else previous[axis] + moved))
            end = var(f"front_end_{k}")
            unit = np.round(direction(stage.values() * step) * LEG_IN / POS_IN)
            for axis in (0, 1):
                moved = sum(int(u[axis]) * self.legs[k][int(g)]
                            for g, u in zip(stage.values(), unit, strict=True))
                model.add(end[axis] == start[axis] + moved)
            self.starts.append(start)
            self.ends.append(end)

    def hint(self, headings: Sequence[int], legs: Sequence[int]) -> None:
        """Start the search from a way: a heading (lattice steps) and a leg (LEG_IN) per
        stage; the rest follows by propagation."""
        model = self.model
        for k, (stage, h) in enumerate(zip(self.stages, headings, strict=True)):
            for g, lit in stage.theta.items():
                model.add_hint(lit, h > g)
            for g, a in self.legs[k].items():
                model.add_hint(a, legs[k] if g == h else 0)
            if k:
                model.add_hint(self.left_turn[k], h >= headings[k - 1])

    def forbid_pivot(self, pivot: int) -> None:
        """Rule out a Pivot heading (lattice steps)."""
        onehot = self.stages[0].onehot
        if pivot in onehot:
            self.model.add(onehot[pivot] == 0)

    # -- reading -------------------------------------------------------------------------

    def decode(self, solver: cp_model.CpSolver) -> tuple[float, list[tuple[str, float]]]:
        """The Pivot (degrees) and the steps (("forward", inches) or ("wheel", degrees)),
        zero steps left out."""
        step = self.shape.step_deg
        headings = [int(solver.value(st.value)) for st in self.stages]
        steps: list[tuple[str, float]] = []
        for k in range(len(self.stages)):
            if k:
                turn = headings[k] - headings[k - 1]
                if turn:
                    steps.append(("wheel", turn * step))
            leg = sum(solver.value(a) for a in self.legs[k].values())
            if leg:
                steps.append(("forward", leg / round(1.0 / LEG_IN)))
        return headings[0] * step, steps

    # -- rows ----------------------------------------------------------------------------

    def position_terms(self, point: tuple[Any, Any], normal: np.ndarray) -> list[Term]:
        """normal . (front position) as row terms (inches)."""
        return [(float(normal[0]) * POS_IN, point[0], self.reach),
                (float(normal[1]) * POS_IN, point[1], self.reach)]

    def left_terms(self, k: int, normal: np.ndarray, length: float) -> list[Term]:
        """length x normal . left(PHI_k) as row terms (inches)."""
        cos, sin = self.stages[k].trig
        scale = length / TRIG_SCALE
        return [(-float(normal[0]) * scale, cos, TRIG_SCALE),
                (-float(normal[1]) * scale, sin, TRIG_SCALE)]

    def row(self, terms: list[Term], rhs: float, enforce: Sequence[Any] = ()) -> None:
        """sum(coef x var) <= rhs - MODEL_ROOM_IN, posted soundly: the integer row implies
        the float one for every value within the terms' bounds."""
        post_sound(self.model, terms, rhs - MODEL_ROOM_IN, enforce)


Term = tuple[float, Any, int]  # (coefficient, variable, bound on |variable|)


def post_sound(model: cp_model.CpModel, terms: list[Term], rhs: float,
               enforce: Sequence[Any] = ()) -> None:
    """sum(coef x var) <= rhs as an integer row that implies it: scaled so that rounding
    the coefficients costs at most ROW_ERROR_IN (taken off the right-hand side)."""
    terms = [t for t in terms if t[0] != 0.0]
    if not terms:
        if rhs < 0:
            model.add_bool_or([lit.Not() for lit in enforce])
        return
    scale = 0.5 * sum(b for _, _, b in terms) / ROW_ERROR_IN
    coefs = [round(c * scale) for c, _, _ in terms]
    error = sum(abs(k - c * scale) * b for k, (c, _, b) in zip(coefs, terms, strict=True))
    reach = sum(abs(k) * b for k, (_, _, b) in zip(coefs, terms, strict=True))
    if reach >= INT64_ROOM:
        raise ValueError("a way row would overflow CP-SAT's integers")  # our bug
    bound = math.floor(rhs * scale - error)
    if bound >= reach:
        return  # holds everywhere within the variables' bounds
    if bound < -reach:  # holds nowhere
        model.add_bool_or([lit.Not() for lit in enforce])
        return
    from ortools.sat.python import cp_model

    ct = model.add(cp_model.LinearExpr.weighted_sum([v for _, v, _ in terms], coefs) <= bound)
    if enforce:
        ct.only_enforce_if(list(enforce))
