"""All-pairs shortest paths: our closure methods side by side with SciPy, NetworkX and CuPy.

CPU (default; ``--cpu-only`` to skip the GPU):

* dense random digraph (complete, weights uniform in [1, 100)), float64, ``n`` = 2048:
  ``rkleene``, ``blocked-fw``, ``squaring`` against ``scipy.sparse.csgraph.floyd_warshall``;
  distances compared (max abs difference; the sums are associated differently, so
  they agree to rounding; with integer weights they agree exactly, also checked);
* the same graph in float64, float32 and int32 (integer weights): ``method="auto"``
  distances only and with ``predecessors=True`` side by side (medians, ratio);
* sparse random digraph of average out-degree 12, ``n`` = 2048: the same methods
  against SciPy's Dijkstra from every source and Johnson's algorithm;
* the vectorised reference ``fw`` and ``networkx.floyd_warshall_numpy`` at a smaller
  ``n`` (``--small-n``, default 1024: both are NumPy rank-1 loops, tens of seconds at 2048),
  against SciPy at that ``n``.

GPU (when CuPy sees a GPU; ``--gpu-only`` for just this): float32, ``n`` = 1024 ... 32768
(``--max-n``), dense and degree-12 inputs already on the device: ``rkleene``,
``blocked-fw``, ``squaring`` and the CuPy rank-1 Floyd-Warshall loop a CuPy user writes
(``D = cp.minimum(D, D[:, k, None] + D[None, k, :])``, up to ``--rank1-max-n``), timed with
CUDA events (medians); host-to-device and device-to-host copies of the matrix timed
separately; the effective rate ``n^3 / t`` as a fraction of the fp32 min-plus ceiling
(measured by :mod:`semiring.cuda.ceiling` when available, else the 14.8 T/s of DESIGN.md).
Out-of-core: a NumPy matrix 2x the ``memory_budget`` streamed through the device, against
the in-core run of the same ``n``.

Writes ``benchmarks/results/apsp-<device>.json`` and ``.md`` (``--quick``: under ``results/quick/``;
and into ``$OUT`` if set),
and on the GPU a log-log plot ``apsp-<device>.png`` of time against ``n``.

Run: ``PYTHONPATH=. python3 benchmarks/apsp.py`` (``--quick`` for small sizes).
"""

from __future__ import annotations

import argparse
import os
import re
import sys
import time
from pathlib import Path

import numpy as np

# This file is named like the package it measures: take its folder off the path before
# importing the package, then put it back (at the end) for the shared helpers.
_HERE = Path(__file__).resolve().parent
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != _HERE]
sys.path.insert(0, str(_HERE.parent))
import apsp  # noqa: E402

sys.path.append(str(_HERE))
from _common import gpu_time, machine, markdown_table, median_time, set_quick, write_results  # noqa: E402

METHODS = ("rkleene", "blocked-fw", "squaring")


def log(msg: str) -> None:
    print(msg, file=sys.stderr, flush=True)


# -- inputs -----------------------------------------------------------------------------------
def dense_graph(n: int, seed: int = 1, dtype=np.float64, integer: bool = False) -> np.ndarray:
    rng = np.random.default_rng(seed)
    W = rng.integers(1, 100, (n, n)) if integer else rng.uniform(1.0, 100.0, (n, n))
    return W.astype(dtype)


def sparse_graph(n: int, degree: int = 12, seed: int = 2, dtype=np.float64) -> np.ndarray:
    """Random digraph with ``degree * n`` arcs (uniform endpoints, weights in [1, 100)), as a dense matrix."""
    rng = np.random.default_rng(seed)
    m = degree * n
    u, v = rng.integers(0, n, m), rng.integers(0, n, m)
    w = rng.uniform(1.0, 100.0, m)
    W = np.full((n, n), np.inf)
    np.minimum.at(W, (u, v), w)
    return W.astype(dtype)


def to_csgraph(W: np.ndarray):
    from scipy.sparse.csgraph import csgraph_from_dense

    return csgraph_from_dense(W, null_value=np.inf)


# -- CPU ------------------------------------------------------------------------------------------
def timed(fn, repeats: int) -> tuple[float, object]:
    out = {}

    def run():
        out["r"] = fn()

    t = median_time(run, repeats=repeats, warmup=0 if repeats == 1 else 1, budget_s=120.0)
    return t, out["r"]


