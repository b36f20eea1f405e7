"""The layer rules (docs/architecture.md, "Packages"), as a test:

- constraints/ (the rulebook) never imports optimizer/ (the search layer);
- the shared core (constraints.core, .geometry, .sat, .rank_and_file) imports no game system;
- game systems never import each other;
- the shared search (optimizer.search, optimizer.batch) imports no game system: it reaches
  a system's rules through the registries.  Each family's way search (optimizer.search.ways)
  is a registry's entry, written for its system's moves, and is left out;
- the move families (optimizer.families: geometry) never import the search above them.
"""

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SYSTEMS = ("constraints.t9a", "constraints.whfb7", "constraints.infinity")
SHARED = ("constraints/core", "constraints/geometry", "constraints/sat",
          "constraints/rank_and_file", "optimizer/search", "optimizer/batch")


def imported_modules(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            names.add(node.module)
    return names


def _within(module: str, package: str) -> bool:
    return module == package or module.startswith(package + ".")


# The way searches of each family (optimizer.search.ways): written per system, registered by
# family class, so not shared.
PER_SYSTEM = ("optimizer/search/ways",)


def offenders(folder: str, forbidden: tuple[str, ...]) -> list[str]:
    files = sorted(f for f in (ROOT / folder).rglob("*.py")
                   if not any(f.is_relative_to(ROOT / p) for p in PER_SYSTEM))
    assert files, f"no modules in {folder}"
    return [f"{f.relative_to(ROOT)} imports {m}" for f in files
            for m in sorted(imported_modules(f)) if any(_within(m, p) for p in forbidden)]


def test_constraints_never_import_optimizer() -> None:
    assert offenders("constraints", ("optimizer",)) == []


@pytest.mark.parametrize("folder", SHARED)
def test_the_shared_core_imports_no_system(folder: str) -> None:
    assert offenders(folder, SYSTEMS) == []


def test_the_families_never_import_the_search() -> None:
    above = ("optimizer.search", "optimizer.batch", "optimizer.queries", "optimizer.post_combat",
             "optimizer.combat_reform", "optimizer.nudge", "optimizer.service", "optimizer.cli")
    assert offenders("optimizer/families", above) == []


@pytest.mark.parametrize("system", [s for s in SYSTEMS if (ROOT / s.replace(".", "/")).is_dir()])
def test_systems_never_import_each_other(system: str) -> None:
    others = tuple(s for s in SYSTEMS if s != system)
    assert offenders(system.replace(".", "/"), others) == []


def test_the_layer_test_would_notice(tmp_path: Path) -> None:
    bad = tmp_path / "bad.py"
    bad.write_text("from optimizer.cli import main\nimport optimizer\n"
                   "from constraints.t9a.moves import Move\n", encoding="utf-8")
    assert {"optimizer.cli", "optimizer", "constraints.t9a.moves"} <= imported_modules(bad)
    assert any(_within(m, "constraints.t9a") for m in imported_modules(bad))
