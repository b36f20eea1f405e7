"""The project's small exception tree.

`InvalidInputError` is for malformed input (a scenario or move that breaks the file format, or
a bad argument to the Python API); `EncodingMismatchError` is for our own bugs (the solver
returned an answer the exact checker rejects), never for bad input.  Illegal moves are never
exceptions: they are verdicts with violations.
"""

from __future__ import annotations

import re

# The whole message, so that the command line's "manoeuvre: error: " (18 characters) plus the
# message stays within 300 characters.
MAX_MESSAGE = 280
# Shares of the message for the file name and the JSON path; the problem gets the rest.
MAX_SOURCE = 90
MAX_PATH = 70
# A quoted value in a problem longer than this is shortened (an unknown id of 100 kB, say).
MAX_QUOTED = 40
ELLIPSIS = "..."
_ESCAPES = {"\n": "\\n", "\r": "\\r", "\t": "\\t"}
_QUOTED = re.compile(r"'(?:[^'\\]|\\.)*'|\"(?:[^\"\\]|\\.)*\"")


class ManoeuvreError(Exception):
    """Base class of every error this project raises on purpose."""


class InvalidInputError(ManoeuvreError, ValueError):
    """Malformed input: names the file, the JSON path (or the argument) and the problem.

    The message is always one line of at most `MAX_MESSAGE` characters: control characters
    and lone surrogates are escaped and long parts shortened, whatever the input held.  The
    raw parts stay available as `problem`, `path` and `source`.
    """

    def __init__(self, problem: str, *, path: str = "$", source: str | None = None) -> None:
        self.problem = problem
        self.path = path
        self.source = source
        super().__init__(self._line())

    def _line(self) -> str:
        # The file name keeps its end (the name itself), the path its start (the top key).
        where = f"{shorten(escaped(self.source), MAX_SOURCE, keep_end=True)}: " \
            if self.source else ""
        where += f"{shorten(escaped(self.path), MAX_PATH)}: "
        return where + shorten(_short_quotes(escaped(self.problem)), MAX_MESSAGE - len(where))

    def in_file(self, source: str) -> InvalidInputError:
        """The same error, naming the file it came from."""
        return InvalidInputError(self.problem, path=self.path, source=source)

    def at(self, path: str) -> InvalidInputError:
        """The same error, at another path (a command-line option for an API argument)."""
        return InvalidInputError(self.problem, path=path, source=self.source)


class EncodingMismatchError(ManoeuvreError, AssertionError):
    """The CP-SAT encoding produced an answer the exact checker rejects: our bug."""


def escaped(text: object) -> str:
    """`text` on one printable line: control characters, separators and lone surrogates as
    Python escapes (a newline in a key must not split an error message)."""
    return "".join(ch if ch.isprintable() else _escape(ch) for ch in str(text))


def shorten(text: str, limit: int, *, keep_end: bool = False) -> str:
    """`text` cut to at most `limit` characters, marking the cut with "..."."""
    if len(text) <= limit:
        return text
    if keep_end:
        return ELLIPSIS + text[len(text) - limit + len(ELLIPSIS):]
    # Keep the head (what is wrong) and a little of the tail (often the known values).
    tail = min(limit // 4, 40)
    head = limit - tail - len(ELLIPSIS)
    return text[:head] + ELLIPSIS + (text[-tail:] if tail else "")


def _escape(ch: str) -> str:
    if ch in _ESCAPES:
        return _ESCAPES[ch]
    code = ord(ch)
    return f"\\x{code:02x}" if code < 0x100 else \
        f"\\u{code:04x}" if code < 0x10000 else f"\\U{code:08x}"


def _short_quotes(text: str) -> str:
    """Every quoted value longer than `MAX_QUOTED` shortened, quotes kept."""
    def cut(match: re.Match[str]) -> str:
        quoted = match.group(0)
        if len(quoted) <= MAX_QUOTED:
            return quoted
        return quoted[: MAX_QUOTED - len(ELLIPSIS) - 1] + ELLIPSIS + quoted[-1]
    return _QUOTED.sub(cut, text)
