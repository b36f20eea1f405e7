"""Reading the parts of a rank-and-flank unit that every system's scenario file shares
(docs/formats.md, "Scenario"): its formation (models, files, characters, empty slots, each
slot checked), a character, a state."""

from __future__ import annotations

from constraints.core.jsonread import Node
from constraints.errors import InvalidInputError
from constraints.rank_and_file.formation import MAX_MODELS, Character, Formation
from constraints.rank_and_file.unit import STATES


def read_state(node: Node) -> str:
    state = node.string()
    if state not in STATES:
        raise node.fail(f"unknown state {state!r} (known: {', '.join(STATES)})")
    return state


def read_formation(f: dict[str, Node]) -> Formation:
    models = f["models"].integer(minimum=0, maximum=MAX_MODELS)
    files = f["files"].integer(minimum=1, maximum=MAX_MODELS)
    chars = tuple(read_character(n) for n in f["characters"].items()) if "characters" in f else ()
    empty = tuple(n.slot() for n in f["empty"].items()) if "empty" in f else ()
    formation = Formation(files, models, chars, empty)
    if formation.model_count == 0:
        raise f["models"].fail("a unit needs at least one model")
    if files > formation.model_count:
        raise f["files"].fail(f"{files} files but only {formation.model_count} models")
    slots = set(formation.all_slots())
    taken: set[tuple[int, int]] = set()
    for key, group in (("characters", [c.slot for c in chars]), ("empty", list(empty))):
        for i, slot in enumerate(group):
            where = f"{f[key].path}[{i}]"
            if slot not in slots:
                raise InvalidInputError(f"slot {list(slot)} is outside the formation "
                                        f"({formation.ranks} ranks x {files} files)", path=where)
            if slot in taken:
                raise InvalidInputError(f"slot {list(slot)} is used twice", path=where)
            taken.add(slot)
    return formation


def read_character(node: Node) -> Character:
    f = node.fields(("id", "slot"))
    return Character(f["id"].string(), f["slot"].slot())
