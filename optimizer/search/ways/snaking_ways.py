"""The Snaking family's ways of up to K Snaking Forward Moves as one CP-SAT model over
per-stage headings and legs (constraints.t9a.ways_model), for optimizer.search.more_wheels.

Data: the end facings are the options (the end-pose clauses encode them as ever, their rows
kept `END_SLACK_TICKS` back because the way's end centre lies within that of the lattice
point the options use); variables: the way model; constraints: every clause, through
`encode_ways` where it judges the way and `encode` where it judges the end pose; objective:
the goal's, on the lattice point; then the search solves it and decodes the way.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import replace
from itertools import pairwise
from typing import Any

import numpy as np
import shapely
from ortools.sat.python import cp_model

from constraints.core.clause import Judges
from constraints.sat.context import EncodeContext
from constraints.sat.encoding import MoveEncoding
from constraints.sat.option import Option
from constraints.t9a.moves import Manoeuvre, Move, StepKind, forward, wheel
from constraints.t9a.ways_model import LEG_IN, POS_IN, TRIG_SCALE, WayModel, WayShape, direction
from constraints.t9a.ways_sweep import WayContext

END_SLACK_TICKS = 1.0  # the way's end centre lies within this of the options' lattice point


def way_shape(request: Any, wheels: int, around: Sequence[Sequence[int]] | None = None,
              margin: int = 0) -> WayShape:
    """The way model's shape for a search request: every Pivot of an Advance and every
    heading within the window (lattice steps); or, `around` some ways' stage headings, each
    stage's headings between theirs widened by `margin` (0 about one way: a template)."""
    unit, limits, step = request.unit, request.limits, request.lattice.degree
    assert limits.budget_in is not None and limits.window_deg is not None
    half_turn = int(round(180.0 / step))
    pivots = tuple(range(-half_turn + 1, half_turn + 1)) if request.family.pivots else (0,)
    shape = WayShape(unit.width_in, unit.depth_in, limits.budget_in, limits.window_deg, step,
                     pivots, wheels)
    if around is None:
        return shape
    ranges = tuple((max(lo, min(way[k] for way in around) - margin),
                    min(hi, max(way[k] for way in around) + margin))
                   for k, (lo, hi) in enumerate(shape.domains()))
    if any(lo > hi for lo, hi in ranges):
        ranges = tuple((lo, lo) for lo, _ in ranges)  # outside the domains: the options drop it
    return replace(shape, pivots=tuple(range(ranges[0][0], ranges[0][1] + 1)), ranges=ranges)


