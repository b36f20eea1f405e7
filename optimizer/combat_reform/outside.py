"""What a reform outside the searched family can reach, so that OPTIMAL speaks of every legal
placement (docs/rules.md §12.2, "OPTIMAL under the rules").

The family: the unit flush against the line of the enemy Facings it touched before, every
searched formation (`prepare.kind`), every offset.  Every other legal placement of a unit
whose enemies' Facings lie on one line falls in one of two classes, each bounded here as a
pair (own models in contact, enemy models touched), compared lexicographically:

* **not flush**: two rectangles with disjoint interiors meet in a point or a segment, and a
  segment lies along an edge of both (their sides are collinear).  Along an enemy edge of
  another Facing the contact is in that Facing, which `combat_reform.same_enemies` refuses;
  so a placement flush with no enemy Facing touched before touches each enemy at one point.
  Every base of a unit is the unit's base (`model_bases`: characters too), so a point of its
  boundary lies on at most two of its bases, and on at most two of the enemy's; contact
  across a gap needs facing edges sharing a width, so none.  At most two of each per enemy.
  None is legal where the reform must end flush (`combat_reform.aligned`), or where it
  cannot keep as many models in contact as before, or the enemy models it must keep.
* **left out**: flush, in a formation the family leaves out (a Rear or flank against the
  line with an incomplete rear rank, whose lanes may be empty next to the line).  A model
  touching the line's enemy models stands in a lane facing them, one per lane, so the lanes
  touching them (the family's count, every lane taken as occupied) bound the own models,
  and the enemy models over the unit's extent bound theirs.  First without any layout:
  lanes of width s meet an edge of length L in at most floor(L / s) + 2 of them; then, where
  that does not settle it, the family's own search over those formations with the values
  as upper bounds (`search.best_first(bound_only=True)`: the candidates by that bound, the
  first one whose models can be assigned, March Rate and front-rank characters kept, the
  characters' contacts and the player's asks dropped).

Tolerances: the argument is in exact geometry; the checker's 1e-6" contact tolerance also
admits a unit tilted by less than about 1e-6" per inch of edge, which it takes as flush.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, replace

from constraints.core.scenario import Scenario
from constraints.rank_and_file.contact import LINE_IN
from constraints.rank_and_file.unit import Unit
from optimizer.combat_reform.placement import OWN_TURN, Option
from optimizer.combat_reform.prepare import (
    LEFT_OUT,
    Prepared,
    allowed_files,
    kind,
    layouts_of,
    line_models,
)
from optimizer.combat_reform.roles import Role, roles
from optimizer.combat_reform.search import best_first

Pair = tuple[int, int]
NOT_FLUSH, LEFT_OUT_FORMATIONS = "not_flush", "left_out_formations"


@dataclass(frozen=True)
class Bounded:
    """One class of placements: its bound, None when no legal placement of it exists;
    `refine(value)` computes a tighter one (or None: none legal) when the first does not
    settle whether the class can beat `value`."""

    name: str
    bound: Pair | None
    refine: Callable[[Pair], Pair | None] | None = None


@dataclass(frozen=True)
class Certificate:
    """Whether the family's value is the rules' optimum on both contact levels, the bound on
    the first level over every legal placement, and each class's bound (for `family`)."""

    optimal: bool
    bound: int
    classes: dict[str, list[int] | None]


def certify(value: Pair, everything: Pair, classes: list[Bounded] | None) -> Certificate:
    """OPTIMAL when `value` reaches `everything` (a bound over every placement), or when
    `classes` (None: the family's argument does not hold) bound every legal placement the
    family does not search and none exceeds `value` lexicographically (a class may tie: both
    contact levels are then the same, and OPTIMAL speaks of those two levels)."""
    if value >= everything:
        return Certificate(True, value[0], {})
    if classes is None:
        return Certificate(False, everything[0], {})
    found: dict[str, Pair | None] = {}
    for c in classes:
        bound = c.bound
        if bound is not None and bound > value and c.refine is not None:
            bound = c.refine(value)
        found[c.name] = bound
        if bound is not None and bound > value:
            break  # FEASIBLE: the classes left keep their first bounds
    for c in classes:
        found.setdefault(c.name, c.bound)
    optimal = all(b is None or b <= value for b in found.values())
    top = max([value[0]] + [b[0] for b in found.values() if b is not None])
    return Certificate(optimal, value[0] if optimal else min(top, everything[0]),
                       {k: None if b is None else list(b) for k, b in found.items()})


