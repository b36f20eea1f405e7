"""pydantic's errors translated (constraints/schema/errors.py): one line of at most 280
characters naming the file and the JSON path, in the readers' words, never pydantic's text.

A seeded fuzz of hostile changes to the bundled examples (the strategies of
tests/optimizer/cli/test_fuzz.py) checks the line, and that what `read` refuses the readers
refuse too (they validate through the models, then check what needs the scenario); on the
table of broken files of test_models.py `read` and the readers name the same path and
problem."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from constraints.errors import MAX_MESSAGE, InvalidInputError
from constraints.schema.errors import read
from tests.constraints.schema.test_models import (
    BROKEN,
    DELETE,
    INPUTS,
    _set,
    load,
    reader_refuses,
)
from tests.optimizer.cli.test_fuzz import BASE, mutated

RAW = ("Input should", "pydantic", "validation error", "type=", "errors.pydantic.dev",
       "function-after", "constrained-")
SOURCE = "some/folder/input.json"


def assert_one_translated_line(error: InvalidInputError) -> None:
    line = str(error)
    assert "\n" not in line and len(line) <= MAX_MESSAGE, line
    assert line.startswith(f"{SOURCE}: $"), line
    assert not any(word in line for word in RAW), line


FUZZED = sorted(INPUTS)


@settings(max_examples=max(1, BASE * 5), deadline=None, derandomize=True, database=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(data=st.data(), name=st.sampled_from(FUZZED))
def test_hostile_files_give_one_translated_line(data: st.DataObject, name: str) -> None:
    fmt = INPUTS[name]
    doc = data.draw(mutated(load(name)))
    try:
        read(fmt, doc, SOURCE)
    except InvalidInputError as error:
        assert_one_translated_line(error)
        # What `read` refuses, the reader refuses (for a move: its system's reader).
        assert reader_refuses(fmt, doc), (str(error), doc)


@pytest.mark.parametrize("value", [float("nan"), float("inf"), 10**400, "\ud800", "x" * 100_000,
                                   None, [], {}, True])
def test_hostile_values_give_one_translated_line(value: Any) -> None:
    doc = _set(load("spears.json"), ("units", 0, "base", 0), value)
    with pytest.raises(InvalidInputError) as caught:
        read("scenario", doc, SOURCE)
    assert_one_translated_line(caught.value)
    assert caught.value.path == "$.units[0].base[0]"


def _key(name: str, path: tuple[Any, ...], value: Any) -> tuple[Any, ...]:
    return (name, path, json.dumps(value, sort_keys=True, default=str))


# Where the words differ: `read("move")` does not know the system, so it names the
# manoeuvres of both (a reader knows the scenario's rules).
OTHER_WORDS = {("spears_march.json", ("manoeuvre",), '"charge"')}


def test_the_paths_and_words_are_the_readers() -> None:
    """`read` (any system's model for a move) and the readers (which validate through their
    system's model, then check what needs the scenario or geometry) say the same."""
    for name, path, value in BROKEN:
        fmt, doc = INPUTS[name], _set(load(name), path, value)
        with pytest.raises(InvalidInputError) as mine:
            read(fmt, doc, SOURCE)
        with pytest.raises(InvalidInputError) as theirs:
            _read_by_reader(fmt, doc)  # the hand-written reader alone
        assert mine.value.path == theirs.value.path, (name, path, str(mine.value))
        if _key(name, path, value) not in OTHER_WORDS:
            assert mine.value.problem == theirs.value.problem, (name, path, str(mine.value))


def _read_by_reader(fmt: str, doc: Any) -> None:
    """The hand-written reader of `fmt` alone (`__wrapped__`: without the model's words)."""
    from constraints.core.scenario_io import scenario_from_json
    from constraints.infinity.route import route_from_json
    from constraints.t9a.combat_reform_io import combat_reform_from_json, combat_result_from_json
    from constraints.t9a.move_io import move_from_json as t9a_move
    from constraints.whfb7.move_io import move_from_json as whfb7_move
    from optimizer.nudge.losses import losses_from_json

    if fmt == "scenario":
        scenario_from_json.__wrapped__(doc)
    elif fmt == "move":
        (whfb7_move if doc.get("unit") == "goblins" else t9a_move).__wrapped__(doc)
    elif fmt == "route":
        route_from_json.__wrapped__(doc)
    elif fmt == "casualties":
        losses_from_json.__wrapped__(doc, scenario_from_json(load("melee.json")))
    elif fmt == "combat-reform":
        combat_reform_from_json.__wrapped__(doc)
    else:
        combat_result_from_json.__wrapped__(doc)


PROPOSAL = {"manoeuvre": "combat_reform",
            "reforms": [{"unit": "A", "files": 6, "centre": [30.1, 20.0], "facing": 90.0,
                         "models": [{"id": "hero", "slot": [0, 2]}]}]}
BROKEN_PROPOSALS = [
    (("manoeuvre",), "reform"), (("reforms",), []), (("reforms", 0, "files"), 0),
    (("reforms", 0, "models", 0, "slot"), [0]), (("reforms", 0, "extra"), 1),
    (("reforms", 0, "unit"), DELETE), (("reforms", 0, "centre"), [1e7, 0]),
]


@pytest.mark.parametrize(("path", "value"), BROKEN_PROPOSALS)
def test_a_proposal_is_worded_as_by_its_reader(path: tuple[Any, ...], value: Any) -> None:
    doc = _set(PROPOSAL, path, value)
    with pytest.raises(InvalidInputError) as mine:
        read("combat-reform", doc, SOURCE)
    with pytest.raises(InvalidInputError) as theirs:
        _read_by_reader("combat-reform", doc)
    assert (mine.value.path, mine.value.problem) == (theirs.value.path, theirs.value.problem)
