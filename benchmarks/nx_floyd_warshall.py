"""NetworkX's ``floyd_warshall_numpy`` with rounding float weights: the backend against NetworkX, bit for bit.

::

    PYTHONPATH=. python3 benchmarks/nx_floyd_warshall.py [--n 2000] [--repeats 3]

On ``nx.barabasi_albert_graph(n, 3)`` with float weights that are not dyadic
(their sums round), the backend runs NetworkX's own recurrence compiled and
blocked over pivots (:mod:`graphs.nx_backend.shortest._fw_kernels`); the
arrays must be equal to the bit.  The conversion is included (no cache).
Results: ``benchmarks/results/nx-floyd-warshall-cpu.md``.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

import networkx as nx
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from _common import machine, markdown_table, write_results  # noqa: E402

import graphs  # noqa: E402,F401 - registers nothing; the backend is found through NetworkX's entry point


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=2000)
    ap.add_argument("--repeats", type=int, default=3)
    args = ap.parse_args(argv)
    nx.config.cache_converted_graphs = False
    rng = np.random.default_rng(1)
    G = nx.barabasi_albert_graph(args.n, 3, seed=1)
    for u, v in G.edges:
        G[u][v]["weight"] = float(rng.random()) * 3.7
    nx.floyd_warshall_numpy(nx.path_graph(100), backend="semiring_paths")  # compiles the kernel
    ours = []
    for _ in range(args.repeats):
        t = time.perf_counter()
        A = nx.floyd_warshall_numpy(G, backend="semiring_paths")
        ours.append(time.perf_counter() - t)
    t = time.perf_counter()
    B = nx.floyd_warshall_numpy(G)
    theirs = time.perf_counter() - t
    equal = bool(np.array_equal(A.view(np.int64), B.view(np.int64)))
    ours_med = statistics.median(ours)
    rows = [[f"barabasi_albert_graph({args.n}, 3), float weights", f"{ours_med:.3f}", f"{theirs:.2f}",
             f"{theirs / ours_med:.1f}x", equal]]
    table = markdown_table(["graph", "backend (s, median)", "NetworkX (s)", "speed-up", "bit-equal"], rows)
    print(table)
    info = machine()
    write_results("nx-floyd-warshall-cpu", {"machine": info, "args": vars(args), "backend_s": ours,
                                             "networkx_s": theirs, "bit_equal": equal},
                  f"# floyd_warshall_numpy: backend against NetworkX ({info['cpu']}, {info['cores']} cores)\n\n{table}")


if __name__ == "__main__":
    main()
