"""The optimiser asks clauses, profiles and systems what they do, never their names: no clause
id and no profile name is spelled in a string literal of optimizer/'s code (docstrings and
comments may name them).  Ids come from everything registered: the profiles' clauses, and the
nudge, Combat Reform and route clauses, which are not in a profile's manoeuvre table."""

from __future__ import annotations

import ast
from pathlib import Path

import constraints  # noqa: F401  (registers the systems and their profiles)
from constraints.core.profile import PROFILES, registered_clauses
from constraints.core.system import SYSTEMS
from constraints.infinity.clauses import ROUTE_CLAUSES
from constraints.t9a.clauses.combat_reform import CLAUSES as COMBAT_REFORM_CLAUSES
from constraints.t9a.clauses.nudge import NUDGE_CLAUSES, PLAYER_CLAUSES

OPTIMIZER = Path(__file__).resolve().parent.parent / "optimizer"


def clause_ids() -> set[str]:
    ids = set(registered_clauses())
    ids |= {c.id for c in (*NUDGE_CLAUSES, *PLAYER_CLAUSES, *ROUTE_CLAUSES)}
    ids |= {c.id for clauses in COMBAT_REFORM_CLAUSES.values() for c in clauses}
    return ids


def names() -> set[str]:
    """Clause ids and profile names.  A system's name (`t9a`, `whfb7`) is also the name of
    its first profile: it is a name too, so registrations read it from the system
    (`SYSTEM.name`)."""
    return clause_ids() | set(PROFILES) | set(SYSTEMS)


def docstrings(tree: ast.AST) -> set[int]:
    """The ids of the string constants that are docstrings."""
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef) \
                and node.body and isinstance(node.body[0], ast.Expr) \
                and isinstance(node.body[0].value, ast.Constant):
            found.add(id(node.body[0].value))
    return found


def spelled(source: str, label: str, known: set[str]) -> list[str]:
    """`label:line: literal` for each string literal of `source` that is one of `known`."""
    tree = ast.parse(source)
    skip = docstrings(tree)
    return [f"{label}:{node.lineno}: {node.value!r}"
            for node in ast.walk(tree)
            if isinstance(node, ast.Constant) and isinstance(node.value, str)
            and id(node) not in skip and node.value in known]


def test_the_names_are_collected() -> None:
    """The check below has something to find: ids of every kind of clause."""
    found = names()
    for sample in ("t9a.march.distance", "whfb7.march.no_turn", "nudge.contact",
                   "nudge.minimum", "combat_reform.eligible", "route.end_surface", "t9a-2025"):
        assert sample in found


def test_a_spelled_name_is_found() -> None:
    source = ('"""t9a-2025 in a docstring is fine."""\n'
              '# so is combat_reform.aligned in a comment\n'
              'BROKEN = {"combat_reform.aligned"}\n'
              'def f(s):\n'
              '    """whfb7 here too."""\n'
              '    return s.profile.name == "t9a-2025"\n')
    assert spelled(source, "probe.py", names()) == \
        ["probe.py:3: 'combat_reform.aligned'", "probe.py:6: 't9a-2025'"]


def test_no_clause_id_or_profile_name_is_spelled_in_optimizer() -> None:
    known = names()
    found = [line for path in sorted(OPTIMIZER.rglob("*.py"))
             for line in spelled(path.read_text(encoding="utf-8"),
                                 str(path.relative_to(OPTIMIZER.parent)), known)]
    assert not found, "ask the clause, profile or system instead:\n" + "\n".join(found)
