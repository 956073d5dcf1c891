"""Memory limits of the workers of apsp.shortest_paths(..., client=): a share that cannot fit, a worker that pauses.

Each test starts its own LocalCluster of worker processes with a small
memory_limit (the module's other clusters are not touched); deselect with
``-m "not distributed"``.
"""

from __future__ import annotations

import threading
import time

import numpy as np
import pytest

import apsp
from apsp.distributed import PAUSE_S, WorkerMemoryError, cluster_workers
from apsp.distributed.memory import Needs, check_workers, worker_needs
from apsp.distributed.rows import RowLayout

distributed = pytest.importorskip("distributed")
da = pytest.importorskip("dask.array")

pytestmark = [pytest.mark.distributed, pytest.mark.slow]

LIMIT = 600 * 2**20  # above an idle worker's process memory (about 250 MiB), below what the tests ask for


@pytest.fixture(scope="module")
def small_client():
    import dask

    with dask.config.set({"distributed.worker.memory.terminate": False}):  # a paused worker is not restarted here
        cluster = distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, memory_limit=LIMIT,
                                           dashboard_address=None, worker_dashboard_address=None)
    c = distributed.Client(cluster)
    yield c
    c.close()
    cluster.close()


def test_a_share_larger_than_the_limit_is_an_error_before_the_run(small_client):
    """n = 16384 float32: 512 MiB of rows per worker, more than 80% of 600 MiB with what the worker holds."""
    X = da.zeros((16384, 16384), dtype=np.float32, chunks=(4096, 16384))  # nothing is computed
    t = time.perf_counter()
    with pytest.raises(WorkerMemoryError, match=r"memory_limit=.*LocalCluster\(memory_limit=\.\.\.\).*--memory-limit"):
        apsp.shortest_paths(X, client=small_client, block_size=1024)
    assert time.perf_counter() - t < 30
    assert isinstance(WorkerMemoryError("x"), ValueError) and isinstance(WorkerMemoryError("x"), MemoryError)
    assert all(v == [] for v in small_client.run(_runs).values())


def test_the_error_names_the_worker_and_the_numbers(small_client):
    X = da.zeros((16384, 16384), dtype=np.float64, chunks=(2048, 16384))
    with pytest.raises(WorkerMemoryError) as err:
        apsp.shortest_paths(X, client=small_client, predecessors=True)
    msg = str(err.value)
    assert any(w in msg for w in cluster_workers(small_client))
    assert "0.59 GiB" in msg and "pauses at 80%" in msg and "rows of 16384" in msg


def test_a_share_that_fits_runs(small_client):
    W = np.random.default_rng(0).integers(1, 9, (200, 200)).astype(np.float64)
    np.testing.assert_array_equal(apsp.shortest_paths(W, client=small_client, block_size=32), apsp.shortest_paths(W))


def _runs():
    from apsp.distributed.rows import local_runs

    return local_runs()


_BALLAST: list = []


