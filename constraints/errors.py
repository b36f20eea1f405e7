"""The project's small exception tree.

`InvalidInputError` is for malformed input (a scenario or move that breaks the file format);
`EncodingMismatchError` is for our own bugs (the solver returned an answer the exact checker
rejects).  Illegal moves are never exceptions: they are verdicts with violations.
"""

from __future__ import annotations


class ManoeuvreError(Exception):
    """Base class of every error this project raises on purpose."""


class InvalidInputError(ManoeuvreError, ValueError):
    """Malformed input: names the file, the JSON path and the problem on one line."""

    def __init__(self, problem: str, *, path: str = "$", source: str | None = None) -> None:
        self.problem = problem
        self.path = path
        self.source = source
        super().__init__(self._line())

    def _line(self) -> str:
        where = f"{self.source}: " if self.source else ""
        return f"{where}{self.path}: {self.problem}"

    def in_file(self, source: str) -> InvalidInputError:
        """The same error, naming the file it came from."""
        return InvalidInputError(self.problem, path=self.path, source=source)

    def at(self, path: str) -> InvalidInputError:
        """The same error, at another path (a command-line option for an API argument)."""
        return InvalidInputError(self.problem, path=path, source=self.source)


class EncodingMismatchError(ManoeuvreError, AssertionError):
    """The CP-SAT encoding produced an answer the exact checker rejects: our bug."""
