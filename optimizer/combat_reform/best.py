"""The best Combat Reform of one unit (seed 002, profile `t9a`): who may reform, the data of
the model, the solve, and the answer as a placement of every model (docs/rules.md §12)."""

from __future__ import annotations

import math
from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np
from ortools.graph.python import linear_sum_assignment
from ortools.sat.python import cp_model

from constraints.core.scenario import Scenario
from constraints.errors import InvalidInputError
from constraints.rank_and_file.combats import combats, engagements
from constraints.rank_and_file.contact import (
    CONTACT_IN,
    model_bases,
    model_contacts,
    named_facing,
    touched_facings,
)
from constraints.rank_and_file.formation import Character, Formation, Slot
from constraints.rank_and_file.unit import Unit
from constraints.t9a.clauses.movement.viable_formation import formation_problem
from optimizer.combat_reform.intervals import unit_rules
from optimizer.combat_reform.model import (
    ACROSS_IN,
    Demands,
    Layout,
    ReformModel,
    build,
    layout,
)
from optimizer.combat_reform.placement import OWN_TURN, FlushLine, Interval, Option, flush_line

EFFORT = 5.0  # CP-SAT deterministic time for one unit's model


@dataclass(frozen=True)
class ReformAnswer:
    """A proposed Combat Reform: the formation, the pose, every model's slot, and the
    contacts before and after; `status` says what is proved (module docs)."""

    status: str
    unit: str
    files: int = 0
    centre: tuple[float, float] = (0.0, 0.0)
    facing_deg: float = 0.0
    models: tuple[tuple[str, Slot], ...] = ()
    value: tuple[int, int] = (0, 0)
    bound: tuple[int, int] = (0, 0)
    contacts_before: int = 0
    reason: str = ""
    family: dict[str, object] = field(default_factory=dict)
    reformed: Unit | None = None


@dataclass(frozen=True)
class Asks:
    """What the player asks of a reform beyond the default objective: the widest frontage
    first; a character of the unit kept in contact with a named enemy unit."""

    widest: bool = False
    character_with: tuple[tuple[str, str], ...] = ()


def best_reform(scenario: Scenario, unit_id: str, effort: float = EFFORT,
                asks: Asks | None = None) -> ReformAnswer:
    """The reform of `unit_id` with the most of its models in base contact with enemy
    models, then the most enemy models touched (after the widest frontage, when asked),
    placed with its Front flush against an enemy Facing it touched before."""
    if not isinstance(unit_id, str) or not scenario.has_unit(unit_id):
        raise InvalidInputError(f"unknown unit {unit_id!r}", path="unit")
    unit = scenario.unit(unit_id)
    asks = Asks() if asks is None else asks
    previous = _previous(scenario, unit)
    if not previous:
        raise InvalidInputError(f"{unit_id} is not Engaged in a combat: it has no Combat "
                                "Reform", path="unit")
    _check_asks(scenario, unit, previous, asks)
    own_facings = set(engagements(scenario.units)[unit_id].values())
    if len(own_facings) > 1:
        return ReformAnswer("INFEASIBLE", unit_id, reason="Engaged on more than one Facing "
                            f"({', '.join(sorted(own_facings))}): no Combat Reform")
    best: ReformAnswer | None = None
    lines = [flush_line(scenario.unit(e), f) for e, f in sorted(previous.items())]
    seen: set[str] = set()
    for line in lines:
        if line.enemy in seen:
            continue  # its edge lies on a line searched already
        line = line.with_colinear(lines)
        seen.update(e for e, _, _ in line.spans)
        found = _solve_line(scenario, unit, previous, line, effort, asks)
        if best is None or _rank(found, asks) > _rank(best, asks):
            best = found
    assert best is not None
    widest = max(_allowed_files(scenario, unit)) if asks.widest else None
    return _under_the_rules(best, rules_bound(scenario, unit, previous), widest)


def _rank(answer: ReformAnswer, asks: Asks) -> tuple:
    found = answer.reformed is not None
    return (found, answer.files if asks.widest else 0, answer.value,
            answer.status == "OPTIMAL")


