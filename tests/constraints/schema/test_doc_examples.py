"""docs/formats.md's JSON examples against the schemas: every complete example validates as
the format its section describes.  Examples that leave parts out (`"..."` for an elided list
item or key) cannot; they are the outputs of the commands tests/test_docs_examples.py runs,
and tests/optimizer/cli/test_schema_cli.py validates those commands' whole outputs."""

from __future__ import annotations

import json
import re
from typing import Any

import jsonschema
import pytest

from constraints.schema import json_schema, validate
from tests.support import ROOT

FORMATS = (ROOT / "docs" / "formats.md").read_text(encoding="utf-8")


def elided(value: Any) -> bool:
    """Whether `value` leaves parts out: a `"..."` list item or key anywhere in it."""
    if isinstance(value, dict):
        return "..." in value or any(elided(v) for v in value.values())
    if isinstance(value, list):
        return "..." in value or any(elided(v) for v in value)
    return False


def examples() -> list[tuple[int, Any]]:
    """(line, value) of every JSON value in a ```json block (a block may hold several, one
    after another); fragments that are not JSON values are left out."""
    found = []
    decoder = json.JSONDecoder()
    for block in re.finditer(r"```json\n(.*?)```", FORMATS, re.S):
        text, at, values = block.group(1), 0, []
        line = FORMATS[:block.start()].count("\n") + 2
        try:
            while text[at:].strip():
                at += len(text[at:]) - len(text[at:].lstrip())
                value, end = decoder.raw_decode(text, at)
                values.append((line + text[:at].count("\n"), value))
                at = end
        except json.JSONDecodeError:
            continue  # a fragment ("referee": {...}), shown inside a result
        found += values if all(isinstance(v, dict) for _, v in values) else []
    return found


# The format of each complete example, in the order docs/formats.md shows them.
EXPECTED = ["scenario", "move", "move", "move", "move", "move", "move", "casualties",
            "scenario", "move", "move", "move", "scenario", "route", "route-result",
            "lof-result"]
ELIDED = 5  # the verdict (its models), search, nudge, judged-nudge and Combat Reform results


def test_the_examples_are_the_expected_ones() -> None:
    found = examples()
    assert len([v for _, v in found if elided(v)]) == ELIDED
    assert len([v for _, v in found if not elided(v)]) == len(EXPECTED)


@pytest.mark.parametrize("index", range(len(EXPECTED)))
def test_each_complete_example_validates(index: int) -> None:
    line, value = [(n, v) for n, v in examples() if not elided(v)][index]
    name = EXPECTED[index]
    validate(name, value)
    errors = [e.message for e in jsonschema.Draft202012Validator(json_schema(name))
              .iter_errors(value)]
    assert errors == [], f"docs/formats.md line {line}"
