"""Bottleneck assignment: models to end slots, minimising the longest single model move.

Pivots, Reorders and Reforms let models change places (docs/rules.md §8.4), so the question "can
every model move at most L?" is whether the bipartite graph of (model, slot) pairs with cost
<= L has a perfect matching.  Binary search over the distinct costs gives the least such L;
each matching test is one linear sum assignment (OR-tools).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from ortools.graph.python import linear_sum_assignment


@dataclass(frozen=True)
class Assignment:
    """Slot index for each model (row) and the longest move it implies."""

    slots: tuple[int, ...]
    bottleneck: float
    worst_model: int


def bottleneck_assignment(cost: np.ndarray, allowed: np.ndarray | None = None) -> Assignment:
    """The assignment of rows to columns minimising the largest chosen cost.

    `cost` is (n, n); `allowed` masks pairs that may be used.  Returns an infinite bottleneck
    when no perfect matching exists on allowed pairs with finite cost.
    """
    n = cost.shape[0]
    usable = np.isfinite(cost) if allowed is None else (allowed & np.isfinite(cost))
    levels = np.unique(cost[usable])
    best: dict[int, int] | None = None
    lo, hi = 0, len(levels) - 1
    while lo <= hi:
        mid = (lo + hi) // 2
        matching = _perfect_matching(usable & (cost <= levels[mid]))
        if matching is None:
            lo = mid + 1
        else:
            best, hi = matching, mid - 1
    if best is None:
        return Assignment(tuple(range(n)), float("inf"), 0)
    slots = tuple(best[i] for i in range(n))
    chosen = cost[np.arange(n), np.array(slots)]
    worst = int(np.argmax(chosen))
    return Assignment(slots, float(chosen[worst]), worst)


def fixed_assignment(cost: np.ndarray, slots: tuple[int, ...]) -> Assignment:
    """The longest move of an assignment the mover chose."""
    chosen = cost[np.arange(cost.shape[0]), np.array(slots)]
    worst = int(np.argmax(chosen))
    return Assignment(slots, float(chosen[worst]), worst)


def _perfect_matching(edges: np.ndarray) -> dict[int, int] | None:
    """A perfect matching using only `edges`, or None.  A linear sum assignment that charges
    1 for every pair outside `edges` costs 0 exactly when one exists."""
    n = edges.shape[0]
    if not edges.any(axis=1).all() or not edges.any(axis=0).all():
        return None
    rows, cols = np.indices((n, n))
    solver = linear_sum_assignment.SimpleLinearSumAssignment()
    solver.add_arcs_with_cost(rows.ravel(), cols.ravel(), (~edges).astype(np.int64).ravel())
    if solver.solve() != solver.OPTIMAL or solver.optimal_cost() != 0:
        return None
    return {i: solver.right_mate(i) for i in range(n)}


def quick_assignment(cost: np.ndarray, allowed: np.ndarray) -> float:
    """An upper bound on the bottleneck: the longest move of the assignment minimising the
    sum of squared costs (one linear sum assignment); inf when no allowed one exists."""
    n = cost.shape[0]
    usable = allowed & np.isfinite(cost)
    if not usable.any(axis=1).all():
        return float("inf")
    scaled = np.where(usable, np.round(np.minimum(cost, 1e4) ** 2 * 1e4), 1e13).astype(np.int64)
    rows, cols = np.indices((n, n))
    solver = linear_sum_assignment.SimpleLinearSumAssignment()
    solver.add_arcs_with_cost(rows.ravel(), cols.ravel(), scaled.ravel())
    if solver.solve() != solver.OPTIMAL:
        return float("inf")
    slots = np.array([solver.right_mate(i) for i in range(n)])
    if not usable[np.arange(n), slots].all():
        return float("inf")
    return float(cost[np.arange(n), slots].max())
