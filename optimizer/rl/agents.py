"""Baseline agents: a masked random agent and a greedy heuristic one.

Both pick among the actions the mask passes (so every move they make is legal); with none,
they pick action 0 (the environment then rewards it as refused).
"""

from __future__ import annotations

import math

import numpy as np

from optimizer.rl.actions import ActionLattice


class RandomAgent:
    """Uniform over the actions the mask passes; seeded, so runs repeat."""

    def __init__(self, seed: int | None = None) -> None:
        self.rng = np.random.default_rng(seed)

    def act(self, mask: np.ndarray) -> int:
        legal = np.flatnonzero(mask)
        return int(self.rng.choice(legal)) if len(legal) else 0


class HeuristicAgent:
    """Greedy by geometry, with no search: the passed action whose end centre lies nearest a
    target point (ties: the lowest action), or, without a target, the one farthest ahead of
    the unit's start."""

    def act(self, mask: np.ndarray, actions: ActionLattice,
            target: tuple[float, float] | None = None) -> int:
        legal = np.flatnonzero(np.asarray(mask)[:actions.n])
        if not len(legal):
            return 0
        cells = legal % actions.cells
        if target is None:
            score = -actions.frame_centres[cells, 1]
        else:
            score = np.hypot(*(actions.world_centres[cells] - np.asarray(target)).T)
        return int(legal[int(np.argmin(score))])


def nearest_point(points: list[tuple[float, float]], centre: tuple[float, float]) \
        -> tuple[float, float]:
    """The point of `points` nearest `centre` (the first of equals)."""
    return min(points, key=lambda p: math.dist(p, centre))
