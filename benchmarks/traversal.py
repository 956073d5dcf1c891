"""Traversal benchmarks: BFS, SSSP and components side by side with SciPy (CPU) and cuSPARSE (GPU).

CPU (default)::

    PYTHONPATH=. python3 benchmarks/traversal.py [--sources 16] [--scale 18]

R-MAT scale 18, edge factor 16 (Graph500 parameters, weights 1..100) and
email-Enron (from ../shared/data, seeded weights 1..100): per-source medians of
our BFS / SSSP against ``scipy.sparse.csgraph.breadth_first_order`` /
``dijkstra`` (and ``bellman_ford`` on one source where it is feasible), and
components.  Every result is checked against SciPy's before it is timed.
One-off preparation (a directed graph's transpose for pull levels, the
light/heavy split of delta-stepping) is timed separately and reported.

GPU::

    PYTHONPATH=. python3 benchmarks/traversal.py --gpu [--scale 22]

min-plus float32 SpMV against cuSPARSE's plus-times SpMV (``A @ x``) on the same
R-MAT matrix, BFS and delta-stepping GTEPS (input edges / time, median of 16
random non-isolated sources), and BFS on a 1000 x 1000 grid against the floor
of one kernel launch plus one read-back per level, measured in the same run.

Results go to benchmarks/results/traversal-{cpu,gpu}.{json,md} (and $OUT if
set), with a GTEPS chart traversal-{cpu,gpu}.png.  ``--quick``: R-MAT scale 14
(18 on the GPU), 4 sources, a 300 x 300 grid, results under ``results/quick/``.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from _common import interleaved_gpu_times, machine, markdown_table, results_dir, set_quick, write_results  # noqa: E402

import graphs  # noqa: E402
from graphs import Graph  # noqa: E402
from graphs import generators as gen  # noqa: E402
from graphs.paths.sssp import default_delta, light_heavy_rows  # noqa: E402

DATA = Path(__file__).resolve().parents[2] / "shared" / "data"


def progress(msg: str) -> None:
    """One status line on a terminal; nothing when stderr is not a terminal."""
    if sys.stderr.isatty():
        print(f"\r\033[K{msg}", end="", file=sys.stderr, flush=True)


def timed(fn):
    t = time.perf_counter()
    out = fn()
    return time.perf_counter() - t, out


def weighted_enron() -> Graph | None:
    path = DATA / "email-Enron.txt"
    if not path.exists():
        return None
    G = graphs.read(path)
    w = np.random.default_rng(0).integers(1, 101, G.nnz).astype(np.float32)
    return Graph(G.indptr, G.indices, w, directed=G.directed)


def scipy_levels(order, pred, n, s):
    lv = np.full(n, -1)
    lv[s] = 0
    for v in order[1:]:
        lv[v] = lv[pred[v]] + 1
    return lv


def cpu_suite(name: str, G: Graph, k: int, quick: bool = False) -> list[dict]:
    import scipy.sparse.csgraph as csg

    A = G.to_scipy().astype(np.float64)  # SciPy's native input: float64 data, int32 indices
    rng = np.random.default_rng(1)
    srcs = rng.choice(np.flatnonzero(np.diff(G.indptr) > 0), size=k, replace=False).tolist()
    rows = []
    # One-off preparation, timed on its own (after loading its kernel on a tiny graph).
    Graph.from_edges([0], [1]).transpose()
    prep_t, _ = timed(lambda: G.transpose())
    delta = default_delta(G)
    prep_s, _ = timed(lambda: light_heavy_rows(G, delta))
    graphs.bfs(G, srcs[0])
    graphs.sssp(G, srcs[0])
    ours_b, sp_b, ours_s, sp_s, ours_bf, ours_dj, ours_ds = [], [], [], [], [], [], []
    auto = sys.modules["graphs.sssp"]._auto_method(G)
    for i, s in enumerate(srcs):
        progress(f"{name}: source {i + 1}/{k}")
        t_sp, (order, pred) = timed(lambda s=s: csg.breadth_first_order(A, s, directed=True, return_predecessors=True))
        t_ours, (lv, _) = timed(lambda s=s: graphs.bfs(G, s))
        assert np.array_equal(lv, scipy_levels(order, pred, G.n, s)), f"BFS levels differ from SciPy's ({name}, {s})"
        sp_b.append(t_sp)
        ours_b.append(t_ours)
        t_sp, want = timed(lambda s=s: csg.dijkstra(A, indices=s, return_predecessors=True))
        t_ours, (dist, _) = timed(lambda s=s: graphs.sssp(G, s))
        assert np.array_equal(dist.astype(np.float64), want[0]), f"SSSP distances differ from SciPy's ({name}, {s})"
        sp_s.append(t_sp)
        ours_s.append(t_ours)
        ours_bf.append(timed(lambda s=s: graphs.sssp(G, s, method="bellman-ford"))[0])
        ours_dj.append(timed(lambda s=s: graphs.sssp(G, s, method="dijkstra"))[0])
        ours_ds.append(timed(lambda s=s: graphs.sssp(G, s, method="delta-stepping"))[0])
    med = statistics.median
    m_in = G.num_edges
    rows.append({"graph": name, "op": "BFS", "ours_s": med(ours_b), "scipy_s": med(sp_b), "edges": m_in,
                 "note": f"direction-optimising; transpose built once in {prep_t * 1e3:.1f} ms"})
    rows.append({"graph": name, "op": "SSSP", "ours_s": med(ours_s), "scipy_s": med(sp_s), "edges": m_in,
                 "note": f"method='auto' ({auto}), vs scipy dijkstra"})
    rows.append({"graph": name, "op": "SSSP delta-stepping", "ours_s": med(ours_ds), "scipy_s": med(sp_s),
                 "edges": m_in, "note": f"delta={delta:.2f}; light/heavy split once in {prep_s * 1e3:.1f} ms"})
    rows.append({"graph": name, "op": "SSSP bellman-ford", "ours_s": med(ours_bf), "scipy_s": None, "edges": m_in,
                 "note": "frontier Bellman-Ford (negative weights allowed)"})
    rows.append({"graph": name, "op": "SSSP dijkstra", "ours_s": med(ours_dj), "scipy_s": med(sp_s), "edges": m_in,
                 "note": "binary-heap Dijkstra (vs scipy dijkstra)"})
    # SciPy's Bellman-Ford is O(n m); run it once only where it finishes in reasonable time.
    if G.n * G.nnz < (1e9 if quick else 2e10):
        s = srcs[0]
        t_sp, want = timed(lambda s=s: csg.bellman_ford(A, indices=s))
        t_ours, (dist, _) = timed(lambda s=s: graphs.sssp(G, s, method="bellman-ford"))
        assert np.array_equal(dist.astype(np.float64), want)
        rows.append({"graph": name, "op": "SSSP bellman-ford (1 source)", "ours_s": t_ours, "scipy_s": t_sp,
                     "edges": m_in, "note": "vs scipy bellman_ford"})
    for connection in ("weak", "strong"):
        t_ours = min(timed(lambda connection=connection: graphs.connected_components(G, connection))[0] for _ in range(3))
        t_sp = min(timed(lambda connection=connection: csg.connected_components(A, directed=True, connection=connection))[0]
                   for _ in range(3))
        k1 = graphs.connected_components(G, connection)[0]
        k2 = csg.connected_components(A, directed=True, connection=connection)[0]
        assert k1 == k2
        rows.append({"graph": name, "op": f"components ({connection})", "ours_s": t_ours, "scipy_s": t_sp,
                     "edges": m_in, "note": f"{k1} components"})
    progress("")
    return rows


def run_cpu(args) -> None:
    todo = [(f"R-MAT scale {args.scale} ef 16", lambda: gen.rmat(args.scale, seed=0))]
    todo.append(("email-Enron", weighted_enron))
    rows = []
    for name, make in todo:
        progress(f"building {name}")
        t_build, G = timed(make)
        if G is None:
            print(f"skipping {name}: {DATA} is not available", file=sys.stderr)
            continue
        print(f"{name}: n = {G.n}, arcs = {G.nnz}, input edges = {G.num_edges}, built in {t_build:.2f} s",
              file=sys.stderr)
        rows += cpu_suite(name, G, args.sources, args.quick)
    table = []
    for r in rows:
        ratio = r["scipy_s"] / r["ours_s"] if r["scipy_s"] else None
        r["speedup"] = ratio
        r["ours_gteps"] = r["edges"] / r["ours_s"] / 1e9
        table.append([r["graph"], r["op"], f"{r['ours_s'] * 1e3:.2f}",
                      "-" if r["scipy_s"] is None else f"{r['scipy_s'] * 1e3:.2f}",
                      "-" if ratio is None else f"{ratio:.2f}x", f"{r['ours_gteps']:.3f}", r["note"]])
    header = ["graph", "operation", "ours (ms)", "SciPy (ms)", "SciPy / ours", "ours GTEPS", "note"]
    md = (f"# Traversal on the CPU ({machine()['cpu']}, {machine()['cores']} cores)\n\n"
          f"Per-source medians over {args.sources} random non-isolated sources; results checked against SciPy.\n\n"
          + markdown_table(header, table))
    print(md)
    write_results("traversal-cpu", {"machine": machine(), "sources": args.sources, "rows": rows}, md)
    plot([(f"{r['graph']}\n{r['op']}", r["ours_gteps"], r["edges"] / r["scipy_s"] / 1e9)
          for r in rows if r["op"] in ("BFS", "SSSP", "components (weak)")],
         "traversal-cpu.png", f"CPU traversal, {machine()['cores']} cores")


def plot(bars: list[tuple], fname: str, title: str) -> None:
    """Bar chart of GTEPS: ``(label, ours)`` or ``(label, ours, reference)`` per bar group."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("matplotlib is not installed: no plot", file=sys.stderr)
        return
    fig, ax = plt.subplots(figsize=(max(5, 1.6 * len(bars)), 3.8))
    xs = np.arange(len(bars))
    two = any(len(b) > 2 and b[2] is not None for b in bars)
    width = 0.4 if two else 0.6
    ax.bar(xs - (width / 2 if two else 0), [b[1] for b in bars], width, color="tab:blue", label="semiring-paths")
    if two:
        ax.bar(xs + width / 2, [b[2] or 0 for b in bars], width, color="tab:gray", label="SciPy")
        ax.legend(fontsize=8)
    ax.set_xticks(xs, [b[0] for b in bars], fontsize=7)
    ax.set_ylabel("GTEPS (input edges / s)")
    ax.set_title(title, fontsize=10)
    fig.tight_layout()
    for folder in [results_dir()] + ([Path(os.environ["OUT"])] if os.environ.get("OUT") else []):
        folder.mkdir(parents=True, exist_ok=True)
        fig.savefig(folder / fname, dpi=120)
    plt.close(fig)