class WaySearch:
    """One model of the ways of up to `wheels` wheels for a search request (its scenario,
    unit, manoeuvre, clauses, limits, lattice, family and goal); `around` some ways' stage
    headings, of those within `margin` of them only (one way, no margin: a template)."""

    def __init__(self, request: Any, wheels: int, deadline: float,
                 around: Sequence[Sequence[int]] | None = None, margin: int = 0,
                 start: Move | None = None) -> None:
        self.request = request
        unit, lattice = request.unit, request.lattice
        half_turn = int(round(180.0 / lattice.degree))
        if start is not None and around is not None:  # its neighbourhood too
            headings = stages_of(start, lattice.degree)[0]
            if len(headings) <= wheels + 1:
                around = [*around, headings + headings[-1:] * (wheels + 1 - len(headings))]
        self.shape = way_shape(request, wheels, around, margin)
        self.whole = around is None  # every way of up to `wheels` wheels
        self.options = self._options(half_turn)
        if not self.options:  # a template ending outside the window: nothing to model
            return
        radius = self.shape.budget + unit.width_in + unit.depth_in
        region, fronts = shapely.Point(0.0, 0.0).buffer(radius, 64), None
        if self.shape.ranges is not None and all(lo == hi for lo, hi in self.shape.ranges):
            region, fronts = self._template_ends(lattice.inch), self._template_fronts()
        regions = [region] * len(self.options)
        self.enc = MoveEncoding(self.options, lattice, radius / math.cos(math.pi / 256))
        self.enc.use_bands([True] * len(self.options), END_SLACK_TICKS)
        self.way = WayModel(self.enc.sat_model, self.shape)
        self._tie_end_facing(half_turn)
        self._tie_end_centre()
        ectx = EncodeContext(request.scenario, unit, request.manoeuvre, self.enc, regions,
                             deadline)
        wctx = WayContext(ectx, self.way, fronts)
        for clause in request.clauses:
            if clause.judges == Judges.WAY:
                clause.encode_ways(wctx)
            else:
                clause.encode(ectx)
            ectx.check_time()
        request.goal.post(self.enc, regions)
        if start is not None:
            self.hint(start)

    def _template_ends(self, tick: float) -> shapely.Geometry:
        """Every end centre of a template's ways (start frame): `template_ends`."""
        return template_ends(self.shape, tick)

    def _template_fronts(self) -> shapely.Geometry:
        """Every position of the front's centre on a template's ways (start frame): the
        points of its wheels' arcs (each degree, the chords' sag added), plus what is left of
        the budget times the hull of the stages' directions (the legs, in any order)."""
        shape = self.shape
        assert shape.ranges is not None
        step = shape.step_deg
        headings = [lo for lo, _ in shape.ranges]
        base = shape.depth / 2.0 * direction(np.asarray(headings[0] * step))
        points, left = [base], shape.budget
        for before, after in pairwise(headings):
            sweep = np.arange(min(before, after), max(before, after) + 1) * np.radians(step)
            arc = shape.rho * np.stack([np.cos(sweep) - np.cos(sweep[0]),
                                        np.sin(sweep) - np.sin(sweep[0])], axis=-1)
            # Swept from the lowest heading up (a left wheel) or from the highest down.
            points.extend(base + (arc if after >= before else arc[-1] - arc))
            base = base + arc[-1]
            left -= shape.width * abs(math.sin(math.radians((after - before) * step)))
        legs = [np.zeros(2)] + [max(left, 0.0) * direction(np.asarray(h * step))
                                for h in headings]
        hull = shapely.MultiPoint([p + d for p in points for d in legs]).convex_hull
        sag = shape.rho * (1.0 - math.cos(math.radians(step) / 2.0))
        return hull.buffer(sag + 1e-6, 8)

    def _options(self, half_turn: int) -> list[Option]:
        """One option per end facing (lattice steps from the start facing): within the
        window for a March, all round for an Advance."""
        unit, step = self.request.unit, self.shape.step_deg
        ends: Sequence[int] = range(-half_turn + 1, half_turn + 1) \
            if self.request.family.pivots else range(-self.shape.window, self.shape.window + 1)
        if self.shape.ranges is not None:  # the end facings the last stage can take
            lo, hi = self.shape.ranges[-1]
            turn = 2 * half_turn
            ends = [g for g in ends if any((g - h) % turn == 0 for h in range(lo, hi + 1))]
        return [Option(k, unit.pose.facing_deg + g * step, 90.0 + g * step, unit.files,
                       unit.width_in, unit.depth_in) for k, g in enumerate(ends)]

    def _tie_end_facing(self, half_turn: int) -> None:
        """Option k is chosen exactly when the last stage's heading is its facing."""
        last = self.way.stages[-1].onehot
        turn = 2 * half_turn
        for lit, option in zip(self.enc.option_vars, self.options, strict=True):
            g = round((option.frame_facing_deg - 90.0) / self.shape.step_deg)
            same = [v for h, v in last.items() if (h - g) % turn == 0]
            self.enc.sat_model.add(lit == sum(same))

    def _tie_end_centre(self) -> None:
        """The end centre, front less D/2 dir(PHI_K), within END_SLACK_TICKS of the
        lattice point (right_ticks, forward_ticks), per axis."""
        way, enc = self.way, self.enc
        fx, fy = way.ends[-1]
        cos, sin = way.stages[-1].trig
        half = self.shape.depth / 2.0 / TRIG_SCALE
        room = END_SLACK_TICKS * enc.tick
        for centre, terms in ((enc.right_ticks, [(POS_IN, fx, way.reach),
                                                 (half, sin, TRIG_SCALE)]),
                              (enc.forward_ticks, [(POS_IN, fy, way.reach),
                                                   (-half, cos, TRIG_SCALE)])):
            lattice = (-enc.tick, centre, enc.bound)
            way.row([*terms, lattice], room)
            way.row([(-c, v, b) for c, v, b in terms] + [(enc.tick, centre, enc.bound)], room)

    def hint(self, move: Any) -> None:
        """Start from a legal move of at most `wheels` wheels on the lattice's degrees."""
        headings, legs = stages_of(move, self.shape.step_deg)
        if len(headings) > len(self.way.stages):
            return
        while len(headings) < len(self.way.stages):
            headings.append(headings[-1])
            legs.append(0)
        self.way.hint(headings, legs)

    def solve(self, solver: cp_model.CpSolver) -> tuple[Any, Move | None]:
        """(CP-SAT status, move) of the model, the move as the way model decodes it."""
        if not self.options:  # a template ending outside the window
            return cp_model.INFEASIBLE, None
        status = solver.solve(self.enc.sat_model)
        if status not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
            return status, None
        pivot, steps = self.way.decode(solver)
        return status, Move(self.request.unit_id, Manoeuvre(self.request.manoeuvre),
                            steps=tuple(forward(v) if kind == "forward" else wheel(v)
                                        for kind, v in steps),
                            pivot_deg=pivot if self.request.family.pivots else 0.0)


