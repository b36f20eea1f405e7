"""Answers are strict JSON: a measurement that is not finite (a distance to nothing) is
written null, never Python's `Infinity`, which a browser's JSON.parse refuses."""

from __future__ import annotations

import json
import math

import pytest

from constraints.core.referee import CloseCall
from constraints.core.verdict import Violation, json_number


@pytest.mark.parametrize(("value", "written"), [
    (1.23456789, 1.234568), (0.0, 0.0), (-2.5, -2.5),
    (math.inf, None), (-math.inf, None), (math.nan, None),
])
def test_json_number(value: float, written: float | None) -> None:
    assert json_number(value) == written


def test_a_violation_against_no_limit_is_strict_json() -> None:
    out = Violation("t9a.nudge.enemy", math.inf, 1.0, "in", "no enemy").to_json()
    text = json.dumps(out, allow_nan=False)  # raises on a non-finite number
    assert json.loads(text)["measured"] is None and json.loads(text)["limit"] == 1.0


def test_a_close_call_is_strict_json() -> None:
    call = CloseCall("t9a.unit_spacing.end", math.inf, 1.0, -math.inf)
    assert json.loads(json.dumps(call.to_json(), allow_nan=False))["margin"] is None


@pytest.mark.parametrize(("data", "written"), [
    ({"a": 1.5, "b": [1, 2.0]}, '{"a": 1.5, "b": [1, 2.0]}'),
    ({"a": math.inf, "b": [-math.inf, (math.nan, 3)]}, '{"a": null, "b": [null, [null, 3]]}'),
    ("Infinity", '"Infinity"'),  # a string stays a string
])
def test_answers_are_written_as_strict_json(data, written) -> None:
    from constraints.core.jsonwrite import dumps

    assert dumps(data) == written
    json.loads(dumps(data), parse_constant=lambda token: pytest.fail(token))
