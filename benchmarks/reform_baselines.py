"""An exhaustive baseline for the best Combat Reform of one unit (seed 002), written apart
from `optimizer/combat_reform/model.py` and `best.py`: every formation x every offset of a
fine lattice (and, optionally, the event offsets), each with its best model-to-slot
assignment by bipartite matching, the best judged again by the exact checker.

It searches the solver's family, docs/rules.md §12.2: the unit's Front flush against an
enemy Facing it touched before, the enemy Facings whose edges lie on that line searched
together.  It shares with the solver only what the brief allows: the flush-line geometry
(`optimizer/combat_reform/placement.py`: `flush_line`, `FlushLine.with_colinear`, `Option`
for the pose, slot centres and March Rate windows, and `offsets`, which turns a list of
intervals into their ends and one point inside each gap), the whole unit's rules
(`optimizer/combat_reform/intervals.py::unit_rules`: overlap, Unit Spacing, no new enemy,
touching the enemies touched before, on the table), the viable formations
(`formation_problem`), the contacts the checker counts (`contacts_among`, `model_contacts`)
and the exact checker `check_combat_reform`, which has the last word on every answer.

* **Formations.** Every number of files F that makes a viable formation of the unit's n
  models (`formation_problem` with the unit's Proper Rank width and its files before) and
  holds its Characters in the front rank: ceil(n / F) ranks.
* **Offsets.** x, the front-left corner's distance along the line (`Option`), over the
  touching window (the unit's front meets an edge on the line): every multiple of `step`
  (0.01") in it, the lattice aligned on the line's origin; with `events`, also the ends of
  every interval on which a condition is constant (each model's March Rate window for each
  slot, each front-rank file touching each edge span, each enemy model touched, the unit's
  rules) and one point inside each gap between consecutive ends.  Those are the offsets the
  solver searches, computed again here from the geometry.  The unit's rules (`Rule.holds`)
  drop the offsets where the whole unit may not stand.
* **Contacts, measured on the bases.** For every (F, x) the front rank's bases are built as
  polygons and their distance to every base of the enemies on the line is measured at once
  (`shapely.distance`): a front-rank file is in contact when its base is within the contact
  tolerance of an enemy base, an enemy model is touched when some front-rank base is.  Where
  an enemy's edge on the line is not wholly covered by its own bases (an incomplete rear
  rank, a Flank with an empty end slot), contact across the gap counts too (RULES §2.6.2), so
  for that line every (F, x) is measured by the project's `model_contacts` on a unit of the
  F front-rank models instead.  With the Front flush against the line, only front-rank models
  reach the enemies on it, and the front rank is always full: so the value at (F, x), (own
  models in contact, enemy models touched), does not depend on who stands where; `audit`
  re-measures a sample with `model_contacts` and counts any disagreement.
* **Demands (the family's, as the solver sets them).** At least as many own models in
  contact as before; every model of the enemies on the line that the unit touched before
  still touched; the unit's Characters that touched an enemy in a front-rank file in
  contact.  (Both measured with `contacts_among` / `model_contacts`, across gaps included.)
* **The assignment: a bipartite matching.** Rows: the n models and S - n "empty" rows
  (S = F x ranks slots); columns: the slots.  A model may take a slot whose centre is
  within its March Rate (2 x Mobility, `march_mob`) of where it stood; a Character only a
  front-rank slot, and one that touched an enemy only a front-rank slot in contact; an empty
  row only a slot of the rear rank, so every rank but the rear one is full.  The (F, x) is
  feasible when a maximum matching (`networkx`'s Hopcroft-Karp) matches every row.  No
  weights are needed to favour contact: the slots in contact are front-rank slots (a base
  of rank r >= 1 stands r base depths behind the line), and every feasible matching fills
  the whole front rank, so every one of them has the offset's value; the best assignment
  at (F, x) is any feasible one.  The candidates are taken in order of value (own, then
  enemy; then F, then x for a fixed order) and the first feasible one that the exact
  checker finds legal is the best of the line; checker refusals are counted (they show
  where the unit's rules or the March Rate windows and the checker disagree at the
  boundary).
* **Lines.** The best over every line, by value.

`exhaustive` returns the best (or none) with counts: candidates, matchings tried, checker
calls and refusals, audit disagreements.  `true_value` counts, on a scene after a reform,
the unit's models touching any enemy model and the enemy models it touches (the checker's
counting, across gaps included), for the solver's and the baseline's answers alike.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass, field

import networkx as nx
import numpy as np
from networkx.algorithms.bipartite import hopcroft_karp_matching

from benchmarks.reform_contacts import (
    base_contacts,
    edge_bases,
    gappy,
    merged_lines,
)
from constraints.core.scenario import Pose, Scenario
from constraints.rank_and_file.combats import combats, engagements
from constraints.rank_and_file.contact import (
    gap_blockers,
    model_contacts,
    named_facing,
    touched_facings,
)
from constraints.rank_and_file.formation import Formation, Slot
from constraints.rank_and_file.unit import Unit
from constraints.t9a.clauses.combat_reform.checker import check_combat_reform
from constraints.t9a.clauses.combat_reform.context import contacts_among
from constraints.t9a.clauses.movement.reform_viable_formation import formation_problem
from constraints.t9a.combat_reform import ModelPlacement, UnitReform, placed
from optimizer.combat_reform.intervals import unit_rules
from optimizer.combat_reform.placement import FlushLine, Interval, Option, flush_line, offsets

STEP_IN = 0.01        # the lattice of offsets
REACH_TOL_IN = 1e-9   # March Rate windows: the checker has the last word at the boundary
AUDIT = 40            # candidates per line re-measured by `model_contacts`


@dataclass
class Counts:
    candidates: int = 0       # (F, x) pairs on the lattice (+ events) in the windows
    allowed: int = 0          # ... where the whole unit may stand
    lattice: int = 0
    events: int = 0
    matchings: int = 0        # assignments tried (in order of value)
    checked: int = 0          # exact checker calls
    refused: int = 0          # ... that found the proposal illegal
    exact_lines: int = 0      # lines measured by `model_contacts` (gaps in an edge)
    audited: int = 0
    audit_mismatch: int = 0


@dataclass
class Best:
    """The baseline's best reform of one unit (`reform` None when nothing is legal)."""

    unit: str
    value: tuple[int, int] = (-1, -1)
    files: int = 0
    x: float = math.nan
    line: tuple[str, str] = ("", "")
    reform: UnitReform | None = None
    seconds: float = 0.0
    counts: Counts = field(default_factory=Counts)

    @property
    def found(self) -> bool:
        return self.reform is not None


