"""The batch mask on Ray actors, for when one machine's cores are not enough.

`ray_legal_mask` takes `legal_mask`'s arguments plus `workers`; `ray_legal_masks` many such
jobs.  The poses go to Ray's object store once (`ray.put`); they are cut into chunks of at
least `MIN_CHUNK` poses (a chunk takes some milliseconds, against Ray's fraction of a
millisecond per call), and Ray's `ActorPool` hands the chunks to `workers` actors, one CPU
each.  An actor keeps the judges it has prepared (`BatchJudge`, one per scenario, unit and
manoeuvre), so a second call on the same position pays only for its poses.  The answer is
the local call's, bit for bit: each pose is judged by the same judge code whatever the chunk.

Ray is started on first use: `ray.init()` with no cluster (the local machine), or the cluster
named by `RAY_ADDRESS` (Ray reads it).  The actors stay up between calls, each holding a CPU,
until `shutdown_actors()`; a call with fewer workers uses the first of them.
"""

from __future__ import annotations

import hashlib
import logging
import pickle
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import ray
from ray.util import ActorPool

from optimizer import BatchJudge, InvalidInputError, Scenario, legal_mask

MIN_CHUNK = 5_000  # poses: tens of milliseconds of judging at least (bench_rl.py)
CHUNKS_PER_WORKER = 4  # so a slow chunk does not leave the other workers idle
KEPT_JUDGES = 16  # per actor

_ACTORS: list[Any] = []  # the first `workers` of them serve a call
_JOB: list[str] = []  # the Ray job the actors belong to (a new ray.init starts afresh)


@ray.remote(num_cpus=1)
class MaskActor:
    """Holds prepared judges and judges chunks of poses."""

    def __init__(self) -> None:
        self.judges: dict[str, BatchJudge] = {}

    def mask(self, key: str, scenario: Scenario, unit_id: str, manoeuvre: str,
             arrays: tuple[np.ndarray, np.ndarray, np.ndarray | None, np.ndarray | None],
             start: int, stop: int) -> np.ndarray | tuple[str, str]:
        """The chunk's mask, or (problem, path) of the InvalidInputError it raised (its
        fields survive the trip that way: a pickled error keeps only its message)."""
        try:
            return self._mask(key, scenario, unit_id, manoeuvre, arrays, start, stop)
        except InvalidInputError as error:
            return error.problem, error.path

    def _mask(self, key: str, scenario: Scenario, unit_id: str, manoeuvre: str,
              arrays: tuple[np.ndarray, np.ndarray, np.ndarray | None, np.ndarray | None],
              start: int, stop: int) -> np.ndarray:
        judge = self.judges.get(key)
        if judge is None:
            if len(self.judges) >= KEPT_JUDGES:
                self.judges.pop(next(iter(self.judges)))
            judge = self.judges[key] = BatchJudge(scenario, unit_id, manoeuvre)
        centres, facings, pivots, files = arrays
        return judge.mask(centres[start:stop], facings[start:stop],
                          pivots=None if pivots is None else pivots[start:stop],
                          files=None if files is None else files[start:stop])


def ensure_ray() -> None:
    """Start Ray (or join the cluster at RAY_ADDRESS) unless it is running."""
    if not ray.is_initialized():
        ray.init(include_dashboard=False, logging_level=logging.WARNING, log_to_driver=False)


def actors(workers: int | None) -> list[Any]:
    """`workers` mask actors (default: one per CPU of the cluster), kept between calls."""
    ensure_ray()
    job = ray.get_runtime_context().get_job_id()
    if [job] != _JOB:
        _ACTORS.clear()
        _JOB[:] = [job]
    cpus = int(ray.cluster_resources().get("CPU", 1))
    count = cpus if workers is None else workers
    if not isinstance(count, int) or isinstance(count, bool) or not 1 <= count <= cpus:
        raise InvalidInputError(f"expected workers from 1 to the cluster's {cpus} CPUs",
                                path="workers")
    while len(_ACTORS) < count:
        _ACTORS.append(MaskActor.remote())  # type: ignore[attr-defined]
    return _ACTORS[:count]


def shutdown_actors() -> None:
    """End the mask actors (Ray itself keeps running)."""
    for actor in _ACTORS:
        ray.kill(actor)
    _ACTORS.clear()


def ray_legal_mask(scenario: Scenario, unit_id: str, manoeuvre: str, centres: Any,
                   facings: Any, *, pivots: Any = None, files: Any = None,
                   workers: int | None = None) -> np.ndarray:
    """`legal_mask` judged on Ray actors: whether each end pose is legal (sound).

    Parameters
    ----------
    scenario, unit_id, manoeuvre, centres, facings, pivots, files
        As `optimizer.legal_mask`.
    workers : int, optional
        How many actors (one CPU each) share the poses; default: the cluster's CPUs.

    Returns
    -------
    array (N,) of bool, equal to `legal_mask`'s.

    Raises
    ------
    InvalidInputError
        As `legal_mask`, and for `workers` not from 1 to the cluster's CPUs.
    """
    job = {"scenario": scenario, "unit_id": unit_id, "manoeuvre": manoeuvre,
           "centres": centres, "facings": facings, "pivots": pivots, "files": files}
    return ray_legal_masks([job], workers=workers)[0]


