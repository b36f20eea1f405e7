"""Game AIs: Gymnasium and PettingZoo environments with exact action masks, and Ray.

- `MoveEnv` (registered as `manoeuvre/Move-v0`) and `MacroMoveEnv`: one unit's move toward an
  objective; `DuelEnv`: two players alternate, one unit a step (PettingZoo AEC);
- `ActionLattice`, `LatticeSpec`: the flat action lattice, its mask and its moves;
- `RandomAgent`, `HeuristicAgent`: baselines;
- `ray_legal_mask`, `ray_legal_masks`, `RayVectorEnv`: the batch mask and vector
  environments on Ray actors (the `ray` extra; Ray is imported only when they are called).

Needs the `rl` extra (gymnasium, pettingzoo); docs/rl.md says what each piece means.
"""

from typing import Any

import gymnasium

from optimizer.rl.actions import ActionLattice, LatticeSpec
from optimizer.rl.agents import HeuristicAgent, RandomAgent
from optimizer.rl.duel_env import DuelEnv
from optimizer.rl.move_env import MacroMoveEnv, MoveEnv

ENV_ID = "manoeuvre/Move-v0"
if ENV_ID not in gymnasium.registry:
    gymnasium.register(id=ENV_ID, entry_point="optimizer.rl.move_env:MoveEnv")


def ray_legal_mask(*args: Any, **kwargs: Any) -> Any:
    """`optimizer.rl.ray_mask.ray_legal_mask` (imports Ray)."""
    from optimizer.rl.ray_mask import ray_legal_mask as found
    return found(*args, **kwargs)


def ray_legal_masks(*args: Any, **kwargs: Any) -> Any:
    """`optimizer.rl.ray_mask.ray_legal_masks` (imports Ray)."""
    from optimizer.rl.ray_mask import ray_legal_masks as found
    return found(*args, **kwargs)


def __getattr__(name: str) -> Any:
    if name == "RayVectorEnv":
        from optimizer.rl.ray_vector import RayVectorEnv
        return RayVectorEnv
    raise AttributeError(name)


__all__ = ["ENV_ID", "ActionLattice", "DuelEnv", "HeuristicAgent", "LatticeSpec",
           "MacroMoveEnv", "MoveEnv", "RandomAgent", "RayVectorEnv", "ray_legal_mask",
           "ray_legal_masks"]
