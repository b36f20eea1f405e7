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

import itertools
import math
import time
from collections.abc import Iterator
from dataclasses import dataclass, field

import networkx as nx
import numpy as np
import shapely
from networkx.algorithms.bipartite import hopcroft_karp_matching
from shapely.geometry import LineString

from constraints.core.scenario import Pose, Scenario
from constraints.rank_and_file.combats import combats, engagements
from constraints.rank_and_file.contact import (
    CONTACT_IN,
    gap_blockers,
    model_bases,
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
    for line in _merged_lines(lines):
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
    theirs, their_ids, their_bases = _edge_bases(enemies, line)
    exact = any(_gappy(e, line) for e in enemies)
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
            touched = _base_contacts(option, xs, their_bases, their_ids)
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


def _edge_bases(enemies: list[Unit], line: FlushLine
                ) -> tuple[list[Interval], list[str], np.ndarray]:
    """The enemy models whose bases reach the line (within the contact tolerance): their
    spans along it (for the events), their ids and their bases."""
    spans, ids, bases = [], [], []
    for enemy in enemies:
        for mid, base in zip(enemy.model_ids(), model_bases(enemy), strict=True):
            coords = np.asarray(base.exterior.coords[:-1])
            off = (coords - line.a) @ line.out
            if off.min() > CONTACT_IN or off.max() < -CONTACT_IN:
                continue
            along = (coords - line.a) @ line.right
            spans.append((float(along.min()), float(along.max())))
            ids.append(mid)
            bases.append(base)
    return spans, ids, np.array(bases, dtype=object)


def _gappy(enemy: Unit, line: FlushLine) -> bool:
    """Whether part of the enemy's edge on the line is not covered by its own bases."""
    span = next(s for e, _, s in line.spans if e == enemy.id)
    edge = LineString([tuple(line.a + span[0] * line.right), tuple(line.a + span[1] * line.right)])
    covered = shapely.union_all([b.buffer(CONTACT_IN) for b in model_bases(enemy)])
    return float(edge.difference(covered).length) > 10.0 * CONTACT_IN


def _front_bases(option: Option, xs: np.ndarray) -> np.ndarray:
    """(len(xs), files) polygons: the front-rank bases at each offset."""
    line, base = option.line, option.unit.base
    w, d = base.width_in, base.depth_in
    f = np.arange(option.files)
    left = xs[:, None] + f[None, :] * w                      # along the line
    corners = np.stack([left, left + w, left + w, left], axis=-1)   # (n, F, 4)
    depth = np.array([0.0, 0.0, d, d])
    pts = line.a + corners[..., None] * line.right + depth[None, None, :, None] * line.out
    return shapely.polygons(pts)


def _base_contacts(option: Option, xs: np.ndarray, theirs: np.ndarray,
                   their_ids: list[str]) -> list[tuple[frozenset[int], frozenset[str]]]:
    """Per offset: the front-rank files whose base touches an enemy base, and the enemy
    models touched (one distance table per chunk of offsets)."""
    if not their_ids:
        return [(frozenset(), frozenset())] * len(xs)
    found = []
    for chunk in range(0, len(xs), 256):
        part = xs[chunk:chunk + 256]
        close = shapely.distance(_front_bases(option, part)[:, :, None],
                                 theirs[None, None, :]) <= CONTACT_IN
        for row in close:
            files_in = frozenset(int(f) for f in np.flatnonzero(row.any(axis=1)))
            models = frozenset(their_ids[j] for j in np.flatnonzero(row.any(axis=0)))
            found.append((files_in, models))
    return found


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


# -- joint reforms ----------------------------------------------------------------------------

@dataclass(frozen=True)
class JointBest:
    """The exhaustive joint baseline's best tuple: its value (own models in contact summed,
    enemy models touched counted once), the total displacement (ticks), each unit's
    (files, offset, own, enemy), the tuples judged, and whether the checker accepts it."""

    own: int
    enemy: int
    cost: int
    units: tuple[tuple[int, float, int, int], ...]
    tuples: int
    legal: bool


def joint_exhaustive(scenario: Scenario, ids: tuple[str, ...],
                     limit: int = 5_000_000) -> JointBest | None | int:
    """Every tuple of the units' joint candidates (`optimizer/combat_reform/joint.py`'s
    family: each unit's every line, formation and offset, without the demand that it keep its
    own enemy models, the units before it lifted off), each candidate given its least-cost
    assignment (every candidate assigned, no bounds), every tuple judged: no two units
    overlapping (penetration depth, as the checker), every enemy model touched before
    touched by one of them; the best by value then displacement, re-checked by the exact
    checker.  Returns the number of tuples instead when there are more than `limit`."""
    from constraints.geometry.overlap import penetration
    from constraints.rank_and_file.contact import CONTACT_IN
    from optimizer.combat_reform.assignment import Frame, inside
    from optimizer.combat_reform.joint_group import Pick, _answers, _legal, group_data
    from optimizer.combat_reform.prepare import Asks
    from optimizer.combat_reform.search import _queue

    group = group_data(scenario, ids, [Asks()] * len(ids))
    assert group is not None
    per: list[list[Pick]] = []
    for lines in group.lines:
        q = _queue(lines)
        frames: dict[tuple[int, int], Frame] = {}
        found = []
        for c in range(len(q.index)):
            p, k, index = int(q.line[c]), int(q.k[c]), int(q.index[c])
            if (p, k) not in frames:
                frames[(p, k)] = Frame(lines[p], k)
            got = frames[(p, k)].assign(index)
            if got is None:
                continue
            lay = lines[p].layouts[k]
            x = float(lay.xs[index])
            touched = frozenset(e for e, iv in lay.enemy.items()
                                if inside(np.array([x]), [iv])[0])
            corners = np.asarray(lay.option.boundary(x).exterior.coords[:-1])
            found.append(Pick(p, k, index, int(q.key[c][1]), int(q.key[c][2]), got[0], got[1],
                              touched, corners))
        per.append(found)
    total = math.prod(len(f) for f in per)
    if total > limit:
        return total
    best: tuple[tuple[int, int, int], tuple[Pick, ...]] | None = None
    for picks in itertools.product(*per):
        touched = frozenset().union(*(p.touched for p in picks))
        if not group.keep <= touched:
            continue
        if any(penetration(picks[a].corners, picks[b].corners) > CONTACT_IN
               for a in range(len(picks)) for b in range(a)):
            continue
        key = (sum(p.own for p in picks), len(touched), -sum(p.cost for p in picks))
        if best is None or key > best[0]:
            best = (key, picks)
    if best is None:
        return None
    (own, enemy, cost), picks = best
    answers = _answers(group, picks, "FEASIBLE")
    return JointBest(own, enemy, -cost, tuple((a.files, float(
        group.lines[i][p.line].layouts[p.k].xs[p.index]), p.own, p.enemy)
        for i, (a, p) in enumerate(zip(answers, picks, strict=True))), total,
        _legal(scenario, answers))


# -- every flush placement, enemies on several lines ----------------------------------------

@dataclass(frozen=True)
class Placements:
    """`placements_exhaustive`'s result: the best legal (own, enemy) found (None: none
    legal), its placement (line's enemy, Facing on it, files, offset), and the counts."""

    value: tuple[int, int] | None
    where: tuple[str, str, int, float] | None
    placements: int
    checked: int


def placements_exhaustive(scenario: Scenario, unit_id: str, *,
                          step: float = 0.05) -> Placements:
    """The best reform of `unit_id` over every placement flush on the line of an enemy
    Facing it touched before, written apart from `optimizer/combat_reform/lines_bound.py`
    (no lanes, no caps): each such line, every legal number of files, each of the unit's four
    Facings on it, every arrangement of the rear rank's gaps, offsets on a lattice of `step`
    over where it touches an enemy plus every offset where the unit, or a slot's base, starts
    or stops touching an enemy's boundary or one of its models' bases; the models given
    slots by a matching within the March Rate.  Contacts counted on the placed scene
    (`true_value`, every enemy); the placements tried by that value, highest first, until
    the exact checker (every clause but eligibility) accepts one."""
    unit = scenario.unit(unit_id)
    previous = _previous(scenario, unit)
    lines = [flush_line(scenario.unit(e), f) for e, f in sorted(previous.items())]
    enemies = [scenario.unit(e) for e in sorted(previous)]
    reach = float(scenario.profile.param("march_mob")) * unit.mobility_in
    if scenario.profile.name == "t9a-2025":
        reach = math.inf
    shapes = [np.asarray(e.boundary().exterior.coords[:-1]) for e in enemies]
    shapes += [np.asarray(b.exterior.coords[:-1]) for e in enemies for b in model_bases(e)]
    found: list[tuple[tuple[int, int], UnitReform, tuple[str, str, int, float]]] = []
    n = unit.formation.model_count
    for line in _merged_lines(lines):
        for files in range(1, n + 1):
            if files not in _legal_files(scenario, unit):
                continue
            for own in ("front", "right", "rear", "left"):
                option = Option(unit, line, files, own)
                for xs in [_placement_offsets(option, shapes, step)]:
                    for x in xs:
                        for reform in _arrangements(option, float(x), reach):
                            value = true_value(placed(scenario, [reform]), unit_id)
                            found.append((value, reform, (line.enemy, own, files, float(x))))
    found.sort(key=lambda f: f[0], reverse=True)
    checked = 0
    for value, reform, where in found:
        checked += 1
        verdict = check_combat_reform(scenario, [reform], player_done=False)
        if not [c for c in verdict.clauses() if c != "combat_reform.eligible"]:
            return Placements(value, where, len(found), checked)
    return Placements(None, None, len(found), checked)


def _legal_files(scenario: Scenario, unit: Unit) -> list[int]:
    widths = scenario.profile.param("proper_rank_width")
    proper = int(widths[min(unit.height, len(widths) - 1)])
    n = unit.formation.model_count
    chars = len(unit.formation.characters)
    return [f for f in range(max(1, chars), n + 1)
            if formation_problem(Formation(f, n), proper, unit.files)[0] == ""]


def _placement_offsets(option: Option, shapes: list[np.ndarray], step: float) -> np.ndarray:
    """The lattice over where the unit comes within 0.01" of some shape, and every offset
    where the unit or a slot's base starts or stops touching one (shapely's hull, apart from
    the bound's own arithmetic)."""
    from optimizer.combat_reform.placement import shifted_within

    r = option.line.right
    mine = np.asarray(option.boundary(0.0).exterior.coords[:-1])
    events: list[float] = []
    windows = []
    for theirs in shapes:
        whole = shifted_within(mine, theirs, r, 0.01)
        if whole is None:
            continue
        windows.append(whole)
        for gap in (0.0, CONTACT_IN):
            iv = shifted_within(mine, theirs, r, gap)
            events += [] if iv is None else list(iv)
            for slot in option.slots():
                base = _slot_polygon(option, slot)
                iv = shifted_within(base, theirs, r, gap)
                events += [] if iv is None else list(iv)
    lattice = [np.arange(math.floor(lo / step) * step, hi + step, step) for lo, hi in windows]
    return np.unique(np.concatenate([np.array(events), *lattice]))


def _slot_polygon(option: Option, slot: Slot) -> np.ndarray:
    from constraints.geometry.plane import rectangle_corners

    c = option.slot_origin(slot)
    base = option.unit.base
    return np.asarray(rectangle_corners((float(c[0]), float(c[1])), option.facing_deg,
                                        base.width_in, base.depth_in))


def _arrangements(option: Option, x: float, reach: float) -> list[UnitReform]:
    """The unit at offset x, one reform per arrangement of the rear rank's gaps whose slots
    the models can reach (a matching within the March Rate; characters in the front rank)."""
    unit = option.unit
    n = unit.formation.model_count
    slots = option.slots()
    rear = option.ranks - 1
    empty_count = len(slots) - n
    ids = unit.model_ids()
    chars = {c.id for c in unit.formation.characters}
    starts = unit.model_positions()
    centres = np.array([option.slot_origin(s) for s in slots]) + x * option.line.right
    pose = option.pose(x)
    found = []
    for empty in itertools.combinations(range(option.files), empty_count):
        used = [s for s in slots if not (s[0] == rear and s[1] in empty)]
        graph = nx.Graph()
        rows = [("m", m) for m in range(n)]
        graph.add_nodes_from(rows, bipartite=0)
        for m, mid in enumerate(ids):
            for s in used:
                j = slots.index(s)
                if mid in chars and s[0] != 0:
                    continue
                if float(np.hypot(*(starts[m] - centres[j]))) <= reach + REACH_TOL_IN:
                    graph.add_edge(("m", m), ("s", s))
        matched = hopcroft_karp_matching(graph, top_nodes=rows)
        if any(row not in matched for row in rows):
            continue
        found.append(UnitReform(unit.id, option.files, pose.centre, pose.facing_deg,
                                tuple(ModelPlacement(ids[m], matched[("m", m)][1])
                                      for m in range(n))))
    return found


def _merged_lines(lines: list[FlushLine]) -> Iterator[FlushLine]:
    """Each enemy Facing's line once, merged with the lines colinear with it."""
    seen: set[str] = set()
    for line in lines:
        if line.enemy in seen:
            continue
        line = line.with_colinear(lines)
        seen.update(e for e, _, _ in line.spans)
        yield line
