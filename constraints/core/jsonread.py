"""Reading JSON with a path: every problem names where it is (`$.units[2].base`) and what.

Each accessor returns a plain Python value or raises `InvalidInputError`; nothing else of
the project touches raw JSON.
"""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

from constraints.errors import InvalidInputError

# Sanity bounds on any input: far beyond any battlefield (inches, mm, degrees) or unit, and
# small enough that geometry never overflows.
MAX_MAGNITUDE = 1e6
MAX_COUNT = 10_000


def read_json(path: str | Path) -> Any:
    """Parse a JSON file, turning every way it can fail into one clear error."""
    source = str(path)
    try:
        text = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise InvalidInputError(f"cannot read file: {exc}", source=source) from None
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise InvalidInputError(f"not valid JSON: {exc.msg} at line {exc.lineno} column "
                                f"{exc.colno}", source=source) from None
    except RecursionError:
        raise InvalidInputError("not valid JSON: nested too deeply", source=source) from None
    except ValueError as exc:  # e.g. an integer literal past Python's digit limit
        raise InvalidInputError(f"not valid JSON: {exc}", source=source) from None


class Node:
    """A JSON value and the path to it."""

    def __init__(self, value: Any, path: str = "$") -> None:
        self.value = value
        self.path = path

    def fail(self, problem: str) -> InvalidInputError:
        return InvalidInputError(problem, path=self.path)

    def _expect(self, kind: str) -> None:
        raise self.fail(f"expected {kind}, got {_describe(self.value)}")

    def fields(self, required: tuple[str, ...], optional: tuple[str, ...] = ()) \
            -> dict[str, Node]:
        """An object's members: every required key present, no key outside the two lists."""
        if not isinstance(self.value, dict):
            self._expect("an object")
        missing = [k for k in required if k not in self.value]
        if missing:
            raise self.fail(f"missing key {missing[0]!r}")
        unknown = [k for k in self.value if k not in required and k not in optional]
        if unknown:
            raise InvalidInputError(f"unknown key {unknown[0]!r}",
                                    path=f"{self.path}.{unknown[0]}")
        return {k: Node(v, f"{self.path}.{k}") for k, v in self.value.items()}

    def items(self, min_len: int = 0, length: int | None = None) -> list[Node]:
        if not isinstance(self.value, list):
            self._expect("an array")
        if length is not None and len(self.value) != length:
            raise self.fail(f"expected {length} items, got {len(self.value)}")
        if len(self.value) < min_len:
            raise self.fail(f"expected at least {min_len} items, got {len(self.value)}")
        return [Node(v, f"{self.path}[{i}]") for i, v in enumerate(self.value)]

    def number(self, *, positive: bool = False, minimum: float | None = None,
               maximum: float | None = None) -> float:
        value = self.value
        if isinstance(value, bool) or not isinstance(value, int | float):
            self._expect("a number")
        try:
            value = float(value)
        except OverflowError:
            raise self.fail("expected a finite number, got an integer too large") from None
        if not math.isfinite(value):
            raise self.fail(f"expected a finite number, got {value}")
        if abs(value) > MAX_MAGNITUDE:
            raise self.fail(f"expected a number of magnitude at most {MAX_MAGNITUDE:g}, "
                            f"got {value:g}")
        if positive and value <= 0:
            raise self.fail(f"expected a number > 0, got {value}")
        if minimum is not None and value < minimum:
            raise self.fail(f"expected a number >= {minimum}, got {value}")
        if maximum is not None and value > maximum:
            raise self.fail(f"expected a number <= {maximum}, got {value}")
        return float(value)

    def integer(self, *, minimum: int | None = None, maximum: int = MAX_COUNT) -> int:
        value = self.value
        if isinstance(value, bool) or not isinstance(value, int):
            self._expect("a whole number")
        if minimum is not None and value < minimum:
            raise self.fail(f"expected a whole number >= {minimum}, got {value}")
        if value > maximum:
            raise self.fail(f"expected a whole number <= {maximum}, got {value}")
        return int(value)

    def string(self) -> str:
        if self.value == "":
            raise self.fail("expected a non-empty string, got an empty string")
        if not isinstance(self.value, str):
            self._expect("a non-empty string")
        return str(self.value)

    def boolean(self) -> bool:
        if not isinstance(self.value, bool):
            self._expect("true or false")
        return bool(self.value)

    def point(self) -> tuple[float, float]:
        x, y = self.items(length=2)
        return (x.number(), y.number())

    def slot(self) -> tuple[int, int]:
        rank, file = self.items(length=2)
        return (rank.integer(minimum=0), file.integer(minimum=0))


def _describe(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    kinds = {dict: "an object", list: "an array", str: "a string"}
    for kind, name in kinds.items():
        if isinstance(value, kind):
            return name
    return repr(value)
