"""The notebook gallery is committed executed, with its figures, and its saved text is today's.

Each notebook is saved with the outputs of a run top to bottom (at least one inline figure
each).  The test runs a copy again in a Jupyter kernel (nbclient, from the `notebooks` extra),
from the project folder, and compares every cell's text output with the saved one (figures
may differ by pixels and are not compared; object addresses are).  A stale notebook fails:
save it again with `.venv/bin/python -m tests.test_notebooks` after a change.  Notebooks print
no timings, so that their text is the same on every machine.
"""

from __future__ import annotations

import copy
import json
import re
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.support import ROOT

NOTEBOOKS = sorted((ROOT / "notebooks").glob("*.ipynb"))
ADDRESS = re.compile(r" at 0x[0-9a-f]+")
# A duration printed ("in 0.58 s", "2.1 ms"): notebooks must not print one.
TIMING = re.compile(r"\b\d+(\.\d+)? ?(s|ms|sec|seconds)\b")
TIMEOUT_S = 1800  # a cell (a search among them) under a loaded machine


def load(notebook: Path) -> Any:
    import nbformat

    return nbformat.read(notebook, as_version=4)


def execute(nb: Any) -> Any:
    """`nb` run top to bottom in a fresh python3 kernel, from the project folder."""
    from nbclient import NotebookClient

    ran = copy.deepcopy(nb)
    NotebookClient(ran, timeout=TIMEOUT_S, kernel_name="python3",
                   resources={"metadata": {"path": str(ROOT)}}).execute()
    return ran


def text_of(nb: Any) -> list[list[str]]:
    """Each code cell's text outputs (streams, results, errors), figures left out."""
    cells = []
    for cell in nb.cells:
        if cell.cell_type != "code":
            continue
        texts: list[str] = []
        last_stream = None
        for out in cell.get("outputs", []):
            if out["output_type"] == "stream":  # a stream may come in pieces: joined
                if last_stream == out["name"]:
                    texts[-1] += out["text"]
                else:
                    texts.append(f"{out['name']}: {out['text']}")
                last_stream = out["name"]
                continue
            last_stream = None
            if out["output_type"] in ("execute_result", "display_data"):
                data = out.get("data", {})
                if "image/png" not in data and "text/plain" in data:
                    texts.append(data["text/plain"])
            elif out["output_type"] == "error":
                texts.append(f"error: {out['ename']}: {out['evalue']}")
        cells.append([ADDRESS.sub(" at 0x...", t).replace(str(ROOT), "<project>")
                      for t in texts])
    return cells


def figures_in(nb: Any) -> int:
    return sum(1 for cell in nb.cells if cell.cell_type == "code"
               for out in cell.get("outputs", []) if "image/png" in out.get("data", {}))


def test_there_is_a_notebook() -> None:
    assert NOTEBOOKS, "no notebooks/*.ipynb found"


@pytest.mark.parametrize("notebook", NOTEBOOKS, ids=[n.name for n in NOTEBOOKS])
def test_a_notebook_is_saved_executed_with_a_figure_and_no_timings(notebook: Path) -> None:
    data = json.loads(notebook.read_text(encoding="utf-8"))
    assert data.get("nbformat") == 4, f"{notebook.name} is not an nbformat-4 notebook"
    code = [c for c in data["cells"] if c["cell_type"] == "code"]
    assert len(code) >= 3, f"{notebook.name} has only {len(code)} code cells"
    assert [c["execution_count"] for c in code] == list(range(1, len(code) + 1)), \
        f"{notebook.name} is not saved as run top to bottom"
    nb = load(notebook)
    assert figures_in(nb) >= 1, f"{notebook.name} shows no figure"
    for texts in text_of(nb):
        for text in texts:
            assert not text.startswith("error:"), f"{notebook.name}: {text}"
            assert not TIMING.search(text), f"{notebook.name} prints a timing: {text!r}"


@pytest.mark.parametrize("notebook", NOTEBOOKS, ids=[n.name for n in NOTEBOOKS])
def test_a_notebook_run_again_prints_what_it_saved(notebook: Path) -> None:
    saved = load(notebook)
    ran = execute(saved)
    assert figures_in(ran) >= 1
    for number, (was, now) in enumerate(zip(text_of(saved), text_of(ran), strict=True), 1):
        assert was == now, f"{notebook.name}, code cell {number} is stale: saved {was!r}, " \
            f"today {now!r} (save it again: python -m tests.test_notebooks)"


def save_executed(paths: list[Path]) -> None:
    """Run each notebook and save it with its outputs."""
    import nbformat

    for path in paths:
        nbformat.write(execute(load(path)), path)
        print(f"saved {path.relative_to(ROOT)}")


if __name__ == "__main__":
    save_executed([Path(p).resolve() for p in sys.argv[1:]] or NOTEBOOKS)
