"""MoveEnv and MacroMoveEnv: Gymnasium's checker, determinism, rewards from the checker's
verdicts."""

from __future__ import annotations

import math

import numpy as np
import pytest

gymnasium = pytest.importorskip("gymnasium")

from gymnasium.utils.env_checker import check_env  # noqa: E402

from optimizer import InvalidInputError, Objective, load_scenario  # noqa: E402
from optimizer.rl import ENV_ID, HeuristicAgent, MacroMoveEnv, MoveEnv, RandomAgent  # noqa: E402
from optimizer.rl.observe import SIZE  # noqa: E402
from tests.support import ROOT  # noqa: E402

SPEARS = ROOT / "examples" / "spears.json"
GOBLINS = ROOT / "examples" / "goblins.json"
TARGET = (44.0, 18.0)


@pytest.mark.parametrize("path,unit,manoeuvre", [(SPEARS, "spears", "march"),
                                                 (SPEARS, "spears", "advance"),
                                                 (GOBLINS, "goblins", "march")])
def test_gymnasium_checker_passes(path, unit: str, manoeuvre: str) -> None:
    env = MoveEnv(path, unit, manoeuvre, Objective("target_distance", TARGET))
    check_env(env, skip_render_check=True)


def test_registered_and_made_by_gymnasium() -> None:
    env = gymnasium.make(ENV_ID, scenario=str(SPEARS), unit="spears", manoeuvre="march",
                         objective="forward")
    obs, info = env.reset(seed=3)
    assert obs.shape == (SIZE,) and info["action_mask"].dtype == bool


def test_reset_is_deterministic_and_the_mask_is_the_lattice_mask() -> None:
    env = MoveEnv(load_scenario(SPEARS), "spears", "march", "forward")
    first, info1 = env.reset(seed=1)
    again, info2 = env.reset(seed=2)
    assert np.array_equal(first, again)
    assert np.array_equal(info1["action_mask"], info2["action_mask"])
    assert np.array_equal(env.action_masks(), env.actions.mask())


def test_a_masked_action_is_rewarded_by_the_distance_the_checker_measures() -> None:
    env = MoveEnv(SPEARS, "spears", "march", Objective("target_distance", TARGET))
    _, info = env.reset(seed=0)
    agent = RandomAgent(seed=5)
    for _ in range(10):
        _, reward, terminated, truncated, step = env.step(agent.act(info["action_mask"]))
        assert terminated and not truncated and step["legal"] and step["masked"]
        # target_distance is the Euclidean distance of the end centre (to the norm's 0.01%)
        assert reward == pytest.approx(-math.dist(step["verdict"].end_centre, TARGET),
                                       rel=1e-3)


def test_forward_rewards_the_inches_gained() -> None:
    env = MoveEnv(SPEARS, "spears", "march", "forward")
    _, info = env.reset()
    action = HeuristicAgent().act(info["action_mask"], env.actions)
    obs, reward, *_, step = env.step(action)
    assert step["legal"] and reward == pytest.approx(step["verdict"].end_centre[1] - 10.0)
    assert reward > 7.0  # spears March 8" straight ahead on this table


def test_an_action_the_checker_refuses_earns_the_illegal_reward() -> None:
    env = MoveEnv(SPEARS, "spears", "march", "forward", illegal_reward=-99.0)
    start, _ = env.reset()
    far = env.actions.action_of(0, env.actions.facings.index(0.0), env.actions.cells - 1)
    assert not env.action_masks()[far]  # 8" right and 8" ahead: out of a March's reach
    obs, reward, terminated, _, step = env.step(far)
    assert reward == -99.0 and terminated and not step["legal"]
    assert np.array_equal(obs, start)


def test_bad_arguments_are_refused() -> None:
    with pytest.raises(InvalidInputError):
        MoveEnv(SPEARS, "nobody", "march", "forward")
    with pytest.raises(InvalidInputError):
        MoveEnv(SPEARS, "spears", "march", "closest")
    with pytest.raises(InvalidInputError):
        MoveEnv(42, "spears", "march", "forward")


def test_the_macro_action_moves_to_the_cell_by_the_solver() -> None:
    env = MacroMoveEnv(SPEARS, "spears", "march", Objective("target_distance", TARGET))
    _, info = env.reset()
    mask = info["action_mask"]
    assert mask.shape == (env.actions.cells,) and mask.any() and not mask.all()
    cell = int(np.flatnonzero(mask)[-1])
    _, reward, terminated, _, step = env.step(cell)
    assert step["legal"] and terminated and step["verdict"].legal
    # A legal move ends at the cell's centre (the mask says so): the solver finds it.
    assert step["status"].endswith("OPTIMAL")
    assert math.dist(step["verdict"].end_centre, env.actions.world_centres[cell]) < 0.01
    assert reward == pytest.approx(-math.dist(step["verdict"].end_centre, TARGET), rel=1e-3)
