"""Warhammer ways of two wheels, searched after the one-wheel family when its answer is not
proved (optimizer.search.more_wheels calls `templates`, then `PrefixSearch` per template):
a fixed prefix, a wheel w (on the lattice's degree) and, in a move, a turn on the spot after it,
then the family's way, forward a, wheel t, forward b.  So a march may sidestep (wheel w,
forward, wheel back) and a move may wheel before it turns.

Each prefix is searched as the family is (optimizer.search.ways.whfb7_start): its options' sound
regions' best points judged by the checker first, then one small model of the options whose
relaxed regions might beat that answer (the same clauses, rows and decoding:
optimizer.families.whfb7, constraints.whfb7.way_rows judges the prefix's area with the
checker's own sweep); a prefix whose options' relaxed regions cannot beat the search's answer
is left out (the family's `way_template_reach`).  The prefixes tried are the ones where the
relaxation of every way (constraints.whfb7.reach, or MarchReach for a march) is best over
the ways they start, obstacles ignored.  The answers are re-checked by the checker.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from typing import Any

import numpy as np
import shapely
from ortools.sat.python import cp_model

from constraints.core.cache import remembered
from constraints.core.system import find_system
from constraints.sat.option import Option
from constraints.whfb7.reach import MoveReach
from optimizer.search.model import build_search, decode
from optimizer.search.prefilter import worst_kept
from optimizer.search.request import SearchRequest
from optimizer.search.ways.whfb7_start import geometric_start

TURN_CODES = (0.0, 90.0, -90.0, 180.0)
PRE_GAP_DEG = 10.0  # prefixes of one turn tried at least this far apart
# A prefix's model holds the wheels t within this of the relaxation's best one after it
# (a model of all 181 cost 1-3 s to build among gap.json's walls; 41 a quarter of that).
WHEEL_SPAN_DEG = 20.0


@dataclass(frozen=True, eq=False)
class PrefixRequest(SearchRequest):
    """The request, its options those of one prefix (pre wheel, turn) only."""

    prefix: tuple[float, float, float] = (0.0, 0.0, 0.0)  # pre wheel, turn, wheel t about

    def options(self) -> tuple[list[Option], list[shapely.Geometry]]:
        pre, turn, about = self.prefix

        def build() -> tuple[list[Option], list[shapely.Geometry]]:
            family: Any = self.family  # optimizer.families.whfb7.WarhammerWays
            options, regions = family.prefix_options(self.unit, self.frame, self.lattice,
                                                     self.limits, pre, turn)
            kept = [k for k, o in enumerate(options)
                    if abs(o.wheel_deg - about) <= WHEEL_SPAN_DEG + 1e-9]
            return [replace(options[k], index=n) for n, k in enumerate(kept)], \
                [regions[k] for k in kept]

        options, regions = remembered(self.scenario, ("whfb7_prefix", self.unit_id,
                                                      self.manoeuvre, self.lattice, pre, turn,
                                                      about), build)
        return list(options), list(regions)


class PrefixSearch:
    """One prefix's search: `solve` gives (CP-SAT status, move).  Exact geometry first
    (optimizer.search.ways.whfb7_start: the best legal point of the prefix's options' sound
    regions); a model only of the options whose relaxed regions might beat it, its objective
    bounded by those regions and cut off at the answer's value."""

    whole = False  # a few ways, never the family

    def __init__(self, request: SearchRequest, prefix: tuple[float, float, float],
                 deadline: float) -> None:
        self.sub = PrefixRequest(request.scenario, request.unit_id, request.manoeuvre,
                                 request.objective, request.lattice, request.time_limit_s,
                                 request.workers, request.effort, request.tolerance,
                                 request.max_wheels, prefix=prefix)
        self.deadline = deadline
        self.search: Any = None

    @property
    def enc(self) -> Any:
        assert self.search is not None
        return self.search.enc

    def solve(self, solver: cp_model.CpSolver) -> tuple[Any, Any]:
        sub = self.sub
        options, reach = sub.options()
        if not options:  # the prefix alone costs more than the budget
            return cp_model.INFEASIBLE, None
        incumbent, keep, relaxed = geometric_start(sub, options, reach)
        found = None if incumbent is None or incumbent.checked is None else \
            incumbent.checked.move
        if not keep:  # no option can beat the answer by more than a lattice step
            return (cp_model.OPTIMAL if found is not None else cp_model.INFEASIBLE), found
        kept = set(keep)
        self.search = build_search(sub, only=lambda o: o.index in kept, deadline=self.deadline)
        worst = None if incumbent is None else \
            worst_kept(sub.goal, incumbent.value, sub.lattice.inch)
        sub.goal.post(self.search.enc, [relaxed.get(k, reach[k]) for k in keep], worst)
        status = solver.solve(self.search.enc.sat_model)
        if status not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
            # INFEASIBLE under the cut-off: nothing beats the answer (OPTIMAL with it)
            if found is not None and status == cp_model.INFEASIBLE:
                return cp_model.OPTIMAL, found
            return (cp_model.FEASIBLE if found is not None else status), found
        move = decode(self.search, solver)
        if found is not None and not _better_move(sub, move, incumbent):
            return status, found
        return status, move


