"""tests.depth: a quick run takes a table's first rows, a thorough run every row, and any
other MANOEUVRE_TESTS is refused by name."""

from __future__ import annotations

import importlib

import pytest

import tests.depth as depth


@pytest.fixture
def reload_depth(monkeypatch: pytest.MonkeyPatch):
    """tests.depth made again under a MANOEUVRE_TESTS, then as the run set it."""
    def made(value: str):
        monkeypatch.setenv("MANOEUVRE_TESTS", value)
        return importlib.reload(depth)
    yield made
    monkeypatch.undo()
    importlib.reload(depth)


@pytest.mark.parametrize(("value", "expected"), [
    ("", [0, 1]),
    ("quick", [0, 1]),
    ("thorough", [0, 1, 2, 3, 4]),
])
def test_a_quick_run_takes_the_first_rows_and_a_thorough_run_every_row(reload_depth, value,
                                                                        expected):
    assert reload_depth(value).rows(range(5), 2) == expected


def test_an_unknown_depth_and_an_empty_quick_run_are_refused(reload_depth):
    with pytest.raises(ValueError, match="MANOEUVRE_TESTS='deep'"):
        reload_depth("deep")
    with pytest.raises(ValueError, match="at least one row"):
        reload_depth("quick").rows(range(5), 0)
