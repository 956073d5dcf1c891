"""The notebooks' saved outputs come from the code they hold, run top to bottom.

The suite also executes every notebook (``--nbmake`` in ``pyproject.toml``); this module
checks what a reader sees without running anything: outputs made by other code than the
notebook's current cells (a stale plot or table) fail, and so do cells run out of order.
"""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path

import nbformat
import pytest

NOTEBOOKS = Path(__file__).resolve().parent.parent / "notebooks"
PATHS = sorted(NOTEBOOKS.glob("*.ipynb"))


def _runner():
    spec = importlib.util.spec_from_file_location("run_notebooks", NOTEBOOKS / "run_notebooks.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


RUNNER = _runner()


def test_there_are_notebooks():
    assert len(PATHS) >= 4, [p.name for p in PATHS]


@pytest.mark.parametrize("path", PATHS, ids=lambda p: p.name)
def test_outputs_come_from_the_current_code(path):
    nb = nbformat.read(path, as_version=4)
    code = [c for c in nb.cells if c.cell_type == "code"]
    if not any(c.outputs for c in code):
        return  # cleared: nothing stale to show
    stamp = nb.metadata.get(RUNNER.STAMP, {}).get("source_sha256")
    assert stamp == RUNNER.source_digest(nb), (
        f"{path.name}: outputs were made by other code; run python3 notebooks/run_notebooks.py {path.name}")
    counts = [c.execution_count for c in code]
    assert counts == list(range(1, len(code) + 1)), f"{path.name}: cells not run top to bottom: {counts}"


@pytest.mark.parametrize("path", PATHS, ids=lambda p: p.name)
def test_no_tracebacks_saved(path):
    nb = nbformat.read(path, as_version=4)
    for cell in nb.cells:
        for out in cell.get("outputs", []):
            assert out.get("output_type") != "error", f"{path.name}: a saved error output"


def test_stale_outputs_are_caught(tmp_path):
    """A planted edit after the run makes the check fail."""
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell("print(1)", execution_count=1)])
    nb.cells[0].outputs = [nbformat.v4.new_output("stream", text="1\n")]
    nb.metadata[RUNNER.STAMP] = {"source_sha256": RUNNER.source_digest(nb)}
    path = tmp_path / "x.ipynb"
    nbformat.write(nb, path)
    test_outputs_come_from_the_current_code(path)  # fresh: passes
    nb.cells[0].source = "print(2)"
    nbformat.write(nb, path)
    with pytest.raises(AssertionError, match="other code"):
        test_outputs_come_from_the_current_code(path)


@pytest.mark.parametrize("path", PATHS, ids=lambda p: p.name)
def test_text_speaks_to_readers(path):
    nb = nbformat.read(path, as_version=4)
    text = "\n".join(c.source for c in nb.cells if c.cell_type == "markdown")
    assert not re.search(r"\b(issues?|sessions?)\b", text, re.I), path.name
