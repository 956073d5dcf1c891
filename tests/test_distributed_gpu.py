"""apsp.shortest_paths(..., client=) with one Dask worker per GPU (needs 2 GPUs; skipped otherwise).

Worker threads of one process (apsp.distributed.cluster.threaded_cluster:
panels copied GPU to GPU) and worker processes (dask_cuda.LocalCUDACluster
when installed, else gpu_process_cluster: panels over TCP), each against
one GPU's closure, bit for bit.
"""

from __future__ import annotations

import numpy as np
import pytest

import apsp
from semiring.backend import gpu_available

distributed = pytest.importorskip("distributed")
da = pytest.importorskip("dask.array")


def _gpus() -> int:
    if not gpu_available():
        return 0
    import cupy

    return cupy.cuda.runtime.getDeviceCount()


pytestmark = [pytest.mark.gpu, pytest.mark.distributed,
              pytest.mark.skipif(_gpus() < 2, reason="needs CuPy and at least 2 CUDA GPUs")]


def _random(n, seed, density=0.2):
    rng = np.random.default_rng(seed)
    W = rng.integers(1, 50, (n, n)).astype(np.float32)
    W[rng.random((n, n)) > density] = np.inf
    return W


@pytest.fixture(scope="module", params=["threads", "processes"])
def gpu_client(request):
    from apsp.distributed.cluster import gpu_process_cluster, threaded_cluster

    if request.param == "threads":
        cluster = threaded_cluster(devices=[0, 1], memory_limit="8GiB")
    else:
        try:
            from dask_cuda import LocalCUDACluster

            cluster = LocalCUDACluster(CUDA_VISIBLE_DEVICES="0,1", n_workers=2, threads_per_worker=1,
                                       memory_limit="8GiB", dashboard_address=None)
        except ImportError:
            cluster = gpu_process_cluster([0, 1], memory_limit="8GiB")
    client = distributed.Client(cluster)
    client.wait_for_workers(2, timeout=300)
    yield request.param, client
    client.close()
    cluster.close()


def test_each_worker_has_its_own_gpu(gpu_client):
    from apsp.distributed.rows import survey

    kind, client = gpu_client
    infos = client.gather([client.submit(survey, "gpu", workers=[w], pure=False) for w in sorted(client.nthreads())])
    if kind == "threads":
        assert sorted(i["gpu"] for i in infos) == [0, 1]
    assert all(i["gpu_free"] > 0 for i in infos)


@pytest.mark.parametrize("n,b", [(300, 64), (257, 40)])
def test_cupy_input_equals_one_gpu(gpu_client, n, b):
    import cupy as cp

    _, client = gpu_client
    W = cp.asarray(_random(n, n))
    ref = apsp.shortest_paths(W)
    D = apsp.shortest_paths(W, client=client, block_size=b)
    assert isinstance(D, cp.ndarray)
    cp.testing.assert_array_equal(D, ref)


def test_dask_array_made_on_the_workers_stays_there(gpu_client):
    import cupy as cp

    _, client = gpu_client
    W = _random(200, 9)
    ref = apsp.shortest_paths(cp.asarray(W))
    D = apsp.shortest_paths(da.from_array(W, chunks=(50, 200)), client=client, device="gpu", block_size=50)
    assert isinstance(D, da.Array)
    got = np.concatenate([cp.asnumpy(D[a : a + 50].compute()) for a in range(0, 200, 50)])
    np.testing.assert_array_equal(got, cp.asnumpy(ref))


def test_predecessors_and_negative_cycles(gpu_client):
    import cupy as cp

    _, client = gpu_client
    W = _random(150, 3)
    D, P = apsp.shortest_paths(cp.asarray(W), client=client, block_size=32, predecessors=True)
    np.testing.assert_array_equal(cp.asnumpy(D), apsp.shortest_paths(W))
    Dh, Ph = cp.asnumpy(D), cp.asnumpy(P)
    for i, j in [(0, 149), (17, 3), (100, 42)]:
        if np.isfinite(Dh[i, j]):
            path = apsp.path(Ph, i, j)
            assert sum(W[u, v] for u, v in zip(path, path[1:])) == Dh[i, j]
    W[5, 90], W[90, 40], W[40, 5] = 1, -5, 2
    with pytest.raises(apsp.NegativeCycleError):
        apsp.shortest_paths(cp.asarray(W), client=client, block_size=32)


