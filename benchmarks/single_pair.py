"""Single-pair routes against a full single-source Dijkstra: when does asking for one route pay?

::

    PYTHONPATH=. python3 benchmarks/single_pair.py [--n 1000000] [--grid 1000] [--pairs 8] [--quick]

On a ``--grid`` x ``--grid`` grid (weights 1..100) and a road-like network of ``--n``
junctions (:func:`graphs.generators.road_network`, coordinates known) it times,
for random pairs ``(s, t)``, :func:`graphs.shortest_path` with bidirectional
Dijkstra and with A*, against ``scipy.sparse.csgraph.dijkstra`` from ``s``
(everything it needs to answer the same question).  Every answer is checked
against SciPy's.  One-off preparation (the graph's transpose for the backward
search, the Euclidean bound of A*) is timed separately.  Results go to
benchmarks/results/single_pair-cpu.{json,md}; ``--quick`` (a 200 x 200 grid, 20,000
junctions, 4 pairs) writes under ``benchmarks/results/quick/``.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from _common import machine, markdown_table, set_quick, write_results  # noqa: E402
from scipy.sparse.csgraph import dijkstra  # noqa: E402

import graphs  # noqa: E402
from graphs.paths.single_pair import euclidean_scale  # noqa: E402


def _clock(fn, *args, **kwargs):
    t = time.perf_counter()
    out = fn(*args, **kwargs)
    return out, time.perf_counter() - t


def bench(name: str, G, pairs: int, seed: int) -> list[list[object]]:
    A = G.to_scipy()
    _, t_prep = _clock(lambda: (G.transpose(), G.coords is not None and euclidean_scale(G)))
    graphs.shortest_path(G, 0, 1, heuristic=None)  # compiles the kernels
    graphs.shortest_path(G, 0, 1, heuristic="euclidean")
    rng = np.random.default_rng(seed)
    times = {"scipy": [], "bidirectional": [], "astar": []}
    settled = {"bidirectional": [], "astar": []}
    for s, t in rng.integers(0, G.n, (pairs, 2)).tolist():
        ref, ts = _clock(dijkstra, A, indices=s)
        times["scipy"].append(ts)
        for key, h in (("bidirectional", None), ("astar", "euclidean")):
            r, tq = _clock(graphs.shortest_path, G, s, t, heuristic=h)
            assert float(r.distance) == ref[t], (name, s, t, key)
            times[key].append(tq)
            settled[key].append(r.settled)
    med = {k: statistics.median(v) for k, v in times.items()}
    return [[name, f"{G.n:,}", f"{t_prep * 1e3:.0f}", f"{med['scipy'] * 1e3:.0f}",
             f"{med['bidirectional'] * 1e3:.1f}", f"{statistics.median(settled['bidirectional']):,.0f}",
             f"{med['astar'] * 1e3:.1f}", f"{statistics.median(settled['astar']):,.0f}",
             f"{med['scipy'] / min(med['bidirectional'], med['astar']):.1f}x"]]


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--n", type=int, default=1_000_000, help="junctions of the road-like network")
    ap.add_argument("--pairs", type=int, default=8)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--grid", type=int, default=1000, help="side of the 2-D grid")
    ap.add_argument("--quick", action="store_true", help="small graphs, 4 pairs, results under results/quick/")
    args = ap.parse_args(argv)
    if args.quick:
        args.n, args.grid, args.pairs = 20_000, 200, 4
    set_quick(args.quick)
    rows = bench(f"grid_2d {args.grid} x {args.grid}", graphs.generators.grid_2d(args.grid, seed=1), args.pairs,
                 args.seed)
    rows += bench(f"road_network({args.n:,})", graphs.generators.road_network(args.n, seed=1), args.pairs, args.seed)
    header = ["graph", "vertices", "prep ms", "SciPy full Dijkstra ms", "bidirectional ms", "settled",
              "A* ms", "settled", "best speed-up"]
    md = f"Medians over {args.pairs} random pairs; {machine()['cpu']}.\n\n" + markdown_table(header, rows)
    print(md)
    write_results("single_pair-cpu", {"machine": machine(), "header": header, "rows": rows}, md)


if __name__ == "__main__":
    main()
