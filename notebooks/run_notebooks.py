"""Re-execute the notebooks of this folder top to bottom and save them with their outputs.

Run from anywhere: ``python3 notebooks/run_notebooks.py [NAME.ipynb ...]`` (default: every
``*.ipynb`` here, in name order).  Each notebook runs in this folder with the repository
root first on ``PYTHONPATH``, so it imports the working tree's packages; the time of each
run is printed.  Needs ``nbclient``, ``nbformat``, ``ipykernel`` and ``matplotlib`` (the
``test`` extra has them).

The saved notebook carries, in its metadata, a digest of the code it ran
(:func:`source_digest`); the test suite refuses a notebook whose outputs were made by other
code than the code it now holds, so outputs are never stale: edit a cell, re-run this
script.  (The test suite also executes every notebook itself, through nbmake.)
"""

from __future__ import annotations

import argparse
import hashlib
import os
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent


STAMP = "semiring_paths"  # key of the notebook metadata holding the digest of the code that made the outputs


def source_digest(nb) -> str:
    """SHA-256 of the notebook's code cells, in order (what its outputs depend on).

    Parameters
    ----------
    nb : nbformat.NotebookNode
        A notebook read with ``nbformat.read``.

    Returns
    -------
    str
        Hex digest of the code cells' sources joined by NUL bytes.

    Examples
    --------
    >>> import nbformat
    >>> nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell("1 + 1")])
    >>> source_digest(nb) == hashlib.sha256(b"1 + 1").hexdigest()
    True
    """
    code = "\0".join(c.source for c in nb.cells if c.cell_type == "code")
    return hashlib.sha256(code.encode()).hexdigest()


def execute(path: Path, timeout: int) -> float:
    """Execute one notebook in place and return its wall time in seconds.

    Parameters
    ----------
    path : Path
        The ``.ipynb`` file; it is overwritten with the new outputs.
    timeout : int
        Seconds allowed per cell.

    Returns
    -------
    float
        Seconds from kernel start to the last cell's end.

    Raises
    ------
    nbclient.exceptions.CellExecutionError
        A cell raised; the notebook is left unchanged.
    """
    import nbformat
    from nbclient import NotebookClient

    nb = nbformat.read(path, as_version=4)
    for cell in nb.cells:  # timings of earlier runs would be stale: this run records none
        cell.metadata.pop("execution", None)
    client = NotebookClient(nb, timeout=timeout, kernel_name="python3", record_timing=False,
                            resources={"metadata": {"path": str(HERE)}})
    start = time.perf_counter()
    client.execute()
    seconds = time.perf_counter() - start
    nb.metadata[STAMP] = {"source_sha256": source_digest(nb)}
    nbformat.write(nb, path)
    return seconds


def main(argv: list[str] | None = None) -> int:
    """Command line: execute the named notebooks (default: all of them), print their times."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("notebooks", nargs="*", help="notebook files (default: every *.ipynb here)")
    parser.add_argument("--timeout", type=int, default=1200, help="seconds allowed per cell")
    args = parser.parse_args(argv)
    os.environ["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))
    paths = [Path(p).resolve() for p in args.notebooks] or sorted(HERE.glob("*.ipynb"))
    for path in paths:
        seconds = execute(path, args.timeout)
        print(f"{path.name}: {seconds:.1f} s", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
