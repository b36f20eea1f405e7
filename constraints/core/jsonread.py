"""Reading input with a path: every problem names where it is (`$.units[2].base`) and what.

The files are read through their pydantic models (constraints/schema/), which use the bounds
here; the checks (`number`, `whole`, `text`, `point`, `flag`) validate values built in Python
(the rulebook's constructors), naming the argument where a file names a JSON path, with the
same bounds and words, so a file and the API accept the same values.
"""

from __future__ import annotations

import json
import math
import os
import stat
import unicodedata
from numbers import Integral, Real
from pathlib import Path
from typing import Any

from constraints.errors import InvalidInputError

# Sanity bounds on any input: far beyond any battlefield (inches, mm, degrees) or unit, and
# small enough that geometry never overflows.
MAX_MAGNITUDE = 1e6
MAX_COUNT = 10_000
# No scenario or move comes near this; it stops /dev/zero or a disk image being read whole.
MAX_FILE_BYTES = 16 * 1024 * 1024
# Characters an id or name may not hold: control characters, line and paragraph separators
# and lone surrogates (they cannot be printed, nor encoded as UTF-8).
_UNPRINTABLE = frozenset(("Cc", "Cs", "Zl", "Zp"))


def _is_fifo(path: str | os.PathLike) -> bool:
    try:
        return stat.S_ISFIFO(os.stat(path).st_mode)
    except (OSError, ValueError):
        return False  # opening it will say what is wrong


def read_json(path: str | Path) -> Any:
    """Parse a JSON file, turning every way it can fail into one clear error."""
    if not isinstance(path, str | os.PathLike):
        raise InvalidInputError(f"expected a file path, got {_describe(path)}", path="path")
    source = str(path)
    if _is_fifo(path):
        # Opening a pipe with no writer waits for one: refuse rather than hang.
        raise InvalidInputError("cannot read file: a named pipe (FIFO), not a file",
                                source=source)
    try:
        with open(path, "rb") as handle:
            data = handle.read(MAX_FILE_BYTES + 1)
    except (OSError, ValueError) as exc:  # ValueError: a NUL in the name
        raise InvalidInputError(f"cannot read file: {_reason(exc)}", source=source) from None
    if len(data) > MAX_FILE_BYTES:
        raise InvalidInputError(f"file larger than {MAX_FILE_BYTES // 2**20} MiB",
                                source=source)
    return parse_json(data, source)


def parse_json(data: bytes, source: str | None = None) -> Any:
    """Parse JSON text (UTF-8 bytes: a file's, or a request body's), turning every way it can
    fail into one clear error."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise InvalidInputError(f"cannot read file: not UTF-8 text ({exc.reason} at byte "
                                f"{exc.start})", source=source) from None
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise InvalidInputError(f"not valid JSON: {exc.msg} at line {exc.lineno} column "
                                f"{exc.colno}", source=source) from None
    except RecursionError:
        raise InvalidInputError("not valid JSON: nested too deeply", source=source) from None
    except ValueError as exc:  # e.g. an integer literal past Python's digit limit
        raise InvalidInputError(f"not valid JSON: {exc}", source=source) from None


def _reason(exc: Exception) -> str:
    """An OS error without its repeated file name (the message names the file already)."""
    if isinstance(exc, OSError) and exc.strerror:
        return exc.strerror
    return str(exc)


def number(value: Any, where: str, *, positive: bool = False, minimum: float | None = None,
           maximum: float | None = None) -> float:
    """`value` as a finite float of magnitude at most `MAX_MAGNITUDE`, within the limits.

    Parameters
    ----------
    value : Any
        A JSON value or a Python argument (any real number but a bool).
    where : str
        The JSON path or the argument's name, for the error.
    positive, minimum, maximum
        Further limits: > 0, >= minimum, <= maximum.

    Returns
    -------
    float

    Raises
    ------
    InvalidInputError
        Not a number, NaN, infinite, too large or outside the limits.
    """
    if isinstance(value, bool) or not isinstance(value, Real):
        raise InvalidInputError(f"expected a number, got {_describe(value)}", path=where)
    try:
        value = float(value)
    except (OverflowError, ValueError, TypeError):
        raise InvalidInputError("expected a finite number, got an integer too large",
                                path=where) from None
    if not math.isfinite(value):
        raise InvalidInputError(f"expected a finite number, got {value}", path=where)
    if abs(value) > MAX_MAGNITUDE:
        raise InvalidInputError(f"expected a number of magnitude at most {MAX_MAGNITUDE:g}, "
                                f"got {value:g}", path=where)
    if positive and value <= 0:
        raise InvalidInputError(f"expected a number > 0, got {value}", path=where)
    if minimum is not None and value < minimum:
        raise InvalidInputError(f"expected a number >= {minimum}, got {value}", path=where)
    if maximum is not None and value > maximum:
        raise InvalidInputError(f"expected a number <= {maximum}, got {value}", path=where)
    return value


def whole(value: Any, where: str, *, minimum: int | None = None,
          maximum: int = MAX_COUNT) -> int:
    """`value` as an int within the limits (at most `MAX_COUNT` by default); a bool or a
    float is not a whole number."""
    if isinstance(value, bool) or not isinstance(value, Integral):
        raise InvalidInputError(f"expected a whole number, got {_describe(value)}", path=where)
    count = int(value)
    # A huge integer is not printed: past 4300 digits Python refuses to.
    shown = str(count) if abs(count) < 10**18 else "a larger one"
    if minimum is not None and count < minimum:
        raise InvalidInputError(f"expected a whole number >= {minimum}, got {shown}",
                                path=where)
    if count > maximum:
        raise InvalidInputError(f"expected a whole number <= {maximum}, got {shown}",
                                path=where)
    return count


def text(value: Any, where: str) -> str:
    """`value` as a non-empty string of printable characters (an id, a name, a kind)."""
    if value == "":
        raise InvalidInputError("expected a non-empty string, got an empty string", path=where)
    if not isinstance(value, str):
        raise InvalidInputError(f"expected a non-empty string, got {_describe(value)}",
                                path=where)
    for ch in value:
        if unicodedata.category(ch) in _UNPRINTABLE:
            raise InvalidInputError(f"expected printable text, got {value!r}, which holds "
                                    f"{ch!r}", path=where)
    return str(value)


def flag(value: Any, where: str) -> bool:
    """`value` as a bool (only true or false: 0 and 1 are not flags)."""
    if not isinstance(value, bool):
        raise InvalidInputError(f"expected true or false, got {_describe(value)}", path=where)
    return value


def point(value: Any, where: str) -> tuple[float, float]:
    """`value` as an (x, y) pair of numbers (a tuple, list or array of two)."""
    if isinstance(value, str | bytes | dict) or not hasattr(value, "__len__") \
            or not hasattr(value, "__getitem__"):
        raise InvalidInputError(f"expected a point (x, y), got {_describe(value)}", path=where)
    if len(value) != 2:
        raise InvalidInputError(f"expected a point (x, y), got {len(value)} items", path=where)
    return (number(value[0], f"{where}[0]"), number(value[1], f"{where}[1]"))


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