@dataclass(frozen=True)
class _Demands:
    own_before: int
    keep_enemy: frozenset[str]
    keep_characters: frozenset[str]
    reach_in: float


def exhaustive(scenario: Scenario, unit_id: str, *, step: float = STEP_IN,
               events: bool = True, player_done: bool = True, audit: int = AUDIT) -> Best:
    """The best reform of `unit_id` over the flush family (module docs); each answer judged
    by `check_combat_reform(scenario, [reform], player_done=player_done)`."""
    started = time.perf_counter()
    unit = scenario.unit(unit_id)
    best = Best(unit_id)
    previous = _previous(scenario, unit)
    own_facings = set(engagements(scenario.units).get(unit_id, {}).values())
    if not previous or len(own_facings) > 1:
        best.seconds = time.perf_counter() - started
        return best
    lines = [flush_line(scenario.unit(e), f) for e, f in sorted(previous.items())]
    for line in merged_lines(lines):
        _search_line(scenario, unit, previous, line, step, events, player_done, audit, best)
    best.seconds = time.perf_counter() - started
    return best


def _previous(scenario: Scenario, unit: Unit) -> dict[str, str]:
    """Enemy id -> the enemy's Facing the unit touches (the Facing named by its Arcs)."""
    found = {}
    boundary = unit.boundary()
    for enemy_id in engagements(scenario.units).get(unit.id, {}):
        enemy = scenario.unit(enemy_id)
        facing = named_facing(enemy, boundary, touched_facings(enemy, boundary))
        if facing is not None:
            found[enemy_id] = facing
    return found


def _demands(scenario: Scenario, unit: Unit, on_line: list[str]) -> _Demands:
    combat = next(frozenset(c) for c in combats(scenario.units) if unit.id in c)
    before = contacts_among(scenario, combat)
    chars = {c.id for c in unit.formation.characters}
    keep = set()
    for e in on_line:
        keep |= {b for _, b in model_contacts(unit, scenario.unit(e),
                                              gap_blockers(scenario, unit.id, e))}
    return _Demands(before.count(unit.id), frozenset(keep),
                    frozenset(c for c in chars if before.touching(c)),
                    float(scenario.profile.param("march_mob")) * unit.mobility_in)