def _check_asks(scenario: Scenario, unit: Unit, previous: dict[str, str], asks: Asks) -> None:
    chars = {c.id for c in unit.formation.characters}
    for char, enemy in asks.character_with:
        if char not in chars:
            raise InvalidInputError(f"{char!r} is not a character of {unit.id} (characters: "
                                    f"{', '.join(sorted(chars)) or 'none'})", path="keep")
        if enemy not in previous:
            raise InvalidInputError(f"{enemy!r} is not an enemy {unit.id} touches "
                                    f"(enemies: {', '.join(sorted(previous))})", path="keep")


def rules_bound(scenario: Scenario, unit: Unit, previous: dict[str, str]) -> int:
    """At most how many of the unit's models can touch enemy models, placed anyhow.

    Models touching one straight edge of length L stand along one side of the unit, side by
    side, each at least b = min(base width, base depth) wide, so at most floor(L / b) + 2 of
    them touch it (the two at the ends may touch a corner); a unit not flush with the edge
    touches it at one point, so at most two of its models.  Summed over the enemy Facings it
    must touch, and no more than its models.  A side of the unit holds at most as many
    models as its widest allowed formation has files or ranks (profile `t9a-2025` limits the
    files' change), so no more touch one edge."""
    b = min(unit.base.width_in, unit.base.depth_in)
    n = unit.formation.model_count
    side = max((max(f, math.ceil(n / f)) for f in _allowed_files(scenario, unit)), default=n)
    total = 0
    for enemy_id, facing in previous.items():
        line = flush_line(scenario.unit(enemy_id), facing)
        total += min(side, int(math.floor((line.hi - line.lo) / b + 1e-9)) + 2)
    return min(total, n)


def _under_the_rules(answer: ReformAnswer, bound: int, widest: int | None) -> ReformAnswer:
    """OPTIMAL speaks of every legal placement: only when the family's optimum meets the
    rules' bound on the first objective (the widest allowed files first, when asked); the
    family's own status is kept in `family`."""
    family = dict(answer.family, status=answer.status)
    if widest is not None and answer.status == "OPTIMAL" and answer.files < widest:
        return replace(answer, status="FEASIBLE", family=family)
    if answer.status != "OPTIMAL" or answer.value[0] >= bound:
        return replace(answer, family=family)
    return replace(answer, status="FEASIBLE", family=family,
                   bound=(bound, answer.bound[1]))


def _previous(scenario: Scenario, unit: Unit) -> dict[str, str]:
    """Enemy id -> the enemy's Facing the unit touches."""
    mine = engagements(scenario.units).get(unit.id, {})
    found = {}
    for enemy_id in mine:
        enemy = scenario.unit(enemy_id)
        facing = named_facing(enemy, unit.boundary(), touched_facings(enemy, unit.boundary()))
        if facing is not None:
            found[enemy_id] = facing
    return found


def _solve_line(scenario: Scenario, unit: Unit, previous: dict[str, str], line: FlushLine,
                effort: float, asks: Asks) -> ReformAnswer:
    combat = next(frozenset(c) for c in combats(scenario.units) if unit.id in c)
    ready = prepare(scenario, unit, previous, line, asks, combat)
    if ready.demands.widest:  # files first: every formation competes
        rm = build(ready.layouts, ready.ids, ready.characters, ready.demands)
        return _answer(rm, unit, line, _solve(rm, effort), ready.demands)
    return _deepening(unit, line, ready, effort)


def _deepening(unit: Unit, line: FlushLine, ready: Prepared, effort: float) -> ReformAnswer:
    """The model over the formations whose score could be best first, then more.

    A formation's score (its models in contact, then enemy models touched) depends on the
    offset alone, so its highest over the offsets the unit may take bounds it (`scores`).
    The model is built over the formations reaching the highest bound; when it proves an
    answer at least as good as every formation left out could be, that answer is the best of
    all; otherwise the next formations are added.  Formations that cannot keep as many of
    its models in contact as before are never built."""
    weight = 1 + max(1, len(ready.layouts[0].enemy) if ready.layouts else 1)
    floor = ready.demands.own_before * weight
    bounds = [int(scores(lay, weight).max()) if len(lay.xs) else -1 for lay in ready.layouts]
    levels = sorted({b for b in bounds if b >= floor}, reverse=True)
    answer = ReformAnswer("NOT_FOUND", unit.id, contacts_before=ready.demands.own_before,
                          family={"own_facing": "any",
                                  "flush_against": [line.enemy, line.facing]},
                          reason=f"no legal reform flush against {line.enemy}'s {line.facing}")
    budget, proved, found = 3.0 * effort, True, None
    for i, level in enumerate(levels):
        if budget <= 0.0:
            break
        chosen = [lay for lay, b in zip(ready.layouts, bounds, strict=True) if b >= level]
        rm = build(chosen, ready.ids, ready.characters, ready.demands)
        solved = _solve(rm, min(effort, budget))
        budget -= solved[0].deterministic_time
        answer = _answer(rm, unit, line, solved, ready.demands)
        proved &= solved[1] in (cp_model.OPTIMAL, cp_model.INFEASIBLE)
        rest = levels[i + 1] if i + 1 < len(levels) else -1
        if answer.reformed is not None and (found is None or answer.value > found.value):
            found = answer
        if found is not None and found.value[0] * weight + found.value[1] >= rest:
            break  # nothing left out can do better
    if found is None:
        return answer if proved else replace(answer, status="TIMEOUT")
    return found if proved and found.status == "OPTIMAL" else replace(found, status="FEASIBLE")


