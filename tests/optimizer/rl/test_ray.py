"""Ray: the batch mask on 2 local actors is the local mask bit for bit; vector environments
on actors step as the local ones do.  Skipped only where Ray is not installed (CI installs
the `ray` extra)."""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np
import pytest

ray = pytest.importorskip("ray")
pytest.importorskip("gymnasium")

from optimizer import InvalidInputError, legal_mask, load_scenario  # noqa: E402
from optimizer.rl import MoveEnv, RandomAgent, ray_legal_mask, ray_legal_masks  # noqa: E402
from optimizer.rl.ray_mask import MIN_CHUNK, shutdown_actors  # noqa: E402
from tests.support import ROOT  # noqa: E402

SPEARS = ROOT / "examples" / "spears.json"
N = 4 * MIN_CHUNK  # four chunks: both workers judge some


@pytest.fixture(scope="module")
def local_ray() -> Iterator[None]:
    ray.init(num_cpus=2, include_dashboard=False, logging_level="WARNING",
             log_to_driver=False)
    try:
        yield
    finally:
        shutdown_actors()
        ray.shutdown()


def poses(n: int, seed: int = 0, near: float = 6.0) -> tuple[np.ndarray, np.ndarray]:
    """End poses about spears' start (36, 10), some of them legal."""
    rng = np.random.default_rng(seed)
    centres = np.stack([rng.uniform(36.0 - near, 36.0 + near, n),
                        rng.uniform(6.0, 12.0 + near, n)], axis=1)
    facings = rng.choice(np.arange(0.0, 181.0, 15.0), n)
    return centres, facings


@pytest.mark.parametrize("workers", [1, 2])
def test_the_mask_on_ray_is_the_local_mask(local_ray: None, workers: int) -> None:
    scenario = load_scenario(SPEARS)
    centres, facings = poses(N)
    local = legal_mask(scenario, "spears", "march", centres, facings)
    remote = ray_legal_mask(scenario, "spears", "march", centres, facings, workers=workers)
    assert remote.dtype == bool and np.array_equal(remote, local)
    assert 0 < local.sum() < N


def test_many_jobs_with_pivots_and_files(local_ray: None) -> None:
    scenario = load_scenario(SPEARS)
    centres, facings = poses(MIN_CHUNK + 500, seed=1, near=3.0)
    pivots = np.where(np.arange(len(facings)) % 2 == 0, 0.0, 45.0)
    jobs = [{"scenario": scenario, "unit_id": "spears", "manoeuvre": "advance",
             "centres": centres, "facings": facings, "pivots": pivots},
            {"scenario": scenario, "unit_id": "spears", "manoeuvre": "reform",
             "centres": centres[:800], "facings": facings[:800], "files": 6},
            {"scenario": scenario, "unit_id": "orcs", "manoeuvre": "march",
             "centres": np.zeros((0, 2)), "facings": np.zeros(0)}]
    got = ray_legal_masks(jobs, workers=2)
    assert np.array_equal(got[0], legal_mask(scenario, "spears", "advance", centres, facings,
                                             pivots=pivots))
    assert np.array_equal(got[1], legal_mask(scenario, "spears", "reform", centres[:800],
                                             facings[:800], files=6))
    assert got[0].any() and got[1].any() and got[2].shape == (0,)


def test_bad_input_is_refused_as_locally(local_ray: None) -> None:
    scenario = load_scenario(SPEARS)
    centres, facings = poses(10)
    facings[3] = np.nan
    with pytest.raises(InvalidInputError) as error:
        ray_legal_mask(scenario, "spears", "march", centres, facings, workers=2)
    assert error.value.path == "facings"
    with pytest.raises(InvalidInputError, match="unit_id"):
        ray_legal_mask(scenario, "nobody", "march", centres, facings, workers=2)
    with pytest.raises(InvalidInputError, match="workers"):
        ray_legal_mask(scenario, "spears", "march", centres, facings, workers=3)
    with pytest.raises(InvalidInputError):
        ray_legal_mask(scenario, "spears", "march", centres, facings[:5], workers=1)


def test_vector_envs_on_ray_step_as_local_ones(local_ray: None) -> None:
    from optimizer.rl import RayVectorEnv

    shutdown_actors()  # their CPUs go to the environments' actors
    target = {"name": "target_distance", "point": (44.0, 18.0)}

    def make() -> MoveEnv:
        return MoveEnv(SPEARS, "spears", "march", target)

    envs = RayVectorEnv([make, make])
    local = make()
    try:
        obs, info = envs.reset(seed=0)
        assert obs.shape == (2, *local.observation_space.shape)
        assert np.array_equal(info["action_mask"][1], local.action_masks())
        agent = RandomAgent(seed=2)
        for _ in range(3):
            actions = [agent.act(mask) for mask in envs.action_masks()]
            _, rewards, terminated, _, infos = envs.step(actions)
            expected = [local.step(a)[1] for a in actions]
            assert rewards.tolist() == pytest.approx(expected)
            assert terminated.all() and infos["_final_obs"].all()  # one-move episodes
    finally:
        envs.close()
