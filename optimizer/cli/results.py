"""The tool's own result files, read back by `check` and `render` (docs/formats.md): every
file a command writes with --json can be judged and drawn.

- `solve --json` holds its move under "move"; `route --json` holds a route's keys beside its
  status: both are judged as the move they hold.
- `nudge --json` is judged by replaying the resolution from the casualties it echoes (the
  resolution is deterministic): each replayed nudge has the exact checker's verdict, and the
  file's nudges must be the replay's.
- `combat-reform --json` is itself a proposal (cli/reform.py); `render` draws it placed.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from constraints.core.scenario import Scenario
from constraints.errors import InvalidInputError

ROUTE_KEYS = ("unit", "skill", "path", "midpoint")  # what a route result shares with a route


def is_nudge_data(data: Any) -> bool:
    return isinstance(data, dict) and "nudges" in data


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


def check_nudge_result(scenario: Scenario, data: dict[str, Any], path: str,
                       as_json: bool) -> int:
    """Judge a `nudge --json` file: 0 when the replay gives its nudges and each is legal."""
    from optimizer.nudge import losses_from_json, resolve

    try:
        losses = losses_from_json(data.get("casualties", {}), scenario)
    except InvalidInputError as exc:
        raise exc.in_file(path) from None
    replay = resolve(scenario, losses)
    replayed = [{"unit": n.unit, "legs": [leg.to_json() for leg in n.legs]}
                for n in replay.nudges]
    shown = data.get("nudges")
    written = [{"unit": n.get("unit"), "legs": n.get("legs")} for n in shown] \
        if isinstance(shown, list) and all(isinstance(n, dict) for n in shown) else None
    same = written is not None and _same(written, replayed)
    legal = all(n.verdict.legal for n in replay.nudges)
    if as_json:
        print(json.dumps({"legal": legal and same, "same_as_replay": same,
                          "verdicts": [n.verdict.to_json() for n in replay.nudges]}, indent=2))
    else:
        lines = [f"nudge result {Path(path).name}: "
                 + ("LEGAL" if legal and same else "NOT THE RESOLUTION" if not same
                    else "ILLEGAL")]
        for n in replay.nudges:
            lines.append(f"  nudge {n.unit}: {'legal' if n.verdict.legal else 'illegal'} "
                         f"({n.distance_in:.6f}\")")
            lines += [f"    broken {v.clause}: {v.message}" for v in n.verdict.violations]
        if not same:
            lines.append("  its nudges are not those the resolution from its casualties "
                         "makes: " + json.dumps(replayed))
        print("\n".join(lines))
    return 0 if legal and same else 1


def _same(a: list[dict[str, Any]], b: list[dict[str, Any]]) -> bool:
    """The same nudges, legs equal to a millionth of an inch (the files' precision)."""
    def rounded(value: Any) -> Any:
        if isinstance(value, float):
            return round(value, 6)
        if isinstance(value, dict):
            return {k: rounded(v) for k, v in value.items()}
        if isinstance(value, list):
            return [rounded(v) for v in value]
        return value
    return bool(rounded(a) == rounded(b))
