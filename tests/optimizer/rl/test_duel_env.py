"""DuelEnv: PettingZoo's API test, turns, zero-sum rewards, masks of the agent's next unit."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

pytest.importorskip("pettingzoo")

from pettingzoo.test import api_test  # noqa: E402

from optimizer import InvalidInputError, load_scenario  # noqa: E402
from optimizer.queries import check_move  # noqa: E402
from optimizer.rl import DuelEnv, HeuristicAgent, RandomAgent  # noqa: E402
from tests.support import ROOT  # noqa: E402

SPEARS = ROOT / "examples" / "spears.json"
GOBLINS = ROOT / "examples" / "goblins.json"


@pytest.mark.parametrize("path", [SPEARS, GOBLINS], ids=["t9a", "whfb7"])
def test_pettingzoo_api_test_passes(path) -> None:
    api_test(DuelEnv(path, turns=2), num_cycles=6)


def play(env: DuelEnv) -> tuple[dict[str, float], int, list[dict]]:
    """A game: the first player heuristic, the second random; returns and infos."""
    env.reset(seed=0)
    heuristic, random = HeuristicAgent(), RandomAgent(seed=1)
    totals = {a: 0.0 for a in env.possible_agents}
    steps, infos = 0, []
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, info = env.last()
        totals[agent] += reward
        if info:
            infos.append(info)
        if terminated or truncated:
            env.step(None)
            continue
        mask = obs["action_mask"]
        assert mask.dtype == np.int8
        assert np.array_equal(mask.astype(bool)[:env.lattice(agent).n], env.lattice(agent).mask())
        if agent == env.possible_agents[0]:
            action = heuristic.act(mask, env.lattice(agent), env.target(agent))
        else:
            action = random.act(mask)
        scenario = env.scenario
        env.step(action)
        steps += 1
        verdict = check_move(scenario, env.infos[agent]["move"])
        assert verdict.legal and env.infos[agent]["legal"]
    return totals, steps, infos


def test_a_game_ends_after_its_turns_and_is_zero_sum() -> None:
    env = DuelEnv(SPEARS, turns=3)
    totals, steps, infos = play(env)
    assert steps == 6 and env.agents == []  # every agent terminated, then removed
    red, blue = env.possible_agents
    assert red == "red"  # the active player moves first
    assert totals[red] == pytest.approx(-totals[blue]) and totals[red] != 0.0


def test_the_heuristic_closes_on_the_objective() -> None:
    env = DuelEnv(SPEARS, turns=2, objectives=[(36.0, 24.0)])
    before = np.hypot(*np.subtract(env.start.unit("spears").pose.centre, (36.0, 24.0)))
    play(env)
    after = np.hypot(*np.subtract(env.scenario.unit("spears").pose.centre, (36.0, 24.0)))
    assert after < before - 5.0


def test_a_refused_move_keeps_the_unit_and_costs_the_illegal_reward() -> None:
    env = DuelEnv(SPEARS, turns=1, illegal_reward=-7.0)
    env.reset()
    lattice = env.lattice("red")
    refused = int(np.flatnonzero(~lattice.mask())[-1])
    env.step(refused)
    assert env.rewards == {"red": -7.0, "blue": 7.0}
    assert env.scenario.unit("spears") == env.start.unit("spears")


def test_bad_arguments_are_refused() -> None:
    with pytest.raises(InvalidInputError):
        DuelEnv(SPEARS, turns=0)
    with pytest.raises(InvalidInputError):
        DuelEnv(SPEARS, manoeuvre="reform")
    scenario = load_scenario(SPEARS)
    one_player = scenario.with_unit(replace(scenario.unit("orcs"), player="red"))
    with pytest.raises(InvalidInputError, match="two players"):
        DuelEnv(one_player)
