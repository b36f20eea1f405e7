"""A unit's Combat Reform as found: the solve of its model, the answer read from it (every
model's slot, the contacts, the status), and the third level, the assignment moving the
models least at the offset found (docs/rules.md §12)."""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from ortools.graph.python import linear_sum_assignment
from ortools.sat.python import cp_model

from constraints.rank_and_file.formation import Character, Formation, Slot
from constraints.rank_and_file.unit import Unit
from constraints.t9a.combat_reform import ModelPlacement, UnitReform
from optimizer.combat_reform.model import Demands, Layout, ReformModel
from optimizer.combat_reform.placement import FlushLine, Option

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
    # How the answer was searched, for benchmarks and tests (not in the JSON): the best-first
    # search's candidates, assignments and whether its displacement is the least over them,
    # or which fallback answered.
    search: dict[str, object] = field(default_factory=dict)

    @property
    def reform(self) -> UnitReform | None:
        """The answer as `check_combat_reform` reads a proposal (None: no reform)."""
        return proposal(self)


def solve(rm: ReformModel, effort: float) -> tuple[cp_model.CpSolver, Any]:
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = 1
    solver.parameters.max_deterministic_time = effort
    solver.parameters.cp_model_probing_level = 0
    status = solver.solve(rm.sat_model)
    return solver, status


def answer_of(rm: ReformModel, unit: Unit, line: FlushLine,
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
    return placed_answer("OPTIMAL" if status == cp_model.OPTIMAL else "FEASIBLE", unit, line,
                         lay.option, x, placed, (own, theirs),
                         (bound // weight, bound % weight), demands.own_before)


def placed_answer(status: str, unit: Unit, line: FlushLine, option: Option, x: float,
                  placed: tuple[tuple[str, Slot], ...], value: tuple[int, int],
                  bound: tuple[int, int], own_before: int) -> ReformAnswer:
    """The answer placing `unit` in `option` at offset x, every model in its slot."""
    pose = option.pose(x)
    reformed = unit.with_formation(_formation(unit, option, placed)).with_pose(pose)
    return ReformAnswer(status, unit.id, option.files, pose.centre, pose.facing_deg, placed,
                        value, bound, own_before,
                        family={"own_facing": option.own,
                                "flush_against": [line.enemy, line.facing]},
                        reformed=reformed)


# Model displacements in millionths of an inch (integer costs for the assignments: fine
# enough that two assignments equal in ticks differ by less than n x 5e-7").
MOVE_TICKS = 1_000_000


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


def proposal(answer: ReformAnswer) -> UnitReform | None:
    """The answer as the checker reads a proposal: every model's slot (None: no reform)."""
    if answer.reformed is None:
        return None
    return UnitReform(answer.unit, answer.files, answer.centre, answer.facing_deg,
                      tuple(ModelPlacement(mid, slot) for mid, slot in answer.models))
