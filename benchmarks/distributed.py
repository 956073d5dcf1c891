"""APSP on a Dask cluster against one process, side by side in one run.

CPU (default): a ``LocalCluster`` of 2 worker processes x 1 thread (each
worker's kernels then use 1 thread) against single-process
``apsp.shortest_paths(W)`` using every core, on a complete digraph with
integer weights uniform in [1, 100) (exact sums: results compared bit for
bit), ``n`` = 4096.  The two runs alternate ``--repeats`` times after a
warm-up; medians.  The distributed time includes scattering ``W`` from this
process and gathering the result back.  Writes
``results/distributed-cpu.{json,md}``.

``--gpu``: one scaling run over ``--gpus`` (e.g. ``1,2,4``) GPUs of this
machine at ``--n`` (65536), float32, on the seeded digraph of
``benchmarks/multi_gpu.py`` (weights 1..999, half of the arcs missing), in
one process:

* one GPU: ``apsp.shortest_paths`` on a CuPy matrix on GPU 0 (R-Kleene):
  the baseline;
* in-process, ``p`` GPUs: :func:`apsp.multi_device.multi_device_closure`
  (row blocks made on their GPUs, panels copied GPU to GPU, one host thread
  per GPU) -- what ``apsp.shortest_paths(W, devices=...)`` runs;
* Dask, one worker per GPU, ``--dask threads,processes``: worker threads of
  this process (:func:`apsp.distributed.cluster.threaded_cluster`: panels
  passed by reference and copied GPU to GPU), and worker processes
  (``dask_cuda.LocalCUDACluster``, or without dask-cuda
  :func:`apsp.distributed.cluster.gpu_process_cluster`; panels over TCP, or
  UCX with ``--protocol ucx``).  The input is a dask array whose row blocks
  are made on the workers that own them (the same seeded rows), the result
  stays there; the Dask time includes making the input rows.  Every worker's
  memory limit is set (``--memory-limit``, default 80 % of this machine's
  memory over the workers of a process cluster).

Each result is checked against the one-GPU result on ``--check-rows``
sampled rows, bit for bit.  Wall-clock seconds of one closure after a
warm-up closure; rates are ``n^3`` min-plus pairs per second.  Writes
``results/distributed-gpu-<p>x-<gpu>.{json,md}`` (the GPU named).  Needs
numpy, cupy, dask, distributed (and dask-cuda if installed) and nothing else.

Run: ``python3 benchmarks/distributed.py [--gpu --gpus 1,2,4 --n 65536]``.
"""

from __future__ import annotations

import argparse
import contextlib
import gc
import logging
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
import semiring as sr  # noqa: E402
from apsp.distributed import default_block_size  # noqa: E402
from apsp.multi_device import HostLane, RowBlocks, multi_device_closure  # noqa: E402
from benchmarks._common import machine, markdown_table, set_quick, write_results  # noqa: E402
from benchmarks.multi_gpu import seeded_rows  # noqa: E402

_ROOT = str(Path(__file__).resolve().parents[1])


def dense_random(n: int, dtype, seed: int = 0) -> np.ndarray:
    """A complete digraph, integer weights uniform in [1, 100) (exact sums: results comparable bit for bit)."""
    rng = np.random.default_rng(seed)
    W = rng.integers(1, 100, (n, n)).astype(dtype)
    np.fill_diagonal(W, 0)
    return W


def total_memory() -> int:
    """Bytes of memory of this machine (what a worker's limit is measured against)."""
    import psutil  # a dependency of distributed

    return int(psutil.virtual_memory().total)


