"""Exhaustive baselines of benchmarks/reform_baselines.py for several units and several lines:
every tuple of the units' best reforms judged together (`joint_exhaustive`), and every flush
placement of one unit with enemies on several lines (`placements_exhaustive`)."""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass

import networkx as nx
import numpy as np
from networkx.algorithms.bipartite import hopcroft_karp_matching

from benchmarks.reform_baselines import (
    REACH_TOL_IN,
    _previous,
    true_value,
)
from benchmarks.reform_contacts import merged_lines
from constraints.core.scenario import Scenario
from constraints.rank_and_file.contact import (
    CONTACT_IN,
    model_bases,
)
from constraints.rank_and_file.formation import Formation, Slot
from constraints.rank_and_file.unit import Unit
from constraints.t9a.clauses.combat_reform.checker import check_combat_reform
from constraints.t9a.clauses.movement.reform_viable_formation import formation_problem
from constraints.t9a.combat_reform import ModelPlacement, UnitReform, placed
from optimizer.combat_reform.placement import Option, flush_line

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
    for line in merged_lines(lines):
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