def scores(lay: Layout, weight: int) -> np.ndarray:
    """The most a formation's score can be at each of its offsets (-1 where the unit may
    not stand): its lanes touching an enemy edge, then the enemy models over its extent."""
    xs = lay.xs
    own = np.zeros(len(xs), dtype=int)
    for intervals in lay.front.values():
        own += np.any([(xs >= lo) & (xs <= hi) for lo, hi in intervals], axis=0)
    enemy = np.zeros(len(xs), dtype=int)
    for lo, hi in lay.enemy.values():
        enemy += (xs >= lo) & (xs <= hi)
    return np.where(lay.allowed, own * weight + enemy, -1)


@dataclass(frozen=True)
class Prepared:
    """A unit's data for the model: its formations' layouts, model ids, which are
    characters, and what the reform must keep."""

    layouts: list[Layout]
    ids: tuple[str, ...]
    characters: frozenset[int]
    demands: Demands


def prepare(scenario: Scenario, unit: Unit, previous: dict[str, str], line: FlushLine,
            asks: Asks, combat: frozenset[str], extra: tuple[float, ...] = ()) -> Prepared:
    """The layouts of `unit` flush on `line`, every other unit of `scenario` standing where
    it stands; `extra` offsets are tried too."""
    on_line = [scenario.unit(e) for e, _, _ in line.spans]
    pairs = set().union(*(model_contacts(unit, scenario.unit(e)) for e in previous))
    chars = {c.id for c in unit.formation.characters}
    ids = unit.model_ids()
    demands = Demands(own_before=len({a for a, _ in pairs}),
                      keep_enemy=frozenset(b for e in on_line for _, b in model_contacts(unit, e)),
                      keep_characters=frozenset(a for a, _ in pairs if a in chars),
                      reach_in=_march_rate(scenario, unit), widest=asks.widest,
                      own_most=rules_bound(scenario, unit, previous),
                      character_with=tuple((c, _span_of(line, e)) for c, e in
                                           asks.character_with))
    starts = unit.model_positions()
    models: dict[str, Interval] = {}
    for e, facing, _ in line.spans:
        models.update(_edge_models(scenario.unit(e), flush_line(scenario.unit(e), facing), line))
    layouts = []
    for option in _options(scenario, unit, line):
        rules = unit_rules(option, scenario, previous, combat, _spacing(scenario))
        layouts.append(layout(option, starts, rules, models, demands.reach_in, extra))
    characters = frozenset(i for i, m in enumerate(ids) if m in chars)
    return Prepared(layouts, ids, characters, demands)


def _span_of(line: FlushLine, enemy: str) -> int:
    """The index of `enemy`'s span on the line; -1 (no offset touches it) when it is not
    on this line."""
    return next((i for i, (e, _, _) in enumerate(line.spans) if e == enemy), -1)


def _variant_a(scenario: Scenario) -> bool:
    """Profile `t9a-2025` (RULES §2.12 (A)): files change by at most 2 (4 with a Musician),
    no March Rate limit, Unit Spacing ignored (no overlap, no new enemy contact)."""
    return scenario.profile.name == "t9a-2025"


def _march_rate(scenario: Scenario, unit: Unit) -> float:
    if _variant_a(scenario):
        return math.inf
    return float(scenario.profile.param("march_mob")) * unit.mobility_in


def _spacing(scenario: Scenario) -> float | None:
    return None if _variant_a(scenario) else float(scenario.profile.param("end_spacing_in"))


