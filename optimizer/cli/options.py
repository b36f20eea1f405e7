"""What the command line's options need beyond argparse: numbers that must be finite,
negative values after an option, and the time since the command started.

argparse reads `--target -1,-1` as two options (a value starting with "-" looks like one
unless it is a plain negative number), so values that look like numbers are joined to their
option first (`--target=-1,-1`), which argparse reads as the user meant.
"""

from __future__ import annotations

import argparse
import math
import os
import re
import time
from collections.abc import Sequence
from pathlib import Path

EXIT_OK, EXIT_NO, EXIT_BAD_INPUT = 0, 1, 2  # legal or solved; illegal or none; bad input

# Options taking a number or a point: a value after them starting with "-" is theirs.
VALUE_OPTIONS = ("--target", "--face", "--facing", "--time-limit", "--effort", "--limit",
                 "--max-wheels", "--tolerance")
_NEGATIVE = re.compile(r"-(\d|\.\d|inf|nan)", re.IGNORECASE)
# When this module was imported: the start of the command where /proc cannot say better.
IMPORTED_AT = time.monotonic()


def join_negative_values(argv: Sequence[str]) -> list[str]:
    """`argv` with "OPTION -VALUE" written "OPTION=-VALUE" for the options taking numbers
    (an unambiguous prefix of one, as argparse accepts, counts)."""
    out: list[str] = []
    i = 0
    while i < len(argv):
        arg = argv[i]
        if i + 1 < len(argv) and _value_option(arg) and _NEGATIVE.match(argv[i + 1]):
            out.append(f"{arg}={argv[i + 1]}")
            i += 2
        else:
            out.append(arg)
            i += 1
    return out


def _value_option(arg: str) -> bool:
    if not arg.startswith("--") or len(arg) < 3 or "=" in arg:
        return False
    return sum(1 for option in VALUE_OPTIONS if option.startswith(arg)) == 1


def finite(text: str) -> float:
    """An argparse type: a finite number (NaN and infinities are refused)."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number, got {text!r}") from None
    if not math.isfinite(value):
        raise argparse.ArgumentTypeError(f"expected a finite number, got {text!r}")
    return value


def point(text: str) -> tuple[float, float]:
    """An argparse type: X,Y, both finite and of magnitude below 1e6."""
    try:
        x, y = (float(v) for v in text.split(","))
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected X,Y, got {text!r}") from None
    if not all(abs(v) < 1e6 for v in (x, y)):
        raise argparse.ArgumentTypeError(f"expected finite X,Y, got {text!r}")
    return (x, y)


def seconds_since_start(whole_process: bool, called_at: float) -> float:
    """Seconds since the command started.

    When the command is the whole process (the `manoeuvre` script: its imports count against
    a time limit), since the process started, read from /proc on Linux, or else since this
    module was imported.  When it is called inside a longer-running program, since
    `called_at` (a `time.monotonic()` reading taken when it was called).
    """
    now = time.monotonic()
    if not whole_process:
        return now - called_at
    since_process = _process_age()
    return since_process if since_process is not None else now - IMPORTED_AT


def _process_age() -> float | None:
    """Seconds since this process started, from /proc/self/stat and /proc/uptime."""
    try:
        stat = Path("/proc/self/stat").read_text(encoding="ascii")
        # Field 22 (starttime, in clock ticks after boot); the command name in brackets may
        # hold spaces, so count from the closing bracket (field 3 is the first after it).
        start_ticks = int(stat.rsplit(")", 1)[1].split()[19])
        uptime = float(Path("/proc/uptime").read_text(encoding="ascii").split()[0])
        age = uptime - start_ticks / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, IndexError):
        return None
    return age if 0.0 <= age < 1e7 else None
