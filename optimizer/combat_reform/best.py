"""The best Combat Reform of one unit (seed 002): who may reform, the data of its model, and
the formations searched by their score bound, highest first (docs/rules.md §12)."""

from __future__ import annotations

import math
from dataclasses import dataclass, replace

import numpy as np
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
from constraints.rank_and_file.formation import Formation
from constraints.rank_and_file.unit import Unit
from constraints.t9a.clauses.movement.viable_formation import formation_problem
from optimizer.combat_reform.answer import EFFORT, ReformAnswer, answer_of, solve
from optimizer.combat_reform.intervals import unit_rules
from optimizer.combat_reform.model import (
    ACROSS_IN,
    Demands,
    Layout,
    build,
    layout,
)
from optimizer.combat_reform.placement import OWN_TURN, FlushLine, Interval, Option, flush_line


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
        return answer_of(rm, unit, line, solve(rm, effort), ready.demands)
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
        solved = solve(rm, min(effort, budget))
        budget -= solved[0].deterministic_time
        answer = answer_of(rm, unit, line, solved, ready.demands)
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
