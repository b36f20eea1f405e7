"""What a joint reform's answer proves under the rules (docs/rules.md §12.2, "Joint reforms"):
OPTIMAL when the group's value reaches a bound over every placement of its units, or when
the joint family's proved optimum is not beaten by the tuples with a unit outside its own
family (`outside.py`, the same classes as a unit alone)."""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from constraints.core.scenario import Scenario
from constraints.rank_and_file.contact import LINE_IN
from constraints.rank_and_file.unit import Unit
from optimizer.combat_reform.joint_bound import shared_line_bound
from optimizer.combat_reform.outside import Bounded, Pair, unit_classes
from optimizer.combat_reform.placement import engaged_lines, flush_line
from optimizer.combat_reform.prepare import Prepared, line_models, rules_bound


@dataclass(frozen=True)
class Member:
    """One unit of the group, for the bound: the most own models its family's candidates
    touch (`top`), and the classes outside its family (None: the argument does not hold)."""

    top: int
    classes: list[Bounded] | None


def member(scenario: Scenario, view: Scenario, unit: Unit, previous: dict[str, str],
           lines: list[Prepared], combat: frozenset[str], top: int, budget: int) -> Member:
    """`unit` of a group, its `lines` prepared on `view` (the units before it lifted off:
    every placement it may take is one there too)."""
    return Member(min(top, rules_bound(scenario, unit, previous)),
                  unit_classes(view, unit, previous, lines, combat, budget))


def group_optimal(value: Pair, everything: Pair, members: Callable[[], Sequence[Member]],
                  family_proved: bool, exact_family: bool) -> bool:
    """Whether the group's (own models, enemy models once) `value` is the rules' optimum.

    A tuple of placements either has every unit in its family (the joint family, whose
    optimum `value` is when `family_proved` and `exact_family`: the joint family holds every
    tuple of its units' families), or some unit u outside its own: then its own models are
    at most u's outside bound plus every other unit's most (its family's top or its outside
    bound), and its enemy models at most every enemy model any placement touches.  Each
    unit's classes are first taken at their cheap bounds, refined only where they could
    reach the value; `members` is called only when the value is short of `everything`."""
    if value >= everything:
        return True
    if not (family_proved and exact_family):
        return False
    group = members()
    if any(m.classes is None for m in group):
        return False
    outs = [_out(m, None) for m in group]
    for i, m in enumerate(group):
        if _beats(value, everything, group, outs, i):
            outs[i] = _out(m, value[0] - _rest(group, outs, i))
            if _beats(value, everything, group, outs, i):
                return False  # refined, unit i outside its family may still beat the value
    return True


def _out(m: Member, need: int | None) -> int | None:
    """The most own models of the unit outside its family: the classes' first bounds, or
    refined against `need` (None when no such placement is legal)."""
    assert m.classes is not None
    found = []
    for c in m.classes:
        bound = c.bound
        if need is not None and bound is not None and bound[0] >= need and c.refine:
            bound = c.refine((need, 0))
        if bound is not None:
            found.append(bound[0])
    return max(found, default=None)


def _rest(members: Sequence[Member], outs: list[int | None], i: int) -> int:
    """The most own models of every unit but i, each anyhow (in its family or out)."""
    return sum(m.top if o is None else max(m.top, o)
               for j, (o, m) in enumerate(zip(outs, members, strict=True)) if j != i)


def _beats(value: Pair, everything: Pair, members: Sequence[Member],
           outs: list[int | None], i: int) -> bool:
    """Whether a tuple with unit i outside its family may beat `value` (a tie on own models
    beats it unless the value touches every enemy model)."""
    out = outs[i]
    if out is None:
        return False
    most = out + _rest(members, outs, i)
    return most > value[0] or (most == value[0] and value[1] < everything[1])


def group_everything(scenario: Scenario, units: Sequence[Unit],
                     before: Sequence[dict[str, str]]) -> Pair:
    """A bound over every placement of the units (`before`: each one's enemies touched
    before, by Facing): `group_bound`, or, their enemies' Facings on one line, the shared
    line's (`joint_bound.shared_line_bound`) when lower; and every enemy model along those
    Facings."""
    models: set[str] = set()
    for previous in before:
        for line in engaged_lines(scenario, previous):
            models.update(line_models(scenario, line, LINE_IN))
    shared = shared_line_bound(scenario, units, before)
    own = group_bound(scenario, units, before)
    return (own if shared is None else min(own, shared)), len(models)


def group_bound(scenario: Scenario, units: Sequence[Unit],
                before: Sequence[dict[str, str]]) -> int:
    """At most how many of the units' models can touch enemy models: each unit's own
    bound, and floor(L / b) + 2 per enemy edge any touches, for all together (models side by
    side along an edge are at least b wide each)."""
    edges = {(e, f) for previous in before for e, f in previous.items()}
    b = min(min(u.base.width_in, u.base.depth_in) for u in units)
    shared = 0
    for e, f in edges:
        line = flush_line(scenario.unit(e), f)
        shared += int(math.floor((line.hi - line.lo) / b + 1e-9)) + 2
    return min(shared, sum(rules_bound(scenario, u, previous)
                           for u, previous in zip(units, before, strict=True)))
