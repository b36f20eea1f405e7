"""Searches in worker processes (`manoeuvre serve --processes`), beside the default threads:
each process keeps its own scenario cache; a request naming a registered id is sent with
the scenario's JSON (read once per process, then found by its id there)."""

from __future__ import annotations

from typing import Any

from optimizer.service.bodies import answered
from optimizer.service.queries import Service, Settings
from optimizer.service.scenarios import ScenarioCache

_service: Service | None = None  # this worker process's own


def start(settings: Settings) -> None:
    """A worker process's initializer."""
    global _service
    _service = Service(settings, ScenarioCache(settings.cache_size))


def answer(handler: Any, body: Any) -> Any:
    """The handler's answer in this worker process (problems raised as in a thread)."""
    assert _service is not None, "pool.start runs first"
    return answered(handler, _service, body)


def inlined(cache: ScenarioCache, body: Any) -> Any:
    """The body with a registered scenario's id replaced by its JSON (404 when unknown)."""
    if not isinstance(body, dict) or "scenario_id" not in body or "scenario" in body:
        return body
    entry = cache.get(body["scenario_id"])
    return {**{k: v for k, v in body.items() if k != "scenario_id"}, "scenario": entry.data}
