"""No module over 400 lines (docs/architecture.md; issue 27): the library, its tests and its
benchmarks.  A module that grows past it is split by what it holds, not trimmed."""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
MOST_LINES = 400


def line_counts() -> dict[str, int]:
    found = {}
    for package in ("constraints", "optimizer", "tests", "benchmarks"):
        for path in (ROOT / package).rglob("*.py"):
            with path.open(encoding="utf-8") as lines:
                found[path.relative_to(ROOT).as_posix()] = sum(1 for _ in lines)
    return found


def test_no_module_is_over_400_lines() -> None:
    counts = line_counts()
    over = {f: n for f, n in counts.items() if n > MOST_LINES}
    assert not over, f"modules over {MOST_LINES} lines: {over}"