def _options(scenario: Scenario, unit: Unit, line: FlushLine) -> list[Option]:
    widths = scenario.profile.param("proper_rank_width")
    proper = int(widths[min(unit.height, len(widths) - 1)])
    n = unit.formation.model_count
    chars = len(unit.formation.characters)
    return [Option(unit, line, f) for f in range(max(1, chars), n + 1)
            if formation_problem(Formation(f, n), proper, unit.files)[0] == ""]


def _search_line(scenario: Scenario, unit: Unit, previous: dict[str, str], line: FlushLine,
                 step: float, events: bool, player_done: bool, audit: int,
                 best: Best) -> None:
    on_line = [e for e, _, _ in line.spans]
    demands = _demands(scenario, unit, on_line)
    combat = next(frozenset(c) for c in combats(scenario.units) if unit.id in c)
    spacing = float(scenario.profile.param("end_spacing_in"))
    enemies = [scenario.unit(e) for e in on_line]
    theirs, their_ids, their_bases = edge_bases(enemies, line)
    exact = any(gappy(e, line) for e in enemies)
    counts = best.counts
    counts.exact_lines += int(exact)
    ranked: list[tuple[tuple[int, int], int, float, Option, frozenset[int]]] = []
    measured: list[tuple[Option, float, frozenset[int], frozenset[str]]] = []
    for option in _options(scenario, unit, line):
        rules = unit_rules(option, scenario, previous, combat, spacing)
        lattice = _lattice(option.touching, step)
        xs = lattice
        counts.lattice += len(lattice)
        if events:
            extra = _events(option, unit, rules, theirs, demands.reach_in)
            counts.events += len(extra)
            xs = np.unique(np.concatenate([lattice, extra]))
        counts.candidates += len(xs)
        ok = np.ones(len(xs), dtype=bool)
        for rule in rules:
            ok &= rule.holds(xs)
        xs = xs[ok]
        counts.allowed += len(xs)
        if len(xs) == 0:
            continue
        if exact:
            touched = [_exact_contacts(scenario, unit, option, x, enemies) for x in xs]
        else:
            touched = base_contacts(option, xs, their_bases, their_ids)
        for x, (files_in, models) in zip(xs, touched, strict=True):
            if not exact:
                measured.append((option, float(x), files_in, models))
            if len(files_in) < demands.own_before or not demands.keep_enemy <= models:
                continue
            ranked.append(((len(files_in), len(models)), option.files, float(x), option,
                           files_in))
    picks = np.unique(np.linspace(0, len(measured) - 1, min(audit, len(measured))).astype(int)) \
        if measured else []
    for k in picks:
        option, x, files_in, models = measured[k]
        counts.audited += 1
        if _exact_contacts(scenario, unit, option, x, enemies) != (files_in, models):
            counts.audit_mismatch += 1
    ranked.sort(key=lambda c: (-c[0][0], -c[0][1], c[1], c[2]))
    for value, files, x, option, files_in in ranked:
        if value <= best.value:
            return  # nothing left on this line beats the best found
        counts.matchings += 1
        slots = _assignment(option, x, unit, demands, files_in)
        if slots is None:
            continue
        reform = UnitReform(unit.id, files, option.pose(x).centre, option.pose(x).facing_deg,
                            tuple(ModelPlacement(m, s) for m, s in slots))
        counts.checked += 1
        if not check_combat_reform(scenario, [reform], player_done=player_done).legal:
            counts.refused += 1
            continue
        best.value, best.files, best.x = value, files, x
        best.line, best.reform = (line.enemy, line.facing), reform
        return


def _lattice(window: Interval, step: float) -> np.ndarray:
    lo, hi = window
    return np.arange(math.ceil(lo / step - 1e-9), math.floor(hi / step + 1e-9) + 1) * step


