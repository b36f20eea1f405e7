"""No `Any` where plug-ins meet the core (issue 27): the clause protocol (and what its methods
hand over: maskers, region parts, rule examples), the system record and the move family
name their types, so mypy checks every system's clauses, readers and families against them."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PROTOCOLS = {
    "constraints/core/clause.py": ("Masker", "RegionPart", "RuleExample", "Clause"),
    "constraints/core/system.py": ("System",),
    "optimizer/families/base.py": ("PoseJudge", "Family"),
    "optimizer/search/ways/base.py": ("WayModel", "OwnSearch", "WaySearchStrategy"),
}


def any_uses(source: str, classes: tuple[str, ...]) -> list[str]:
    """Each use of the name `Any` inside the named classes, and in the module's own
    registries and functions (`FAMILIES`, `register_family`, ...), as "Class:line"."""
    tree = ast.parse(source)
    found, seen = [], set()
    for node in tree.body:
        name = getattr(node, "name", None) or (
            node.target.id if isinstance(node, ast.AnnAssign)
            and isinstance(node.target, ast.Name) else None)
        if isinstance(node, ast.ClassDef) and node.name not in classes:
            continue
        if name is None:
            continue
        seen.add(name)
        found += [f"{name}:{n.lineno}" for n in ast.walk(node)
                  if isinstance(n, ast.Name) and n.id == "Any"
                  or isinstance(n, ast.Constant) and n.value == "Any"]
    missing = set(classes) - seen
    assert not missing, f"no class {sorted(missing)}"
    return found


@pytest.mark.parametrize("path", sorted(PROTOCOLS))
def test_no_any_in_the_protocols(path: str) -> None:
    assert any_uses((ROOT / path).read_text(encoding="utf-8"), PROTOCOLS[path]) == []


def test_the_protocol_test_would_notice() -> None:
    source = ("from typing import Any\nclass Clause:\n    def check(self, ctx: Any) -> None: ...\n"
              "class Other:\n    x: Any\nREGISTRY: dict[str, 'Any'] = {}\n")
    assert any_uses(source, ("Clause",)) == ["Clause:3", "REGISTRY:6"]
