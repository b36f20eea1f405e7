"""Vector environments stepped on Ray actors: one actor (one CPU) per environment.

`RayVectorEnv(env_fns)` is a Gymnasium `VectorEnv`: `env_fns[k]()` builds environment k
inside its own actor (so its action lattice and judges are prepared there, once); `step`
sends each actor its action at once and gathers the answers.  An environment whose episode
ends is reset in the same step (Gymnasium's same-step autoreset): the observation returned
is the new episode's first, the last one is in `infos["final_obs"]`.  `action_masks()`
stacks the environments' masks (sb3-contrib's convention), as does `infos["action_mask"]`.
Ray is started as in optimizer.rl.ray_mask (local, or the cluster at RAY_ADDRESS).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import gymnasium as gym
import numpy as np
import ray
from gymnasium.vector.utils import batch_space

from optimizer import InvalidInputError
from optimizer.rl.ray_mask import ensure_ray


@ray.remote(num_cpus=1)
class EnvActor:
    """One environment, with same-step autoreset."""

    def __init__(self, make: Callable[[], gym.Env]) -> None:
        self.env = make()

    def spaces(self) -> tuple[gym.Space, gym.Space]:
        return self.env.observation_space, self.env.action_space

    def reset(self, seed: int | None) -> tuple[Any, np.ndarray]:
        obs, _ = self.env.reset(seed=seed)
        return obs, self.env.action_masks()  # type: ignore[attr-defined, unused-ignore]

    def step(self, action: Any) -> tuple[Any, float, bool, bool, Any, np.ndarray]:
        obs, reward, terminated, truncated, _ = self.env.step(action)
        final = None
        if terminated or truncated:
            final = obs
            obs, _ = self.env.reset()
        return obs, float(reward), bool(terminated), bool(truncated), final, \
            self.env.action_masks()  # type: ignore[attr-defined, unused-ignore]


class RayVectorEnv(gym.vector.VectorEnv):
    """Environments on Ray actors, stepped together (see the module's docstring)."""

    metadata = {"autoreset_mode": gym.vector.AutoresetMode.SAME_STEP}

    def __init__(self, env_fns: Sequence[Callable[[], gym.Env]]) -> None:
        if not env_fns:
            raise InvalidInputError("expected at least one environment", path="env_fns")
        ensure_ray()
        self.actors = [EnvActor.remote(make) for make in env_fns]  # type: ignore[attr-defined, unused-ignore]
        self.num_envs = len(self.actors)
        spaces = ray.get([actor.spaces.remote() for actor in self.actors])
        self.single_observation_space, self.single_action_space = spaces[0]
        self.observation_space = batch_space(self.single_observation_space, self.num_envs)
        self.action_space = batch_space(self.single_action_space, self.num_envs)
        self._masks = np.zeros((self.num_envs, 0), dtype=bool)

    def reset(self, *, seed: int | list[int] | None = None,
              options: dict[str, Any] | None = None) -> tuple[np.ndarray, dict[str, Any]]:
        seeds = seed if isinstance(seed, list) else \
            [None if seed is None else seed + k for k in range(self.num_envs)]
        answers = ray.get([a.reset.remote(s) for a, s in zip(self.actors, seeds, strict=True)])
        self._masks = np.stack([mask for _, mask in answers])
        return np.stack([obs for obs, _ in answers]), {"action_mask": self._masks}

    def step(self, actions: Any) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray,
                                          dict[str, Any]]:
        actions = np.asarray(actions)
        answers = ray.get([a.step.remote(act) for a, act in
                           zip(self.actors, actions, strict=True)])
        obs, rewards, terminated, truncated, finals, masks = zip(*answers, strict=True)
        self._masks = np.stack(masks)
        infos: dict[str, Any] = {"action_mask": self._masks}
        ended = np.array([final is not None for final in finals])
        if ended.any():
            infos["final_obs"] = np.array(finals, dtype=object)
            infos["_final_obs"] = ended
        return (np.stack(obs), np.array(rewards, dtype=np.float64), np.array(terminated),
                np.array(truncated), infos)

    def action_masks(self) -> np.ndarray:
        """Each environment's mask, stacked (num_envs, actions)."""
        return self._masks

    def close_extras(self, **kwargs: Any) -> None:
        for actor in self.actors:
            ray.kill(actor)
        self.actors = []