def _options(scenario: Scenario, unit: Unit, line: FlushLine) -> list[Option]:
    """Every legal number of files, with each of the unit's Facings flush against the line
    (variant A: aligned means its Facing in contact stays flush, any of the four).  A single
    rank's Rear is its Front turned round, a single file's flanks are alike: those are left
    out (the same placements, the same contacts).  Decision: a Rear or flank against the
    enemy is searched only with a full rear rank; with a gap there, the model's lanes counted
    contacts across it that the checker's corridor refuses (benchmarks/README.md), so those
    placements are left out until the lanes follow the corridor."""
    found = []
    n = unit.formation.model_count
    for files in _allowed_files(scenario, unit):
        ranks = math.ceil(n / files)
        for own in OWN_TURN:
            if (own == "rear" and ranks == 1) or (own == "left" and files == 1):
                continue
            if own != "front" and ranks > 1 and n % files:
                continue
            found.append(Option(unit, line, files, own))
    return found


def _allowed_files(scenario: Scenario, unit: Unit) -> list[int]:
    """The numbers of files of a legal formation for the reformed unit."""
    widths = scenario.profile.param("proper_rank_width")
    proper = int(widths[min(unit.height, len(widths) - 1)])
    change = scenario.profile.param("max_file_change_musician" if unit.musician
                                    else "max_file_change")
    n = unit.formation.model_count
    found = []
    for files in range(1, n + 1):
        if _variant_a(scenario) and abs(files - unit.files) > int(change):
            continue
        if formation_problem(Formation(files, n), proper, unit.files)[0] == "" \
                and len(unit.formation.characters) <= files:
            found.append(files)
    return found


def _edge_models(enemy: Unit, own: FlushLine, line: FlushLine) -> dict[str, Interval]:
    """The enemy models a unit flush on its Facing's edge (`own`) can touch, as the offsets'
    intervals along `line` (the line searched) over which their bases lie: in each lane
    across the edge, the model nearest it; one standing back from the edge (behind an empty
    slot) is touched only across the gap, which needs a shared width, not a corner
    (RULES §2.6.2), so its interval is narrowed by the checker's line tolerance."""
    nearest: dict[tuple[float, float], tuple[float, str, Interval]] = {}
    for mid, base in zip(enemy.model_ids(), model_bases(enemy), strict=True):
        corners = np.asarray(base.exterior.coords[:-1])
        back = -float(((corners - own.a) @ own.out).max())  # how far behind the edge line
        along = (corners - line.a) @ line.right
        exact = (float(along.min()), float(along.max()))
        lane = (round(exact[0], 6), round(exact[1], 6))  # the lane, to group its models
        if lane not in nearest or back < nearest[lane][0]:
            nearest[lane] = (back, mid, exact)
    found = {}
    for back, mid, (lo, hi) in nearest.values():
        if abs(back) <= CONTACT_IN:
            found[mid] = (lo, hi)
        elif hi - lo > 2 * ACROSS_IN:
            found[mid] = (lo + ACROSS_IN, hi - ACROSS_IN)
    return found


def _solve(rm: ReformModel, effort: float) -> tuple[cp_model.CpSolver, Any]:
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = 1
    solver.parameters.max_deterministic_time = effort
    solver.parameters.cp_model_probing_level = 0
    status = solver.solve(rm.sat_model)
    return solver, status


