"""The tool's own result files, read back by `check` and `render` (docs/formats.md): every
file a command writes with --json can be judged and drawn.

- `solve --json` holds its move under "move"; `route --json` holds a route's keys beside its
  status: both are judged as the move they hold.
- `nudge --json` is judged as the player's nudges (cli/nudge.py), with the casualties it
  echoes unless `--casualties` is given.
- `combat-reform --json` is itself a proposal (cli/reform.py); `render` draws it placed.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from constraints.errors import InvalidInputError

ROUTE_KEYS = ("unit", "skill", "path", "midpoint")  # what a route result shares with a route


def move_of_result(data: Any) -> Any:
    """The move a result file holds (a `solve --json` or `route --json` output), or `data`
    itself when it is not a result."""
    if not isinstance(data, dict) or "status" not in data \
            or data.get("manoeuvre") == "combat_reform":  # a reform result is a proposal
        return data
    if "path" in data and "skill" in data:  # route --json
        return {k: v for k, v in data.items() if k in ROUTE_KEYS}
    if not isinstance(data.get("move"), dict):
        raise InvalidInputError(f"this {data.get('status')} result holds no move to judge",
                                path="$.move")
    return data["move"]


@dataclass(frozen=True)
class Answer:
    """A command's answer once its inputs are read: the `--json` output (warnings aside),
    the exit status and the text output (made when asked).  The command line prints it; the
    HTTP service (optimizer/service) sends `to_json()`: one answer, two ways out."""

    data: Any
    status: int
    text: Callable[[], str]
    warnings: list[str] = field(default_factory=list)
    # The result format (constraints.schema.SCHEMAS) the `--json` output follows: it is read
    # back through that model before it is printed (a mismatch is our bug, not bad input).
    schema: str | None = None

    def to_json(self) -> Any:
        """The `--json` output: `data` with its `warnings` list when there are any."""
        if self.warnings and isinstance(self.data, dict):
            return {**self.data, "warnings": self.warnings}
        return self.data

    def print(self, as_json: bool) -> int:
        """Print the answer (warnings on stderr, one line each); its exit status."""
        from constraints.core.jsonwrite import dumps
        from optimizer.cli.warn import shown, with_warnings

        if not as_json:
            print(shown(self.text(), self.warnings))
            return self.status
        text = dumps(with_warnings(self.data, self.warnings), indent=2)
        if self.schema is not None:
            from constraints.schema import checked_result

            checked_result(self.schema, text)
        print(text)
        return self.status
