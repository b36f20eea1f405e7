"""The reference referee: every clause of docs/rules.md, measured the slow and simple way.

It shares the checker's domain values and readers (Scenario, Unit and Formation for slot
positions, Move) and nothing of its geometry: no constraints.t9a.clauses, .kinematics,
constraints.geometry.paths / assignment / convex.  Each rule is done by brute force:

- kinematics in small increments: the front edge is moved forward in steps of at most
  SAMPLE_IN and wheeled about its inner front corner in steps of at most SAMPLE_DEG (and
  SAMPLE_IN at the outer corner); every sampled position of the front segment is kept;
- the wheel's cost is read off the simulated outer corner: how far it advanced along the
  forward direction the wheel started from (docs/rules.md §4.3, §8.2);
- the heading window is checked at every increment, not only after each wheel (§4.4);
- the sweep's clearance and overhang are those of the sampled segments (§3.3-3.4);
- end position, Valid Final Position, the Pivot's spacing: plain shapely distances on
  rectangles built here from the pose (§3.1, §6);
- model moves: brute-force bottleneck assignments, walking paths on a visibility graph of
  our own (tests/referee/paths.py).

Each clause's result is a `Measure`: the referee's value, and an interval [lo, hi] known to
hold both the true value and any value the checker may fairly report (its own stated
approximations).  Outside that interval's reach of the limit the verdict is certain, and
the checker must agree.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import shapely
from shapely.geometry import Polygon

from constraints.core.scenario import Pose, Scenario
from constraints.rank_and_file.formation import Formation
from constraints.rank_and_file.unit import Unit
from constraints.t9a.moves import Manoeuvre, Move
from tests.referee.paths import PathGraph, bottleneck, bracket_radii
from tests.referee.rulebook import RULEBOOKS, Rulebook, more_than, within
from tests.referee.shapes import (
    SAMPLE_IN,
    base_in,
    boundary_size,
    corners,
    final_reach,
    obstacles,
    overhang,
    rotated,
    snake,
    unit_corners,
)

# Float drift of what the referee computes without discretisation (sums, rotations of
# rectangles by a few thousand increments: ~1e-12 in practice).
EXACT_IN = 1e-7
# The checker's swept arcs are circumscribed polygons (0.1 deg per edge): its sweep reaches
# up to R (1 / cos(0.05 deg) - 1) ~ 4e-7 R further than the true one; 1e-5" covers R <= 25".
CHECKER_ARC_IN = 1e-5
# The checker grows obstacles for walking paths with some polygonal approximation of the
# round clearance; agreement is required while its radius is within this fraction of the true
# one (0.5%: under 0.008" at the largest radius used here).
CHECKER_RADIUS_SLACK = 0.005

@dataclass(frozen=True)
class Measure:
    """One clause as the referee measured it.

    `value` gives the referee's verdict; [lo, hi] holds the true value and every value the
    checker may report within its stated approximations.
    """

    value: float
    limit: float
    strict: bool  # "more than" the limit (True), or "within" it (False)
    lo: float
    hi: float

    def broken_at(self, value: float) -> bool:
        return not (more_than(value, self.limit) if self.strict else within(value, self.limit))

    @property
    def broken(self) -> bool:
        return self.broken_at(self.value)

    @property
    def settled(self) -> bool:
        """Whether the whole interval gets one verdict: outside the tolerance band."""
        return self.broken_at(self.lo) == self.broken_at(self.hi)


def exact(value: float, limit: float, strict: bool = False, drift: float = EXACT_IN) -> Measure:
    return Measure(value, limit, strict, value - drift, value + drift)


@dataclass(frozen=True)
class Ruling:
    """The referee's judgement of one move: each clause id with its measure."""

    measures: dict[str, Measure]
    end_corners: np.ndarray

    @property
    def legal(self) -> bool:
        return not any(m.broken for m in self.measures.values())

    def broken(self) -> tuple[str, ...]:
        return tuple(c for c, m in self.measures.items() if m.broken)



# A20 (RULES 2.3.2.4): towards an object the unit starts within a spacing limit of, the
# limit becomes its start distance ("not closer than it stood": more than that less a hair);
# one it starts touching (within A21's 0.001") only may not be overlapped.
TOUCH_IN = 0.001
STAND_IN = 1e-6


