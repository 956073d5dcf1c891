"""APSP on a Dask cluster against the single-process call, side by side in one run.

CPU (default): a ``LocalCluster`` of 2 worker processes with 1 thread each
(and 1 Numba thread each) on this machine, against single-process
``apsp.shortest_paths`` using all its cores; dense random digraph (complete,
integer weights uniform in [1, 100)), ``n`` = 4096, float32 and float64, several tile
sizes ``b``; medians of repeated runs, the distributed result checked equal to
the single-process one.  Writes ``results/distributed-cpu.{json,md}``.

``--gpu``: one worker per GPU (``dask_cuda.LocalCUDACluster`` when dask-cuda is
installed, else a ``SpecCluster`` of one worker process per GPU with its own
``CUDA_VISIBLE_DEVICES``), ``n`` = 65536 float32, against single-GPU
``apsp.shortest_paths`` on GPU 0 of the same machine.  The input is made on the
workers (a dask array of seeded random tiles) and the result stays there, so
neither side pays a host transfer; the first row block is compared.  Writes
``results/distributed-gpu-<gpu>.{json,md}``.

Run: ``python3 benchmarks/distributed.py [--quick] [--gpu]``.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

import numpy as np

if __package__ in (None, ""):  # run as a script: its folder would shadow the `distributed` package
    _here = str(Path(__file__).resolve().parent)
    sys.path[:] = [p for p in sys.path if p not in ("", _here)]
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import apsp  # noqa: E402
from apsp.distributed import cluster_workers  # noqa: E402
from benchmarks._common import machine, markdown_table, set_quick, write_results  # noqa: E402


def dense_random(n: int, dtype, seed: int = 0) -> np.ndarray:
    """A complete digraph, integer weights uniform in [1, 100) (exact sums: results comparable bit for bit)."""
    rng = np.random.default_rng(seed)
    W = rng.integers(1, 100, (n, n)).astype(dtype)
    np.fill_diagonal(W, 0)
    return W


def _median(fn, repeats: int) -> tuple[float, object]:
    times, out = [], None
    for _ in range(repeats):
        t = time.perf_counter()
        out = fn()
        times.append(time.perf_counter() - t)
    return statistics.median(times), out


def cpu(args) -> None:
    from distributed import Client, LocalCluster

    rows = []
    cluster = LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None,
                           env={"NUMBA_NUM_THREADS": "1", "OMP_NUM_THREADS": "1"})
    client = Client(cluster)
    try:
        for dtype in args.dtypes:
            W = dense_random(args.n, dtype)
            apsp.shortest_paths(W[:256, :256])  # compile / load the kernels here
            warm = np.ones((300, 300), np.dtype(dtype))
            client.run(lambda warm=warm: apsp.shortest_paths(warm, block_size=128))
            t_single, ref = _median(lambda W=W: apsp.shortest_paths(W), args.repeats)
            rows.append({"dtype": np.dtype(dtype).name, "n": args.n, "run": "single process (2 Numba threads)",
                         "b": "", "median_s": round(t_single, 3), "ratio": 1.0})
            print(rows[-1], flush=True)
            for b in args.tiles:
                apsp.shortest_paths(W[: 2 * b, : 2 * b], client=client, block_size=b)  # warm the workers
                t, D = _median(lambda W=W, b=b: apsp.shortest_paths(W, client=client, block_size=b), args.repeats)
                same = bool(np.array_equal(D, ref))
                rows.append({"dtype": np.dtype(dtype).name, "n": args.n, "run": "Dask, 2 workers x 1 thread",
                             "b": b, "median_s": round(t, 3), "ratio": round(t / t_single, 2), "equal": same})
                print(rows[-1], flush=True)
    finally:
        client.close()
        cluster.close()
    m = machine()
    header = ["dtype", "n", "run", "tile b", "median s", "time / single-process", "equal"]
    table = [[r["dtype"], r["n"], r["run"], r["b"], r["median_s"], r["ratio"], r.get("equal", "")] for r in rows]
    best = {d: min((r for r in rows if r["dtype"] == d and r["b"] != ""), key=lambda r: r["median_s"])
            for d in {r["dtype"] for r in rows}}
    md = (f"APSP, dense random digraph, n = {args.n}; medians of {args.repeats} runs; {m['cpu']} "
          f"({m['cores']} cores; {m['simd']}).  Distributed: LocalCluster, 2 worker processes x 1 thread "
          "(1 Numba thread each), input scattered from and result gathered to the client (included).\n\n"
          + markdown_table(header, table)
          + "\nBest tile: " + ", ".join(f"{d}: b = {r['b']} at {r['ratio']}x single-process"
                                        for d, r in sorted(best.items())) + ".\n")
    print(md)
    write_results("distributed-cpu", {"machine": m, "n": args.n, "repeats": args.repeats, "rows": rows}, md)


def _gpu_cluster(ngpu: int):
    """One worker per GPU: dask-cuda if installed, else one worker process per GPU with its own CUDA_VISIBLE_DEVICES."""
    try:
        from dask_cuda import LocalCUDACluster

        return LocalCUDACluster(n_workers=ngpu, threads_per_worker=1, dashboard_address=None), "dask_cuda.LocalCUDACluster"
    except ImportError:
        from distributed import Nanny, Scheduler, SpecCluster

        workers = {f"gpu{i}": {"cls": Nanny, "options": {"nthreads": 1, "env": {"CUDA_VISIBLE_DEVICES": str(i)}}}
                   for i in range(ngpu)}
        scheduler = {"cls": Scheduler, "options": {"dashboard_address": None}}
        return SpecCluster(workers=workers, scheduler=scheduler), "SpecCluster, CUDA_VISIBLE_DEVICES per worker"


def _random_tile(block, seed: int, block_info=None):
    """Tile of the seeded random matrix (the same whatever the chunking of the caller: one generator per tile)."""
    (r0, r1), (c0, c1) = block_info[None]["array-location"]
    i, j = block_info[None]["chunk-location"]
    rng = np.random.default_rng([seed, i, j])
    T = rng.uniform(1.0, 100.0, (r1 - r0, c1 - c0)).astype(np.float32)
    if r0 == c0:
        np.fill_diagonal(T, 0)
    return T


def gpu(args) -> None:
    import cupy as cp
    import dask.array as da
    from distributed import Client

    ngpu = cp.cuda.runtime.getDeviceCount()
    name = cp.cuda.runtime.getDeviceProperties(0)["name"].decode()
    cluster, kind = _gpu_cluster(min(ngpu, args.gpus))
    client = Client(cluster)
    n, b = args.n, args.gpu_tile
    rows = []
    try:
        X = da.zeros((n, n), dtype=np.float32, chunks=b).map_blocks(_random_tile, args.seed, dtype=np.float32)
        small = X[: 2 * b, : 2 * b].rechunk(b)
        apsp.shortest_paths(small, client=client, device="gpu", block_size=b)  # compile on every worker
        t_dist, D = _median(lambda: apsp.shortest_paths(X, client=client, device="gpu", block_size=b), args.repeats)
        first = D[:b].compute()
        first = first.get() if hasattr(first, "get") else first
        del D
        # single GPU: the same matrix on GPU 0 of this process
        Wg = cp.empty((n, n), dtype=cp.float32)
        for i in range(0, n, b):
            Wg[i : i + b] = cp.asarray(X[i : i + b].compute(scheduler="threads"))
        apsp.shortest_paths(Wg[: 2 * b, : 2 * b])
        cp.cuda.Device().synchronize()

        def single():
            R = apsp.shortest_paths(Wg)
            cp.cuda.Device().synchronize()
            return R

        t_single, R = _median(single, args.repeats)
        same = bool(np.array_equal(R[:b].get(), first))
        del R
        pairs = float(n) ** 3
        rows = [{"run": "single GPU, apsp.shortest_paths", "gpus": 1, "b": "", "median_s": round(t_single, 2),
                 "Tpairs_per_s": round(pairs / t_single / 1e12, 2), "ratio": 1.0},
                {"run": f"Dask ({kind})", "gpus": len(cluster_workers(client)), "b": b,
                 "median_s": round(t_dist, 2), "Tpairs_per_s": round(pairs / t_dist / 1e12, 2),
                 "ratio": round(t_dist / t_single, 2), "equal_first_rows": same}]
    finally:
        client.close()
        cluster.close()
    m = machine()
    m["gpu"] = name
    header = ["run", "GPUs", "tile b", "median s", "T min-plus pairs/s", "time / single GPU", "first rows equal"]
    table = [[r["run"], r["gpus"], r["b"], r["median_s"], r["Tpairs_per_s"], r["ratio"], r.get("equal_first_rows", "")]
             for r in rows]
    md = f"APSP float32, n = {n}, {name}; medians of {args.repeats} runs.\n\n" + markdown_table(header, table)
    print(md)
    stem = "distributed-gpu-" + "-".join(name.lower().replace("nvidia", "nvidia ").split())
    write_results(stem, {"machine": m, "n": n, "rows": rows}, md)


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--n", type=int, default=None, help="vertices (default 4096 on CPU, 65536 with --gpu)")
    ap.add_argument("--tiles", type=int, nargs="+", default=[512, 1024, 2048], help="tile sizes b (CPU)")
    ap.add_argument("--dtypes", nargs="+", default=["float32", "float64"])
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--gpu", action="store_true", help="one Dask worker per GPU against one GPU")
    ap.add_argument("--gpus", type=int, default=2, help="workers (GPUs) of --gpu")
    ap.add_argument("--gpu-tile", type=int, default=8192)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--quick", action="store_true", help="n = 1024 (GPU: 16384), results under results/quick/")
    args = ap.parse_args(argv)
    set_quick(args.quick)
    if args.quick:
        args.n = args.n or (16384 if args.gpu else 1024)
        args.tiles, args.dtypes, args.repeats = [256, 512], ["float32"], 1
        args.gpu_tile = min(args.gpu_tile, 4096)
    args.n = args.n or (65536 if args.gpu else 4096)
    os.environ.setdefault("PYTHONPATH", str(Path(__file__).resolve().parents[1]))
    (gpu if args.gpu else cpu)(args)


if __name__ == "__main__":
    main()
