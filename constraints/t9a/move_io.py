"""Move files (docs/formats.md "Move"): read and write T9A Move Manoeuvres."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from constraints.core.jsonread import Node, read_json
from constraints.errors import InvalidInputError
from constraints.rank_and_file.formation import MAX_MODELS
from constraints.rank_and_file.steps import read_steps
from constraints.schema.errors import worded_by
from constraints.t9a.moves import (
    MANOEUVRES,
    MAX_PIVOT_DEG,
    T9A_STEPS,
    Manoeuvre,
    MidPlacement,
    Move,
)

_OPTIONAL = ("steps", "pivot", "files", "centre", "facing", "assignment", "mid")


def load_move(path: str | Path) -> Move:
    try:
        return move_from_json(read_json(path))
    except InvalidInputError as exc:
        raise exc.in_file(str(path)) from None


@worded_by("move", "T9AMove")
def move_from_json(data: Any) -> Move:
    f = Node(data).fields(("unit", "manoeuvre"), _OPTIONAL)
    name = f["manoeuvre"].string()
    if name not in MANOEUVRES:
        raise f["manoeuvre"].fail(f"unknown manoeuvre {name!r} (known: {', '.join(MANOEUVRES)})")
    manoeuvre = Manoeuvre(name)
    if manoeuvre.pivot_only:
        extra = [k for k in ("steps", "files", "centre", "facing") if k in f]
        if extra:
            raise f[extra[0]].fail("a Post-Combat Pivot gives only its pivot (degrees)")
    if "pivot" in f and not manoeuvre.pivots:
        raise f["pivot"].fail("only an Advance Move starts with a Pivot")
    if "mid" in f and manoeuvre is not Manoeuvre.REFORM:
        raise f["mid"].fail("only a Reform places the unit mid-move (Dangerous Terrain)")
    if not manoeuvre.snaking and "steps" in f:
        raise f["steps"].fail("a Reform Move has no steps: give centre, facing and files")
    if manoeuvre.snaking and "steps" in f and ("centre" in f or "facing" in f):
        raise f["steps"].fail("give either steps or an end pose (centre, facing), not both")
    if manoeuvre.snaking and ("centre" in f) != ("facing" in f):
        raise f["centre" if "centre" in f else "facing"].fail(
            "an end pose needs both centre and facing")
    return Move(
        unit=f["unit"].string(), manoeuvre=manoeuvre,
        steps=read_steps(f["steps"], T9A_STEPS) if "steps" in f else (),
        pivot_deg=f["pivot"].number(minimum=-MAX_PIVOT_DEG, maximum=MAX_PIVOT_DEG)
        if "pivot" in f else 0.0,
        files=f["files"].integer(minimum=1, maximum=MAX_MODELS) if "files" in f else None,
        centre=f["centre"].point() if "centre" in f else None,
        facing_deg=f["facing"].number() if "facing" in f else None,
        assignment=_assignment(f["assignment"]) if "assignment" in f else None,
        mid=_mid(f["mid"]) if "mid" in f else None)


def _mid(node: Node) -> MidPlacement:
    """A Reform's placement mid-move: centre and facing, files optional (docs/formats.md)."""
    f = node.fields(("centre", "facing"), ("files",))
    return MidPlacement(f["centre"].point(), f["facing"].number(),
                        f["files"].integer(minimum=1, maximum=MAX_MODELS)
                        if "files" in f else None)


def _assignment(node: Node) -> tuple[tuple[str, tuple[int, int]], ...]:
    if not isinstance(node.value, dict):
        raise node.fail("expected an object of model id -> [rank, file]")
    pairs = [(Node(key, f"{node.path}.{key}"), Node(v, f"{node.path}.{key}"))
             for key, v in node.value.items()]
    return tuple((key.string(), slot.slot()) for key, slot in pairs)
