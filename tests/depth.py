"""How deep the suite's heaviest random tables go.

The default run (the README's test command, and CI) takes the first rows of each heavy table,
so that the whole suite stays well under 10 minutes on 2 cores.  A thorough run takes every
row; make one after changing a bound, a cut or a relaxation, where a rare table is the one that
catches a leak (benchmarks/README.md):

    MANOEUVRE_TESTS=thorough .venv/bin/python -m pytest -p no:warnings

The rows are the same in both runs, in the same order, each with its own seed: a row that
fails in a thorough run fails alone too.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from typing import TypeVar

Row = TypeVar("Row")

_DEPTHS = ("", "quick", "thorough")
_DEPTH = os.environ.get("MANOEUVRE_TESTS", "")
if _DEPTH not in _DEPTHS:
    raise ValueError(f"MANOEUVRE_TESTS={_DEPTH!r}: expected 'quick' (the default) or "
                     "'thorough'")
THOROUGH = _DEPTH == "thorough"


def rows(table: Iterable[Row], quick: int) -> list[Row]:
    """Every row of `table` in a thorough run; its first `quick` rows otherwise."""
    every = list(table)
    if quick < 1:
        raise ValueError(f"a quick run takes at least one row, not {quick}")
    return every if THOROUGH else every[:quick]