# -- CPU: 2 worker processes against one process ------------------------------------------------
def cpu(args) -> dict:
    from distributed import Client, LocalCluster

    limit = args.memory_limit or int(0.8 * total_memory() / 2)
    rows, payload = [], {"machine": machine(), "n": args.n, "repeats": args.repeats, "memory_limit": limit}
    cluster = LocalCluster(n_workers=2, threads_per_worker=1, processes=True, memory_limit=limit,
                           dashboard_address=None, worker_dashboard_address=None)
    client = Client(cluster)
    try:
        for dtype in args.dtypes:
            W = dense_random(args.n, dtype)
            ref = apsp.shortest_paths(W[:512, :512])  # compile / load the kernels here and on the workers
            apsp.shortest_paths(W[:512, :512], client=client, block_size=128)
            times = {"single": [], **{b: [] for b in args.tiles}}
            equal = {b: True for b in args.tiles}
            for _ in range(args.repeats):
                t = time.perf_counter()
                ref = apsp.shortest_paths(W)
                times["single"].append(time.perf_counter() - t)
                for b in args.tiles:
                    t = time.perf_counter()
                    D = apsp.shortest_paths(W, client=client, block_size=None if b == "default" else int(b))
                    times[b].append(time.perf_counter() - t)
                    equal[b] &= bool(np.array_equal(D, ref))
                    del D
            single = statistics.median(times["single"])
            rows.append({"dtype": np.dtype(dtype).name, "n": args.n, "run": "one process (all cores)", "b": "",
                         "median_s": round(single, 3), "times": [round(x, 3) for x in times["single"]],
                         "ratio": 1.0})
            print(rows[-1], flush=True)
            for b in args.tiles:
                bb = default_block_size(args.n, 2, "cpu") if b == "default" else int(b)
                m = statistics.median(times[b])
                pairs = [d / s for d, s in zip(times[b], times["single"])]  # each run against the one beside it
                rows.append({"dtype": np.dtype(dtype).name, "n": args.n, "run": "Dask, 2 worker processes x 1 thread",
                             "b": bb, "median_s": round(m, 3), "times": [round(x, 3) for x in times[b]],
                             "ratio": round(m / single, 3), "pair_ratio": round(statistics.median(pairs), 3),
                             "equal": equal[b]})
                print(rows[-1], flush=True)
    finally:
        client.close()
        cluster.close()
    m = payload["machine"]
    header = ["dtype", "n", "run", "rows per block b", "median s", "time / one process (medians)",
              "median of the runs' time / the one-process run beside each", "equal"]
    table = [[r["dtype"], r["n"], r["run"], r["b"], r["median_s"], r["ratio"], r.get("pair_ratio", ""),
              r.get("equal", "")] for r in rows]
    md = (f"APSP, complete digraph with weights 1..99, n = {args.n}; {args.repeats} alternating runs each, medians; "
          f"{m['cpu']} ({m['cores']} cores; {m['simd']}).  Dask: LocalCluster, 2 worker processes x 1 thread "
          f"(kernels on 1 thread each), memory_limit {limit / 2**30:.1f} GiB each; W scattered from and the result "
          "gathered to this process (included).\n\n" + markdown_table(header, table))
    payload["rows"] = rows
    print(md)
    write_results("distributed-cpu", payload, md)
    return payload


# -- scaling over devices (GPUs; worker processes on the CPU, for the tests) ----------------
def _xp(device: str):
    if device == "gpu":
        import cupy

        return cupy
    return np


def _sync(device: str, count: int) -> None:
    if device == "gpu":
        import cupy

        for d in range(count):
            cupy.cuda.Device(d).synchronize()


def _free(device: str) -> None:
    gc.collect()
    if device == "gpu":
        import cupy

        cupy.get_default_memory_pool().free_all_blocks()


def _host(X) -> np.ndarray:
    return X.get() if hasattr(X, "get") else np.asarray(X)


def _seeded_chunk(n: int, seed: int, device: str, block_info=None):
    """Row block of the seeded matrix for ``dask.array.map_blocks`` (made where the task runs)."""
    (a, b), _ = block_info[None]["array-location"]
    return seeded_rows(n, seed)(a, b, _xp(device))


