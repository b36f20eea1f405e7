"""No cycle in the module import graph of constraints/ and optimizer/ (issue 27).

The graph is built from the source, not from what an import happens to load: every
`import` and `from ... import` in a module, those inside functions included (a lazy import
hides a cycle, it does not remove it).  Imports under `if TYPE_CHECKING:` are left out: they
are never run and exist for annotations only (every module has `from __future__ import
annotations`).  `from package import name` is an edge to `package.name` when that is a
module, else to the package's `__init__`.
"""

from __future__ import annotations

import ast
from pathlib import Path

import networkx as nx

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("constraints", "optimizer")


def module_files(root: Path) -> dict[str, Path]:
    """Module name -> file, for every module of the packages under `root`."""
    found = {}
    for package in PACKAGES:
        for path in sorted((root / package).rglob("*.py")):
            parts = path.relative_to(root).with_suffix("").parts
            name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
            found[name] = path
    return found


def _type_only(tree: ast.Module) -> set[int]:
    """The ids of the nodes under `if TYPE_CHECKING:`."""
    hidden: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            hidden.update(id(inner) for stmt in node.body for inner in ast.walk(stmt))
    return hidden


def _targets(module: str, is_package: bool, node: ast.Import | ast.ImportFrom,
             known: dict[str, Path]) -> list[str]:
    if isinstance(node, ast.Import):
        names = [alias.name for alias in node.names]
    else:
        base = node.module or ""
        if node.level:
            parts = module.split(".")[:len(module.split(".")) + is_package - node.level]
            base = ".".join([*parts, base] if base else parts)
        names = [f"{base}.{alias.name}" if f"{base}.{alias.name}" in known else base
                 for alias in node.names]
    targets = []
    for name in names:
        while name and name not in known:  # a name inside a module: the module
            name = name.rpartition(".")[0]
        if name and name != module:
            targets.append(name)
    return targets


def import_graph(root: Path) -> nx.DiGraph:
    known = module_files(root)
    graph = nx.DiGraph()
    for module, path in known.items():
        graph.add_node(module)
        tree = ast.parse(path.read_text(encoding="utf-8"))
        hidden = _type_only(tree)
        for node in ast.walk(tree):
            if isinstance(node, ast.Import | ast.ImportFrom) and id(node) not in hidden:
                for target in _targets(module, path.name == "__init__.py", node, known):
                    graph.add_edge(module, target)
    return graph


def cycles(graph: nx.DiGraph) -> list[list[str]]:
    return sorted(sorted(c) for c in nx.strongly_connected_components(graph) if len(c) > 1)


def test_no_import_cycle() -> None:
    graph = import_graph(ROOT)
    assert graph.number_of_nodes() > 200 and graph.number_of_edges() > 500  # really read
    assert cycles(graph) == []


def test_the_cycle_test_would_notice(tmp_path: Path) -> None:
    """A lazy import inside a function, a relative import and a package __init__ each close
    a cycle; an import under TYPE_CHECKING does not."""
    (tmp_path / "optimizer" / "inner").mkdir(parents=True)
    (tmp_path / "constraints").mkdir()
    (tmp_path / "constraints" / "__init__.py").write_text("")
    (tmp_path / "constraints" / "base.py").write_text("from typing import TYPE_CHECKING\n"
                                                       "if TYPE_CHECKING:\n"
                                                       "    from optimizer.a import f\n")
    (tmp_path / "optimizer" / "__init__.py").write_text("import constraints.base\n")
    (tmp_path / "optimizer" / "a.py").write_text("def f():\n    from optimizer.b import g\n")
    (tmp_path / "optimizer" / "b.py").write_text("from . import a\n")
    (tmp_path / "optimizer" / "inner" / "__init__.py").write_text("from .c import h\n")
    (tmp_path / "optimizer" / "inner" / "c.py").write_text("from optimizer.inner import x\n")
    found = cycles(import_graph(tmp_path))
    assert found == [["optimizer.a", "optimizer.b"], ["optimizer.inner", "optimizer.inner.c"]]
