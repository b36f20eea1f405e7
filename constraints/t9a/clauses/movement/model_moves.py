"""Shared by the Pivot and Reform clauses: which model ends in which slot, and how far it goes.

When the move names no `assignment`, the best one is used: the one minimising the longest
single model move (a bottleneck assignment, docs/rules.md §8.4).  Characters stay in the
front rank (docs/rules.md §2.5, §8.11) when they start there.
"""

from __future__ import annotations

import numpy as np

from constraints.errors import InvalidInputError
from constraints.geometry.assignment import Assignment, bottleneck_assignment, fixed_assignment
from constraints.rank_and_file.unit import Unit
from constraints.t9a.context import MoveContext


def allowed_pairs(start: Unit, end: Unit) -> np.ndarray:
    """(models, end slots) mask: characters that start in the front rank end in it."""
    chars = {c.id for c in start.formation.characters}
    starts = start.formation.layout()
    ends = end.formation.occupied_slots()
    mask = np.ones((len(starts), len(ends)), dtype=bool)
    for i, (key, slot) in enumerate(starts):
        if key in chars and slot[0] == 0:
            mask[i] = [e[0] == 0 for e in ends]
    return mask


def chosen_slots(ctx: MoveContext, end: Unit) -> tuple[int, ...] | None:
    """The end slot index of each model, as the move's `assignment` names them."""
    if ctx.move.assignment is None:
        return None
    named = dict(ctx.move.assignment)
    ids = ctx.unit.model_ids()
    slots = end.formation.occupied_slots()
    missing = [m for m in ids if m not in named]
    unknown = [m for m in named if m not in ids]
    if missing or unknown:
        raise InvalidInputError(f"assignment must name every model once (missing {missing}, "
                                f"unknown {unknown})", path="$.assignment")
    picked = []
    for model in ids:
        slot = tuple(named[model])
        if slot not in slots:
            raise InvalidInputError(f"slot {list(slot)} is not an occupied slot of the end "
                                    "formation", path=f"$.assignment.{model}")
        picked.append(slots.index(slot))
    if len(set(picked)) != len(picked):
        raise InvalidInputError("two models assigned to one slot", path="$.assignment")
    return tuple(picked)


def assign(ctx: MoveContext, end: Unit, cost: np.ndarray) -> Assignment:
    """The move's own assignment, or the best one under the front-rank rule."""
    slots = chosen_slots(ctx, end)
    if slots is not None:
        return fixed_assignment(cost, slots)
    return bottleneck_assignment(cost, allowed_pairs(ctx.unit, end))


def straight_costs(start: Unit, end: Unit) -> np.ndarray:
    """Straight-line distance from each model's start to each end slot."""
    a, b = start.model_positions(), end.model_positions()
    return np.hypot(*(a[:, None, :] - b[None, :, :]).transpose(2, 0, 1))
