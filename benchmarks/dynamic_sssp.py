"""Repairing shortest-path trees against rerunning the searches: :class:`graphs.DynamicSSSP` on a road network.

::

    PYTHONPATH=. python3 benchmarks/dynamic_sssp.py [--n 1000000] [--sources 16] [--updates 100] [--quick]

On ``graphs.generators.road_network(n)`` with ``--sources`` random depots, it
applies ``--updates`` random changes one after the other -- a random arc
closed, or a closed one reopened (alternating) -- and times each repair, against rerunning the searches from every
source on the current graph (``graphs.multi_source_sssp``, Dijkstra, the
library's fastest CPU route; the graph it needs is built untimed).  Every
tenth step the repaired distances are compared with the rerun's.  Results:
``benchmarks/results/dynamic_sssp-cpu.{json,md}``.
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

import graphs  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=1_000_000)
    ap.add_argument("--sources", type=int, default=16)
    ap.add_argument("--updates", type=int, default=100)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--quick", action="store_true")
    args = ap.parse_args()
    if args.quick:
        set_quick(True)
        args.n, args.updates = 50_000, 20
    rng = np.random.default_rng(args.seed)
    G = graphs.generators.road_network(args.n, seed=args.seed)
    sources = rng.choice(G.n, size=args.sources, replace=False)
    t = time.perf_counter()
    T = graphs.DynamicSSSP(G, sources)
    build = time.perf_counter() - t
    A = G.to_scipy().tocoo()
    repair, rerun = [], []
    closed: list[tuple[int, int, float]] = []
    for step in range(args.updates):
        if step % 2 == 0 or not closed:
            k = int(rng.integers(A.nnz))
            u, v, w = int(A.row[k]), int(A.col[k]), float(A.data[k])
            t = time.perf_counter()
            T.remove([u], [v])
            repair.append(time.perf_counter() - t)
            closed.append((u, v, w))
        else:
            u, v, w = closed.pop(int(rng.integers(len(closed))))
            t = time.perf_counter()
            T.update([u], [v], [w])
            repair.append(time.perf_counter() - t)
        H = T.to_graph()
        t = time.perf_counter()
        D, _ = graphs.multi_source_sssp(H, sources, method="dijkstra")
        rerun.append(time.perf_counter() - t)
        if step % 10 == 0 or step == args.updates - 1:
            np.testing.assert_allclose(T.distances, D, rtol=1e-12)
    med_rep, med_rerun = statistics.median(repair), statistics.median(rerun)
    ratios = sorted(b / a for a, b in zip(repair, rerun))
    rows = [
        ["build (the searches, once)", f"{build * 1e3:.0f}", "-"],
        ["rerun the searches (median)", f"{med_rerun * 1e3:.1f}", "1x"],
        ["repair after one change (median)", f"{med_rep * 1e3:.2f}", f"{med_rerun / med_rep:.0f}x"],
        ["repair, slowest of the run", f"{max(repair) * 1e3:.1f}", f"{med_rerun / max(repair):.1f}x"],
        ["per-update ratio, 10th percentile", "-", f"{ratios[len(ratios) // 10]:.0f}x"],
        ["per-update ratio, worst", "-", f"{ratios[0]:.1f}x"],
    ]
    info = machine()
    table = markdown_table([f"road_network({G.n}), {args.sources} sources, {args.updates} updates",
                            "ms", "vs rerun"], rows)
    print(table)
    write_results("dynamic_sssp-cpu", {"machine": info, "args": vars(args), "repair_s": repair, "rerun_s": rerun},
                  f"# Tree repair against rerunning the searches ({info['cpu']}, {info['cores']} cores)\n\n{table}")


if __name__ == "__main__":
    main()