def _add_ballast(nbytes: int) -> int:
    """Hold ``nbytes`` of touched memory in the worker process (its memory monitor then pauses it)."""
    _BALLAST.append(np.ones(nbytes // 8))
    return len(_BALLAST)


def _drop_ballast() -> None:
    _BALLAST.clear()


def _block(event_name: str) -> None:
    """Occupy the worker's only thread until the event is set (its queued tasks wait behind it)."""
    distributed.Event(event_name).wait(120)


PAUSE_LIMIT = 2 * 2**30  # far above a worker's own memory (with compiled kernels), so only the ballast pauses it


@pytest.fixture
def pause_client():
    """Two worker processes whose memory limit their own memory never reaches (the pause is the test's doing)."""
    import dask

    with dask.config.set({"distributed.worker.memory.terminate": False}):
        cluster = distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, memory_limit=PAUSE_LIMIT,
                                           dashboard_address=None, worker_dashboard_address=None)
    c = distributed.Client(cluster)
    yield c
    c.close()
    cluster.close()


def _status_and_rss(dask_worker) -> tuple[str, int]:
    import psutil

    return dask_worker.status.name, psutil.Process().memory_info().rss


def test_a_worker_paused_during_the_run_is_an_error_not_a_stall(pause_client):
    c = pause_client
    workers = cluster_workers(c)
    victim = workers[0]
    gate = f"apsp-test-gate-{time.time_ns()}"
    blocker = c.submit(_block, gate, workers=[victim], pure=False)  # the run's tasks on the victim queue behind it
    deadline = time.monotonic() + 60
    while c.run(lambda dask_worker, k=blocker.key: getattr(dask_worker.state.tasks.get(k), "state", None),
                workers=[victim])[victim] != "executing":
        assert time.monotonic() < deadline, "the blocking task did not start"
        time.sleep(0.05)
    W = np.random.default_rng(1).integers(1, 9, (256, 256)).astype(np.float64)
    outcome: dict = {}

    def run():
        try:
            outcome["D"] = apsp.shortest_paths(W, client=c, block_size=32)
        except Exception as err:  # noqa: BLE001 - the test inspects it
            outcome["error"] = err
        outcome["done"] = time.monotonic()

    th = threading.Thread(target=run)
    th.start()
    try:
        deadline = time.monotonic() + 60
        while not c.run_on_scheduler(lambda dask_scheduler: any(str(k).startswith("apsp-update")
                                                                  for k in dask_scheduler.tasks)):
            assert time.monotonic() < deadline, "the run was not submitted"
            time.sleep(0.05)
        status, rss = c.run(_status_and_rss, workers=[victim])[victim]
        assert status == "running" and rss < 0.6 * PAUSE_LIMIT, (status, rss)  # not paused before the ballast
        c.run(_add_ballast, int(0.9 * PAUSE_LIMIT) - rss, workers=[victim])  # process memory above 80% of the limit
        paused_at = time.monotonic()
        th.join(60)
        assert not th.is_alive(), "the run stalled on the paused worker"
        assert "error" in outcome, "the run finished although a worker was paused"
        err = outcome["error"]
        assert isinstance(err, WorkerMemoryError), repr(err)
        assert "paused for memory" in str(err) and victim in str(err) and "memory_limit=" in str(err)
        assert PAUSE_S <= outcome["done"] - paused_at < 30
    finally:
        c.run(_drop_ballast, workers=[victim])
        distributed.Event(gate, client=c).set()
        th.join(60)
        blocker.result()
    deadline = time.monotonic() + 30
    while any(c.run(_runs).values()):  # the run's rows were dropped once the victim resumed
        assert time.monotonic() < deadline, c.run(_runs)
        time.sleep(0.1)


def test_a_worker_paused_before_the_run_is_an_error_at_once(small_client):
    c = small_client
    victim = cluster_workers(c)[1]
    c.run(_add_ballast, int(0.9 * LIMIT), workers=[victim])
    try:
        deadline = time.monotonic() + 30
        while c.run(lambda dask_worker: dask_worker.status.name, workers=[victim])[victim] != "paused":
            assert time.monotonic() < deadline, "the worker did not pause"
            time.sleep(0.05)
        with pytest.raises(WorkerMemoryError, match="paused for memory before the closure"):
            apsp.shortest_paths(np.zeros((8, 8)), client=c, block_size=4)
    finally:
        c.run(_drop_ballast, workers=[victim])


def test_needs_grow_with_the_share():
    lay = RowLayout(8192, 512, 4)
    cpu = worker_needs(lay, 0, 4, 4, False, "cpu", "host", True)
    assert cpu.device == 0 and cpu.host >= 2048 * 8192 * 4
    pred = worker_needs(lay, 0, 4, 4, True, "cpu", "host", True)
    assert pred.host >= cpu.host + 2048 * 8192 * 4
    gpu = worker_needs(lay, 0, 4, 4, False, "gpu", "gpu", False)
    assert gpu.device >= 2048 * 8192 * 4 and gpu.host < gpu.device
    info = {"address": "w", "memory_limit": 0, "spill": None, "pause": None, "process": 0, "status": "running",
            "threads": 1, "gpu": 0, "gpu_free": gpu.device - 1, "gpu_total": 2 * gpu.device}
    check_workers([{**info, "gpu_free": gpu.device}], [gpu])  # no memory limit: only the GPU is checked
    with pytest.raises(WorkerMemoryError, match="on its GPU"):
        check_workers([info], [gpu])
    with pytest.raises(WorkerMemoryError, match="paused"):
        check_workers([{**info, "status": "paused"}], [Needs(0, 0, "")])
