"""The tool's own result files, read back by `check` and `render` (docs/formats.md): every
file a command writes with --json can be judged and drawn.

- `solve --json` holds its move under "move"; `route --json` holds a route's keys beside its
  status: both are judged as the move they hold.
- `nudge --json` is judged as the player's nudges (cli/nudge.py), with the casualties it
  echoes unless `--casualties` is given.
- `combat-reform --json` is itself a proposal (cli/reform.py); `render` draws it placed.
"""

from __future__ import annotations

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
