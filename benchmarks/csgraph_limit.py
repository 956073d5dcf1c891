"""``graphs.csgraph.dijkstra`` with and without ``limit``, two trees of this library timed alternately.

::

    PYTHONPATH=. python3 benchmarks/csgraph_limit.py OLD_TREE NEW_TREE [--rounds 3] [--repeats 3] [--n 200000]

``OLD_TREE`` and ``NEW_TREE`` are checkouts of the repository (``git worktree add
/tmp/old <commit>``, or ``git archive <commit> | tar -x -C /tmp/old``).  The
graphs are made once, here: ``road_network(n)`` as a SciPy CSR matrix (integer
lengths, mean 21), with 100 random sources (seeded), and email-Enron (SNAP, unit
weights) with 64 sources when ``/work/shared/data/email-Enron.txt`` is there.
Each round runs one process per tree, old then new (the order swaps every
round); each process imports the library from its tree, warms every case up
once and gives the median of ``--repeats`` calls per case.  The table gives the
median over the rounds, the ratio new / old, and SciPy's time (timed after
each case in both processes, so that both run the same sequence of work).  Cases: ``dijkstra(A, indices=<100>)`` with ``limit`` 2000 (6% of the
vertices within it) and without, the same with predecessors and with
``min_only``, one source, and ``unweighted=True`` with hop limits.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

CASES = r"""
import sys, json, time, statistics
root, data, repeats = sys.argv[1], sys.argv[2], int(sys.argv[3])
sys.path.insert(0, root)
import numpy as np
import scipy.sparse as sp
import scipy.sparse.csgraph as scs
import graphs
from graphs import csgraph as gcs
assert graphs.__file__.startswith(root), graphs.__file__
z = np.load(data)
A = sp.csr_matrix((z["data"], z["indices"], z["indptr"]), shape=(z["n"], z["n"]))
src = z["src"]
cases = {
    "road: indices=100, limit=2000": lambda f: f.dijkstra(A, indices=src, limit=2000.0),
    "road: indices=100": lambda f: f.dijkstra(A, indices=src),
    "road: indices=100, limit=2000, predecessors": lambda f: f.dijkstra(A, indices=src, limit=2000.0,
                                                                       return_predecessors=True),
    "road: indices=100, predecessors": lambda f: f.dijkstra(A, indices=src, return_predecessors=True),
    "road: indices=100, min_only, limit=2000": lambda f: f.dijkstra(A, indices=src, limit=2000.0, min_only=True),
    "road: indices=100, min_only": lambda f: f.dijkstra(A, indices=src, min_only=True),
    "road: indices=0": lambda f: f.dijkstra(A, indices=0),
    "road: indices=0, limit=2000": lambda f: f.dijkstra(A, indices=0, limit=2000.0),
    "road: unweighted, indices=100, limit=20": lambda f: f.dijkstra(A, indices=src, unweighted=True, limit=20),
    "road: unweighted, indices=100, limit=100": lambda f: f.dijkstra(A, indices=src, unweighted=True, limit=100),
    "road: unweighted, indices=100, limit=1000": lambda f: f.dijkstra(A, indices=src, unweighted=True, limit=1000),
    "road: unweighted, indices=100": lambda f: f.dijkstra(A, indices=src, unweighted=True),
}
if "enron_indptr" in z:
    E = sp.csr_matrix((z["enron_data"], z["enron_indices"], z["enron_indptr"]), shape=(z["enron_n"], z["enron_n"]))
    esrc = z["enron_src"]
    for lim in (1, 2, 3, 100):
        cases[f"enron: indices=64, limit={lim} (unit weights)"] = lambda f, lim=lim: f.dijkstra(E, indices=esrc,
                                                                                            limit=lim)
    cases["enron: indices=64 (unit weights)"] = lambda f: f.dijkstra(E, indices=esrc)
out = {}
for name, case in cases.items():
    case(gcs)
    ts = []
    for _ in range(repeats):
        t = time.perf_counter(); case(gcs); ts.append(time.perf_counter() - t)
    t = time.perf_counter(); case(scs)
    out[name] = {"ours": statistics.median(ts), "scipy": time.perf_counter() - t}
print(json.dumps(out))
"""


def make_data(n: int, path: Path) -> None:
    """The road network (and email-Enron where present) and their sources, saved for the timing processes."""
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    import graphs

    A = graphs.generators.road_network(n, seed=0).to_scipy().tocsr()
    arrays = {"data": A.data, "indices": A.indices, "indptr": A.indptr, "n": A.shape[0],
              "src": np.random.default_rng(0).choice(A.shape[0], 100, replace=False)}
    enron = Path("/work/shared/data/email-Enron.txt")
    if enron.exists():
        E = graphs.read(enron).to_scipy().tocsr()
        arrays.update(enron_data=E.data, enron_indices=E.indices, enron_indptr=E.indptr, enron_n=E.shape[0],
                      enron_src=np.random.default_rng(0).choice(E.shape[0], 64, replace=False))
    np.savez(path, **arrays)


def run(tree: str, data: Path, repeats: int) -> dict:
    argv = [sys.executable, "-c", CASES, tree, str(data), str(repeats)]
    out = subprocess.run(argv, capture_output=True, text=True, check=True, cwd=tree)
    return json.loads(out.stdout.strip().splitlines()[-1])


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("old")
    ap.add_argument("new")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--n", type=int, default=200_000)
    args = ap.parse_args(argv)
    times: dict[str, dict[str, list[float]]] = {"old": {}, "new": {}, "scipy": {}}
    with tempfile.TemporaryDirectory() as tmp:
        data = Path(tmp) / "graphs.npz"
        make_data(args.n, data)
        for r in range(args.rounds):
            order = (("old", args.old), ("new", args.new)) if r % 2 == 0 else (("new", args.new), ("old", args.old))
            for tag, tree in order:
                for k, v in run(tree, data, args.repeats).items():
                    times[tag].setdefault(k, []).append(v["ours"])
                    times["scipy"].setdefault(k, []).append(v["scipy"])
            print(f"round {r + 1} of {args.rounds} done ({time.strftime('%H:%M:%S')})", file=sys.stderr)
    print("| case | old (s) | new (s) | new / old | SciPy (s) |\n| --- | --- | --- | --- | --- |")
    for k in times["old"]:
        o, n = statistics.median(times["old"][k]), statistics.median(times["new"][k])
        s = statistics.median(times["scipy"][k])
        print(f"| {k} | {o:.4f} | {n:.4f} | {n / o:.3f} | {s:.4f} |")


if __name__ == "__main__":
    main()
