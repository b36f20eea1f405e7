"""pydantic's errors translated (constraints/schema/errors.py): one line of at most 280
characters naming the file and the JSON path, in the readers' words, never pydantic's text.

A seeded fuzz of hostile changes to the bundled examples (the strategies of
tests/optimizer/cli/test_fuzz.py) checks the line and that the models never refuse what the
hand-written reader accepts; the table of broken files of test_models.py measures how close
the words come to the readers' (the path is the reader's on all but one)."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from constraints.errors import MAX_MESSAGE, InvalidInputError
from constraints.schema.errors import read
from tests.constraints.schema.test_models import BROKEN, INPUTS, _set, load, reader_refuses
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
        # What the reader accepts, the model accepts: a model is never stricter.
        assert reader_refuses(fmt, doc), (str(error), doc)


@pytest.mark.parametrize("value", [float("nan"), float("inf"), 10**400, "\ud800", "x" * 100_000,
                                   None, [], {}, True])
def test_hostile_values_give_one_translated_line(value: Any) -> None:
    doc = _set(load("spears.json"), ("units", 0, "base", 0), value)
    with pytest.raises(InvalidInputError) as caught:
        read("scenario", doc, SOURCE)
    assert_one_translated_line(caught.value)
    assert caught.value.path == "$.units[0].base[0]"


# Where the path differs from the reader's: the reader names the item listed twice, the
# model the list.
OTHER_PATH = {("goblins.json", ("units", 0, "command"), '["champion", "champion"]')}


def _key(name: str, path: tuple[Any, ...], value: Any) -> tuple[Any, ...]:
    return (name, path, json.dumps(value, sort_keys=True, default=str))


def test_the_paths_and_words_are_the_readers() -> None:
    same_path = same_words = 0
    for name, path, value in BROKEN:
        fmt, doc = INPUTS[name], _set(load(name), path, value)
        with pytest.raises(InvalidInputError) as mine:
            read(fmt, doc, SOURCE)
        with pytest.raises(InvalidInputError) as theirs:
            _read_by_reader(fmt, doc)
        if _key(name, path, value) not in OTHER_PATH:
            assert mine.value.path == theirs.value.path, (name, path, str(mine.value))
        same_path += mine.value.path == theirs.value.path
        same_words += (mine.value.path, mine.value.problem) == (theirs.value.path,
                                                               theirs.value.problem)
    # A ratchet, not a goal: the same words on 60 of 72 today.
    assert (len(BROKEN), same_path, same_words) == (72, 71, 60)


def _read_by_reader(fmt: str, doc: Any) -> None:
    assert reader_refuses(fmt, doc)
    # reader_refuses swallowed it: raise it again for the comparison
    from constraints.core.scenario_io import scenario_from_json
    from constraints.infinity.route import route_from_json
    from constraints.t9a.combat_reform_io import combat_result_from_json
    from constraints.t9a.move_io import move_from_json as t9a_move
    from constraints.whfb7.move_io import move_from_json as whfb7_move
    from optimizer.nudge.losses import losses_from_json

    if fmt == "scenario":
        scenario_from_json(doc)
    elif fmt == "move":
        (whfb7_move if doc.get("unit") == "goblins" else t9a_move)(doc)
    elif fmt == "route":
        route_from_json(doc)
    elif fmt == "casualties":
        losses_from_json(doc, scenario_from_json(load("melee.json")))
    else:
        combat_result_from_json(doc)
