"""Train sb3-contrib's MaskablePPO on MoveEnv (not run in CI).

    pip install -e '.[rl,train]'
    python examples/train_maskable_ppo.py [--steps 20000] [--envs 4] [--ray]

The policy sees the observation (optimizer.rl.observe) and picks among the actions the exact
mask passes, so every move it makes in training is legal; it learns where on the lattice the
objective is best.  With `--ray` (the `ray` extra) the environments are stepped on Ray actors
(`RayVectorEnv`) and wrapped for Stable-Baselines3; otherwise SB3's own DummyVecEnv.  At the
end it compares the trained policy's reward with the masked random and heuristic agents'.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

import numpy as np

from optimizer import Objective
from optimizer.rl import HeuristicAgent, MoveEnv, RandomAgent

SCENARIO = Path(__file__).resolve().parent / "spears.json"
TARGET = (44.0, 18.0)


def make() -> MoveEnv:
    return MoveEnv(SCENARIO, "spears", "march", Objective("target_distance", TARGET))


def ray_vec_env(count: int) -> Any:
    """RayVectorEnv seen as an SB3 VecEnv (the masks through `env_method("action_masks")`)."""
    from stable_baselines3.common.vec_env import VecEnv

    from optimizer.rl import RayVectorEnv

    class RayVec(VecEnv):
        def __init__(self) -> None:
            self.inner = RayVectorEnv([make] * count)
            super().__init__(count, self.inner.single_observation_space,
                             self.inner.single_action_space)
            self._actions: Any = None

        def reset(self) -> Any:
            obs, _ = self.inner.reset()
            return obs

        def step_async(self, actions: Any) -> None:
            self._actions = actions

        def step_wait(self) -> Any:
            obs, rewards, terminated, truncated, infos = self.inner.step(self._actions)
            done = terminated | truncated
            per_env = [{"terminal_observation": infos["final_obs"][k]} if done[k] else {}
                       for k in range(self.num_envs)]
            return obs, rewards, done, per_env

        def env_method(self, name: str, *args: Any, indices: Any = None, **kw: Any) -> Any:
            if name == "action_masks":
                return list(self.inner.action_masks())
            raise NotImplementedError(name)

        def close(self) -> None:
            self.inner.close()

        def get_attr(self, name: str, indices: Any = None) -> Any:
            raise NotImplementedError(name)

        def set_attr(self, name: str, value: Any, indices: Any = None) -> None:
            raise NotImplementedError(name)

        def env_is_wrapped(self, wrapper_class: Any, indices: Any = None) -> list[bool]:
            return [False] * self.num_envs

    return RayVec()


def main() -> None:
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.vec_env import DummyVecEnv

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=20_000)
    parser.add_argument("--envs", type=int, default=4)
    parser.add_argument("--ray", action="store_true")
    args = parser.parse_args()
    envs = ray_vec_env(args.envs) if args.ray else DummyVecEnv([make] * args.envs)
    model = MaskablePPO("MlpPolicy", envs, n_steps=256, batch_size=256, seed=0, verbose=1)
    model.learn(total_timesteps=args.steps)
    env = make()
    obs, info = env.reset(seed=0)
    action, _ = model.predict(obs, action_masks=info["action_mask"], deterministic=True)
    trained = env.step(int(action))[1]
    randoms = [env.step(RandomAgent(seed=k).act(env.reset()[1]["action_mask"]))[1]
               for k in range(100)]
    greedy = env.step(HeuristicAgent().act(env.reset()[1]["action_mask"], env.actions,
                                           TARGET))[1]
    print(f"trained {trained:.2f}, random mean {np.mean(randoms):.2f}, heuristic {greedy:.2f}")
    envs.close()


if __name__ == "__main__":
    main()