def _answer(rm: ReformModel, unit: Unit, line: FlushLine,
            solved: tuple[cp_model.CpSolver, Any], demands: Demands) -> ReformAnswer:
    solver, status = solved
    family: dict[str, object] = {"own_facing": "any",
                                 "flush_against": [line.enemy, line.facing]}
    if status == cp_model.INFEASIBLE:
        return ReformAnswer("NOT_FOUND", unit.id, contacts_before=demands.own_before,
                            family=family, reason="no legal reform flush against "
                            f"{line.enemy}'s {line.facing}")
    if status not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        return ReformAnswer("TIMEOUT", unit.id, contacts_before=demands.own_before,
                            family=family)
    k = next(i for i, v in enumerate(rm.use) if solver.value(v))
    lay = rm.layouts[k]
    index = solver.value(rm.at[k])
    x = float(lay.xs[index])
    own = sum(solver.value(v) for (_, kk), v in rm.own.items() if kk == k)
    theirs = sum(solver.value(v) for (_, kk), v in rm.theirs.items() if kk == k)
    weight = 1 + max(1, len({e for e, _ in rm.theirs}))
    bound = int(math.floor(solver.best_objective_bound + 1e-9))
    placed = _least_moves(rm, k, index, solver) or tuple(
        (rm.model_ids[m], slot) for (m, slot, kk), v in rm.put.items()
        if kk == k and solver.value(v))
    if demands.widest:  # the files' level sits above: the contacts' own bound is unknown
        bound = own * weight + theirs if status == cp_model.OPTIMAL \
            else len(rm.model_ids) * weight + weight - 1
    pose = lay.option.pose(x)
    family["own_facing"] = lay.option.own
    reformed = unit.with_formation(_formation(unit, lay.option, placed)).with_pose(pose)
    return ReformAnswer("OPTIMAL" if status == cp_model.OPTIMAL else "FEASIBLE", unit.id,
                        lay.option.files, pose.centre, pose.facing_deg, placed, (own, theirs),
                        (bound // weight, bound % weight), demands.own_before,
                        family=family, reformed=reformed)


MOVE_TICKS = 10_000  # model displacements in ten-thousandths of an inch


def _least_moves(rm: ReformModel, k: int, index: int, first: cp_model.CpSolver
                 ) -> tuple[tuple[str, Slot], ...] | None:
    """The third level: with the formation, the offset and the contacts found kept, the
    assignment of models to slots whose total displacement is least (exact at that offset;
    other offsets reaching the same contacts are not compared).  The contacts depend on the
    offset alone, so what is left is a least-cost assignment: every model to a slot it can
    reach (a character to a front-rank slot, touching the enemy where it must), every rank
    but the rear one full (dummy models may take only rear-rank slots).  None when there is
    none (the first assignment then stands)."""
    lay = rm.layouts[k]
    option = lay.option
    x = float(lay.xs[index])
    starts = option.unit.model_positions()
    slots = option.slots()
    allowed = {(m, slot) for (m, slot, kk), var in rm.put.items() if kk == k
               and _may(lay, index, rm, m, slot)}
    rows, cols, costs = [], [], []
    for m, slot in sorted(allowed):
        end = option.slot_origin(slot) + x * option.line.right
        rows.append(m)
        cols.append(slots.index(slot))
        costs.append(round(float(np.hypot(*(starts[m] - end))) * MOVE_TICKS))
    n = len(rm.model_ids)
    for dummy in range(n, len(slots)):  # the rear rank's gaps
        for j, slot in enumerate(slots):
            if slot[0] == option.ranks - 1:
                rows.append(dummy)
                cols.append(j)
                costs.append(0)
    solver = linear_sum_assignment.SimpleLinearSumAssignment()
    solver.add_arcs_with_cost(np.array(rows), np.array(cols), np.array(costs, dtype=np.int64))
    if solver.solve() != solver.OPTIMAL:
        return None
    return tuple((rm.model_ids[m], slots[solver.right_mate(m)]) for m in range(n))


def _may(lay: Layout, index: int, rm: ReformModel, m: int, slot: Slot) -> bool:
    """Whether model m may stand in `slot` at offset `index`: within its reach, and a
    character in the front rank touching the enemy when it must (as the model's rows)."""
    lo, hi = lay.indices(lay.reach[(m, slot)])
    if not lo <= index <= hi:
        return False
    if m not in rm.characters:
        return True
    lane = lay.option.lane_of(slot)
    needs = [list(lay.front[lane]) if lane is not None else []
             ] if rm.model_ids[m] in rm.demands.keep_characters else []
    needs += [[lay.by_span[lane][span]] if lane is not None and span >= 0 else []
              for char, span in rm.demands.character_with if char == rm.model_ids[m]]
    return all(any(a <= index <= b for a, b in (lay.indices(iv) for iv in group))
               for group in needs)


def _formation(unit: Unit, option: Option, placed: tuple[tuple[str, Slot], ...]) -> Formation:
    chars = {c.id for c in unit.formation.characters}
    taken = {slot for _, slot in placed}
    characters = tuple(Character(mid, slot) for mid, slot in placed if mid in chars)
    rear = option.ranks - 1
    empty = tuple((rear, f) for f in range(option.files) if (rear, f) not in taken)
    rf = sum(1 for mid, _ in placed if mid not in chars)
    return Formation(option.files, rf, characters, empty)