def test_benchmark_path_on_two_gpus():
    """What benchmarks/distributed.py --gpu runs, at n = 2048 on 2 GPUs (all checks pass)."""
    bench = pytest.importorskip("benchmarks.distributed")
    payload = bench.scaling("gpu", 2048, [1, 2], check_rows=16, warm_n=1024, memory_limit=8 * 2**30)
    assert all(r["rows_equal"] for r in payload["runs"]), payload["runs"]
    assert len(payload["runs"]) == 7


def test_processes_send_panels_as_cuda_ipc_handles(gpu_client, caplog):
    """Worker processes of one host: panels leave as IPC handles, results equal, nothing left mapped or exported."""
    import logging

    import cupy as cp

    from apsp.distributed.ipc import shared_runs

    kind, client = gpu_client
    W = _random(301, 11)
    W[np.arange(301), np.arange(301)] = 7.0  # diagonal entries that the closure must replace
    ref = apsp.shortest_paths(cp.asarray(W))
    with caplog.at_level(logging.INFO, logger="apsp.distributed"):
        D = apsp.shortest_paths(cp.asarray(W), client=client, block_size=24)  # 13 rounds: every slot reused
    cp.testing.assert_array_equal(D, ref)
    said = [r.getMessage() for r in caplog.records if r.name == "apsp.distributed"]
    if kind == "processes":
        assert any("CUDA IPC, GPU to GPU" in m for m in said), said
    else:
        assert not any("CUDA IPC, GPU to GPU" in m for m in said), said
    left = client.run(shared_runs)
    assert all(v == {"exports": [], "imports": []} for v in left.values()), left


def test_processes_without_ipc_give_the_same_result(gpu_client, monkeypatch):
    import cupy as cp

    kind, client = gpu_client
    if kind != "processes":
        pytest.skip("worker processes only")
    monkeypatch.setenv("SEMIRING_PATHS_DASK_IPC", "0")
    W = _random(170, 12)
    D, P = apsp.shortest_paths(cp.asarray(W), client=client, block_size=40, predecessors=True)
    D1, P1 = apsp.shortest_paths(cp.asarray(W), predecessors=True, method="blocked-fw")
    cp.testing.assert_array_equal(D, D1)
    Dh, Ph = cp.asnumpy(D), cp.asnumpy(P)
    for i, j in [(0, 169), (33, 2), (120, 60)]:
        if np.isfinite(Dh[i, j]):
            path = apsp.path(Ph, i, j)
            assert sum(W[u, v] for u, v in zip(path, path[1:])) == Dh[i, j]


@pytest.mark.skipif(_gpus() < 3, reason="needs at least 3 CUDA GPUs")
def test_every_gpu_of_the_host_as_worker_processes():
    """p = min(4, GPUs) worker processes: panels through IPC, int32 with predecessors equal to one GPU."""
    import cupy as cp

    from apsp.distributed.cluster import gpu_process_cluster

    p = min(4, _gpus())
    rng = np.random.default_rng(5)
    n = 389
    W = rng.integers(1, 1000, (n, n)).astype(np.int32)
    W[rng.random((n, n)) > 0.1] = np.iinfo(np.int32).max
    with gpu_process_cluster(range(p), memory_limit="8GiB") as cluster, distributed.Client(cluster) as client:
        client.wait_for_workers(p, timeout=300)
        D, P = apsp.shortest_paths(cp.asarray(W), client=client, block_size=20, predecessors=True)
    ref = apsp.shortest_paths(cp.asarray(W))
    cp.testing.assert_array_equal(D, ref)
    Dh, Ph = cp.asnumpy(D), cp.asnumpy(P)
    for i, j in [(0, 388), (200, 7), (301, 150), (55, 56)]:
        if Dh[i, j] != np.iinfo(np.int32).max:
            path = apsp.path(Ph, i, j)
            assert sum(int(W[u, v]) for u, v in zip(path, path[1:])) == Dh[i, j]
