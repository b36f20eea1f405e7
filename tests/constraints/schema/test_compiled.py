"""The models' validators kept between runs (constraints/schema/compiled.py): a stored core
schema, with records for the model classes and the checks' stand-ins, validates exactly as
the model does, is read back instead of rebuilt, and a damaged or stale copy is replaced."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from pydantic import TypeAdapter, ValidationError

from constraints.schema import SCHEMAS, compiled
from constraints.schema.move import T9AMove
from constraints.schema.scenario import T9AScenario
from tests.constraints.schema.test_models import BROKEN, INPUTS, _set, load


@pytest.fixture
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setattr(compiled, "CACHE", tmp_path)
    return tmp_path


def _errors(validate: Any, text: str) -> list[Any]:
    try:
        validate(text)
    except ValidationError as exc:
        return exc.errors(include_url=False)
    return []


def test_a_stored_schema_validates_as_the_model(cache: Path) -> None:
    compiled.validator("scenario:T9AScenario")  # builds and stores
    stored = compiled.validator("scenario:T9AScenario")  # reads it back
    assert len(list(cache.glob("*.core.pickle"))) == 1
    cases = [(n, p, v) for n, p, v in BROKEN if INPUTS[n] == "scenario"
             and load(n).get("rules", "t9a") == "t9a"]
    assert len(cases) > 20
    for name, path, value in cases:
        text = json.dumps(_set(load(name), path, value))
        assert _errors(stored.validate_json, text) \
            == _errors(TypeAdapter(T9AScenario).validate_json, text), (name, path)
        assert _errors(stored.validate_json, text) != []
    good = stored.validate_json(json.dumps(load("spears.json")))
    assert type(good).__name__ == "T9AScenario" and not isinstance(good, T9AScenario)
    assert good.units[0].id == "spears" and type(good.units[0]).__name__ == "T9AUnit"
    assert good.model_fields_set == set(load("spears.json"))


def test_a_stored_schema_is_read_not_rebuilt(cache: Path, monkeypatch: pytest.MonkeyPatch) \
        -> None:
    compiled.validator("move:T9AMove")

    def rebuilt(*args: Any, **kwargs: Any) -> None:
        raise AssertionError("rebuilt")

    monkeypatch.setattr(T9AMove, "model_rebuild", rebuilt)
    found = compiled.validator("move:T9AMove")
    assert found.validate_json('{"unit": "a", "manoeuvre": "reform", "files": 3, '
                               '"centre": [1, 2], "facing": 0}').files == 3


def test_a_damaged_or_stale_copy_is_replaced(cache: Path) -> None:
    compiled.validator("move:T9AMove")
    (stored,) = cache.glob("*.core.pickle")
    stored.write_bytes(b"not a pickle")
    stale = cache / stored.name.replace(compiled.key(), "0" * 16)
    stale.write_bytes(b"old")
    assert compiled.validator("move:T9AMove").validate_json(
        '{"unit": "a", "manoeuvre": "post_combat_pivot", "pivot": 90}').pivot == 90.0
    assert [p.name for p in cache.glob("*.core.pickle")] == [stored.name]
    assert stored.read_bytes() != b"not a pickle"


def test_an_unwritable_folder_only_costs_time(tmp_path: Path,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    blocked = tmp_path / "file"
    blocked.write_text("")
    monkeypatch.setattr(compiled, "CACHE", blocked / "sub")  # cannot be made
    assert compiled.validator("move:T9AMove").validate_json(
        '{"unit": "a", "manoeuvre": "post_combat_pivot"}').unit == "a"


@pytest.mark.parametrize("name", ["scenario:T9AScenario", "scenario:Whfb7Scenario",
                                  "scenario:InfinityScenario", "scenario:Scenario",
                                  "move:T9AMove", "move:Whfb7Move", "route:Route",
                                  "casualties:Casualties", "combat_result:CombatResult",
                                  "combat_reform:CombatReformProposal", *SCHEMAS.values()])
def test_every_model_is_stood_in_for(name: str) -> None:
    """No file or result model falls back to pydantic: each has records and stand-ins for its
    checks."""
    assert compiled._light(name) is not None


def test_reading_a_stored_validator_loads_no_pydantic() -> None:
    """A run that finds the validators stored (every run after the first) imports no
    pydantic to read a scenario and a move (start-up, benchmarks/bench_startup.py)."""
    import subprocess
    import sys

    from tests.support import ROOT

    probe = ("import json, sys\n"
             "from constraints.core.scenario_io import load_scenario\n"
             "from constraints.t9a.move_io import load_move\n"
             "load_scenario('examples/spears.json'); load_move('examples/spears_march.json')\n"
             "print(json.dumps(sorted(m for m in sys.modules if m.split('.')[0] == 'pydantic')))")
    runs = [subprocess.run([sys.executable, "-c", probe], cwd=ROOT, capture_output=True,
                           text=True, timeout=120, check=True) for _ in range(2)]
    assert json.loads(runs[1].stdout) == []
