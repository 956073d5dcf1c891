"""The ``semiring-paths`` command line.

``semiring-paths apsp`` is the main job: all-pairs shortest paths of a graph
file (DIMACS ``.gr``, SNAP edge list, Matrix Market, optionally ``.gz``) or, with
no file, of a seeded road-like network (:func:`graphs.generators.road_network`).
It prints the size, the method and device chosen, the time and rate, and checks
sampled rows of the result against ``scipy.sparse.csgraph`` (Dijkstra, or
Johnson when there are negative weights).  The exit status is 0 when the check
passes, 1 when it fails, 2 for bad input.

Examples
--------
>>> main(["apsp", "--n", "300", "--seed", "1", "--device", "cpu", "--quiet"])
0
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Sequence

import numpy as np

__all__ = ["main", "build_parser", "run_apsp"]

DEFAULT_N = 3000
WARMUP_FULL = 8192  # GPU jobs up to this size are warmed up on a full-size copy
CHECK_ROWS = 8


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of ``semiring-paths``.

    >>> build_parser().parse_args(["apsp", "--n", "10"]).n
    10
    """
    parser = argparse.ArgumentParser(
        prog="semiring-paths",
        description="Path problems on graphs as linear algebra over semirings (CPU and NVIDIA GPU).",
    )
    sub = parser.add_subparsers(dest="command", required=True)
    ap = sub.add_parser("apsp", help="all-pairs shortest paths of a graph file or a generated road network")
    ap.add_argument("graph", nargs="?", help="graph file (.gr, SNAP edge list, .mtx; .gz allowed); "
                    "default: a seeded road-like network")
    ap.add_argument("--n", type=int, default=DEFAULT_N, help=f"vertices of the generated graph (default {DEFAULT_N})")
    ap.add_argument("--seed", type=int, default=0, help="seed of the generated graph (default 0)")
    ap.add_argument("--method", default="auto", choices=["auto", "rkleene", "blocked-fw", "squaring", "fw"])
    ap.add_argument("--device", default="auto", choices=["auto", "cpu", "gpu"],
                    help="auto: the GPU when CuPy sees one, else the CPU")
    ap.add_argument("--dtype", default="auto", choices=["auto", "float32", "float64", "int32", "int64"],
                    help="auto: float32 on the GPU, float64 on the CPU")
    ap.add_argument("--out", help="save the distance matrix to this .npy file")
    ap.add_argument("--check-rows", type=int, default=CHECK_ROWS, help="rows checked against SciPy (0: none)")
    ap.add_argument("--quiet", action="store_true", help="print nothing; only the exit status tells")
    return parser


def _device(choice: str) -> str:
    from semiring.backend import gpu_available

    if choice == "auto":
        return "gpu" if gpu_available() else "cpu"
    return choice


def _load(args: argparse.Namespace):
    import graphs

    if args.graph:
        return graphs.read(args.graph), args.graph
    return graphs.generators.road_network(args.n, seed=args.seed), f"road_network(n={args.n}, seed={args.seed})"


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
    """Run the APSP job described by ``args``, reporting to ``out`` (default: stdout); return the exit status."""
    import apsp
    import semiring as sr
    from semiring.backend import to_device

    out = sys.stdout if out is None else out
    say = (lambda *a: None) if args.quiet else (lambda *a: print(*a, file=out, flush=True))
    device = _device(args.device)
    t0 = time.perf_counter()
    G, name = _load(args)
    t_load = time.perf_counter() - t0
    dtype = np.dtype(args.dtype if args.dtype != "auto" else ("float32" if device == "gpu" else "float64"))
    n = G.n
    need = n * n * dtype.itemsize
    say(f"graph     {name}: {n:,} vertices, {G.nnz:,} edges ({'directed' if G.directed else 'undirected'}, "
        f"{'weighted' if G.weights is not None else 'unweighted: weight 1'}), read in {t_load:.2f} s")
    say(f"matrix    dense {n:,} x {n:,} {dtype} = {need / 2**20:,.1f} MiB")
    W = G.to_dense(sr.min_plus, dtype=dtype)
    method = args.method if args.method != "auto" else apsp.choose_method(n, device, True)
    if device == "gpu":
        import cupy

        t1 = time.perf_counter()
        Wd = to_device(W, "gpu")
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
        D = to_device(Dd, "cpu")
        t_d2h = time.perf_counter() - t1
        transfers = f" (+ {t_h2d:.3f} s to the device, {t_d2h:.3f} s back)"
    else:
        t1 = time.perf_counter()
        D = apsp.shortest_paths(W, method=args.method, device="cpu")
        t_run = time.perf_counter() - t1
        transfers = ""
    say(f"method    {method} on {device}")
    say(f"time      {t_run:.3f} s{transfers}")
    say(f"rate      {n**3 / max(t_run, 1e-12) / 1e9:,.1f} G min-plus/s (n^3 / time)")
    reachable = np.count_nonzero(D < _infinity(D.dtype))
    say(f"result    {reachable:,} of {n * n:,} pairs connected")
    status = 0
    if args.check_rows > 0 and n:
        rows = np.random.default_rng(args.seed).choice(n, size=min(args.check_rows, n), replace=False)
        diff = _check(G, D, np.sort(rows))
        tol = 1e-3 * max(1.0, float(np.abs(D[np.isfinite(D.astype(np.float64))]).max(initial=1.0))) \
            if dtype.kind == "f" and dtype.itemsize == 4 else 1e-9
        ok = diff <= tol
        status = 0 if ok else 1
        say(f"check     {len(rows)} sampled rows vs scipy.sparse.csgraph: "
            f"{'match' if ok else 'MISMATCH'} (max |diff| = {diff:g})")
    if args.out:
        np.save(args.out, D)
        say(f"saved     {args.out}")
    return status


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``semiring-paths`` console script.

    Bad input (a malformed file, a negative cycle, an unsupported option)
    is reported on stderr with exit status 2.
    """
    args = build_parser().parse_args(argv)
    try:
        if args.command == "apsp":
            return run_apsp(args)
    except (ValueError, OSError) as err:
        print(f"semiring-paths: error: {err}", file=sys.stderr)
        return 2
    return 2  # pragma: no cover - argparse rejects unknown commands


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
