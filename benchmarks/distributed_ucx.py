"""APSP on a Dask cluster of GPU worker processes started over UCX: panels through UCX against CUDA IPC handles.

One ``dask_cuda.LocalCUDACluster(protocol="ucx")`` worker per visible GPU
(needs dask-cuda and the ``ucx`` extra: ``distributed-ucxx``).  First a
small closure each way, checked against one GPU; then, at ``n`` (default
32768), the one-GPU R-Kleene closure and the Dask closure with its panels
sent through UCX (``SEMIRING_PATHS_DASK_IPC=0``) and as CUDA IPC handles,
alternated twice, 32 sampled rows compared with the one-GPU result.  The
first UCX run includes setting up the endpoints between the workers.

Usage: ``python3 benchmarks/distributed_ucx.py [n]``; the figures are
printed (``benchmarks/results/distributed-ucx-*.md`` records a run).
"""
import logging
import os
import sys
import time

import cupy as cp
import numpy as np

import apsp
from apsp.distributed import default_block_size
from benchmarks.distributed import seeded_dask_array, seeded_rows

logging.basicConfig(level=logging.WARNING, format="%(name)s: %(message)s")
logging.getLogger("apsp.distributed").setLevel(logging.INFO)


def main():
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 32768
    p = cp.cuda.runtime.getDeviceCount()
    from dask_cuda import LocalCUDACluster
    from distributed import Client

    t = time.perf_counter()
    cluster = LocalCUDACluster(CUDA_VISIBLE_DEVICES=",".join(map(str, range(p))), n_workers=p, threads_per_worker=1,
                               memory_limit=100_000_000_000, protocol="ucx", dashboard_address=None)
    client = Client(cluster)
    client.wait_for_workers(p, timeout=200)
    print(f"UCX cluster of {p} workers up in {time.perf_counter() - t:.1f} s", client.scheduler_info()["address"], flush=True)
    for ipc in ("0", "1"):
        os.environ["SEMIRING_PATHS_DASK_IPC"] = ipc
        W = seeded_rows(3000, 3)(0, 3000, cp)
        D = apsp.shortest_paths(W, client=client, block_size=200)
        print(f"IPC={ipc}: n = 3000 equal to one GPU: {bool(cp.array_equal(D, apsp.shortest_paths(W)))}", flush=True)
    W = seeded_rows(n, 7)(0, n, cp)
    apsp.shortest_paths(seeded_rows(4096, 8)(0, 4096, cp), method="rkleene")
    cp.cuda.Device().synchronize()
    t = time.perf_counter()
    ref = apsp.shortest_paths(W, method="rkleene")
    cp.cuda.Device().synchronize()
    one = time.perf_counter() - t
    picks = np.sort(np.random.default_rng(1).choice(n, 32, replace=False))
    refrows = cp.asnumpy(ref[picks])
    del W, ref
    cp.get_default_memory_pool().free_all_blocks()
    print(f"one GPU: {one:.2f} s", flush=True)
    b = default_block_size(n, p, "gpu")
    for ipc in ("0", "1", "0", "1"):
        os.environ["SEMIRING_PATHS_DASK_IPC"] = ipc
        X = seeded_dask_array(n, 7, b, "gpu")
        t = time.perf_counter()
        D = apsp.shortest_paths(X, client=client, device="gpu", block_size=b)
        s = time.perf_counter() - t
        got = np.concatenate([cp.asnumpy(D[int(i):int(i) + 1].compute()) for i in picks])
        print(f"{'CUDA IPC' if ipc == '1' else 'UCX'}: {p} workers, n = {n}, b = {b}: {s:.2f} s = {one / s:.2f}x one GPU, "
              f"32 rows equal: {bool(np.array_equal(got, refrows))}", flush=True)
        del D, X
    client.close()
    cluster.close()


if __name__ == "__main__":
    main()