def spaced(shapes: shapely.Geometry | np.ndarray, near: list[Polygon], start: Polygon,
           spacing: float, lo_slack: float = EXACT_IN, hi_slack: float = EXACT_IN) -> Measure:
    """Unit Spacing of `shapes` against each obstacle, each with its own limit (A20): the
    measure of the obstacle that breaks its limit, else the one nearest its limit."""
    shapes = np.atleast_1d(np.asarray(shapes, dtype=object))
    found: list[tuple[bool, float, Measure]] = []
    for o in near:
        gap = float(shapely.distance(shapes, o).min())
        begun = float(start.distance(o))
        if begun > spacing:
            m = Measure(gap, spacing, True, gap - lo_slack, gap + hi_slack)
        elif begun > TOUCH_IN:
            limit = begun - STAND_IN
            m = Measure(gap, limit, True, gap - lo_slack, gap + hi_slack)
        elif any(shapely.relate_pattern(sh, o, "T********") for sh in shapes):
            m = Measure(-1.0, -TOUCH_IN, True, -math.inf, 0.0)  # overlapping: how deep, unsaid
        else:
            m = Measure(gap, -TOUCH_IN, True, gap - lo_slack, gap + hi_slack)
        found.append((not m.broken, m.value - m.limit, m))
    if not found:
        return Measure(math.inf, spacing, True, math.inf, math.inf)
    return min(found, key=lambda f: (f[0], f[1]))[2]


# -- the manoeuvres --------------------------------------------------------------------------


def rule(scenario: Scenario, move: Move) -> Ruling:
    """Judge `move` clause by clause (docs/rules.md §9 for which clauses apply)."""
    if scenario.rule_options:
        raise NotImplementedError("the reference referee knows the profiles' own numbers")
    if move.is_end_pose:
        raise NotImplementedError("end-pose moves are not refereed")
    book = RULEBOOKS[scenario.rules]
    unit = scenario.unit(move.unit)
    if move.manoeuvre == Manoeuvre.REFORM:
        return reform(scenario, unit, move, book)
    return snaking(scenario, unit, move, book)


def snaking(scenario: Scenario, unit: Unit, move: Move, book: Rulebook) -> Ruling:
    """Advance (Pivot, Snaking Forward Moves) or March (§4)."""
    advance = move.manoeuvre == Manoeuvre.ADVANCE
    mob = unit.mobility_in
    near = obstacles(scenario, unit.id)
    start = unit_corners(unit)
    pivoted = rotated(start, start.mean(axis=0), move.pivot_deg) if advance else start
    moved = snake(pivoted, move.steps)
    name = "advance" if advance else "march"
    measures = {
        f"t9a.{name}.distance": exact(math.fsum(moved.costs),
                                      (book.advance_mob if advance else book.march_mob) * mob),
        f"t9a.{name}.heading_window": exact(moved.worst_turn, book.heading_window_deg),
    }
    if advance:
        measures.update(pivot(unit, move, pivoted, near, book))
    measures.update(sweep(scenario, moved.fronts, near, book, Polygon(start)))
    files = unit.formation.files if move.files is None else move.files
    measures["t9a.reorder.files"] = exact(abs(files - unit.formation.files), 0, drift=0)
    measures["t9a.characters.front_rank"] = characters_behind(unit, unit.formation, move)
    measures.update(end(scenario, unit, start, moved.corners, near, book))
    return Ruling(measures, moved.corners)


def pivot(unit: Unit, move: Move, pivoted: np.ndarray, near: list[Polygon],
          book: Rulebook) -> dict[str, Measure]:
    """The Pivot (§4.1): models' straight moves under the move's assignment or the best
    reordering; the partway spacing after it (judged only when the unit turned)."""
    angle = move.pivot_deg
    turned = unit.with_pose(Pose(unit.pose.centre, unit.pose.facing_deg + angle))
    a, b = unit.model_positions(), turned.model_positions()
    cost = np.hypot(*(a[:, None, :] - b[None, :, :]).transpose(2, 0, 1))
    allowed = slot_rule(unit, turned.formation, move)
    out = {"t9a.pivot.model_distance": exact(bottleneck(cost, allowed),
                                             book.model_move_mob * unit.mobility_in)}
    if angle != 0:
        out["t9a.pivot.unit_spacing"] = spaced(Polygon(pivoted), near,
                                               Polygon(unit_corners(unit)),
                                               book.mid_move_spacing_in)
    return out


