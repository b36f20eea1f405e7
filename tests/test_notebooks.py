"""The notebook gallery runs top to bottom, headless, without Jupyter.

Each notebook's code cells are executed in order in one shared namespace, from the project
folder, with matplotlib drawing off-screen (Agg).  Any exception fails the test.
"""

from __future__ import annotations

import json
from pathlib import Path

import matplotlib
import pytest

from tests.support import ROOT

NOTEBOOKS = sorted((ROOT / "notebooks").glob("*.ipynb"))


def code_cells(notebook: Path) -> list[str]:
    """The source of every code cell, in order."""
    data = json.loads(notebook.read_text(encoding="utf-8"))
    assert data.get("nbformat") == 4, f"{notebook.name} is not an nbformat-4 notebook"
    return ["".join(cell["source"]) if isinstance(cell["source"], list) else cell["source"]
            for cell in data["cells"] if cell["cell_type"] == "code"]


def test_there_is_a_notebook() -> None:
    assert NOTEBOOKS, "no notebooks/*.ipynb found"


@pytest.mark.parametrize("notebook", NOTEBOOKS, ids=[n.name for n in NOTEBOOKS])
def test_notebook_runs(notebook: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    cells = code_cells(notebook)
    assert len(cells) >= 3, f"{notebook.name} has only {len(cells)} code cells"
    monkeypatch.setenv("MPLBACKEND", "Agg")
    monkeypatch.chdir(ROOT)
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    namespace: dict[str, object] = {"__name__": "__main__"}
    try:
        for number, source in enumerate(cells, start=1):
            compiled = compile(source, f"{notebook.name}[code cell {number}]", "exec")
            exec(compiled, namespace)  # running our own notebook is the test
    finally:
        plt.close("all")


def test_notebooks_are_saved_without_outputs() -> None:
    for notebook in NOTEBOOKS:
        data = json.loads(notebook.read_text(encoding="utf-8"))
        for cell in data["cells"]:
            if cell["cell_type"] == "code":
                assert cell.get("outputs", []) == [], f"{notebook.name} has saved outputs"
