"""`DuelEnv`: two players alternate, one unit a step, as a PettingZoo AEC environment.

The agents are the scenario's two players (the active player first).  Each step the agent to
act moves its next unit (its units in scenario order, round and round) by one action of that
unit's action lattice (optimizer.rl.actions, manoeuvre `manoeuvre`); a round is one step of
each player, and the game ends (every agent terminated) after `turns` rounds.

Observation, per agent: `{"observation": the observation of the unit it moves next
(optimizer.rl.observe) with the nearest objective point as its objective, "action_mask":
int8, 1 where the batch mask passes the action in the current positions}`.  An agent's action
space is the largest lattice of its units; actions past a unit's own lattice are masked.

Reward (zero-sum: the other agent gets its negative), for the move of a unit:
- the inches it gains toward its nearest objective point (default: the table's centre);
- `flank_bonus` when it ends in an enemy's flank or rear: its centre behind the line of that
  enemy's Front Facing and within `FLANK_RANGE_IN` of the enemy's centre;
- `illegal_reward` for a move the exact checker refuses (the unit then stays put).
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

import gymnasium as gym
import numpy as np
from pettingzoo import AECEnv
from pettingzoo.utils import AgentSelector

from constraints.errors import InvalidInputError
from optimizer import Objective, Scenario
from optimizer.queries import check_move
from optimizer.rl.actions import ActionLattice, LatticeSpec
from optimizer.rl.agents import nearest_point
from optimizer.rl.move_env import _moved, scenario_of
from optimizer.rl.observe import LIMIT, SIZE, observe

FLANK_RANGE_IN = 12.0


class DuelEnv(AECEnv):
    """Two players alternate moving units (see the module's docstring)."""

    metadata = {"name": "manoeuvre_duel_v0", "render_modes": [], "is_parallelizable": False}

    def __init__(self, scenario: Scenario | str | Path, turns: int = 6, *,
                 manoeuvre: str = "march", objectives: list[tuple[float, float]] | None = None,
                 lattice: LatticeSpec | None = None, flank_bonus: float = 1.0,
                 illegal_reward: float = -10.0) -> None:
        super().__init__()
        self.start = scenario_of(scenario)
        if not isinstance(turns, int) or turns < 1:
            raise InvalidInputError("expected a whole number of turns >= 1", path="turns")
        if manoeuvre == "reform":
            raise InvalidInputError("a duel moves units by advance or march", path="manoeuvre")
        players = list(dict.fromkeys(u.player for u in self.start.units))
        if len(players) != 2:
            raise InvalidInputError(f"expected units of two players, got {len(players)}",
                                    path="units")
        if self.start.active_player in players:
            players.sort(key=lambda p: p != self.start.active_player)
        self.turns, self.manoeuvre, self.spec = turns, manoeuvre, lattice or LatticeSpec()
        field = self.start.battlefield
        self.objectives = [(float(x), float(y)) for x, y in objectives] if objectives else \
            [(field.width_in / 2, field.depth_in / 2)]
        self.flank_bonus, self.illegal_reward = float(flank_bonus), float(illegal_reward)
        self.possible_agents = players
        self.units = {p: [u.id for u in self.start.units if u.player == p] for p in players}
        sizes = {p: max(self._lattice_in(self.start, u).n for u in self.units[p])
                 for p in players}
        self.action_spaces = {p: gym.spaces.Discrete(sizes[p]) for p in players}
        self.observation_spaces = {p: gym.spaces.Dict({
            "observation": gym.spaces.Box(-LIMIT, LIMIT, (SIZE,), np.float32),
            "action_mask": gym.spaces.Box(0, 1, (sizes[p],), np.int8)}) for p in players}
        self.scenario = self.start
        self._lattices: dict[str, ActionLattice] = {}

    def observation_space(self, agent: str) -> gym.spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> gym.spaces.Space:
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        self.scenario = self.start
        self._lattices = {}
        self.agents = self.possible_agents[:]
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self.moved = {a: 0 for a in self.agents}  # steps taken by each agent
        self.steps = 0
        self._selector = AgentSelector(self.agents)
        self.agent_selection = self._selector.reset()

    def next_unit(self, agent: str) -> str:
        """The unit the agent moves at its next step."""
        units = self.units[agent]
        return units[self.moved[agent] % len(units)]

    def lattice(self, agent: str) -> ActionLattice:
        """The action lattice of the agent's next unit in the current positions."""
        unit = self.next_unit(agent)
        if unit not in self._lattices:
            self._lattices[unit] = self._lattice_in(self.scenario, unit)
        return self._lattices[unit]

    def _lattice_in(self, scenario: Scenario, unit: str) -> ActionLattice:
        return ActionLattice(scenario, unit, self.manoeuvre, self.spec)

    def target(self, agent: str) -> tuple[float, float]:
        """The objective point nearest the agent's next unit."""
        return nearest_point(self.objectives,
                             self.scenario.unit(self.next_unit(agent)).pose.centre)

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        n = self.action_spaces[agent].n
        mask = np.zeros(n, dtype=np.int8)
        own = self.lattice(agent).mask()[:n]
        mask[:len(own)] = own
        unit = self.next_unit(agent)
        goal = Objective("target_distance", self.target(agent))
        return {"observation": observe(self.scenario, unit, goal), "action_mask": mask}

    def action_masks(self) -> np.ndarray:
        """The mask of the agent to act (sb3-contrib's convention)."""
        return self.observe(self.agent_selection)["action_mask"].astype(bool)

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        reward, info = self._move(agent, int(action))
        self._cumulative_rewards[agent] = 0.0
        other = next(a for a in self.agents if a != agent)
        self.rewards = {agent: reward, other: -reward}
        self.infos = {a: {} for a in self.agents}
        self.infos[agent] = info
        self.moved[agent] += 1
        self.steps += 1
        if self.steps >= 2 * self.turns:
            self.terminations = {a: True for a in self.agents}
        self.agent_selection = self._selector.next()
        self._accumulate_rewards()

    def _move(self, agent: str, action: int) -> tuple[float, dict[str, Any]]:
        """Make the action's move of the agent's next unit: its reward and info."""
        lattice, unit = self.lattice(agent), self.next_unit(agent)
        target = self.target(agent)
        move = lattice.move(action) if action < lattice.n else None
        verdict = None if move is None else check_move(self.scenario, move)
        legal = verdict is not None and verdict.legal and lattice.reaches(action, verdict)
        info = {"unit": unit, "move": move, "legal": legal}
        if not legal:
            return self.illegal_reward, info
        before = self.scenario.unit(unit)
        after = _moved(before, verdict)
        self.scenario = self.scenario.with_unit(after)
        self._lattices = {}  # every unit's legal moves may change
        gain = math.dist(before.pose.centre, target) - math.dist(after.pose.centre, target)
        return gain + (self.flank_bonus if self.in_flank(after) else 0.0), info

    def in_flank(self, unit: Any) -> bool:
        """Whether the unit's centre lies behind the Front Facing line of an enemy unit
        within FLANK_RANGE_IN of it."""
        for enemy in self.scenario.units:
            if enemy.player == unit.player:
                continue
            ahead = math.radians(enemy.pose.facing_deg)
            dx = unit.pose.centre[0] - enemy.pose.centre[0]
            dy = unit.pose.centre[1] - enemy.pose.centre[1]
            forward = dx * math.cos(ahead) + dy * math.sin(ahead)
            if forward < enemy.depth_in / 2 and math.hypot(dx, dy) <= FLANK_RANGE_IN:
                return True
        return False

    def render(self) -> None:
        return None

    def close(self) -> None:
        return None
