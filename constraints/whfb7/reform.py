"""A reform's models (RULES §4.4, seed 003): which must stand in the new front rank, which
end slot each takes, and how far each moves.

Decisions (docs/rules.md §14): the command models are the first rank-and-file models of the
layout, named `<unit>.champion`, `<unit>.standard`, `<unit>.musician` in an assignment
(`unit_io.model_ids`); with no assignment the best one is used, the one minimising the
longest straight move of a base centre with every command model and character in the front
rank (a bottleneck assignment), and when the front rank is too narrow to hold them (the
front-rank clause says so) the longest move is measured without that restriction.
"""

from __future__ import annotations

import numpy as np

from constraints.errors import InvalidInputError
from constraints.geometry.assignment import Assignment, bottleneck_assignment, fixed_assignment
from constraints.rank_and_file.formation import Slot
from constraints.rank_and_file.unit import Unit
from constraints.whfb7.unit_io import command_ids, model_ids


def front_models(unit: Unit) -> tuple[int, ...]:
    """Layout indices of the models that must stand in the front rank: the command group
    and the characters."""
    front = set(command_ids(unit)) | {c.id for c in unit.formation.characters}
    return tuple(i for i, model in enumerate(model_ids(unit)) if model in front)


def chosen_slots(start: Unit, end: Unit,
                 assignment: tuple[tuple[str, Slot], ...] | None) -> tuple[int, ...] | None:
    """The end slot index of each model as `assignment` names them (None: no assignment).
    InvalidInputError unless it places every model of the unit exactly once on an occupied
    slot of the end formation (a reform never changes the model count)."""
    if assignment is None:
        return None
    named = dict(assignment)
    ids = model_ids(start)
    missing = [m for m in ids if m not in named]
    unknown = [m for m in named if m not in ids]
    if missing or unknown:
        raise InvalidInputError(f"an assignment places every model of the unit exactly once "
                                f"(missing {missing}, unknown {unknown})", path="$.assignment")
    slots = end.formation.occupied_slots()
    picked = []
    for model in ids:
        slot = tuple(named[model])
        if slot not in slots:
            raise InvalidInputError(f"slot {list(slot)} is not an occupied slot of the "
                                    f"reformed unit ({end.files} files)",
                                    path=f"$.assignment.{model}")
        picked.append(slots.index(slot))
    if len(set(picked)) != len(picked):
        raise InvalidInputError("two models assigned to one slot", path="$.assignment")
    return tuple(picked)


def straight_costs(start: Unit, end: Unit) -> np.ndarray:
    """Straight-line distance from each model's base centre to each end slot's."""
    a, b = start.model_positions(), end.model_positions()
    return np.hypot(*(a[:, None, :] - b[None, :, :]).transpose(2, 0, 1))


def model_moves(start: Unit, end: Unit,
                assignment: tuple[tuple[str, Slot], ...] | None) -> Assignment:
    """The move's own assignment, or the best one with the front models in the front rank
    (where it can hold them)."""
    cost = straight_costs(start, end)
    slots = chosen_slots(start, end, assignment)
    if slots is not None:
        return fixed_assignment(cost, slots)
    front = front_models(start)
    allowed = np.ones(cost.shape, dtype=bool)
    if len(front) <= end.files:
        in_front = np.array([slot[0] == 0 for slot in end.formation.occupied_slots()])
        allowed[list(front)] = in_front
    return bottleneck_assignment(cost, allowed)