def seeded_dask_array(n: int, seed: int, block: int, device: str):
    """The seeded matrix as a dask array of row blocks (``block x n`` chunks), each made by its task."""
    import dask.array as da

    meta = _xp(device).empty((0, 0), dtype=np.float32)
    chunks = ((block,) * (n // block) + ((n % block,) if n % block else ()), (n,))
    return da.map_blocks(_seeded_chunk, n, seed, device, chunks=chunks, dtype=np.float32, meta=meta)


def _dask_cluster(mode: str, device: str, p: int, memory_limit: int | None, protocol: str):
    """(cluster, description) for ``p`` workers: threads of this process, or processes."""
    from apsp.distributed.cluster import gpu_process_cluster, threaded_cluster

    if mode == "threads":
        limit = memory_limit or int(0.8 * total_memory())
        if device == "gpu":
            return threaded_cluster(devices=list(range(p)), memory_limit=limit), \
                f"Dask, {p} worker threads of one process (inproc), one GPU each"
        return threaded_cluster(p, memory_limit=limit), f"Dask, {p} worker threads of one process (inproc)"
    limit = memory_limit or int(0.8 * total_memory() / p)
    if device == "gpu":
        try:
            from dask_cuda import LocalCUDACluster
        except ImportError:
            return gpu_process_cluster(range(p), memory_limit=limit, protocol=protocol), \
                f"Dask, {p} worker processes (SpecCluster, CUDA_VISIBLE_DEVICES per worker, {protocol})"
        return LocalCUDACluster(CUDA_VISIBLE_DEVICES=",".join(map(str, range(p))), n_workers=p,
                                threads_per_worker=1, memory_limit=limit, protocol=protocol,
                                dashboard_address=None), f"Dask, {p} worker processes (LocalCUDACluster, {protocol})"
    from distributed import LocalCluster

    return LocalCluster(n_workers=p, threads_per_worker=1, processes=True, memory_limit=limit,
                        dashboard_address=None, worker_dashboard_address=None, protocol=protocol), \
        f"Dask, {p} worker processes ({protocol})"


@contextlib.contextmanager
def _transport_said():
    """The messages ``apsp.distributed`` logs inside the block (how the run's panels travel)."""
    said: list[str] = []

    class Keep(logging.Handler):
        def emit(self, record):
            said.append(record.getMessage())

    logger, handler = logging.getLogger("apsp.distributed"), Keep(logging.INFO)
    level = logger.level
    logger.addHandler(handler)
    logger.setLevel(logging.INFO)
    try:
        yield said
    finally:
        logger.removeHandler(handler)
        logger.setLevel(level)


def scaling(device: str, n: int, counts: list[int], *, seed: int = 7, modes=("threads", "processes"),
            block: int | None = None, memory_limit: int | None = None, protocol: str = "tcp", check_rows: int = 64,
            warm_n: int | None = None, log=print) -> dict:
    """One scaling run: the baseline on one device, then in-process and Dask runs on ``p`` devices for ``p`` in ``counts``.

    On the CPU the "devices" are :class:`~apsp.multi_device.HostLane` lanes
    and Dask workers (what the tests run, at small ``n``).  Returns the
    payload written to the results (``rows``: one dict per run).
    """
    xp = _xp(device)
    rate = lambda s: n**3 / s / 1e12  # noqa: E731
    rows_fn = seeded_rows(n, seed)
    picks = np.sort(np.random.default_rng(seed).choice(n, min(check_rows, n), replace=False))
    warm_n = warm_n or min(n, 4096)
    out: list[dict] = []

    def record(run: str, p: int, b, seconds: float, same: bool, note: str = "") -> None:
        out.append({"run": run, "devices": p, "b": b, "seconds": round(seconds, 3), "Tpairs_per_s": round(rate(seconds), 3),
                    "speedup": round(base / seconds, 3), "rows_equal": same, "note": note})
        log(f"{run}: {p} device(s), b = {b}: {seconds:.2f} s, {rate(seconds):.2f} T pairs/s, "
            f"{base / seconds:.2f}x one device, sampled rows equal: {same}")

    # one device: the baseline
    if device == "gpu":
        xp.cuda.Device(0).use()
    W = rows_fn(0, n, xp)
    apsp.shortest_paths(seeded_rows(warm_n, seed + 1)(0, warm_n, xp))
    _sync(device, 1)
    t = time.perf_counter()
    D = apsp.shortest_paths(W, method="rkleene")  # one GPU: the planner would spread a large matrix over all
    _sync(device, 1)
    base = time.perf_counter() - t
    ref = _host(D[picks])
    del W, D
    _free(device)
    out.append({"run": "one device, apsp.shortest_paths", "devices": 1, "b": "", "seconds": round(base, 3),
                "Tpairs_per_s": round(rate(base), 3), "speedup": 1.0, "rows_equal": True, "note": "baseline"})
    log(f"one device (apsp.shortest_paths): {base:.2f} s, {rate(base):.2f} T pairs/s")

    for p in counts:  # in-process: apsp.multi_device
        b = block or default_block_size(n, p, device)
        if device == "gpu":
            from apsp.multi_device import cuda_lanes

            lanes = cuda_lanes(range(p))
        else:
            lanes = [HostLane(i) for i in range(p)]
        warm = RowBlocks.from_rows(warm_n, seeded_rows(warm_n, seed + 1), lanes, default_block_size(warm_n, p, device))
        multi_device_closure(sr.min_plus, warm, lanes)
        del warm
        R = RowBlocks.from_rows(n, rows_fn, lanes, b)
        _sync(device, p)
        t = time.perf_counter()
        multi_device_closure(sr.min_plus, R, lanes)
        _sync(device, p)
        seconds = time.perf_counter() - t
        same = bool(np.array_equal(np.concatenate([R.rows(int(s), int(s) + 1) for s in picks]), ref))
        del R, lanes
        _free(device)
        record("in-process, apsp.multi_device", p, b, seconds, same)

    from distributed import Client

    for mode in modes:
        for p in counts:
            b = block or default_block_size(n, p, device)
            cluster, what = _dask_cluster(mode, device, p, memory_limit, protocol)
            client = Client(cluster)
            try:
                client.wait_for_workers(p, timeout=300)
                wb = default_block_size(warm_n, p, device)
                apsp.shortest_paths(seeded_dask_array(warm_n, seed + 1, wb, device), client=client, device=device,
                                    block_size=wb)  # kernels compiled on every worker
                X = seeded_dask_array(n, seed, b, device)
                with _transport_said() as said:
                    t = time.perf_counter()
                    D = apsp.shortest_paths(X, client=client, device=device, block_size=b)
                    seconds = time.perf_counter() - t
                got = np.concatenate([_host(D[int(s) : int(s) + 1].compute()) for s in picks])  # row by row: the
                same = bool(np.array_equal(got, ref))  # rows of a threaded cluster's blocks lie on different GPUs
                del D
                how = "; panels: CUDA IPC, GPU to GPU" if any("CUDA IPC, GPU to GPU" in m for m in said) else ""
                record(what, p, b, seconds, same, "input rows made on the workers (included)" + how)
            finally:
                client.close()
                cluster.close()
                _free(device)
    return {"device": device, "n": n, "counts": list(counts), "rows_checked": int(len(picks)), "runs": out}


def gpu(args) -> dict:
    import cupy as cp

    count = cp.cuda.runtime.getDeviceCount()
    counts = [p for p in args.gpus if p <= count]
    name = cp.cuda.runtime.getDeviceProperties(0)["name"].decode()
    print(f"{count} x {name}; n = {args.n}; GPUs {counts}", flush=True)
    payload = scaling("gpu", args.n, counts, seed=args.seed, modes=args.dask, block=args.block,
                      memory_limit=args.memory_limit, protocol=args.protocol, check_rows=args.check_rows)
    payload.update({"machine": machine(), "gpu": name, "gpu_count": count})
    md = gpu_markdown(payload)
    print(md)
    tag = name.replace("NVIDIA ", "").replace(" ", "-").lower()
    write_results(f"distributed-gpu-{max(counts)}x-{tag}", payload, md)
    return payload


def _panel_route(r: dict) -> str:
    """How a run's panels went from their owner to the other GPUs."""
    if r["devices"] == 1:
        return ""
    if r["run"].startswith("in-process"):
        return "peer copy"
    if "CUDA IPC" in r.get("note", ""):
        return "CUDA IPC handle, GPU to GPU"
    if "threads" in r["run"]:
        return "by reference, peer copy"
    return "Dask comm, through host memory"


def gpu_markdown(payload: dict) -> str:
    """The results page of a GPU scaling run."""
    header = ["run", "GPUs", "rows per block b", "seconds", "T pairs/s", "speed-up over one GPU", "panels",
              "sampled rows equal"]
    table = [[r["run"], r["devices"], r["b"], f"{r['seconds']:.2f}", f"{r['Tpairs_per_s']:.2f}", f"{r['speedup']:.2f}",
              _panel_route(r), r["rows_equal"]] for r in payload["runs"]]
    return (f"# APSP on a Dask cluster against one GPU ({payload['gpu_count']} x {payload['gpu']})\n\nfloat32, "
            f"n = {payload['n']}, seeded digraph (weights 1..999, half of the arcs missing); wall-clock seconds of one "
            f"closure after a warm-up; rate = n^3 / time; {payload['rows_checked']} sampled rows compared with the "
            "one-GPU result.  Dask runs include making the input's row blocks on their workers.\n\n"
            + markdown_table(header, table))


def _host_matrix(n: int, seed: int):
    """The seeded ``n x n`` float32 matrix in (pinned, where it can be) host memory, its rows made on GPU 0."""
    import cupy as cp
    import cupyx

    try:
        W = cupyx.empty_pinned((n, n), dtype=np.float32)
    except Exception:  # noqa: BLE001 - too large to pin: pageable memory, slower copies
        W = np.empty((n, n), dtype=np.float32)
    rows_fn = seeded_rows(n, seed)
    step = max(1, (1 << 30) // (4 * n))
    with cp.cuda.Device(0):
        for r0 in range(0, n, step):
            r1 = min(n, r0 + step)
            rows_fn(r0, r1, cp).get(out=W[r0:r1])
    return W


def _pinned_copy(W):
    """A copy of ``W`` in host memory of the same kind (pinned where ``W`` is and it can be): every run's copies
    are then DMA alike (a pageable copy would make its run's transfers slower than the others')."""
    import cupyx

    try:
        out = cupyx.empty_pinned(W.shape, dtype=W.dtype)
    except Exception:  # noqa: BLE001 - too large to pin: pageable memory, slower copies
        out = np.empty(W.shape, dtype=W.dtype)
    out[...] = W
    return out


def _source_rows(W, picks, chunk_bytes: int = 4 << 30) -> np.ndarray:
    """Rows ``picks`` of the closure of the host matrix ``W`` by single-source closures on GPU 0: ``x = min(x, x (x) W)``
    (min-plus vector-matrix products, ``W`` streamed in row chunks) until nothing changes."""
    import cupy as cp

    n = W.shape[0]
    step = max(1, chunk_bytes // (4 * n))
    with cp.cuda.Device(0):
        X = cp.asarray(W[picks])
        cp.minimum(X, cp.where(cp.arange(n)[None, :] == cp.asarray(picks)[:, None], 0, cp.inf).astype(X.dtype), out=X)
        buf = cp.empty((step, n), dtype=W.dtype)
        while True:
            Y = X.copy()
            for k0 in range(0, n, step):
                k1 = min(n, k0 + step)
                B = buf[: k1 - k0]
                B.set(W[k0:k1])
                sr.min_plus.matmul(X[:, k0:k1], B, out=Y, accumulate=True)
            if bool((Y == X).all()):
                return cp.asnumpy(X)
            X = Y


def streamed(args) -> dict:
    """A host matrix larger than the GPUs: the out-of-core route (apsp.streaming) over ``p`` GPUs, closed in place.

    Sampled rows are checked against single-source closures of those rows on GPU 0 (before the matrix is closed).
    """
    import cupy as cp

    from apsp.streaming import CupyDevice, streamed_closure

    count = cp.cuda.runtime.getDeviceCount()
    counts = [p for p in args.gpus if p <= count]
    name = cp.cuda.runtime.getDeviceProperties(0)["name"].decode()
    n = args.n
    budget = args.device_budget or int(0.8 * min(cp.cuda.Device(g).mem_info[0] for g in range(count)))
    print(f"{count} x {name}; streamed n = {n} ({n * n * 4 / 2**30:.0f} GiB float32), GPUs {counts}, "
          f"{budget / 2**30:.1f} GiB budget per GPU", flush=True)
    warm = seeded_rows(4096, args.seed + 1)(0, 4096, np)
    picks = np.sort(np.random.default_rng(args.seed).choice(n, min(args.check_rows, n), replace=False))
    t = time.perf_counter()
    W0 = _host_matrix(n, args.seed)
    t_make = time.perf_counter() - t
    t = time.perf_counter()
    ref = _source_rows(W0, picks)
    t_ref = time.perf_counter() - t
    out = []
    for p in counts:
        devs = [CupyDevice(g) for g in range(p)]
        streamed_closure(sr.min_plus, warm, memory_budget=budget // 16, devices=devs)  # kernels compiled per GPU
        W = _pinned_copy(W0) if p != counts[-1] else W0  # closed in place: the last run takes the original
        t = time.perf_counter()
        streamed_closure(sr.min_plus, W, memory_budget=budget, block_size=args.block, devices=devs, overwrite=True)
        seconds = time.perf_counter() - t
        same = bool(np.array_equal(W[picks], ref))
        row = {"run": "streamed from host memory, apsp.streaming", "devices": p, "seconds": round(seconds, 2),
               "Tpairs_per_s": round(n**3 / seconds / 1e12, 3), "rows_equal": same, "make_s": round(t_make, 1),
               "reference_s": round(t_ref, 1)}
        row["speedup"] = round(out[0]["seconds"] / seconds, 2) if out else 1.0
        print(row, flush=True)
        out.append(row)
        del W
        gc.collect()
    payload = {"device": "gpu", "n": n, "gpu": name, "gpu_count": count, "budget_per_gpu": budget,
               "rows_checked": int(len(picks)), "runs": out, "machine": machine()}
    header = ["run", "GPUs", "seconds", "T pairs/s", f"speed-up over {counts[0]} GPU", "sampled rows equal"]
    table = [[r["run"], r["devices"], f"{r['seconds']:.1f}", f"{r['Tpairs_per_s']:.2f}", f"{r['speedup']:.2f}",
              r["rows_equal"]] for r in out]
    md = (f"# APSP of a matrix in host memory, streamed through the GPUs ({count} x {name})\n\nfloat32, n = {n} "
          f"({n * n * 4 / 2**30:.0f} GiB), seeded digraph, closed in place, {budget / 2**30:.1f} GiB of GPU memory "
          f"used per GPU; {len(picks)} sampled rows compared with single-source closures of those rows.\n\n" + markdown_table(header, table))
    print(md)
    tag = name.replace("NVIDIA ", "").replace(" ", "-").lower()
    write_results(f"streamed-gpu-{max(counts)}x-{tag}", payload, md)
    return payload


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--n", type=int, default=None, help="vertices (default 4096 on CPU, 65536 with --gpu)")
    ap.add_argument("--tiles", nargs="+", default=["default"],
                    help="CPU: rows per block b of the Dask runs ('default': apsp.distributed.default_block_size)")
    ap.add_argument("--dtypes", nargs="+", default=["float32"])
    ap.add_argument("--repeats", type=int, default=5, help="CPU: alternating runs of each side")
    ap.add_argument("--gpu", action="store_true", help="scaling over GPUs: one GPU, in-process and Dask")
    ap.add_argument("--gpus", type=lambda s: [int(x) for x in s.split(",")], default=[1, 2, 4],
                    help="GPU counts of --gpu, comma-separated (default 1,2,4; counts above the machine's skipped)")
    ap.add_argument("--dask", type=lambda s: s.split(","), default=["threads", "processes"],
                    help="Dask clusters of --gpu: threads (one process), processes (one per GPU)")
    ap.add_argument("--protocol", default="tcp", help="protocol of the process clusters (tcp, or ucx)")
    ap.add_argument("--block", type=int, default=None, help="--gpu: rows per block (default: per GPU count)")
    ap.add_argument("--memory-limit", type=int, default=None, help="bytes per worker (default: 80%% of memory)")
    ap.add_argument("--check-rows", type=int, default=64)
    ap.add_argument("--streamed", action="store_true",
                    help="--gpu: a host matrix closed by the out-of-core route over the GPUs (apsp.streaming)")
    ap.add_argument("--device-budget", type=int, default=None, help="--streamed: GPU bytes per GPU")
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--quick", action="store_true", help="n = 1024 (GPU: 16384), results under results/quick/")
    args = ap.parse_args(argv)
    set_quick(args.quick)
    if args.quick:
        args.n = args.n or (16384 if args.gpu else 1024)
        args.repeats = 1
    args.n = args.n or (65536 if args.gpu else 4096)
    os.environ["PYTHONPATH"] = _ROOT + (os.pathsep + os.environ["PYTHONPATH"] if os.environ.get("PYTHONPATH") else "")
    (streamed if args.streamed else gpu if args.gpu else cpu)(args)


if __name__ == "__main__":
    main()
