"""``semiring-paths apsp``: all-pairs shortest paths of a graph file or a generated road network.

It prints the size, the method and device chosen, the time and rate, and checks
sampled rows of the result against ``scipy.sparse.csgraph`` (Dijkstra, or
Johnson when there are negative weights).  The exit status is 0 when the check
passes, 1 when it fails, 2 for bad input, 3 when ``--device gpu`` lacks CuPy.

Examples
--------
>>> from graphs.cli import main
>>> main(["apsp", "--n", "300", "--seed", "1", "--device", "cpu", "--quiet"])
0
"""

from __future__ import annotations

import argparse
import io
import sys
import time

import numpy as np

from ._common import DEFAULT_N, add_graph_arguments, load_graph, resolve_device

__all__ = ["add_parser", "run", "run_apsp"]

WARMUP_FULL = 8192  # GPU jobs up to this size are warmed up on a full-size copy
CHECK_ROWS = 8

METHOD_HELP = """all-pairs method: auto (default) = the planner's route, printed before the run: rkleene where the
  dense matrix fits and is fastest, one search per source for a sparse graph whose dense closure would be
  slow or would not fit, (GPU) streamed blocked-fw when the matrix outgrows the device;
rkleene = recursive Kleene, n^3 work in large min-plus GEMMs, the fast one;
blocked-fw = blocked Floyd-Warshall, the same GEMMs in tiles (the out-of-core GPU route);
squaring = repeated min-plus squaring, log2(n) products, only for graphs whose shortest paths have few arcs;
fw = the plain O(n^3) Floyd-Warshall loop, a slow reference for checking (about 70x slower than auto on rome99)"""


def add_parser(sub) -> argparse.ArgumentParser:
    """Add ``apsp`` and its options to the subcommands ``sub``."""
    ap = sub.add_parser("apsp", help="all-pairs shortest paths (dense distance matrix), checked against SciPy",
                        description="All-pairs shortest paths of a graph file or a generated road network; "
                                    "sampled rows are checked against scipy.sparse.csgraph.",
                        formatter_class=argparse.RawTextHelpFormatter)
    add_graph_arguments(ap, vertices=False, n_default=DEFAULT_N)
    ap.add_argument("--method", default="auto", choices=["auto", "rkleene", "blocked-fw", "squaring", "fw"],
                    help=METHOD_HELP)
    ap.add_argument("--device", default="auto", choices=["auto", "cpu", "gpu"],
                    help="auto: the GPU when CuPy sees one, else the CPU")
    ap.add_argument("--dtype", default="auto", choices=["auto", "float32", "float64", "int32", "int64"],
                    help="auto: float32 on the GPU; on the CPU float32 where it is exact (integer weights\n"
                         "whose path sums fit in 2**24, or unweighted), else float64")
    ap.add_argument("--out", help="save the distance matrix to this .npy file (row i, column j: i -> j, 0-based)")
    ap.add_argument("--check-rows", type=int, default=CHECK_ROWS, help="rows checked against SciPy (0: none)")
    ap.add_argument("--quiet", action="store_true", help="print nothing; only the exit status tells")
    return ap


def run(args: argparse.Namespace, out=None) -> int:
    """Run ``apsp``; with ``--json``, its report lines become the fields of one JSON object."""
    out = sys.stdout if out is None else out
    if not args.json or args.quiet:
        return run_apsp(args, out)
    import json

    buf = io.StringIO()
    status = run_apsp(args, buf)
    report = {"command": "apsp", "status": status}
    for line in buf.getvalue().splitlines():
        key, _, value = line.partition(" ")
        report[key] = value.strip()
    print(json.dumps(report), file=out, flush=True)
    return status


def _device(choice: str) -> str:
    return resolve_device(choice)


def _load(args: argparse.Namespace):
    return load_graph(args)


def _check(G, D: np.ndarray, rows: np.ndarray) -> float:
    """Largest |difference| between ``D[rows]`` and SciPy's answer (inf-aware)."""
    from scipy.sparse.csgraph import dijkstra, johnson

    A = G.to_scipy()
    negative = G.weights is not None and bool((G.weights < 0).any())
    ref = (johnson if negative else dijkstra)(A, directed=G.directed, indices=rows)
    got = D[rows].astype(np.float64)
    same_inf = np.isinf(ref) == (got >= _infinity(D.dtype))
    if not same_inf.all():
        return float("inf")
    finite = ~np.isinf(ref)
    return float(np.abs(got[finite] - ref[finite]).max(initial=0.0))


def _infinity(dtype) -> float:
    return float(np.inf) if np.dtype(dtype).kind == "f" else float(np.iinfo(dtype).max)