def sweep(scenario: Scenario, fronts: list[np.ndarray], near: list[Polygon],
          book: Rulebook, start: Polygon) -> dict[str, Measure]:
    """The Front Facing's sweep (§3.3-3.4), from its sampled positions."""
    segments = np.asarray(fronts)
    over = overhang(segments.reshape(-1, 2), scenario)
    slack = SAMPLE_IN / 2 + CHECKER_ARC_IN
    return {
        "t9a.snaking.front_spacing": spaced(shapely.linestrings(segments), near, start,
                                            book.mid_move_spacing_in, lo_slack=slack),
        "t9a.table_edge.front": Measure(over, 0.0, False, over - EXACT_IN, over + slack),
    }


def end(scenario: Scenario, unit: Unit, start: np.ndarray, finish: np.ndarray,
        near: list[Polygon], book: Rulebook) -> dict[str, Measure]:
    """Every manoeuvre's end (§3.1, §3.4, §6)."""
    return {
        "t9a.valid_final_position": exact(final_reach(start, finish),
                                          book.final_position_mob * unit.mobility_in),
        "t9a.unit_spacing": spaced(Polygon(finish), near, Polygon(start), book.end_spacing_in),
        "t9a.table_edge.end": exact(overhang(finish, scenario), 0.0),
    }


def model_names(unit: Unit) -> list[str]:
    """Each model's name in an assignment (docs/formats.md): a character by its id, a
    rank-and-file model by unit id and its key in the layout."""
    characters = {c.id for c in unit.formation.characters}
    return [key if key in characters else f"{unit.id}.{key}"
            for key, _ in unit.formation.layout()]


def slot_rule(unit: Unit, end: Formation, move: Move) -> np.ndarray:
    """Which model may take which end slot: the one the move's assignment names, or any
    slot the front-rank rule allows."""
    if move.assignment is None:
        return front_rank_rule(unit, end)
    named = {model: tuple(slot) for model, slot in move.assignment}
    ends = [slot for _, slot in end.layout()]
    allowed = np.zeros((len(unit.formation.layout()), len(ends)), dtype=bool)
    for i, model in enumerate(model_names(unit)):
        allowed[i, ends.index(named[model])] = True
    return allowed


def characters_behind(unit: Unit, end: Formation, move: Move) -> Measure:
    """§2.5, §8.11: characters that start in the front rank and end behind it, under the
    move's assignment; without one, those the end front rank has no room for."""
    characters = {c.id for c in unit.formation.characters}
    front = [i for i, (key, (rank, _)) in enumerate(unit.formation.layout())
             if key in characters and rank == 0]
    ends = [slot for _, slot in end.layout()]
    if move.assignment is None:
        room = sum(1 for rank, _ in ends if rank == 0)
        return exact(float(max(0, len(front) - room)), 0.0, drift=0)
    named = {model: tuple(slot) for model, slot in move.assignment}
    names = model_names(unit)
    return exact(float(sum(1 for i in front if named[names[i]][0] != 0)), 0.0, drift=0)


def front_rank_rule(unit: Unit, end: Formation) -> np.ndarray:
    """Which model may take which end slot: a character starting in the front rank ends in it
    (docs/rules.md §2.5, §8.11)."""
    characters = {c.id for c in unit.formation.characters}
    ends = [slot for _, slot in end.layout()]
    allowed = np.ones((len(unit.formation.layout()), len(ends)), dtype=bool)
    for i, (key, (rank, _file)) in enumerate(unit.formation.layout()):
        if key in characters and rank == 0:
            allowed[i] = [slot[0] == 0 for slot in ends]
    return allowed


