"""Move files (docs/formats.md "Move (Warhammer Fantasy Battle 7th)"): read Warhammer moves."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from constraints.core.jsonread import Node, read_json
from constraints.errors import InvalidInputError
from constraints.rank_and_file.formation import MAX_MODELS
from constraints.rank_and_file.steps import read_steps
from constraints.schema.errors import worded_by
from constraints.whfb7.moves import MANOEUVRES, WARHAMMER_STEPS, Manoeuvre, WarhammerMove

_OPTIONAL = ("steps", "files", "facing", "assignment")


def load_move(path: str | Path) -> WarhammerMove:
    try:
        return move_from_json(read_json(path))
    except InvalidInputError as exc:
        raise exc.in_file(str(path)) from None


@worded_by("move", "Whfb7Move")
def move_from_json(data: Any) -> WarhammerMove:
    f = Node(data).fields(("unit", "manoeuvre"), _OPTIONAL)
    name = f["manoeuvre"].string()
    if name not in MANOEUVRES:
        raise f["manoeuvre"].fail(f"unknown manoeuvre {name!r} (known: {', '.join(MANOEUVRES)})")
    manoeuvre = Manoeuvre(name)
    if manoeuvre.steps:
        for key in ("files", "facing", "assignment"):
            if key in f:
                raise f[key].fail(f"a {name} gives steps only (a reform gives {key})")
    else:
        if "steps" in f:
            raise f["steps"].fail("a reform has no steps: give files and facing (the centre "
                                  "is kept)")
        for key in ("files", "facing"):
            if key not in f:
                raise Node(data).fail(f"a reform gives {key!r}")
    return WarhammerMove(
        unit=f["unit"].string(), manoeuvre=manoeuvre,
        steps=read_steps(f["steps"], WARHAMMER_STEPS) if "steps" in f else (),
        files=f["files"].integer(minimum=1, maximum=MAX_MODELS) if "files" in f else None,
        facing_deg=f["facing"].number() if "facing" in f else None,
        assignment=_assignment(f["assignment"]) if "assignment" in f else None)


def _assignment(node: Node) -> tuple[tuple[str, tuple[int, int]], ...]:
    if not isinstance(node.value, dict):
        raise node.fail("expected an object of model id -> [rank, file]")
    return tuple((key, Node(v, f"{node.path}.{key}").slot()) for key, v in node.value.items())
