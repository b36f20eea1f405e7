"""The CP-SAT side of the rule clauses: the lattice, the start frame, the end-pose options, and
sound linear rows.

A move's end pose is modelled as one *option* (a discrete choice: end facing, files, and for
Snaking Forward Moves the Pivot and wheel angles), picked by exactly one Boolean, plus the end
centre on an integer lattice of the unit's *start frame* (ticks to its right and forwards; so
a straight-ahead March lies on lattice points).  Every clause writes rows that are linear in
the centre ticks, enforced by an option's Boolean or shared by all options.

Soundness: rows come from float geometry.  `row` turns a float row into an integer one that
implies it for every value in the variables' bounds (coefficients scaled and rounded, the
worst rounding error taken off the right-hand side), so every lattice point the solver accepts
passes the exact checker.  What this gives up is at most a fraction of a tick per row.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any

import numpy as np

from constraints.geometry.plane import Point
from constraints.sat.lattice import Lattice
from constraints.sat.option import Option, corner_offsets

ROW_SCALE = 100_000  # float rows become integers this much finer than their largest term
ROW_NOISE = 1e-6     # far below the checker's float allowance (constraints.limits)
# Corner offsets are integers of this fraction of a tick: their rounding costs every corner
# row 0.5 / CORNER_SUBTICKS tick per axis instead of half a tick.
CORNER_SUBTICKS = 10
# `MoveEncoding.watch` is called after every this many rows: building a large model looks at
# its limits (the wall clock, the row budget) this often, not only between clauses.
WATCH_EVERY = 256










class MoveEncoding:
    """The CP-SAT model of one unit's end pose: option Booleans, centre ticks, corner offsets.

    Variable families:
    - `option_vars[k]`: option k is the end pose family chosen (exactly one);
    - `right_ticks`, `forward_ticks`: the end centre in start-frame ticks;
    - `corner_dx[c]`, `corner_dy[c]`: frame offset of end corner c (FL, FR, RR, RL) from the
      centre, in 1/CORNER_SUBTICKS ticks, rounded (error <= 0.05 tick per coordinate).
    """

    def __init__(self, options: Sequence[Option], lattice: Lattice, bound_in: float,
                 watch: Callable[[], None] | None = None) -> None:
        from ortools.sat.python import cp_model  # here: a check alone never loads the solver

        self.sat_model = cp_model.CpModel()
        self.options = list(options)
        self.lattice = lattice
        self.tick = lattice.inch
        self.bound = int(math.ceil(bound_in / self.tick)) + 1
        self.right_ticks = self.sat_model.new_int_var(-self.bound, self.bound, "centre_right_ticks")
        self.forward_ticks = self.sat_model.new_int_var(-self.bound, self.bound,
                                                        "centre_forward_ticks")
        self.option_vars = [self.sat_model.new_bool_var(f"option_{o.index}") for o in options]
        self.sat_model.add_exactly_one(self.option_vars)
        self.forbidden: dict[int, str] = {}
        # Options on which a clause's rows keep only a safe part of what it allows (not the
        # whole up to rounding), and which clause: the model proves nothing about them.
        self.inexact: dict[int, str] = {}
        self.clause_lit: Any = None  # set while a guarded clause is being encoded
        # How far (ticks, per axis) the true end centre may lie from the lattice point (i, j):
        # non-zero only for straight options off the lattice axes (constraints.options).
        self.centre_slack_ticks = 0.0
        self.band_lit: Any = None  # true when a band option is chosen
        self.band_options: set[int] = set()   # indexes of band options' literals
        self.lattice_options: set[int] = set()
        self.magnitude: dict[str, int] = {}  # largest |value| of each offset variable
        # Rows posted so far (counted work: a model's size is bounded by it), and a callable
        # told every WATCH_EVERY rows (it may raise to stop the building).
        self.rows = 0
        self.watch = watch
        self._watched_at = 0
        self.corner_dx, self.corner_dy = self._corner_offsets()

    def counted(self, rows: int = 1) -> None:
        """Count `rows` posted; every WATCH_EVERY rows, `watch` is told."""
        self.rows += rows
        if self.watch is not None and self.rows - self._watched_at >= WATCH_EVERY:
            self._watched_at = self.rows
            self.watch()

    def ticks(self, inches: float) -> float:
        return inches / self.tick

    def _corner_offsets(self) -> tuple[list[Any], list[Any]]:
        from ortools.sat.python import cp_model

        dxs: list[Any] = []
        dys: list[Any] = []
        every = [corner_offsets(o) for o in self.options]
        for c in range(4):
            if self.watch is not None:  # thousands of options: a second or more in all
                self.watch()
            offs = [corners[c] for corners in every]
            xs = [round(CORNER_SUBTICKS * self.ticks(p[0])) for p in offs]
            ys = [round(CORNER_SUBTICKS * self.ticks(p[1])) for p in offs]
            for values, out, name in ((xs, dxs, "x"), (ys, dys, "y")):
                var = self.sat_model.new_int_var(min(values), max(values), f"corner_{c}_d{name}")
                self.magnitude[var.name] = max(abs(v) for v in values)
                # One weighted sum (thousands of options: a Python sum of terms took seconds).
                self.sat_model.add(var == cp_model.LinearExpr.weighted_sum(self.option_vars,
                                                                           values))
                out.append(var)
        return dxs, dys

    def use_bands(self, band: list[bool], slack_ticks: float) -> None:
        """Mark the options whose end centres stand for an off-lattice line (see row)."""
        if not any(band):
            return
        self.centre_slack_ticks = slack_ticks
        self.band_lit = self.sat_model.new_bool_var("band_option_chosen")
        chosen = [lit for lit, b in zip(self.option_vars, band, strict=True) if b]
        self.sat_model.add_max_equality(self.band_lit, chosen)
        self.band_options = {lit.index for lit in chosen}
        self.lattice_options = {lit.index for lit, b in zip(self.option_vars, band, strict=True)
                                if not b}

    def guarded(self, enforce: Sequence[Any] = ()) -> list[Any]:
        """`enforce` plus the literal of the clause being encoded, when clauses are guarded
        (for unsat cores: which clauses make a request impossible)."""
        return list(enforce) + ([self.clause_lit] if self.clause_lit is not None else [])

    def forbid(self, option: int, clause_id: str) -> None:
        """Rule an option out entirely (a clause it breaks wherever the centre is)."""
        ct = self.sat_model.add(self.option_vars[option] == 0)
        if self.clause_lit is not None:
            ct.only_enforce_if(self.clause_lit)
        self.forbidden.setdefault(option, clause_id)

    def bool_or(self, lits: Sequence[Any], enforce: Sequence[Any] = ()) -> None:
        self.counted()
        ct = self.sat_model.add_bool_or(list(lits))
        guard = self.guarded(enforce)
        if guard:
            ct.only_enforce_if(guard)

    @contextmanager
    def guarded_by(self, lit: Any) -> Iterator[None]:
        """Every row posted inside is also enforced by `lit` (a clause's literal, for unsat
        cores: which clauses make a request impossible)."""
        self.clause_lit = lit
        try:
            yield
        finally:
            self.clause_lit = None

    def row(self, terms: Sequence[tuple[float, Any, int]], rhs: float,
            enforce: Sequence[Any] = (), at_lattice_point: bool = False) -> None:
        """Post sum(coef * var) <= rhs soundly; each term is (coef, var, bound on |var|)."""
        enforce = self.guarded(enforce)
        centre = (self.right_ticks, self.forward_ticks)
        centre_coef = sum(abs(c) for c, v, _ in terms if any(v is x for x in centre))
        if self.band_lit is not None and centre_coef and not at_lattice_point:
            # A row about the centre: as it stands for the lattice options, and with the
            # band's slack for the band options (shared rows are posted twice).
            slack = self.centre_slack_ticks * centre_coef
            indexes = {lit.index for lit in enforce}
            if indexes & self.band_options:
                self._post(terms, rhs - slack, enforce)
            elif indexes & self.lattice_options:
                self._post(terms, rhs, enforce)
            else:
                self._post(terms, rhs - slack, list(enforce) + [self.band_lit])
                self._post(terms, rhs, list(enforce) + [self.band_lit.Not()])
            return
        self._post(terms, rhs, enforce)

    def _post(self, terms: Sequence[tuple[float, Any, int]], rhs: float,
              enforce: Sequence[Any]) -> None:
        self.counted()
        largest = max((abs(c) for c, _, _ in terms), default=0.0)
        # Terms far below the largest are dropped, their worst case moved to the right side.
        kept = [t for t in terms if abs(t[0]) > 1e-9 * largest]
        rhs -= sum(abs(c) * b for c, _, b in terms if not abs(c) > 1e-9 * largest)
        if not kept:
            if rhs < 0:
                self._false(enforce)
            return
        scale = ROW_SCALE / max(abs(c) for c, _, _ in kept)
        coefs = [round(c * scale) for c, _, _ in kept]
        error = sum(abs(k - c * scale) * b for k, (c, _, b) in zip(coefs, kept, strict=True))
        # ROW_NOISE (scaled units, ~1e-11 tick) absorbs float noise in c * scale itself: without
        # it a row met with equality at the origin (a leg of length 0) would exclude it.
        bound = math.floor(rhs * scale - error + ROW_NOISE)
        reach = sum(abs(k) * b for k, (_, _, b) in zip(coefs, kept, strict=True))
        if bound >= reach:
            return  # holds everywhere in the variables' bounds
        if bound < -reach:
            self._false(enforce)
            return
        from ortools.sat.python import cp_model

        expr = cp_model.LinearExpr.weighted_sum([v for _, v, _ in kept], coefs)
        ct = self.sat_model.add(expr <= bound)
        if enforce:
            ct.only_enforce_if(list(enforce))

    def _false(self, enforce: Sequence[Any]) -> None:
        if enforce:
            self.sat_model.add_bool_or([lit.Not() for lit in enforce])
        else:
            self.sat_model.add_bool_or([])

    def centre_row(self, normal: Point, rhs_in: float, enforce: Sequence[Any] = (),
                   at_lattice_point: bool = False) -> None:
        """normal . d <= rhs for the end centre d (frame inches)."""
        self.row([(normal[0], self.right_ticks, self.bound),
                  (normal[1], self.forward_ticks, self.bound)],
                 self.ticks(rhs_in), enforce, at_lattice_point)

    def centre_rows(self, normals: np.ndarray, rhs_in: np.ndarray,
                    enforce: Sequence[Any] = ()) -> None:
        """`centre_row` for many rows at once ((R, 2) normals, (R,) right-hand sides): the
        same integer rows, rounded in numpy (hundreds of thousands of rows in a crowded
        Reform).  Rows that a band option may need twice go through `centre_row`."""
        normals = np.asarray(normals, dtype=float).reshape(-1, 2)
        rhs = np.asarray(rhs_in, dtype=float).reshape(-1) / self.tick
        if self.band_lit is not None:
            for n, r in zip(normals, rhs, strict=True):
                self.centre_row((float(n[0]), float(n[1])), float(r) * self.tick, enforce)
            return
        enforce = self.guarded(enforce)
        b = float(self.bound)
        size = np.abs(normals)
        largest = size.max(axis=1)
        kept = size > 1e-9 * largest[:, None]
        # As _post, term by term and in the same order of operations.
        rhs = rhs - (np.where(kept[:, 0], 0.0, size[:, 0] * b) +
                     np.where(kept[:, 1], 0.0, size[:, 1] * b))
        with np.errstate(divide="ignore", invalid="ignore"):
            scale = ROW_SCALE / largest
            scaled = normals * scale[:, None]
        coefs = np.where(kept, np.round(scaled), 0.0)
        error = np.where(kept, np.abs(coefs - scaled) * b, 0.0)
        error = error[:, 0] + error[:, 1]
        bound = np.floor(rhs * scale - error + ROW_NOISE)
        reach = np.abs(coefs[:, 0]) * b + np.abs(coefs[:, 1]) * b
        empty = ~kept.any(axis=1)
        false = np.where(empty, rhs < 0, bound < -reach)
        post = ~empty & ~false & (bound < reach)  # the rest hold everywhere in the bounds
        guard = list(enforce)
        self.counted(len(normals))
        for k in np.flatnonzero(false | post):
            if false[k]:
                self._false(enforce)
                continue
            ct = self.sat_model.add(int(coefs[k, 0]) * self.right_ticks
                                    + int(coefs[k, 1]) * self.forward_ticks
                                    <= int(bound[k]))
            if guard:
                ct.only_enforce_if(guard)

    def corner_row(self, corner: int, normal: Point, rhs_in: float,
                   enforce: Sequence[Any] = ()) -> None:
        """normal . (end corner) <= rhs, allowing for the offsets' rounding."""
        slack = 0.5 * (abs(normal[0]) + abs(normal[1])) / CORNER_SUBTICKS
        dx, dy = self.corner_dx[corner], self.corner_dy[corner]
        sub = 1.0 / CORNER_SUBTICKS
        self.row([(normal[0], self.right_ticks, self.bound),
                  (normal[1], self.forward_ticks, self.bound),
                  (normal[0] * sub, dx, self.magnitude[dx.name]),
                  (normal[1] * sub, dy, self.magnitude[dy.name])],
                 self.ticks(rhs_in) - slack, enforce)

    def affine_row(self, coef: tuple[float, float, float], rhs_in: float,
                   enforce: Sequence[Any] = ()) -> None:
        """coef[0] d.x + coef[1] d.y + coef[2] <= rhs (inches)."""
        self.centre_row((coef[0], coef[1]), rhs_in - coef[2], enforce)

    def centre_in(self, values: Any) -> Point:
        """The end centre in frame inches from solved tick values."""
        return (values[0] * self.tick, values[1] * self.tick)