def ray_legal_masks(jobs: Sequence[Mapping[str, Any]], *,
                    workers: int | None = None) -> list[np.ndarray]:
    """`ray_legal_mask` of many jobs at once (each a mapping of `legal_mask`'s argument
    names: scenario, unit_id, manoeuvre, centres, facings, and optionally pivots, files);
    their chunks share the actors."""
    group = actors(workers)
    pool, count = ActorPool(group), len(group)
    tasks: list[tuple[Any, ...]] = []
    sizes = []
    for k, job in enumerate(jobs):
        scenario, unit_id, manoeuvre, arrays = _job(job, k)
        n = len(arrays[1])
        sizes.append(n)
        key = _key(scenario, unit_id, manoeuvre)
        scenario_ref, arrays_ref = ray.put(scenario), ray.put(arrays)
        for start, stop in _chunks(n, count):
            tasks.append((key, scenario_ref, unit_id, manoeuvre, arrays_ref, start, stop))
    parts = list(pool.map(lambda actor, task: actor.mask.remote(*task), tasks))
    for part in parts:
        if isinstance(part, tuple):
            problem, path = part
            raise InvalidInputError(problem, path=path)
    out, at = [], 0
    for n in sizes:
        chunks = len(_chunks(n, count))
        out.append(np.concatenate(parts[at:at + chunks]) if chunks else np.zeros(0, bool))
        at += chunks
    return out


def _job(job: Mapping[str, Any], k: int) -> tuple[Scenario, str, str, tuple[Any, ...]]:
    """A job's request, checked as `legal_mask` checks it, and its poses as arrays."""
    if not isinstance(job, Mapping):
        raise InvalidInputError("expected a mapping of legal_mask's arguments",
                                path=f"jobs[{k}]")
    missing = {"scenario", "unit_id", "manoeuvre", "centres", "facings"} - set(job)
    if missing:
        raise InvalidInputError(f"missing {', '.join(sorted(missing))}", path=f"jobs[{k}]")
    scenario, unit_id, manoeuvre = job["scenario"], job["unit_id"], job["manoeuvre"]
    # No poses: the request's own checks (scenario, unit, manoeuvre) raise here, not on Ray.
    legal_mask(scenario, unit_id, manoeuvre, np.zeros((0, 2)), np.zeros(0))
    centres = _array(job["centres"], "centres", float)
    facings = _array(job["facings"], "facings", float)
    if centres.ndim != 2 or centres.shape[1:] != (2,) or facings.shape != (len(centres),):
        raise InvalidInputError(f"expected centres (N, 2) and facings (N,), got "
                                f"{centres.shape} and {facings.shape}", path=f"jobs[{k}]")
    n = len(centres)
    pivots, files = (None if job.get(name) is None else
                     np.broadcast_to(_array(job[name], name, kind), (n,)).copy()
                     if np.ndim(job[name]) == 0 else _array(job[name], name, kind)
                     for name, kind in (("pivots", float), ("files", float)))
    for name, values in (("pivots", pivots), ("files", files)):
        if values is not None and values.shape != (n,):
            raise InvalidInputError(f"expected shape (N,), got {values.shape}", path=name)
    return scenario, unit_id, manoeuvre, (centres, facings, pivots, files)


def _array(values: Any, name: str, kind: type) -> np.ndarray:
    try:
        return np.asarray(values, dtype=kind)
    except (TypeError, ValueError):
        raise InvalidInputError("expected an array of numbers", path=name) from None


def _key(scenario: Scenario, unit_id: str, manoeuvre: str) -> str:
    """Names a prepared judge: the scenario's content, the unit and the manoeuvre."""
    content = pickle.dumps((scenario.battlefield, scenario.units, scenario.terrain,
                            scenario.rules, scenario.rule_options))
    return f"{hashlib.sha256(content).hexdigest()}:{unit_id}:{manoeuvre}"


def _chunks(n: int, workers: int) -> list[tuple[int, int]]:
    """(start, stop) of the chunks: at least MIN_CHUNK poses each (all of them in one when
    fewer), at most CHUNKS_PER_WORKER per worker."""
    count = max(1, min(n // MIN_CHUNK, workers * CHUNKS_PER_WORKER)) if n else 0
    edges = np.linspace(0, n, count + 1).astype(int)
    return [(int(a), int(b)) for a, b in zip(edges[:-1], edges[1:], strict=True)]
