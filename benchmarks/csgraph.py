"""graphs.csgraph against scipy.sparse.csgraph, side by side in one run (medians and ratios).

CPU (default):

* ``shortest_path(A, method="FW")`` on a dense random float64 graph (n = 2048 by
  default): SciPy's Floyd-Warshall, ``graphs.csgraph`` and, on the same matrix,
  the engine it calls (:func:`apsp.shortest_paths`), to show the wrapper's cost;
* ``dijkstra(A, indices=<64 sources>)`` on email-Enron (SNAP, read with
  :func:`graphs.read`, then ``.to_scipy()``: every arc weighs 1, so the drop-in
  searches breadth-first, engine :func:`graphs.bfs`), and on the same graph with
  random weights (engine :func:`graphs.multi_source_sssp` on the same sources);
* on the same graph, the other drop-ins: ``breadth_first_order``,
  ``depth_first_order`` (from the vertex of most arcs), ``connected_components``
  (weak, strong), ``minimum_spanning_tree`` (unit weights: all ties);
* ``minimum_spanning_tree`` with random weights on email-Enron and on R-MAT
  scale 18 (``graphs.generators.rmat(18, 16, seed=1)``).

``--gpu`` times the GPU route (CuPy inputs) against SciPy on this machine's
CPU: ``shortest_path(method="FW")`` at n = 4096 (SciPy timed at n/2 and scaled
by 8, the O(n^3) of Floyd-Warshall) and ``dijkstra`` from 1024 sources of R-MAT
scale 20 (SciPy timed on 16 of those sources and scaled by 64).

Results: ``benchmarks/results/csgraph-cpu.{json,md}`` (``csgraph-gpu.{json,md}``); ``--quick``
runs small sizes and writes under ``results/quick/``.

    PYTHONPATH=. python3 benchmarks/csgraph.py [--n 2048] [--sources 64] [--repeats 5] [--rmat-scale 18] [--gpu] [--quick]
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from _common import machine, markdown_table, median_time, set_quick, write_results  # noqa: E402

import apsp  # noqa: E402
import graphs  # noqa: E402
from graphs import csgraph as gcs  # noqa: E402

ENRON = Path("/work/shared/data/email-Enron.txt")


def row(what: str, size: str, t_scipy: float, t_ours: float, extra: dict | None = None) -> dict:
    r = {"what": what, "size": size, "scipy_s": t_scipy, "ours_s": t_ours, "speedup": t_scipy / t_ours}
    r.update(extra or {})
    return r


def run_cpu(args) -> list[dict]:
    from scipy.sparse import csgraph as scs

    rows = []
    rng = np.random.default_rng(0)
    n = args.n
    W = rng.random((n, n)) + 0.01  # every pair an edge (no zeros): SciPy's "auto" is FW too
    t_apsp = median_time(lambda: apsp.shortest_paths(W), repeats=args.repeats)
    t_ours = median_time(lambda: gcs.shortest_path(W, method="FW"), repeats=args.repeats)
    t_apsp2 = median_time(lambda: apsp.shortest_paths(W), repeats=args.repeats)  # both sides of ours: drift
    t_apsp = min(t_apsp, t_apsp2)
    t_scipy = median_time(lambda: scs.shortest_path(W, method="FW"), repeats=args.scipy_repeats, warmup=0)
    same = np.allclose(gcs.shortest_path(W, method="FW"), scs.shortest_path(W, method="FW"), rtol=1e-12)
    rows.append(row("shortest_path(method='FW') dense float64", f"n={n}", t_scipy, t_ours,
                    {"engine": "apsp.shortest_paths", "engine_s": t_apsp, "ours_vs_engine_rate": t_apsp / t_ours,
                     "same_result": bool(same)}))
    t32 = median_time(lambda: gcs.shortest_path(W, method="FW", dtype=np.float32), repeats=args.repeats)
    rows.append(row("shortest_path(method='FW', dtype=float32)", f"n={n}", t_scipy, t32))

    G = graphs.read(ENRON)
    A = G.to_scipy()  # unweighted: boolean data, every arc weighs 1 for SciPy
    src = np.random.default_rng(1).choice(A.shape[0], args.sources, replace=False)
    Gb = graphs.Graph(A.indptr, A.indices, None)

    def engine_bfs():
        for s in src.tolist():
            graphs.bfs(Gb, s)

    t_engine = median_time(engine_bfs, repeats=args.repeats)
    t_ours = median_time(lambda: gcs.dijkstra(A, indices=src), repeats=args.repeats)
    t_scipy = median_time(lambda: scs.dijkstra(A, indices=src), repeats=args.repeats)
    same = np.array_equal(scs.dijkstra(A, indices=src), gcs.dijkstra(A, indices=src))
    rows.append(row(f"dijkstra(indices=<{args.sources} sources>) email-Enron (unit weights)",
                    f"n={A.shape[0]} nnz={A.nnz}", t_scipy, t_ours,
                    {"engine": "graphs.bfs per source", "engine_s": t_engine, "ours_vs_engine_rate": t_engine / t_ours,
                     "same_distances": bool(same)}))
    Aw = A.astype(np.float64)
    Aw.data = np.random.default_rng(2).random(Aw.nnz) + 0.01
    t_engine = median_time(lambda: graphs.multi_source_sssp(Aw, src), repeats=args.repeats)
    t_ours = median_time(lambda: gcs.dijkstra(Aw, indices=src), repeats=args.repeats)
    t_scipy = median_time(lambda: scs.dijkstra(Aw, indices=src), repeats=args.repeats)
    d0, p0 = scs.dijkstra(Aw, indices=src, return_predecessors=True)
    d1, p1 = gcs.dijkstra(Aw, indices=src, return_predecessors=True)
    rows.append(row(f"dijkstra(indices=<{args.sources} sources>) email-Enron, random weights",
                    f"n={A.shape[0]} nnz={A.nnz}", t_scipy, t_ours,
                    {"engine": "graphs.multi_source_sssp", "engine_s": t_engine, "ours_vs_engine_rate": t_engine / t_ours,
                     "same_distances": bool(np.allclose(d0, d1, rtol=1e-12)),
                     "same_predecessors": bool(np.array_equal(p0, p1))}))
    hub = int(np.argmax(np.diff(A.indptr)))  # a start that reaches the giant component
    for what, f0, f1 in [
        (f"breadth_first_order(A, {hub})", lambda: scs.breadth_first_order(A, hub),
         lambda: gcs.breadth_first_order(A, hub)),
        (f"depth_first_order(A, {hub})", lambda: scs.depth_first_order(A, hub),
         lambda: gcs.depth_first_order(A, hub)),
        ("connected_components(weak)", lambda: scs.connected_components(A), lambda: gcs.connected_components(A)),
        ("connected_components(strong)", lambda: scs.connected_components(A, connection="strong"),
         lambda: gcs.connected_components(A, connection="strong")),
        ("minimum_spanning_tree(A)", lambda: scs.minimum_spanning_tree(A), lambda: gcs.minimum_spanning_tree(A)),
    ]:
        t0 = median_time(f0, repeats=args.repeats)
        t1 = median_time(f1, repeats=args.repeats)
        rows.append(row(f"{what} email-Enron", f"n={A.shape[0]} nnz={A.nnz}", t0, t1))
    # The MST of an unweighted graph is all ties; with random weights the sort / Boruvka rounds are the cost.
    R = graphs.generators.rmat(args.rmat_scale, 16, seed=1).to_scipy().astype(np.float64)
    R.data = np.random.default_rng(3).random(R.nnz) + 0.01
    for what, X in [("minimum_spanning_tree(A) email-Enron, random weights", Aw),
                    (f"minimum_spanning_tree(A) R-MAT scale {args.rmat_scale}, random weights", R)]:
        t0 = median_time(lambda X=X: scs.minimum_spanning_tree(X), repeats=args.repeats)
        t1 = median_time(lambda X=X: gcs.minimum_spanning_tree(X), repeats=args.repeats)
        same = (scs.minimum_spanning_tree(X) != gcs.minimum_spanning_tree(X)).nnz == 0
        rows.append(row(what, f"n={X.shape[0]} nnz={X.nnz}", t0, t1, {"same_tree": bool(same)}))
    return rows


def run_gpu(args) -> list[dict]:
    import cupy as cp
    import cupyx.scipy.sparse as csp
    from _common import gpu_time
    from scipy.sparse import csgraph as scs

    rows = []
    n = args.gpu_n
    rng = np.random.default_rng(0)
    W = rng.random((n, n)) + 0.01
    Wd = cp.asarray(W)
    t_ours = gpu_time(lambda: gcs.shortest_path(Wd, method="FW"), repeats=args.repeats)
    t_engine = gpu_time(lambda: apsp.shortest_paths(Wd), repeats=args.repeats)
    half = W[: n // 2, : n // 2].copy()
    t_half = median_time(lambda: scs.shortest_path(half, method="FW"), repeats=1, warmup=0)
    rows.append(row("shortest_path(method='FW') dense float64, CuPy input", f"n={n}", 8 * t_half, t_ours,
                    {"engine": "apsp.shortest_paths", "engine_s": t_engine, "ours_vs_engine_rate": t_engine / t_ours,
                     "scipy_timed_at": f"n={n // 2}, scaled x8"}))
    G = graphs.generators.rmat(args.gpu_scale, seed=0)
    A = G.to_scipy()
    Ad = csp.csr_matrix(A)
    src = np.random.default_rng(1).choice(A.shape[0], 1024, replace=False)
    t_ours = gpu_time(lambda: gcs.dijkstra(Ad, indices=src), repeats=max(1, args.repeats // 2))
    t16 = median_time(lambda: scs.dijkstra(A, indices=src[:16]), repeats=1, warmup=0)
    rows.append(row(f"dijkstra(indices=<1024 sources>) R-MAT scale {args.gpu_scale}, cupyx input",
                    f"n={A.shape[0]} nnz={A.nnz}", t16 * 64, t_ours, {"scipy_timed_at": "16 sources, scaled x64"}))
    return rows


def table(rows: list[dict]) -> str:
    header = ["what", "size", "SciPy (s)", "graphs.csgraph (s)", "speedup", "engine", "engine alone (s)",
              "ours / engine rate"]
    body = []
    for r in rows:
        engine = r.get("engine_s")
        rate = r.get("ours_vs_engine_rate")
        body.append([r["what"], r["size"], f"{r['scipy_s']:.4g}", f"{r['ours_s']:.4g}", f"{r['speedup']:.2f}x",
                     r.get("engine", ""), "" if engine is None else f"{engine:.4g}",
                     "" if rate is None else f"{100 * rate:.0f}%"])
    return markdown_table(header, body)


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--n", type=int, default=2048, help="Floyd-Warshall matrix size on the CPU")
    p.add_argument("--sources", type=int, default=64, help="Dijkstra sources on email-Enron")
    p.add_argument("--repeats", type=int, default=5)
    p.add_argument("--scipy-repeats", type=int, default=1, help="repeats of SciPy's (slow) Floyd-Warshall")
    p.add_argument("--rmat-scale", type=int, default=18, help="R-MAT scale of the random-weight MST case")
    p.add_argument("--gpu", action="store_true", help="time the GPU route against SciPy on this CPU")
    p.add_argument("--gpu-n", type=int, default=4096)
    p.add_argument("--gpu-scale", type=int, default=20)
    p.add_argument("--quick", action="store_true",
                   help="small sizes (FW n=512, 8 sources, R-MAT 12; GPU: n=1024, R-MAT 14), 2 rounds, "
                        "results under results/quick/")
    args = p.parse_args(argv)
    if args.quick:
        args.n, args.sources, args.repeats, args.rmat_scale = 512, 8, 2, 12
        args.gpu_n, args.gpu_scale = 1024, 14
    set_quick(args.quick)
    info = {**machine(), "load_avg_start": list(os.getloadavg())}
    start = time.perf_counter()
    rows = run_gpu(args) if args.gpu else run_cpu(args)
    info["load_avg_end"] = list(os.getloadavg())
    stem = "csgraph-cpu"
    if args.gpu:
        import cupy as cp

        info["gpu"] = cp.cuda.runtime.getDeviceProperties(0)["name"].decode()
        stem = "csgraph-gpu-" + info["gpu"].lower().replace(" ", "-")
    load = f"load average {info['load_avg_start'][0]:.2f} at the start, {info['load_avg_end'][0]:.2f} at the end"
    md = (f"# graphs.csgraph against scipy.sparse.csgraph ({('GPU ' + info['gpu']) if args.gpu else 'CPU'}; CPU {info['cpu']}, "
          f"{info['cores']} cores; {info['simd']}; {info['date']}; {load})\n\n"
          f"Medians of {args.repeats} runs (SciPy's Floyd-Warshall: {args.scipy_repeats}); speedup = SciPy / ours; "
          f"'ours / engine rate' = engine time / our time (100% = no wrapper cost).\n\n" + table(rows))
    write_results(stem, {"machine": info, "args": vars(args), "rows": rows,
                         "wall_s": time.perf_counter() - start}, md)
    print(md)


if __name__ == "__main__":
    main()