def cpu_benchmarks(n: int, small_n: int, repeats: int) -> dict:
    from scipy.sparse.csgraph import dijkstra, floyd_warshall, johnson

    rows, results = [], {"n": n, "small_n": small_n, "dense": {}, "sparse": {}, "reference": {}}
    apsp.shortest_paths(dense_graph(200), "rkleene")  # compile / load the kernels
    apsp.shortest_paths(dense_graph(200), "blocked-fw")

    log(f"dense n={n}: scipy floyd_warshall (one run, slow) ...")
    W = dense_graph(n)
    t_scipy, D_ref = timed(lambda: floyd_warshall(W, directed=True), 1)
    results["dense"]["scipy.floyd_warshall"] = t_scipy
    rows.append([f"dense {n}", "scipy floyd_warshall", f"{t_scipy:.3f}", "1.0x", "reference"])
    for m in METHODS:
        log(f"dense n={n}: {m} ...")
        t, D = timed(lambda m=m: apsp.shortest_paths(W, m), repeats if m != "squaring" else 1)
        err = float(np.max(np.abs(D - D_ref)))
        results["dense"][m] = {"seconds": t, "speedup_vs_scipy": t_scipy / t, "max_abs_diff": err,
                               "rate_G_per_s": n**3 / t / 1e9}
        rows.append([f"dense {n}", m, f"{t:.3f}", f"{t_scipy / t:.1f}x", f"max abs diff {err:.1e}"])
    log(f"dense n={n}: auto with predecessors ...")
    t, _ = timed(lambda: apsp.shortest_paths(W, predecessors=True), 1)
    results["dense"]["auto+predecessors"] = {"seconds": t, "speedup_vs_scipy": t_scipy / t}
    rows.append([f"dense {n}", "auto, predecessors=True", f"{t:.3f}", f"{t_scipy / t:.1f}x", "last hops"])
    pvd = results["dense"]["predecessors_vs_distances"] = {}
    for dt, integer in ((np.float64, False), (np.float32, False), (np.int32, True)):
        name = np.dtype(dt).name
        log(f"dense n={n} {name}: distances only, then with predecessors (auto, side by side) ...")
        Wt = dense_graph(n, integer=integer).astype(dt)
        apsp.shortest_paths(Wt[:300, :300], predecessors=True)  # compile / load the kernels
        t_d, D = timed(lambda Wt=Wt: apsp.shortest_paths(Wt), repeats)
        t_p, (Dp, P) = timed(lambda Wt=Wt: apsp.shortest_paths(Wt, predecessors=True), repeats)
        same = bool(np.array_equal(D, Dp))
        pvd[name] = {"distances_seconds": t_d, "predecessors_seconds": t_p, "ratio": t_p / t_d,
                     "same_distances": same}
        rows.append([f"dense {n} {name}", "distances only", f"{t_d:.3f}", "", ""])
        rows.append([f"dense {n} {name}", "with predecessors", f"{t_p:.3f}", f"{t_p / t_d:.2f}x the distances",
                     f"same distances: {same}"])
    log(f"dense n={n} float64 with {n // 4} weight-0 pairs (zero-weight cycles): distances, then predecessors ...")
    Wz = dense_graph(n, integer=True).astype(np.float64)
    pairs = np.random.default_rng(7).integers(0, n, (n // 4, 2))
    Wz[pairs[:, 0], pairs[:, 1]] = 0.0
    Wz[pairs[:, 1], pairs[:, 0]] = 0.0
    np.fill_diagonal(Wz, 0.0)
    t_d, D = timed(lambda: apsp.shortest_paths(Wz), repeats)
    t_p, (Dp, P) = timed(lambda: apsp.shortest_paths(Wz, predecessors=True), repeats)
    pvd["float64 with weight-0 pairs"] = {"distances_seconds": t_d, "predecessors_seconds": t_p, "ratio": t_p / t_d,
                                         "same_distances": bool(np.array_equal(D, Dp))}
    rows.append([f"dense {n} float64, weight-0 pairs", "distances only", f"{t_d:.3f}", "", ""])
    rows.append([f"dense {n} float64, weight-0 pairs", "with predecessors", f"{t_p:.3f}",
                 f"{t_p / t_d:.2f}x the distances", f"same distances: {bool(np.array_equal(D, Dp))}"])
    Wi = dense_graph(n, integer=True)
    same = bool(np.array_equal(apsp.shortest_paths(Wi), floyd_warshall(Wi, directed=True)))
    results["dense"]["integer_weights_identical"] = same
    rows.append([f"dense {n}", "rkleene, integer weights", "", "", f"identical to scipy: {same}"])

    log(f"sparse degree-12 n={n}: scipy dijkstra / johnson ...")
    Ws = sparse_graph(n)
    G = to_csgraph(Ws)
    t_dij, D_dij = timed(lambda: dijkstra(G, directed=True), repeats)
    t_joh, _ = timed(lambda: johnson(G, directed=True), repeats)
    results["sparse"]["scipy.dijkstra"] = t_dij
    results["sparse"]["scipy.johnson"] = t_joh
    rows.append([f"sparse-12 {n}", "scipy dijkstra (all sources)", f"{t_dij:.3f}", "1.0x", "reference"])
    rows.append([f"sparse-12 {n}", "scipy johnson", f"{t_joh:.3f}", f"{t_dij / t_joh:.2f}x", ""])
    for m in METHODS:
        log(f"sparse n={n}: {m} ...")
        t, D = timed(lambda m=m: apsp.shortest_paths(Ws, m), repeats if m != "squaring" else 1)
        err = float(np.nanmax(np.where(np.isinf(D_dij), 0, np.abs(D - D_dij))))
        results["sparse"][m] = {"seconds": t, "speedup_vs_dijkstra": t_dij / t, "max_abs_diff": err}
        rows.append([f"sparse-12 {n}", m, f"{t:.3f}", f"{t_dij / t:.2f}x", f"max abs diff {err:.1e}"])

    nb = 2 * n
    log(f"transitive closure n={nb} (average out-degree 2) vs scipy BFS from every source ...")
    A = np.random.default_rng(3).random((nb, nb)) < 2.0 / nb
    from scipy.sparse import csr_matrix
    from scipy.sparse.csgraph import shortest_path

    t_bfs, R_ref = timed(lambda: np.isfinite(shortest_path(csr_matrix(A), unweighted=True)), 1)
    t_tc, R = timed(lambda: apsp.transitive_closure(A), repeats)
    same = bool(np.array_equal(R, R_ref))
    results["transitive_closure"] = {"n": nb, "seconds": t_tc, "scipy_bfs_seconds": t_bfs, "identical": same}
    rows.append([f"boolean {nb}", "scipy shortest_path(unweighted) reachability", f"{t_bfs:.3f}", "1.0x", "reference"])
    rows.append([f"boolean {nb}", "transitive_closure (bit-packed R-Kleene)", f"{t_tc:.3f}", f"{t_bfs / t_tc:.1f}x",
                 f"identical: {same}"])

    log(f"reference loops at n={small_n}: scipy, ours fw, networkx ...")
    Wm = dense_graph(small_n)
    t_s, D_s = timed(lambda: floyd_warshall(Wm, directed=True), 1)
    t_r, D_r = timed(lambda: apsp.shortest_paths(Wm, "rkleene"), repeats)
    t_f, D_f = timed(lambda: apsp.shortest_paths(Wm, "fw"), 1)
    results["reference"] = {"scipy.floyd_warshall": t_s, "rkleene": t_r, "fw": t_f}
    rows.append([f"dense {small_n}", "scipy floyd_warshall", f"{t_s:.3f}", "1.0x", "reference"])
    rows.append([f"dense {small_n}", "rkleene", f"{t_r:.3f}", f"{t_s / t_r:.1f}x", ""])
    rows.append([f"dense {small_n}", "fw (NumPy rank-1 reference)", f"{t_f:.3f}", f"{t_s / t_f:.2f}x",
                 f"max abs diff {float(np.max(np.abs(D_f - D_s))):.1e}"])
    try:
        import networkx as nx

        Gx = nx.from_numpy_array(Wm, create_using=nx.DiGraph)
        t_x, D_x = timed(lambda: nx.floyd_warshall_numpy(Gx), 1)
        results["reference"]["networkx.floyd_warshall_numpy"] = t_x
        rows.append([f"dense {small_n}", "networkx floyd_warshall_numpy", f"{t_x:.3f}", f"{t_s / t_x:.2f}x",
                     f"max abs diff {float(np.max(np.abs(np.asarray(D_x) - D_s))):.1e}"])
    except ImportError:
        rows.append([f"dense {small_n}", "networkx floyd_warshall_numpy", "", "", "networkx not installed"])
    results["table"] = rows
    return results


# -- GPU ------------------------------------------------------------------------------------------
def device_name() -> str:
    import cupy as cp

    name = cp.cuda.runtime.getDeviceProperties(0)["name"]
    name = name.decode() if isinstance(name, bytes) else name
    return re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-")


def gpu_ceiling() -> tuple[float, str]:
    """fp32 min-plus ceiling (multiply-adds per second) and where it came from."""
    try:
        from semiring.cuda.ceiling import measure_ceiling

        return float(measure_ceiling("float32")), "measured by semiring.cuda.ceiling"
    except Exception:
        return 14.8e12, "DESIGN.md (H200 measurement, 132 SMs)"


def cupy_rank1_fw(D):
    import cupy as cp

    D = D.copy()
    idx = cp.arange(D.shape[0])
    D[idx, idx] = cp.minimum(D[idx, idx], 0)
    for k in range(D.shape[0]):
        D = cp.minimum(D, D[:, k, None] + D[None, k, :])
    return D


#: GPU rows: the three methods, and R-Kleene closing its diagonal blocks of up to 1024
#: vertices by blocked Floyd-Warshall (apsp.methods.rkleene.FW_BELOW) instead of recursing.
GPU_VARIANTS = (*METHODS, "rkleene/fw-below-1024")


def run_variant(X, name: str):
    if "/fw-below-" not in name:
        return apsp.shortest_paths(X, name)
    import apsp.methods.rkleene as rk

    saved = rk.FW_BELOW["gpu"]
    rk.FW_BELOW["gpu"] = int(name.rsplit("-", 1)[1])
    try:
        return apsp.shortest_paths(X, "rkleene")
    finally:
        rk.FW_BELOW["gpu"] = saved


def gpu_benchmarks(sizes: list[int], rank1_max: int, repeats: int, ooc_n: int) -> dict:
    import cupy as cp

    ceiling, ceiling_src = gpu_ceiling()
    res = {"device": device_name(), "ceiling_min_plus_per_s": ceiling, "ceiling_source": ceiling_src, "runs": []}
    rows = []
    for kind in ("dense", "sparse-12"):
        for n in sizes:
            Wh = (dense_graph(n, dtype=np.float32) if kind == "dense" else sparse_graph(n, dtype=np.float32))
            t0 = time.perf_counter()
            Wd = cp.asarray(Wh)
            cp.cuda.Device().synchronize()
            h2d = time.perf_counter() - t0
            entry = {"kind": kind, "n": n, "h2d_s": h2d}
            ref = None
            for m in GPU_VARIANTS:
                reps = repeats if n <= 16384 else 1
                log(f"gpu {kind} n={n}: {m} ...")
                try:
                    t = gpu_time(lambda m=m, X=Wd: run_variant(X, m), reps)
                except Exception as e:  # keep going: a failure is a result too
                    entry[m] = {"error": repr(e)}
                    rows.append([kind, n, m, "", "", "", repr(e)[:60]])
                    continue
                D = run_variant(Wd, m)
                if ref is None:
                    ref = D
                    t1 = time.perf_counter()
                    ref.get()
                    entry["d2h_s"] = time.perf_counter() - t1
                # float32 sums in another order round differently: equal up to a few ulps
                same = bool(cp.allclose(D, ref, rtol=1e-5, atol=0.0)) if D is not ref else True
                rate = n**3 / t
                entry[m] = {"seconds": t, "rate_min_plus_per_s": rate, "fraction_of_ceiling": rate / ceiling,
                            "same_as_rkleene": same}
                rows.append([kind, n, m, f"{t * 1e3:.1f}", f"{rate / 1e12:.2f}", f"{rate / ceiling:.0%}",
                             "" if same else "DIFFERS from rkleene (rtol 1e-5)"])
            if n <= rank1_max:
                log(f"gpu {kind} n={n}: CuPy rank-1 loop ...")
                t = gpu_time(lambda X=Wd: cupy_rank1_fw(X), 1)
                entry["cupy_rank1_fw"] = {"seconds": t}
                rows.append([kind, n, "CuPy rank-1 FW loop", f"{t * 1e3:.1f}", f"{n**3 / t / 1e12:.3f}", "", ""])
            rows.append([kind, n, "host->device / device->host copies", f"{h2d * 1e3:.1f} / "
                         f"{entry.get('d2h_s', 0) * 1e3:.1f}", "", "", "not in the times above"])
            res["runs"].append(entry)
            Wd = ref = None
            cp.get_default_memory_pool().free_all_blocks()
    if ooc_n:
        n = ooc_n
        Wh = dense_graph(n, dtype=np.float32)
        budget = n * n * 4 // 2
        log(f"gpu out-of-core n={n}, budget {budget >> 20} MiB ...")
        t_ooc = median_time(lambda: apsp.shortest_paths(Wh, device="gpu", memory_budget=budget), repeats=1)
        t_in = median_time(lambda: apsp.shortest_paths(Wh, device="gpu"), repeats=1)
        res["out_of_core"] = {"n": n, "budget": budget, "seconds": t_ooc, "in_core_seconds_with_copies": t_in,
                              "fraction_of_in_core_rate": t_in / t_ooc}
        rows.append(["out-of-core", n, f"streamed, budget = matrix/2 ({budget >> 20} MiB)", f"{t_ooc * 1e3:.0f}",
                     f"{n**3 / t_ooc / 1e12:.2f}", "", f"{t_in / t_ooc:.0%} of the in-core rate (both incl. copies)"])
    res["table"] = rows
    return res


def plot(res: dict, path: Path) -> None:
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        log("matplotlib not installed: no plot")
        return
    fig, ax = plt.subplots(figsize=(7, 5))
    for kind, style in (("dense", "-"), ("sparse-12", "--")):
        for m in (*GPU_VARIANTS, "cupy_rank1_fw"):
            pts = [(r["n"], r[m]["seconds"]) for r in res["runs"] if r["kind"] == kind and "seconds" in r.get(m, {})]
            if pts:
                x, y = zip(*pts)
                ax.loglog(x, y, style, marker="o", label=f"{m} ({kind})")
    ax.set_xlabel("n (vertices)")
    ax.set_ylabel("seconds (device-resident float32)")
    ax.set_title(f"APSP on {res['device']}")
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    log(f"wrote {path}")


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--cpu-only", action="store_true")
    ap.add_argument("--gpu-only", action="store_true")
    ap.add_argument("--quick", action="store_true", help="small sizes, one repeat")
    ap.add_argument("--n", type=int, default=2048, help="CPU size (default 2048)")
    ap.add_argument("--small-n", type=int, default=1024, help="size for the NumPy/NetworkX loops")
    ap.add_argument("--max-n", type=int, default=32768, help="largest GPU size")
    ap.add_argument("--rank1-max-n", type=int, default=8192, help="largest n for the CuPy rank-1 loop")
    ap.add_argument("--ooc-n", type=int, default=16384, help="out-of-core size (0 to skip)")
    ap.add_argument("--repeats", type=int, default=3)
    args = ap.parse_args(argv)
    if args.quick:
        args.n, args.small_n, args.max_n, args.rank1_max_n, args.ooc_n, args.repeats = 512, 256, 2048, 2048, 2048, 1
    set_quick(args.quick)
    from semiring.backend import gpu_available

    if not args.gpu_only:
        res = cpu_benchmarks(args.n, args.small_n, args.repeats)
        res["machine"] = machine()
        header = ["input", "method", "seconds", "speed-up", "check"]
        md = f"# APSP on the CPU ({res['machine']['cpu']}, {res['machine']['cores']} cores)\n\n"
        md += markdown_table(header, res["table"])
        print(md)
        j, _ = write_results("apsp-cpu", res, md)
        log(f"wrote {j}")
    if not args.cpu_only and gpu_available():
        sizes = [n for n in (1024, 2048, 4096, 8192, 16384, 32768) if n <= args.max_n]
        res = gpu_benchmarks(sizes, args.rank1_max_n, args.repeats, args.ooc_n)
        res["machine"] = machine()
        header = ["input", "n", "method", "ms", "T min-plus/s", "of ceiling", "note"]
        md = f"# APSP on the GPU ({res['device']}; ceiling {res['ceiling_min_plus_per_s'] / 1e12:.1f} T/s, "
        md += f"{res['ceiling_source']})\n\n" + markdown_table(header, res["table"])
        print(md)
        j, _ = write_results(f"apsp-{res['device']}", res, md)
        plot(res, j.with_suffix(".png"))
        if os.environ.get("OUT"):
            plot(res, Path(os.environ["OUT"]) / f"apsp-{res['device']}.png")
    elif args.gpu_only:
        log("no usable GPU (CuPy missing or no device): nothing to do")


if __name__ == "__main__":
    main()