def unit_classes(scenario: Scenario, unit: Unit, previous: dict[str, str],
                 lines: list[Prepared], combat: frozenset[str], budget: int,
                 files: int | None = None) -> list[Bounded] | None:
    """The classes outside a unit's family, on the scene its `lines` were prepared on; None
    when its enemies' Facings lie on more than one line (the family's value counts only the
    line's contacts there).  `files`: only formations of that many files (the widest, when
    asked first)."""
    if len(lines) != 1:
        return None
    ready = lines[0]
    return [not_flush(scenario, previous, ready),
            left_out(scenario, unit, previous, ready, combat, budget, files)]


def not_flush(scenario: Scenario, previous: dict[str, str], ready: Prepared) -> Bounded:
    """At most two own and two enemy models per enemy touched at a point (module docs)."""
    aligned = Role.ALIGNED in roles(scenario)
    most = 2 * len(previous)
    d = ready.demands
    if aligned or most < d.own_before or most < len(d.keep_enemy):
        return Bounded(NOT_FLUSH, None)
    return Bounded(NOT_FLUSH, (min(most, len(ready.ids)),
                               min(most, len(line_models(scenario, ready.line, LINE_IN)))))


def left_out(scenario: Scenario, unit: Unit, previous: dict[str, str], ready: Prepared,
             combat: frozenset[str], budget: int, files: int | None) -> Bounded:
    """Flush formations the family leaves out: lanes counted, then searched (module docs)."""
    options = [Option(unit, ready.line, f, own) for f in allowed_files(scenario, unit)
               if files in (None, f) for own in OWN_TURN if kind(unit, f, own) == LEFT_OUT]
    if not options:
        return Bounded(LEFT_OUT_FORMATIONS, None)
    enemy = len(line_models(scenario, ready.line, LINE_IN))
    lanes = [lanes_bound(o) for o in options]

    def refine(value: Pair) -> Pair | None:
        # Formations whose lanes cannot reach the value are beaten already: no layout.
        worth = [o for o, n in zip(options, lanes, strict=True) if n >= value[0]]
        below = [(n, enemy) for n in lanes if n < value[0]]
        layouts = layouts_of(scenario, unit, previous, combat, worth, across=LINE_IN)
        loose = replace(ready.demands, own_most=None, keep_characters=frozenset(),
                        character_with=(), widest=False)
        outcome = best_first([replace(ready, layouts=layouts, demands=loose)], budget,
                             bound_only=True)
        found = outcome.found.value if outcome.found is not None else outcome.bound
        return max([*below, *([] if found is None else [(found[0], found[1])])],
                   default=None)

    return Bounded(LEFT_OUT_FORMATIONS, (max(lanes), enemy), refine)


def lanes_bound(option: Option) -> int:
    """At most how many of the option's lanes touch the line's enemy edges: lanes of width s
    side by side meet a closed stretch of length L in at most floor(L / s) + 2 of them, for
    each edge and for the stretch from the first edge's start to the last one's end."""
    base = option.unit.base
    step = base.width_in if option.own in ("front", "rear") else base.depth_in
    spans = [s for _, _, s in option.line.spans] or [(option.line.lo, option.line.hi)]

    def meet(length: float) -> int:
        return math.floor(length / step + 1e-6) + 2  # a rounding more, never one less

    each = sum(meet(hi - lo) for lo, hi in spans)
    hull = meet(max(hi for _, hi in spans) - min(lo for lo, _ in spans))
    return min(len(option.lanes()), each, hull, option.unit.formation.model_count)