def reform(scenario: Scenario, unit: Unit, move: Move, book: Rulebook) -> Ruling:
    """Reform (§5): lifted and set down again, then the end conditions."""
    formation = unit.formation if move.files is None else unit.formation.reformed(move.files)
    centre = unit.pose.centre if move.centre is None else move.centre
    facing = unit.pose.facing_deg if move.facing_deg is None else move.facing_deg
    placed = unit.with_formation(formation).with_pose(Pose(centre, facing))
    finish = corners(centre, facing, *boundary_size(unit, formation))
    mob = unit.mobility_in
    reach = book.light_troops_reform_centre_mob if unit.light_troops else book.reform_centre_mob
    change = book.max_file_change_musician if unit.musician else book.max_file_change
    near = obstacles(scenario, unit.id)
    measures = {
        "t9a.reform.centre_travel": exact(math.dist(unit.pose.centre, centre), reach * mob),
        "t9a.reform.file_change": exact(abs(formation.files - unit.formation.files), change,
                                        drift=0),
        "t9a.reform.viable_formation": exact(float(not viable(unit, formation, book)), 0.0,
                                             drift=0),
        "t9a.reform.model_path": model_paths(unit, placed, move, near, book),
        "t9a.characters.front_rank": characters_behind(unit, formation, move),
    }
    if move.mid is not None:  # §5.6: placed mid-move, walks through the placement
        from tests.referee.mid_referee import mid_measures

        measures.update(mid_measures(scenario, unit, move, placed, near, book))
    measures.update(end(scenario, unit, unit_corners(unit), finish, near, book))
    return Ruling(measures, finish)


def viable(unit: Unit, formation: Formation, book: Rulebook) -> bool:
    """§5.4, §8.8: a full front rank; no more ranks than files by choice unless a Proper
    Rank wide."""
    models = formation.models + len(formation.characters)
    if formation.files > models:
        return False
    ranks = -(-models // formation.files)
    proper = book.proper_rank_width[min(unit.height, len(book.proper_rank_width) - 1)]
    chosen = formation.files != unit.formation.files
    return not (chosen and ranks > formation.files and formation.files < proper)


def walking_radius(unit: Unit, book: Rulebook) -> float:
    """How far a walking base centre keeps from obstacles: half the base's smaller side plus
    the partway spacing, so the base itself keeps that spacing (§5.5, §8.9)."""
    return min(base_in(unit)) / 2 + book.mid_move_spacing_in


def model_paths(unit: Unit, placed: Unit, move: Move, near: list[Polygon],
                book: Rulebook) -> Measure:
    """Longest walk under the move's assignment or the best one (§5.5, §8.4), with its
    bracket: the same bottleneck on graphs just inside and just outside the accepted radii."""
    radius = walking_radius(unit, book)
    radii = walking_radii(unit, near, book)
    brackets = [bracket_radii(r, CHECKER_RADIUS_SLACK) for r in radii]
    a, b = unit.model_positions(), placed.model_positions()
    allowed = slot_rule(unit, placed.formation, move)
    found: list[tuple[np.ndarray, float]] = []
    for rs in (radii, [lo for lo, _ in brackets], [hi for _, hi in brackets]):
        cost = graph(near, radius, rs).lengths(a, b)
        # Nothing in the way at any radius (the usual case): one assignment serves all three.
        same = next((v for c, v in found if np.array_equal(c, cost)), None)
        found.append((cost, bottleneck(cost, allowed) if same is None else same))
    (_, value), (_, lo), (_, hi) = found
    return Measure(value, book.model_move_mob * unit.mobility_in, False, lo - EXACT_IN,
                   hi + EXACT_IN)


def walking_radii(unit: Unit, near: list[Polygon], book: Rulebook) -> list[float]:
    """Each obstacle's radius for a walking centre: A20 (RULES 2.3.2.4), towards one the
    unit starts within the partway spacing of, the base keeps the start distance instead
    (touching: none; the checker's grown outline may reach 0.001" further, so a hair less)."""
    half = min(base_in(unit)) / 2
    here = Polygon(unit_corners(unit))
    spacing = book.mid_move_spacing_in
    radii = []
    for o in near:
        begun = float(here.distance(o))
        keep = spacing if begun > spacing else max(begun - 0.001, 0.0)
        radii.append(half + keep)
    return radii


_GRAPHS: dict[tuple, PathGraph] = {}


def graph(near: list[Polygon], radius: float, radii: list[float]) -> PathGraph:
    """One path graph per set of obstacles and radii (building it is the slow part)."""
    key = (tuple(o.wkb for o in near), radius, tuple(radii))
    if key not in _GRAPHS:
        if len(_GRAPHS) > 64:  # a few scenarios' worth is all a test run reuses
            _GRAPHS.clear()
        _GRAPHS[key] = PathGraph(near, radius, radii=radii)
    return _GRAPHS[key]