def run_apsp(args: argparse.Namespace, out=None) -> int:
    """Run the APSP job described by ``args``, reporting to ``out`` (default: stdout); return the exit status.

    The route comes from the planner (:func:`graphs.plan_all_pairs`), printed
    before anything large is allocated: the dense closure, or one search per
    source for a sparse graph whose dense closure would be slow or would not
    fit; with ``--out`` the result is written straight into that ``.npy``
    file (a memory map).  When nothing fits, the planner's refusal (the
    estimate and the alternatives) is the error message.
    """
    import apsp
    import graphs
    from semiring.backend import to_device

    out = sys.stdout if out is None else out
    say = (lambda *a: None) if args.quiet else (lambda *a: print(*a, file=out, flush=True))
    device = _device(args.device)
    t0 = time.perf_counter()
    G, name = _load(args)
    t_load = time.perf_counter() - t0
    n = G.n
    say(f"graph     {name}: {n:,} vertices, {G.nnz:,} edges ({'directed' if G.directed else 'undirected'}, "
        f"{'weighted' if G.weights is not None else 'unweighted: weight 1'}), read in {t_load:.2f} s")
    dtype = None if args.dtype == "auto" else np.dtype(args.dtype)
    if dtype is None and device == "gpu":
        dtype = np.dtype("float32")
    pl = graphs.plan_all_pairs(G, dtype=dtype, device=device, method=args.method, on_disk=bool(args.out))
    say(str(pl))
    dtype = np.dtype(pl.dtype)
    result = None
    if args.out:
        result = np.lib.format.open_memmap(args.out, mode="w+", dtype=dtype, shape=(n, n))
    method = pl.method
    if pl.route == "dense" and device == "gpu":
        import cupy

        import semiring as sr

        W = G.to_dense(sr.min_plus, dtype=dtype)
        t1 = time.perf_counter()
        Wd = to_device(W, "gpu")
        del W
        cupy.cuda.runtime.deviceSynchronize()
        t_h2d = time.perf_counter() - t1
        # Warm-up: compiles the kernels and captures the CUDA graphs of this size's sub-closures
        # (the whole job when it is small, a leading block otherwise); not part of the timing.
        w = n if n <= WARMUP_FULL else WARMUP_FULL // 2
        apsp.shortest_paths(Wd[:w, :w].copy(), method=args.method, device="gpu")
        cupy.cuda.runtime.deviceSynchronize()
        t1 = time.perf_counter()
        Dd = apsp.shortest_paths(Wd, method=args.method, device="gpu")
        cupy.cuda.runtime.deviceSynchronize()
        t_run = time.perf_counter() - t1
        t1 = time.perf_counter()
        if result is not None:
            Dd.get(out=result)
            D = result
        else:
            D = to_device(Dd, "cpu")
        t_d2h = time.perf_counter() - t1
        transfers = f" (+ {t_h2d:.3f} s to the device, {t_d2h:.3f} s back)"
    else:
        t1 = time.perf_counter()
        D = graphs.all_pairs_shortest_paths(G, out=result, plan=pl, method=args.method,
                                            progress=None if not args.quiet else False)
        t_run = time.perf_counter() - t1
        transfers = ""
    say(f"method    {method} on {pl.device} ({pl.route} route)")
    say(f"time      {t_run:.3f} s{transfers}")
    if pl.route == "sparse":
        say(f"rate      {n * (n + G.nnz) / max(t_run, 1e-12) / 1e9:,.2f} G arcs/s (n (n + m) / time)")
    else:
        say(f"rate      {n**3 / max(t_run, 1e-12) / 1e9:,.1f} G min-plus/s (n^3 / time)")
    reachable = _count_reachable(D)
    say(f"result    {reachable:,} of {n * n:,} pairs connected")
    status = 0
    if args.check_rows > 0 and n:
        rows = np.random.default_rng(args.seed).choice(n, size=min(args.check_rows, n), replace=False)
        diff = _check(G, D, np.sort(rows))
        exact = dtype.kind != "f" or dtype.itemsize == 8 or G.__semiring_matrix_info__()["float32_exact"]
        sample = D[np.sort(rows)].astype(np.float64)
        tol = 1e-9 if exact else 1e-3 * max(1.0, float(np.abs(sample[np.isfinite(sample)]).max(initial=1.0)))
        ok = diff <= tol
        status = 0 if ok else 1
        say(f"check     {len(rows)} sampled rows vs scipy.sparse.csgraph: "
            f"{'match' if ok else 'MISMATCH'} (max |diff| = {diff:g})")
    if args.out:
        D.flush()
        say(f"saved     {args.out}")
    return status


def _count_reachable(D: np.ndarray) -> int:
    """Entries below the dtype's infinity, counted in row blocks (no ``n x n`` temporary)."""
    inf = _infinity(D.dtype)
    step = max(1, (64 * 2**20) // max(1, D.shape[1] * D.itemsize))
    return int(sum(np.count_nonzero(D[r:r + step] < inf) for r in range(0, D.shape[0], step)))
