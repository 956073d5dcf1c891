"""Many-source work spread over devices or a Dask cluster against one device: betweenness, closeness, distance matrices.

::

    PYTHONPATH=. python3 benchmarks/source_spread.py [--device cpu|gpu] [--n 20000] [--repeats 3]
                                                    [--matrix-n 100000] [--sources 2000] [--targets 2000]

``--device cpu`` (this machine): one process (the kernels on every core)
against a Dask ``LocalCluster`` of one single-threaded worker process per core
(``client=``; no thread setting in the workers' environment: the library runs
each worker's kernels on its one Dask thread): the overhead of sending the graph, the tasks and the parts (a
distance matrix, which stays on the workers as a dask array, is gathered
within the time).

``--device gpu``: one GPU (``device="gpu"``) against ``devices=[0, 1]`` and
``devices=[0, 1, 2, 3]`` (as many as the host has), in one process.

Workloads: exact weighted betweenness and weighted closeness of
``road_network(n)``, and a ``sources x targets`` distance matrix on
``road_network(matrix_n)``.  Each result is checked against the one-device
result (sums to rtol 1e-12, matrices exactly).  Medians of ``--repeats`` runs
after a warm-up; results: ``benchmarks/results/source_spread-<device>.{json,md}``.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

import numpy as np

if __package__ in (None, ""):  # run as a script: its folder (benchmarks/distributed.py) would shadow `distributed`
    _here = str(Path(__file__).resolve().parent)
    sys.path[:] = [p for p in sys.path if p not in ("", _here)]
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import graphs  # noqa: E402
from benchmarks._common import machine, markdown_table, write_results  # noqa: E402


def _timed(fn, repeats: int, sync=lambda: None):
    out = fn()  # warm-up (compiles, places the graph)
    sync()
    times = []
    for _ in range(repeats):
        t = time.perf_counter()
        out = fn()
        sync()
        times.append(time.perf_counter() - t)
    return statistics.median(times), out


def _workloads(n: int, matrix_n: int, sources: int, targets: int, device: str):
    G = graphs.generators.road_network(n, seed=1)
    M = graphs.generators.road_network(matrix_n, seed=2)
    if device == "gpu":
        G, M = G.to("gpu"), M.to("gpu")
    rng = np.random.default_rng(0)
    src = np.sort(rng.choice(M.n, sources, replace=False)).astype(np.int32)
    dst = np.sort(rng.choice(M.n, targets, replace=False)).astype(np.int32)
    return [
        (f"exact weighted betweenness, road_network({n:,})", lambda **kw: graphs.betweenness_centrality(G, **kw), "sum"),
        (f"weighted closeness, road_network({n:,})", lambda **kw: graphs.closeness_centrality(G, **kw), "sum"),
        (f"distance matrix {sources:,} x {targets:,}, road_network({matrix_n:,})",
         lambda **kw: graphs.distance_matrix(M, src, dst, **kw), "rows"),
    ]


def _gathered(x):
    """A dask array (a distance matrix left on the workers) gathered, as the one-process call returns it."""
    return x.compute() if hasattr(x, "dask") else x


def _host(x):
    return x.get() if hasattr(x, "get") else np.asarray(x)


def _check(ref, got, kind: str) -> None:
    if kind == "sum":
        np.testing.assert_allclose(_host(got), _host(ref), rtol=1e-12, atol=1e-15)
    else:
        np.testing.assert_array_equal(_host(got), _host(ref))


def run_cpu(args) -> tuple[list[list[object]], dict]:
    from distributed import Client, LocalCluster

    cores = os.cpu_count() or 1
    rows = []
    with LocalCluster(n_workers=cores, threads_per_worker=1, processes=True, dashboard_address=None,
                      worker_dashboard_address=None) as cluster, Client(cluster) as c:
        for name, fn, kind in _workloads(args.n, args.matrix_n, args.sources, args.targets, "cpu"):
            t1, ref = _timed(fn, args.repeats)
            tc, got = _timed(lambda fn=fn: _gathered(fn(client=c)), args.repeats)
            _check(ref, got, kind)
            rows.append([name, f"{t1:.2f}", f"{tc:.2f}", f"{tc / t1:.2f}x"])
            print(rows[-1], flush=True)
    header = ["workload", "one process (s)", f"LocalCluster, {cores} workers (s)", "cluster / one process"]
    return [header, *rows], {"cores": cores}


def run_gpu(args) -> tuple[list[list[object]], dict]:
    import cupy as cp

    count = cp.cuda.runtime.getDeviceCount()
    sets = [k for k in (2, 4, 8) if k <= count]
    rows = []
    for name, fn, kind in _workloads(args.n, args.matrix_n, args.sources, args.targets, "gpu"):
        t1, ref = _timed(fn, args.repeats, cp.cuda.Device().synchronize)
        row = [name, f"{t1:.2f}"]
        for k in sets:
            tk, got = _timed(lambda k=k, fn=fn: fn(devices=list(range(k))), args.repeats,
                             cp.cuda.Device().synchronize)
            _check(ref, got, kind)
            row += [f"{tk:.2f}", f"{t1 / tk:.2f}x"]
        rows.append(row)
        print(row, flush=True)
    header = ["workload", "1 GPU (s)"] + [h for k in sets for h in (f"{k} GPUs (s)", f"speed-up on {k}")]
    name = cp.cuda.runtime.getDeviceProperties(0)["name"].decode()
    return [header, *rows], {"gpus": count, "gpu": name}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--device", choices=("cpu", "gpu"), default="cpu")
    ap.add_argument("--n", type=int, default=None, help="vertices of the centrality graph (cpu 20,000; gpu 300,000)")
    ap.add_argument("--matrix-n", type=int, default=None, help="vertices of the matrix graph (cpu 100,000; gpu 10^6)")
    ap.add_argument("--sources", type=int, default=None, help="matrix rows (cpu 2,000; gpu 100,000)")
    ap.add_argument("--targets", type=int, default=None, help="matrix columns (cpu 2,000; gpu 10,000)")
    ap.add_argument("--repeats", type=int, default=3)
    args = ap.parse_args()
    gpu = args.device == "gpu"
    args.n = args.n or (300_000 if gpu else 20_000)
    args.matrix_n = args.matrix_n or (1_000_000 if gpu else 100_000)
    args.sources = args.sources or (100_000 if gpu else 2_000)
    args.targets = args.targets or (10_000 if gpu else 2_000)
    table, extra = run_gpu(args) if gpu else run_cpu(args)
    info = {**machine(), **extra}
    where = info.get("gpu", info.get("cpu", ""))
    md = markdown_table(table[0], table[1:])
    cmd = "PYTHONPATH=. python3 benchmarks/source_spread.py --device " + args.device
    write_results(f"source_spread-{args.device}", {"machine": info, "args": vars(args), "rows": table},
                  f"# Many-source work spread against one device ({where})\n\n{md}\n\n"
                  f"Medians of {args.repeats} runs after a warm-up; every result checked against the one-device "
                  f"result.  Command: `{cmd}`\n")


if __name__ == "__main__":
    main()
