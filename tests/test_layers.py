"""constraints/ (the rulebook) must never import optimizer/ (the search layer)."""

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def imported_modules(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            names.add(node.module)
    return names


def test_constraints_never_import_optimizer() -> None:
    files = sorted((ROOT / "constraints").rglob("*.py"))
    assert files, "no constraints modules found"
    offenders = [str(f.relative_to(ROOT)) for f in files
                 if any(m == "optimizer" or m.startswith("optimizer.")
                        for m in imported_modules(f))]
    assert offenders == []


def test_the_layer_test_would_notice(tmp_path: Path) -> None:
    bad = tmp_path / "bad.py"
    bad.write_text("from optimizer.cli import main\nimport optimizer\n", encoding="utf-8")
    assert {"optimizer.cli", "optimizer"} <= imported_modules(bad)