def _events(option: Option, unit: Unit, rules: list, theirs: list[Interval],
            reach_in: float) -> np.ndarray:
    """Where a condition may change: the ends of every interval, a point inside each gap."""
    listed: list[Interval] = []
    for start in unit.model_positions():
        for slot in option.slots():
            found = option.reach(start, slot, reach_in)
            if found is not None:
                listed.append(found)
    w = unit.base.width_in
    for _, _, (lo, hi) in option.line.spans:  # front-rank file f touching the edge span
        listed += [(lo - (f + 1) * w, hi - f * w) for f in range(option.files)]
    listed += [(a - option.width_in, b) for a, b in theirs]
    listed += [r.interval for r in rules if np.isfinite(r.interval[0])]
    return offsets(listed, option.touching)


def _exact_contacts(scenario: Scenario, unit: Unit, option: Option, x: float,
                    enemies: list[Unit]) -> tuple[frozenset[int], frozenset[str]]:
    """The front rank at offset x (a unit of its F models, one rank) measured by the
    project's `model_contacts`, across gaps included."""
    line = option.line
    d = unit.base.depth_in
    centre = line.a + (x + option.width_in / 2.0) * line.right + d / 2.0 * line.out
    front = Unit(unit.id, unit.player, unit.base, Formation(option.files, option.files),
                 unit.pose, unit.mobility_in, unit.height)
    front = front.with_pose(Pose((float(centre[0]), float(centre[1])), line.facing_deg))
    index = {m: i for i, m in enumerate(front.model_ids())}
    files_in: set[int] = set()
    models: set[str] = set()
    for enemy in enemies:
        blockers = tuple(u.boundary() for u in scenario.units
                         if u.id not in (unit.id, enemy.id)) \
            + tuple(t.shape for t in scenario.impassable())
        for own, their in model_contacts(front, enemy, blockers):
            files_in.add(index[own])
            models.add(their)
    return frozenset(files_in), frozenset(models)


def _assignment(option: Option, x: float, unit: Unit, demands: _Demands,
                files_in: frozenset[int]) -> list[tuple[str, Slot]] | None:
    """Every model's slot at (F, x), or None when no assignment meets the rules: a maximum
    matching (Hopcroft-Karp) of models and empty rows to slots, feasible when it matches
    every row."""
    slots = option.slots()
    rear = option.ranks - 1
    centres = np.array([option.slot_origin(s) for s in slots]) + x * option.line.right
    starts = unit.model_positions()
    ids = unit.model_ids()
    chars = {c.id for c in unit.formation.characters}
    near = np.hypot(*(starts[:, None, :] - centres[None, :, :]).transpose(2, 0, 1)) \
        <= demands.reach_in + REACH_TOL_IN
    front = np.array([s[0] == 0 for s in slots])
    contact = np.array([s[0] == 0 and s[1] in files_in for s in slots])
    for m, mid in enumerate(ids):
        if mid in chars:
            near[m] &= front
        if mid in demands.keep_characters:
            near[m] &= contact
    rows = [("m", m) for m in range(len(ids))] + [("e", k) for k in range(len(slots) - len(ids))]
    graph = nx.Graph()
    graph.add_nodes_from(rows, bipartite=0)
    graph.add_nodes_from((("s", j) for j in range(len(slots))), bipartite=1)
    graph.add_edges_from((("m", m), ("s", int(j))) for m, j in zip(*np.nonzero(near),
                                                                   strict=True))
    graph.add_edges_from((row, ("s", j)) for row in rows[len(ids):]
                         for j, slot in enumerate(slots) if slot[0] == rear)
    matched = hopcroft_karp_matching(graph, top_nodes=rows)
    if any(row not in matched for row in rows):
        return None
    return [(ids[m], slots[matched[("m", m)][1]]) for m in range(len(ids))]


def true_value(scenario: Scenario, unit_id: str) -> tuple[int, int]:
    """On a scene (after a reform): the unit's models touching any enemy model, and the
    enemy models it touches (across gaps included, other units and terrain blocking)."""
    me = scenario.unit(unit_id)
    own: set[str] = set()
    theirs: set[str] = set()
    for enemy in scenario.units:
        if enemy.player == me.player:
            continue
        for a, b in model_contacts(me, enemy, gap_blockers(scenario, me.id, enemy.id)):
            own.add(a)
            theirs.add(b)
    return len(own), len(theirs)


def after(scenario: Scenario, reform: UnitReform) -> Scenario:
    return placed(scenario, [reform])
