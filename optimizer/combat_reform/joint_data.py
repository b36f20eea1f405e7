"""The data of units reformed jointly (docs/rules.md §12.2, "Joint reforms"): each unit's
lines prepared on its view (the units before it in the order lifted off), its offsets closed
once under the others' ends, and the demand on the enemy models kept moved to the group."""

from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np

from constraints.core.scenario import Scenario
from constraints.rank_and_file.combats import combats
from constraints.rank_and_file.contact import contact_tolerance
from constraints.rank_and_file.unit import Unit
from optimizer.combat_reform.model import more_offsets
from optimizer.combat_reform.placement import engaged_lines
from optimizer.combat_reform.prepare import Asks, Prepared, prepare, previous_enemies


@dataclass(frozen=True)
class Group:
    """The units reformed together, in order, and their data: per unit, its lines."""

    units: tuple[Unit, ...]
    lines: tuple[list[Prepared], ...]
    keep: frozenset[str]
    weight: int
    bits: dict[str, int]
    # Each unit's view (the units before it lifted off), its enemies touched before (by
    # Facing) and the Combat: for the bounds.
    views: tuple[Scenario, ...]
    before: tuple[dict[str, str], ...]
    combat: frozenset[str]


def _view(scenario: Scenario, lifted: set[str]) -> Scenario:
    return Scenario(scenario.battlefield, tuple(u for u in scenario.units if u.id not in lifted),
                    scenario.terrain, scenario.rules, scenario.rule_options,
                    scenario.active_player)


def group_data(scenario: Scenario, ids: tuple[str, ...], asks: list[Asks]) -> Group | None:
    """Each unit's lines prepared on its view (the units before it lifted off), closed once
    under the others' ends; the demands on the enemy models kept moved to the group."""
    units = tuple(scenario.unit(u) for u in ids)
    combat = next(frozenset(c) for c in combats(scenario.units, contact_tolerance(scenario))
                  if ids[0] in c)
    views = [_view(scenario, set(ids[:i])) for i in range(len(ids))]
    before = [previous_enemies(scenario, u) for u in units]
    lines = [engaged_lines(scenario, b) for b in before]

    first = [[prepare(views[i], units[i], before[i], line, asks[i], combat)
              for line in lines[i]] for i in range(len(units))]
    # The closure's offsets added to the layouts prepared once (the same layouts as
    # preparing them again with those offsets, without computing their geometry twice).
    extra = [[_closure(first, i, p) for p in range(len(lines[i]))] for i in range(len(units))]
    done = [[replace(r, layouts=[more_offsets(lay, extra[i][p]) for lay in r.layouts])
             for p, r in enumerate(first[i])] for i in range(len(units))]
    keep = frozenset().union(*(r.demands.keep_enemy for rs in done for r in rs))
    loose = tuple([replace(r, demands=replace(r.demands, keep_enemy=frozenset())) for r in rs]
                  for rs in done)
    enemies = sorted(keep | {e for rs in done for r in rs for lay in r.layouts
                             for e in lay.enemy})
    if len(enemies) > 64:
        return None  # the bits of one integer: such groups go one at a time
    return Group(units, loose, keep, len(enemies) + 1,
                 {e: 1 << i for i, e in enumerate(enemies)}, tuple(views), tuple(before),
                 combat)


def _closure(ready: list[list[Prepared]], i: int, p: int) -> np.ndarray:
    """Where unit i may end on its line p against the other units on the same line: their
    offsets plus their widths (i to their right) and minus i's widths (to their left)."""
    mine = ready[i][p]
    widths = sorted({lay.option.along_in for lay in mine.layouts})
    found = [np.empty(0)]
    for j, theirs in enumerate(ready):
        if j == i:
            continue
        for other in theirs:
            if not mine.line.span_of(other.line):
                continue
            shift = float((other.line.a - mine.line.a) @ mine.line.right)
            for lay in other.layouts:
                xs = lay.xs + shift
                found.append(xs + lay.option.along_in)
                found += [xs - w for w in widths]
    return np.unique(np.concatenate(found))
