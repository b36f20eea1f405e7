"""`MoveEnv`: one unit's move toward an objective, as a Gymnasium environment.

An episode is one move: `reset` shows the unit where it stands, `step(action)` makes the
action's move (optimizer.rl.actions), judges it with the exact checker and ends the episode.
The reward is the objective's value of the end pose (the solver's objectives,
optimizer.search.objectives), signed so that larger is better: minus the distance for
`target_distance`, `front_target_distance`, `face_point` and `target_pose`, the inches gained
for `forward`.  A move the checker refuses, or one that does not end where its action says
(only possible for actions the mask refuses), earns `illegal_reward` and leaves the unit
where it stood.  Nothing is random: `reset(seed=...)` seeds only `np_random` (and the action
space's sampling).

`action_masks()` (sb3-contrib's MaskablePPO convention) and `info["action_mask"]` are the
batch mask of the action lattice: every True action's move is judged LEGAL by the checker.
`MacroMoveEnv` lets an agent name only the cell: the solver (`best_move`) finds the best
legal move toward its centre.
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

import gymnasium as gym
import numpy as np

from constraints.errors import InvalidInputError
from optimizer import Objective, Scenario, best_move, load_scenario
from optimizer.queries import check_move
from optimizer.rl.actions import ActionLattice, LatticeSpec
from optimizer.rl.observe import LIMIT, SIZE, observe
from optimizer.search.solve import objective_value

DEGREE_SLACK = 20.0  # target_pose counts 0.1" a degree: at most 18" for a half turn


def scenario_of(scenario: Scenario | str | Path) -> Scenario:
    """A loaded scenario, or the scenario file at a path."""
    if isinstance(scenario, Scenario):
        return scenario
    if isinstance(scenario, str | Path):
        return load_scenario(scenario)
    raise InvalidInputError(f"expected a Scenario or a path, got {type(scenario).__name__}",
                            path="scenario")


def objective_of(objective: Objective | str | dict) -> Objective:
    """An `Objective`, or its name, or a dict of its fields."""
    if isinstance(objective, Objective):
        return objective
    if isinstance(objective, str):
        return Objective(objective)
    if isinstance(objective, dict):
        return Objective(**objective)
    raise InvalidInputError(f"expected an Objective, got {type(objective).__name__}",
                            path="objective")


def reward_of(objective: Objective, scenario: Scenario, verdict: Any) -> float:
    """The objective's value of a judged end pose, larger is better."""
    value = objective_value(objective, scenario, verdict)
    return float(value if objective.maximise else -value)


def worst_reward(scenario: Scenario) -> float:
    """Below the reward of any legal move on the table: minus its diagonal and 20"."""
    field = scenario.battlefield
    return -(math.hypot(field.width_in, field.depth_in) + DEGREE_SLACK)


class MoveEnv(gym.Env):
    """One unit's move toward an objective (see the module's docstring).

    Parameters
    ----------
    scenario : Scenario or path
    unit, manoeuvre : str
        The unit and what it does (`advance`, `march`, `reform`).
    objective : Objective, its name, or a dict of its fields
    lattice : LatticeSpec, optional
        The action lattice's sizes (default: 17 x 17 cells of 1", facings and an Advance's
        wheels in steps of 15 deg).
    illegal_reward : float, optional
        The reward of a refused move (default: `worst_reward`).
    """

    metadata: dict[str, Any] = {"render_modes": []}

    def __init__(self, scenario: Scenario | str | Path, unit: str, manoeuvre: str,
                 objective: Objective | str | dict, *, lattice: LatticeSpec | None = None,
                 illegal_reward: float | None = None) -> None:
        self.scenario = scenario_of(scenario)
        self.objective = objective_of(objective)
        self.unit_id, self.manoeuvre = unit, manoeuvre
        self.actions = ActionLattice(self.scenario, unit, manoeuvre, lattice)
        self.illegal_reward = worst_reward(self.scenario) if illegal_reward is None \
            else float(illegal_reward)
        self.action_space = gym.spaces.Discrete(self.actions.n)
        self.observation_space = gym.spaces.Box(-LIMIT, LIMIT, (SIZE,), np.float32)
        self._start = observe(self.scenario, unit, self.objective)

    def action_masks(self) -> np.ndarray:
        """Whether each action is legal (the batch mask; sound)."""
        return self.actions.mask()

    def reset(self, *, seed: int | None = None,
              options: dict[str, Any] | None = None) -> tuple[np.ndarray, dict[str, Any]]:
        super().reset(seed=seed)
        return self._start.copy(), {"action_mask": self.action_masks()}

    def step(self, action: Any) -> tuple[np.ndarray, float, bool, bool, dict[str, Any]]:
        action = int(action)
        move = self.actions.move(action)
        return self._judged(move, lambda verdict: self.actions.reaches(action, verdict),
                            {"masked": bool(self.action_masks()[action])})

    def _judged(self, move: Any, ends_right: Any, info: dict[str, Any]) \
            -> tuple[np.ndarray, float, bool, bool, dict[str, Any]]:
        """Judge a move, reward it and end the episode."""
        verdict = None if move is None else check_move(self.scenario, move)
        legal = verdict is not None and verdict.legal and bool(ends_right(verdict))
        info.update(move=move, verdict=verdict, legal=legal,
                    action_mask=self.action_masks())
        if not legal:
            return self._start.copy(), self.illegal_reward, True, False, info
        after = self.scenario.with_unit(_moved(self.scenario.unit(self.unit_id), verdict))
        return (observe(after, self.unit_id, self.objective),
                reward_of(self.objective, self.scenario, verdict), True, False, info)

    def macro_move(self, cell: int, time_limit_s: float = 2.0) -> Any:
        """The solver's best legal move toward the centre of cell `cell` (a SearchResult:
        its move is None when none was found)."""
        if not 0 <= int(cell) < self.actions.cells:
            raise InvalidInputError(f"expected a cell from 0 to {self.actions.cells - 1}",
                                    path="cell")
        x, y = map(float, self.actions.world_centres[int(cell)])
        return best_move(self.scenario, self.unit_id, self.manoeuvre,
                         Objective("target_distance", (x, y)), time_limit_s=time_limit_s)


class MacroMoveEnv(MoveEnv):
    """`MoveEnv` whose action is a cell: the move is the solver's best legal move toward the
    cell's centre (`macro_move`), rewarded by the env's objective.  A cell is masked True
    when some action of the lattice is legal there (the solver then has a legal move
    ending there)."""

    def __init__(self, *args: Any, time_limit_s: float = 2.0, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.time_limit_s = time_limit_s
        self.action_space = gym.spaces.Discrete(self.actions.cells)

    def action_masks(self) -> np.ndarray:
        return np.asarray(self.actions.mask().reshape(-1, self.actions.cells).any(axis=0))

    def step(self, action: Any) -> tuple[np.ndarray, float, bool, bool, dict[str, Any]]:
        cell = int(action)
        result = self.macro_move(cell, self.time_limit_s)
        return self._judged(result.move, lambda verdict: True,
                            {"masked": bool(self.action_masks()[cell]),
                             "status": str(result.status)})


def _moved(unit: Any, verdict: Any) -> Any:
    """The unit at a judged move's end pose (its files unchanged: a Reform's new formation
    is not placed, so observations after a Reform show its old width and depth)."""
    pose = type(unit.pose)(tuple(map(float, verdict.end_centre)),
                           float(verdict.end_facing_deg))
    return unit.with_pose(pose)