def template_ends(shape: WayShape, tick: float) -> shapely.Geometry:
    """Every end centre of the ways of a template (`shape` with every stage's heading fixed;
    start frame): the wheels move the front by fixed amounts and cost fixed amounts, so the
    legs, whatever their order, add what is left of the budget times the hull of the stages'
    directions; grown by the lattice point's slack (the end-pose clauses' rows are about
    it)."""
    assert shape.ranges is not None
    headings = np.array([lo for lo, _ in shape.ranges], dtype=float) * shape.step_deg
    front = shape.depth / 2.0 * direction(headings[0])
    for before, after in pairwise(headings):
        lo, hi = np.radians(min(before, after)), np.radians(max(before, after))
        front = front + shape.rho * np.array([np.cos(hi) - np.cos(lo),
                                              np.sin(hi) - np.sin(lo)])
    left = template_spare(shape)
    base = front - shape.depth / 2.0 * direction(headings[-1])
    points = [base] + [base + max(left, 0.0) * direction(h) for h in headings]
    hull = shapely.MultiPoint(points).convex_hull
    return hull.buffer(END_SLACK_TICKS * tick * math.sqrt(2.0) + 1e-6, 8)


def template_spare(shape: WayShape) -> float:
    """What a template's wheels (every stage's heading fixed) leave of the budget for its
    legs: negative when they alone cost more (no legal way follows the template)."""
    assert shape.ranges is not None
    headings = np.array([lo for lo, _ in shape.ranges], dtype=float) * shape.step_deg
    left = shape.budget
    for before, after in pairwise(headings):
        left -= shape.width * abs(math.sin(math.radians(after - before)))
    return left


def template_reach(request: Any, wheels: int,
                   headings: Sequence[int]) -> tuple[Option, shapely.Geometry | None] | None:
    """A template's end facing (as an option) and every end centre of its ways (start
    frame; None when unknown: headings outside the model's domains); None when its wheels
    alone cost more than the budget (no legal way follows it)."""
    shape = way_shape(request, wheels, [headings])
    assert shape.ranges is not None
    unit, last = request.unit, headings[-1] * shape.step_deg
    end = Option(0, unit.pose.facing_deg + last, 90.0 + last, unit.files, unit.width_in,
                 unit.depth_in)
    if [lo for lo, _ in shape.ranges] != list(headings) or \
            any(lo != hi for lo, hi in shape.ranges):
        return end, None
    if template_spare(shape) < -1e-9:
        return None
    return end, template_ends(shape, request.lattice.inch)


def stages_of(move: Move, step_deg: float) -> tuple[list[int], list[int]]:
    """A move's stage headings (lattice steps from the start facing, the Pivot's first) and
    legs (LEG_IN), as the way model holds them."""
    heading = round(move.pivot_deg / step_deg)
    headings, legs = [heading], [0]
    for s in move.steps:
        if s.kind == StepKind.WHEEL:
            heading += round(s.value / step_deg)
            headings.append(heading)
            legs.append(0)
        else:
            legs[-1] += round(s.value / LEG_IN)
    return headings, legs


def templates(request: Any, wheels: int, points: np.ndarray, count: int,
              spread: int) -> list[list[int]]:
    """Stage headings (lattice steps) of ways through the relaxation's points (phi,) h, p,
    q (lattice steps, best first), each at least `spread` steps from the points taken before
    in some parameter (the relaxation knows no obstacle: the best points may all lead into
    one): p visited first or q first, wheels past a quarter split in two; shapes needing more
    wheels than `wheels`, or headings outside the model's domains, left out; so are shapes of
    one wheel when the options already hold every one-wheel way (a March's)."""
    shape = way_shape(request, wheels)
    held = request.family.holds_ways(1, request.lattice)
    found: list[list[int]] = []
    taken: list[np.ndarray] = []
    for row in points:
        if any(np.abs(row - t).max() < spread for t in taken):
            continue
        shapes = [seq for seq in _shapes(shape, request.family.pivots, row)
                  if not held or sum(a != b for a, b in pairwise(seq)) > 1]
        if shapes:
            taken.append(row)
        for seq in shapes:
            if seq not in found:
                found.append(seq)
        if len(found) >= count:
            break
    return found[:count]


def _shapes(shape: WayShape, pivots: bool, row: np.ndarray) -> list[list[int]]:
    """The heading sequences of one point (phi,) h, p, q, in lattice steps."""
    quarter, domains = shape.quarter, shape.domains()
    phi, (h, p, q) = (row[0], row[1:]) if pivots else (0.0, row)
    out = []
    for order in ((p, q, h), (q, p, h)):
        seq = [round(phi)]
        for x in order:
            target = round(phi + x)
            while abs(target - seq[-1]) > quarter:
                seq.append(seq[-1] + quarter * (1 if target > seq[-1] else -1))
            if target != seq[-1]:
                seq.append(target)
        if len(seq) <= len(domains) and all(lo <= g <= hi for g, (lo, hi)
                                            in zip(seq, domains, strict=False)):
            out.append(seq + [seq[-1]] * (len(domains) - len(seq)))
    return out