# -- GPU -----------------------------------------------------------------------------------
def wall_time(fn) -> float:
    """Wall seconds of ``fn`` including its host synchronisations (traversals read back per level)."""
    import cupy as cp

    cp.cuda.Device().synchronize()
    t = time.perf_counter()
    fn()
    cp.cuda.Device().synchronize()
    return time.perf_counter() - t


def launch_readback_floor() -> float:
    """One tiny kernel launch plus one scalar read-back: the per-level floor of a host-driven BFS."""
    import cupy as cp

    x = cp.zeros(1, dtype=cp.int32)
    k = cp.ElementwiseKernel("", "int32 y", "y = y + 1", "semiring_paths_floor")
    for _ in range(20):
        k(x)
        int(x[0])
    ts = []
    for _ in range(200):
        t = time.perf_counter()
        k(x)
        int(x[0])
        ts.append(time.perf_counter() - t)
    return statistics.median(ts)


def run_gpu(args) -> None:
    import cupy as cp

    import semiring as sr

    rows = []
    scale = args.scale
    progress(f"R-MAT scale {scale} on the GPU")
    t_build, G = timed(lambda: gen.rmat(scale, seed=0, device="gpu"))
    cp.cuda.Device().synchronize()
    print(f"R-MAT {scale}: n = {G.n}, arcs = {G.nnz}, input edges = {G.num_edges}, built in {t_build:.2f} s",
          file=sys.stderr)
    A = G.to_scipy()  # cupyx csr_matrix, float32, parallel arcs combined (min)
    x = cp.random.default_rng(1).random(G.n, dtype=cp.float32)
    progress("SpMV")
    from semiring import sparse

    t_cusparse, t_semiring, t_unchecked = interleaved_gpu_times(
        [lambda: A @ x, lambda: sr.min_plus.mxv(A, x), lambda: sparse.mxv(sr.min_plus, A, x, check=False)])
    nnz = A.nnz
    rows.append({"what": "SpMV cuSPARSE plus_times fp32 (A @ x)", "seconds": t_cusparse, "rate": nnz / t_cusparse / 1e9,
                 "unit": "G stored arcs/s"})
    rows.append({"what": "SpMV semiring min_plus fp32 (S.mxv, entries checked)", "seconds": t_semiring,
                 "rate": nnz / t_semiring / 1e9, "unit": "G stored arcs/s", "vs_cusparse": t_cusparse / t_semiring})
    rows.append({"what": "SpMV semiring min_plus fp32 (sparse.mxv check=False)", "seconds": t_unchecked,
                 "rate": nnz / t_unchecked / 1e9, "unit": "G stored arcs/s", "vs_cusparse": t_cusparse / t_unchecked})
    # BFS and SSSP GTEPS from random non-isolated sources.
    deg = cp.diff(G.indptr)
    cand = cp.flatnonzero(deg > 0).get()
    srcs = np.random.default_rng(2).choice(cand, size=args.sources, replace=False).tolist()
    graphs.bfs(G, srcs[0])
    t_bfs, t_sssp = [], []
    for i, s in enumerate(srcs):
        progress(f"BFS source {i + 1}/{len(srcs)}")
        t_bfs.append(wall_time(lambda s=s: graphs.bfs(G, s)))
    graphs.sssp(G, srcs[0])
    for i, s in enumerate(srcs[: args.sssp_sources]):
        progress(f"SSSP source {i + 1}/{args.sssp_sources}")
        t_sssp.append(wall_time(lambda s=s: graphs.sssp(G, s)))
    m = G.num_edges
    bfs_med, sssp_med = statistics.median(t_bfs), statistics.median(t_sssp)
    rows.append({"what": f"BFS R-MAT {scale} (median of {len(t_bfs)} sources)", "seconds": bfs_med,
                 "rate": m / bfs_med / 1e9, "unit": "GTEPS"})
    rows.append({"what": f"SSSP delta-stepping R-MAT {scale} (median of {len(t_sssp)} sources)", "seconds": sssp_med,
                 "rate": m / sssp_med / 1e9, "unit": "GTEPS"})
    trace = graphs.bfs(G, srcs[0], return_trace=True)[2]
    # 2-D grid: high diameter, small frontiers.
    progress("grid")
    grid = gen.grid_2d(args.grid, args.grid, weights=None, device="gpu")
    s = 0
    graphs.bfs(grid, s)
    t_grid = statistics.median(wall_time(lambda: graphs.bfs(grid, s)) for _ in range(5))
    levels = int(graphs.bfs(grid, s)[0].max()) + 1
    floor = launch_readback_floor()
    rows.append({"what": f"BFS {args.grid}x{args.grid} grid ({levels} levels)", "seconds": t_grid,
                 "rate": grid.num_edges / t_grid / 1e9, "unit": "GTEPS",
                 "floor_seconds": floor * levels, "vs_floor": t_grid / (floor * levels),
                 "launch_readback_us": floor * 1e6})
    if args.check:  # after all timings: the CPU references run Numba threads that would compete with the host loop
        progress("checks against the CPU")
        want = sr.min_plus.mxv(A.get(), x.get())
        assert np.array_equal(sr.min_plus.mxv(A, x).get(), want), "GPU min_plus SpMV differs from the CPU's"
        Gc = G.to("cpu")
        for s in srcs[:2]:
            assert np.array_equal(graphs.bfs(G, s)[0].get(), graphs.bfs(Gc, s)[0]), f"BFS from {s} differs"
        assert np.array_equal(graphs.sssp(G, srcs[0])[0].get(), graphs.sssp(Gc, srcs[0])[0]), "SSSP differs"
        assert np.array_equal(graphs.bfs(grid, 0)[0].get(), graphs.bfs(grid.to("cpu"), 0)[0]), "grid BFS differs"
        print("checked against the CPU: SpMV, BFS (2 sources), SSSP (1 source), grid BFS", file=sys.stderr)
    progress("")
    table = [[r["what"], f"{r['seconds'] * 1e3:.3f}", f"{r['rate']:.2f} {r['unit']}",
              (f"{r['vs_cusparse'] * 100:.0f}% of cuSPARSE" if "vs_cusparse" in r else
               (f"{r['vs_floor']:.2f}x the floor ({r['launch_readback_us']:.1f} us x levels)" if "vs_floor" in r
                else ""))] for r in rows]
    dev = cp.cuda.runtime.getDeviceProperties(0)["name"].decode()
    md = (f"# Traversal on the GPU ({dev})\n\n" + markdown_table(["what", "ms", "rate", "against"], table)
          + "\n## BFS levels of one R-MAT source\n\n"
          + markdown_table(["level", "direction", "frontier", "edges", "format", "granularity"],
                           [[t["level"], t["direction"], t["frontier"], t["edges"], t.get("frontier_format", ""),
                             t.get("granularity", "")] for t in trace]))
    print(md)
    stem = "traversal-gpu-" + dev.lower().replace(" ", "-")
    write_results(stem, {"machine": machine(), "device": dev, "rows": rows, "bfs_trace": trace}, md)
    plot([(r["what"].split(" (")[0], r["rate"]) for r in rows if r["unit"] == "GTEPS"], f"{stem}.png",
         f"GPU traversal rate ({dev})")


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--gpu", action="store_true", help="run the GPU part instead of the CPU part")
    p.add_argument("--scale", type=int, default=None, help="R-MAT scale (18 on the CPU, 22 on the GPU)")
    p.add_argument("--sources", type=int, default=16)
    p.add_argument("--sssp-sources", type=int, default=16, help="GPU SSSP sources")
    p.add_argument("--check", action="store_true", help="GPU: also check results against the CPU")
    p.add_argument("--grid", type=int, default=1000, help="GPU: side of the 2-D grid (default 1000)")
    p.add_argument("--quick", action="store_true", help="small graphs, 4 sources, results under results/quick/")
    args = p.parse_args(argv)
    if args.quick:
        args.scale = args.scale or (18 if args.gpu else 14)
        args.sources = args.sssp_sources = 4
        args.grid = 300
    set_quick(args.quick)
    if args.scale is None:
        args.scale = 22 if args.gpu else 18
    (run_gpu if args.gpu else run_cpu)(args)


if __name__ == "__main__":
    main()
