"""Registered scenarios: read once, kept (with the batch judges built on them) in a bounded
least-recently-used cache under the sha256 of their canonical JSON (sorted keys, no spaces,
UTF-8), so that a game engine sends a scenario once and then only its id."""

from __future__ import annotations

import hashlib
import json
import threading
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Any

from constraints.core.scenario import Scenario
from constraints.core.scenario_io import scenario_from_json
from constraints.errors import InvalidInputError
from optimizer.service.problems import Problem, invalid

# Batch judges kept per scenario (one per unit and manoeuvre asked about).
JUDGES_PER_SCENARIO = 16


def canonical_id(data: Any) -> str:
    """The sha256 (hex) of `data` written as canonical JSON."""
    text = json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


@dataclass
class Entry:
    scenario: Scenario
    data: Any  # its JSON, for worker processes (optimizer/service/pool.py)
    judges: OrderedDict[tuple[str, str], Any] = field(default_factory=OrderedDict)


class ScenarioCache:
    """Scenarios by id, at most `size` of them; the least recently used goes first."""

    def __init__(self, size: int) -> None:
        self.size = size
        self._entries: OrderedDict[str, Entry] = OrderedDict()
        self._lock = threading.Lock()

    def register(self, data: Any, path: str = "$") -> tuple[str, Entry]:
        """Read the scenario `data` (errors at `path`), or find it already read."""
        key = canonical_id(data)
        with self._lock:
            if key in self._entries:
                self._entries.move_to_end(key)
                return key, self._entries[key]
        try:
            entry = Entry(scenario_from_json(data), data)
        except InvalidInputError as exc:
            raise invalid(exc.in_file(path)) from None
        with self._lock:
            self._entries[key] = entry
            self._entries.move_to_end(key)
            while len(self._entries) > self.size:
                self._entries.popitem(last=False)
        return key, entry

    def get(self, key: Any, path: str = "$.scenario_id") -> Entry:
        """The entry of a registered id; 404 when it is unknown or was evicted."""
        if not isinstance(key, str):
            raise Problem(422, f"{path}: expected a string (a scenario id)", path)
        with self._lock:
            entry = self._entries.get(key)
            if entry is not None:
                self._entries.move_to_end(key)
        if entry is None:
            raise Problem(404, f"{path}: unknown scenario id (never registered, or evicted "
                          "from the cache): register it again with POST /v1/scenarios", path)
        return entry

    def judge(self, entry: Entry, unit: str, manoeuvre: str) -> Any:
        """The batch judge of a unit's manoeuvre on this scenario, built once."""
        from optimizer.pose_mask import pose_judge

        key = (unit, manoeuvre)
        with self._lock:
            found = entry.judges.get(key)
        if found is not None:
            return found
        built = pose_judge(entry.scenario, unit, manoeuvre)
        with self._lock:
            entry.judges[key] = built
            while len(entry.judges) > JUDGES_PER_SCENARIO:
                entry.judges.popitem(last=False)
        return built

    def __len__(self) -> int:
        return len(self._entries)


def scenario_of(cache: ScenarioCache, body: dict[str, Any]) -> Entry:
    """The request's scenario: inline under "scenario", or registered under "scenario_id"."""
    if ("scenario" in body) == ("scenario_id" in body):
        raise Problem(422, "$: give exactly one of 'scenario' and 'scenario_id'", "$")
    if "scenario" in body:
        return cache.register(body["scenario"], "$.scenario")[1]
    return cache.get(body["scenario_id"])