def _better_move(request: SearchRequest, move: Any, incumbent: Any) -> bool:
    """Whether the model's move beats the geometric answer (the checker's exact values)."""
    verdict = find_system(request.scenario.rules).check(request.scenario, move)
    return bool(verdict.legal and request.goal.better(request.goal.ranked(verdict),
                                                      request.goal.ranked(
                                                          incumbent.checked.verdict)))


def prefix_of(template: list[int], step: float) -> tuple[float, float, float]:
    """(pre wheel, turn, wheel about) of a template (its pre wheel in `step`s, its turn's
    code, the wheel after in degrees)."""
    return template[0] * step, TURN_CODES[template[1]], float(template[2])


def templates(request: SearchRequest, step: float, pre_wheels: list[float],
              count: int) -> list[list[int]]:
    """Up to `count` prefixes, best first by the relaxation's least value over the ways of
    one more wheel after them (points of its parameters, no obstacle), at least PRE_GAP_DEG
    apart for one turn; [pre wheel in `step`s, turn code, best wheel after (degrees)]
    each."""
    relaxation = request.relaxation
    if relaxation is None:
        return []
    turns = getattr(request.family, "turns", (0.0,))
    scored: list[tuple[float, float, int, int]] = []
    wheels = np.radians(np.arange(-90.0, 90.0 + 1e-9, 1.0))
    for code, turn in enumerate(TURN_CODES):
        if turn not in turns:
            continue
        values, bests = _values(request, relaxation, np.radians(pre_wheels), turn, wheels)
        scored += [(float(v), pre, code, b)
                   for v, pre, b in zip(values, pre_wheels, bests, strict=True)
                   if math.isfinite(v)]
    scored.sort()
    found: list[list[int]] = []
    for _, pre, code, best in scored:
        if any(t[1] == code and abs(t[0] * step - pre) < PRE_GAP_DEG - 1e-9 for t in found):
            continue
        found.append([round(pre / step), code, best])
        if len(found) >= count:
            break
    if not found:
        return []
    # The best prefix's neighbours next (the lattice's answer may lie a step off the
    # relaxation's best), then the others.
    first = found[0]
    near = [[first[0] + k, first[1], first[2]] for k in (1, -1)
            if any(abs(pre - (first[0] + k) * step) < 1e-9 and code == first[1]
                   for _, pre, code, _ in scored)]
    return ([first, *near, *found[1:]])[:count]


def _values(request: SearchRequest, relaxation: Any, pres: np.ndarray, turn: float,
            wheels: np.ndarray) -> tuple[np.ndarray, list[int]]:
    """Per pre wheel, the relaxation's least value over the ways "wheel pre, (turn),
    forward, wheel t, forward" (t on 1 deg), at the points of their parameters, and the
    best t (degrees)."""
    pre = np.repeat(pres, len(wheels))
    h = pre + np.tile(wheels, len(pres))
    zero = np.zeros_like(h)
    p, q = np.minimum.reduce([zero, h, pre]), np.maximum.reduce([zero, h, pre])
    if isinstance(relaxation, MoveReach):
        kind = _kind(relaxation, turn)
        if kind is None:
            return np.full(len(pres), np.inf), [0] * len(pres)
        points = np.zeros((len(h), 6))
        points[:, 0] = kind
        if turn:
            points[:, 1:6] = np.column_stack([pre, h, p, q, zero])
        else:
            points[:, 1:4] = np.column_stack([h, p, q])
    else:
        points = np.column_stack([h, p, q])
    pieces = relaxation.pieces(points, np.zeros_like(points))
    values = request.goal.piece_values(pieces)
    values = -values if request.goal.maximise else values
    values = np.where(pieces.radius >= 0, values, np.inf).reshape(len(pres), len(wheels))
    best = np.argmin(values, axis=1)
    return values[np.arange(len(pres)), best], \
        [round(math.degrees(float(wheels[k]))) for k in best]


def _kind(reach: MoveReach, turn: float) -> int | None:
    for index, kind in enumerate(reach.kinds):
        if kind.disc:
            continue
        if (turn == 0.0 and kind.turns == 0) or \
                (kind.turns == 1 and math.isclose(kind.tau, math.radians(turn))):
            return index
    return None
