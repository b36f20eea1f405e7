"""Bottleneck assignment: models to end slots, minimising the longest single model move.

Pivots, Reorders and Reforms let models change places (docs/rules.md §8.4), so the question "can
every model move at most L?" is whether the bipartite graph of (model, slot) pairs with cost
<= L has a perfect matching.  Binary search over the distinct costs gives the least such L;
each matching test is one linear sum assignment (OR-tools) over those pairs alone.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class Assignment:
    """Slot index for each model (row) and the longest move it implies."""

    slots: tuple[int, ...]
    bottleneck: float
    worst_model: int


def bottleneck_assignment(cost: np.ndarray, allowed: np.ndarray | None = None) -> Assignment:
    """The assignment of rows to columns minimising the largest chosen cost.

    `cost` is (n, n); `allowed` masks pairs that may be used.  Returns an infinite bottleneck
    when no perfect matching exists on allowed pairs with finite cost.  The search is a
    binary search over the distinct costs between two bounds: every row and column needs a
    pair no dearer than the bottleneck (a lower bound), and the assignment minimising the
    sum of squared costs is a matching (an upper bound, often the answer itself).
    """
    n = cost.shape[0]
    usable = np.isfinite(cost) if allowed is None else (allowed & np.isfinite(cost))
    dear = np.where(usable, cost, np.inf)
    if n == 0:
        return Assignment((), 0.0, 0)
    low = max(float(dear.min(axis=1).max()), float(dear.min(axis=0).max()))
    first = _least_squares(cost, usable) if np.isfinite(low) else None
    if first is None:
        return Assignment(tuple(range(n)), float("inf"), 0)
    best = dict(enumerate(first))
    high = float(cost[np.arange(n), np.array(first)].max())
    levels = np.unique(dear[(dear >= low) & (dear < high)])  # every level below the bound
    lo, hi = 0, len(levels) - 1
    while lo <= hi:
        mid = (lo + hi) // 2
        matching = perfect_matching(usable & (cost <= levels[mid]))
        if matching is None:
            lo = mid + 1
        else:
            best, hi = matching, mid - 1
    slots = tuple(best[i] for i in range(n))
    chosen = cost[np.arange(n), np.array(slots)]
    worst = int(np.argmax(chosen))
    return Assignment(slots, float(chosen[worst]), worst)


def fixed_assignment(cost: np.ndarray, slots: tuple[int, ...]) -> Assignment:
    """The longest move of an assignment the mover chose."""
    chosen = cost[np.arange(cost.shape[0]), np.array(slots)]
    worst = int(np.argmax(chosen))
    return Assignment(slots, float(chosen[worst]), worst)


def perfect_matching(edges: np.ndarray) -> dict[int, int] | None:
    """A perfect matching using only `edges`, or None: a linear sum assignment over those
    pairs alone (it is infeasible exactly when no perfect matching exists, once every row
    and column has a pair; sparse, so far cheaper than charging for the other pairs)."""
    n = edges.shape[0]
    if not edges.any(axis=1).all() or not edges.any(axis=0).all():
        return None
    rows, cols = np.nonzero(edges)
    from ortools.graph.python import linear_sum_assignment  # loaded when first needed

    solver = linear_sum_assignment.SimpleLinearSumAssignment()
    solver.add_arcs_with_cost(rows, cols, np.zeros(len(rows), dtype=np.int64))
    if solver.solve() != solver.OPTIMAL:
        return None
    return {i: solver.right_mate(i) for i in range(n)}


def quick_assignment(cost: np.ndarray, allowed: np.ndarray) -> float:
    """An upper bound on the bottleneck: the longest move of the assignment minimising the
    sum of squared costs (one linear sum assignment); inf when no allowed one exists."""
    slots = _least_squares(cost, allowed & np.isfinite(cost))
    if slots is None:
        return float("inf")
    return float(cost[np.arange(cost.shape[0]), np.array(slots)].max())


def _least_squares(cost: np.ndarray, usable: np.ndarray) -> list[int] | None:
    """The assignment over usable pairs minimising the sum of squared costs (None when
    there is none)."""
    n = cost.shape[0]
    if not usable.any(axis=1).all() or not usable.any(axis=0).all():
        return None
    rows, cols = np.nonzero(usable)
    scaled = np.round(np.minimum(cost[rows, cols], 1e4) ** 2 * 1e4).astype(np.int64)
    from ortools.graph.python import linear_sum_assignment  # loaded when first needed

    solver = linear_sum_assignment.SimpleLinearSumAssignment()
    solver.add_arcs_with_cost(rows, cols, scaled)
    if solver.solve() != solver.OPTIMAL:
        return None
    return [solver.right_mate(i) for i in range(n)]
