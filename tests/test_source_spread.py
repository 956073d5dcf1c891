"""Many-source work spread over lanes of one process (host lanes: the GPU schedule run on the CPU) and over a Dask
cluster: every function equals its one-device result (sums to floating-point reordering, rows exactly), chunks
are taken from a shared counter, errors stop every lane, and a cluster that loses workers recovers or fails
clearly within a minute."""

from __future__ import annotations

import threading
import time

import numpy as np
import pytest
from dask_workers import run_then_kill

import graphs
from graphs import source_spread as SS
from graphs.centrality.distance_measures import NotConnectedError
from graphs.source_spread import HostLane, SourceJob, spread_on_lanes

LANES = [HostLane(0), HostLane(1), HostLane(2)]


def _graphs():
    road = graphs.generators.road_network(700, seed=3)
    r, c, w = road.edges()
    rng = np.random.default_rng(5)
    directed = graphs.Graph.from_edges(r, c, rng.integers(1, 9, r.size).astype(np.int64), n=road.n, directed=True)
    rmat = graphs.generators.rmat(9, 8, seed=2)
    return {"road": road, "road-int-directed": directed, "rmat": rmat}


GRAPHS = _graphs()


@pytest.mark.parametrize("name", list(GRAPHS))
@pytest.mark.parametrize("weighted", [True, False])
def test_centralities_on_host_lanes_equal_one_device(name, weighted):
    G = GRAPHS[name]
    kw = {"weighted": weighted}
    np.testing.assert_allclose(graphs.betweenness_centrality(G, devices=LANES, **kw),
                               graphs.betweenness_centrality(G, **kw), rtol=1e-12, atol=1e-15)
    np.testing.assert_allclose(graphs.betweenness_centrality(G, sources=40, seed=3, devices=LANES[:2], **kw),
                               graphs.betweenness_centrality(G, sources=40, seed=3, **kw), rtol=1e-12, atol=1e-15)
    a, b = graphs.edge_betweenness_centrality(G, devices=LANES, **kw), graphs.edge_betweenness_centrality(G, **kw)
    np.testing.assert_array_equal(a.src, b.src)
    np.testing.assert_allclose(a.value, b.value, rtol=1e-12, atol=1e-15)
    for f in ("closeness_centrality", "harmonic_centrality"):
        np.testing.assert_allclose(getattr(graphs, f)(G, devices=LANES, **kw), getattr(graphs, f)(G, **kw),
                                   rtol=1e-12, atol=0)


@pytest.mark.parametrize("name", ["road", "road-int-directed"])
@pytest.mark.parametrize("weighted", [True, False])
def test_eccentricities_on_host_lanes_equal_one_device(name, weighted):
    G = GRAPHS[name]
    if G.directed:  # make it strongly connected: every arc both ways
        r, c, w = G.edges()
        G = graphs.Graph.from_edges(np.r_[r, c], np.r_[c, r], np.r_[w, w], n=G.n, directed=True)
    for f in ("eccentricity", "center", "periphery"):
        np.testing.assert_array_equal(getattr(graphs, f)(G, weighted=weighted, devices=LANES),
                                      getattr(graphs, f)(G, weighted=weighted))
    for f in ("diameter", "radius"):
        assert getattr(graphs, f)(G, weighted=weighted, devices=LANES) == getattr(graphs, f)(G, weighted=weighted)
    with pytest.raises(NotConnectedError):
        graphs.eccentricity(GRAPHS["rmat"], devices=LANES)


def test_distance_matrix_on_host_lanes_equals_one_device(tmp_path):
    G = GRAPHS["road"]
    src, dst = [5, 9, 5, 600, 13] * 7, list(range(0, 700, 3))
    np.testing.assert_array_equal(graphs.distance_matrix(G, src, dst, devices=LANES), graphs.distance_matrix(G, src, dst))
    D, P = graphs.distance_matrix(G, src[:6], predecessors=True, devices=LANES)
    D0, P0 = graphs.distance_matrix(G, src[:6], predecessors=True)
    np.testing.assert_array_equal(D, D0)
    np.testing.assert_array_equal(P, P0)
    np.testing.assert_array_equal(graphs.distance_matrix(G, src, dst, limit=300.0, devices=LANES),
                                  graphs.distance_matrix(G, src, dst, limit=300.0))
    path = tmp_path / "d.npy"
    M = graphs.distance_matrix(G, src, dst, out=str(path), devices=LANES[:2])
    np.testing.assert_array_equal(np.load(path), graphs.distance_matrix(G, src, dst))
    assert isinstance(M, np.memmap)


def test_distance_matrix_with_negative_weights_on_host_lanes():
    r = np.array([0, 1, 2, 3, 1])
    c = np.array([1, 2, 3, 0, 3])
    G = graphs.Graph.from_edges(r, c, np.array([4, -2, 3, 1, 5], dtype=np.int64), directed=True)
    np.testing.assert_array_equal(graphs.distance_matrix(G, [0, 1, 2, 3], devices=LANES),
                                  graphs.distance_matrix(G, [0, 1, 2, 3]))
    bad = graphs.Graph.from_edges(r, c, np.array([4, -2, -3, -1, 5], dtype=np.int64), directed=True)
    with pytest.raises(graphs.NegativeCycleError):
        graphs.distance_matrix(bad, [0, 1], devices=LANES)


def _slow_on_lane_zero(payload, chunk):
    """A task whose chunks are ten times slower on the first lane's thread (the caller's)."""
    time.sleep(0.05 if threading.current_thread() is threading.main_thread() else 0.005)
    return (chunk.astype(np.float64)[:, None] * 2, np.full((chunk.size, 1), threading.get_ident()))


def test_lanes_take_chunks_from_a_shared_counter():
    """The lane whose chunks are slow takes fewer of them; every row is written once, where it belongs."""
    src = np.arange(200, dtype=np.int32)
    out = [np.full((200, 1), -1.0), np.zeros((200, 1), dtype=np.int64)]
    spread_on_lanes(SourceJob(_slow_on_lane_zero, None, "rows"), src, [HostLane(0), HostLane(1)], out, chunk=5)
    np.testing.assert_array_equal(out[0].ravel(), src * 2.0)
    mine = int((out[1] == threading.get_ident()).sum())
    assert 0 < mine < 100, mine  # the slow lane did some, and less than half


def _fails_on_seven(payload, chunk):
    if 7 in chunk:
        raise RuntimeError("bad chunk")
    return (np.ones(1),)


def test_an_error_in_one_lane_stops_the_others_and_is_raised():
    with pytest.raises(RuntimeError, match="bad chunk"):
        spread_on_lanes(SourceJob(_fails_on_seven, None, "sum"), np.arange(1000, dtype=np.int32), LANES, chunk=1)


def test_bad_devices_and_client_arguments():
    G = GRAPHS["road"]
    with pytest.raises(ValueError, match="not both"):
        graphs.betweenness_centrality(G, devices="all", client=object())
    with pytest.raises(TypeError, match="client must be a distributed.Client"):
        graphs.closeness_centrality(G, client="tcp://nowhere:1")
    with pytest.raises(ValueError, match="devices is empty"):
        graphs.distance_matrix(G, [0], devices=[])
    with pytest.raises(ValueError, match='devices must be "all"'):
        graphs.harmonic_centrality(G, devices="every")
    with pytest.raises(TypeError, match="devices must be"):
        graphs.eccentricity(G, devices=1.5)
    with pytest.raises(ValueError, match="repeats"):
        graphs.betweenness_centrality(G, devices=[0, 0])
    try:
        import cupy

        count = cupy.cuda.runtime.getDeviceCount()
    except Exception:  # noqa: BLE001 - no CuPy or no GPU: none
        count = 0
    with pytest.raises(ValueError, match="has none" if count == 0 else "is not a GPU id"):
        graphs.betweenness_centrality(G, devices=[count])


# -- Dask ----------------------------------------------------------------------------------------------------------
distributed = pytest.importorskip("distributed")


@pytest.fixture(scope="module")
def client():
    cluster = distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None,
                                       worker_dashboard_address=None, env={"NUMBA_NUM_THREADS": "1"})
    c = distributed.Client(cluster)
    yield c
    c.close()
    cluster.close()


@pytest.mark.distributed
def test_functions_on_a_dask_cluster_equal_one_process(client, tmp_path):
    G = GRAPHS["road-int-directed"]
    np.testing.assert_allclose(graphs.betweenness_centrality(G, client=client), graphs.betweenness_centrality(G),
                               rtol=1e-12, atol=1e-15)
    np.testing.assert_allclose(graphs.edge_betweenness_centrality(G, client=client).value,
                               graphs.edge_betweenness_centrality(G).value, rtol=1e-12, atol=1e-15)
    np.testing.assert_allclose(graphs.closeness_centrality(G, weighted=False, client=client),
                               graphs.closeness_centrality(G, weighted=False), rtol=1e-12, atol=0)
    import dask.array as da

    D = graphs.distance_matrix(G, list(range(0, 700, 2)), client=client)  # a dask array: row blocks on the workers
    assert isinstance(D, da.Array) and D.shape == (350, 700) and D.numblocks[0] > 1
    np.testing.assert_array_equal(D.compute(), graphs.distance_matrix(G, list(range(0, 700, 2))))
    D, P = graphs.distance_matrix(G, [3, 1, 3], [0, 5], predecessors=True, client=client)
    D0, P0 = graphs.distance_matrix(G, [3, 1, 3], [0, 5], predecessors=True)
    assert P.dtype == np.int32 and P.shape == (3, 700)
    np.testing.assert_array_equal(D.compute(), D0)
    np.testing.assert_array_equal(P.compute(), P0)
    path = tmp_path / "d.npy"
    graphs.distance_matrix(G, list(range(50)), [1, 2, 3], out=path, client=client)
    np.testing.assert_array_equal(np.load(path), graphs.distance_matrix(G, list(range(50)), [1, 2, 3]))


def _kernel_threads() -> int:
    from semiring.kernels import num_threads

    return num_threads()


@pytest.mark.distributed
def test_worker_processes_run_their_kernels_on_their_dask_threads():
    """Worker processes of their own (no thread setting in their environment) run the kernels on their Dask
    threads, not on every core of the host each."""
    import os

    threads = len(os.sched_getaffinity(0)) + 1  # unlike any default: the count must come from Dask
    with distributed.LocalCluster(n_workers=2, threads_per_worker=threads, processes=True, dashboard_address=None,
                                  worker_dashboard_address=None) as cluster, distributed.Client(cluster) as c:
        assert set(c.run(_kernel_threads).values()) == {threads - 1}
        G = GRAPHS["road"]
        np.testing.assert_allclose(graphs.closeness_centrality(G, client=c), graphs.closeness_centrality(G),
                                   rtol=1e-12, atol=0)
        assert set(c.run(_kernel_threads).values()) == {threads}


@pytest.mark.distributed
@pytest.mark.parametrize("shared", [False, True], ids=["pickled", "shared-memory"])
def test_a_worker_killed_mid_run_gives_the_exact_result(client, shared, tmp_path, monkeypatch):
    """One of two worker processes dies while its chunks run: the scheduler runs them again (the nanny restarts
    the worker) and the sum is the one-process sum, within a minute; also where the graph reached the workers
    through shared memory (the restarted worker maps the same files)."""
    if shared:
        from graphs import shared_payload

        monkeypatch.setattr(shared_payload, "MIN_BYTES", 1)
        monkeypatch.setattr(shared_payload, "shared_folder", lambda need=0: str(tmp_path))

    G = graphs.generators.road_network(6000, seed=8)
    ref = graphs.betweenness_centrality(G, sources=1200, seed=4)
    outcome = {}

    def run():
        try:
            outcome["bc"] = graphs.betweenness_centrality(G, sources=1200, seed=4, client=client)
        except Exception as err:  # noqa: BLE001 - the test inspects it
            outcome["error"] = err
        outcome["done"] = time.perf_counter()

    done, killed_at = run_then_kill(client, run, "run_task", 2, wait=60)  # (Dask drops the key's leading "_")
    assert done < 12, "killed too late to be mid-run"  # of 16 chunks
    assert outcome["done"] > killed_at, "the run finished before the worker was killed: make it longer"
    assert "error" not in outcome, repr(outcome.get("error"))
    np.testing.assert_allclose(outcome["bc"], ref, rtol=1e-12, atol=1e-15)
    client.wait_for_workers(2, timeout=60)


@pytest.mark.distributed
def test_a_cluster_left_without_workers_fails_clearly(monkeypatch):
    """Every worker gone for good mid-run: WorkerLostError (the tasks cancelled, or no worker for
    WORKERLESS_SECONDS), not a hang."""
    from apsp.distributed import WorkerLostError

    monkeypatch.setattr(SS, "WORKERLESS_SECONDS", 2.0)
    with distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=False, dashboard_address=None,
                                  worker_dashboard_address=None) as cluster, distributed.Client(cluster) as c:
        G = graphs.generators.road_network(6000, seed=1)  # a run of seconds: the workers leave during it
        timer = threading.Timer(0.3, lambda: cluster.scale(0))
        timer.start()
        t0 = time.perf_counter()
        with pytest.raises(WorkerLostError, match="no worker|lost the tasks"):
            graphs.betweenness_centrality(G, client=c)
        assert time.perf_counter() - t0 < 30
        timer.cancel()


@pytest.mark.distributed
def test_waiting_gives_up_when_the_cluster_has_no_worker_for_a_while(monkeypatch):
    """The watch over pending tasks: no worker at all for WORKERLESS_SECONDS raises WorkerLostError (the tasks are
    cancelled), where a worker present keeps it waiting."""
    import apsp.distributed as AD
    from apsp.distributed import WorkerLostError

    def never(*args, **kwargs):
        raise TimeoutError

    class Client:
        cancelled: list = []

        def cancel(self, futures):
            self.cancelled.extend(futures)

    monkeypatch.setattr(distributed, "wait", never)
    monkeypatch.setattr(SS, "WORKERLESS_SECONDS", 0.3)
    monkeypatch.setattr(SS, "WATCH_SECONDS", 0.01)
    monkeypatch.setattr(AD, "cluster_workers", lambda c: [])
    c = Client()
    t0 = time.perf_counter()
    with pytest.raises(WorkerLostError, match="no worker for 0 s; 2 tasks"):
        SS._wait_some(c, ["f1", "f2"])
    assert 0.3 <= time.perf_counter() - t0 < 5 and c.cancelled == ["f1", "f2"]
    seen = []
    monkeypatch.setattr(AD, "cluster_workers", lambda c: seen.append(1) or (["w"] if len(seen) < 40 else []))
    t0 = time.perf_counter()
    with pytest.raises(WorkerLostError):
        SS._wait_some(c, ["f3"])
    assert len(seen) >= 40  # waited while the worker was there, then gave up


def _mapped_from_a_file(a: np.ndarray) -> bool:
    import mmap

    while a is not None:
        if isinstance(a, mmap.mmap):
            return True
        a = getattr(a, "base", None)
    return False


def _how_payload_arrived(payload, chunk):
    """A task: whether the payload's graph arrays are mapped from shared files, and their sum (one row per source)."""
    G = payload[0]
    mapped = float(_mapped_from_a_file(G.indices) and _mapped_from_a_file(G.indptr))
    return (np.array([[mapped, float(G.indices.sum())]] * chunk.shape[0]),)


@pytest.mark.distributed
def test_large_arrays_reach_worker_processes_through_shared_memory(client, tmp_path, monkeypatch):
    """Worker processes of this host map the payload's large arrays from one set of files (not each a pickled
    copy), results equal one process, and the files are gone when the call returns."""
    from graphs import shared_payload
    from graphs.source_spread import SourceJob, place_first, spread_on_dask

    monkeypatch.setattr(shared_payload, "MIN_BYTES", 1)  # every array of these small graphs goes shared
    monkeypatch.setattr(shared_payload, "shared_folder", lambda need=0: str(tmp_path))
    G = GRAPHS["road-int-directed"]
    job = SourceJob(_how_payload_arrived, (G,), "rows", place_first, 16)
    rows = np.zeros((40, 2))
    spread_on_dask(job, np.arange(40, dtype=np.int32), client, "cpu", [rows])
    assert (rows[:, 0] == 1).all() and (rows[:, 1] == G.indices.sum()).all()
    assert list(tmp_path.iterdir()) == []
    np.testing.assert_allclose(graphs.betweenness_centrality(G, client=client), graphs.betweenness_centrality(G),
                               rtol=1e-12, atol=1e-15)
    D = graphs.distance_matrix(G, list(range(0, 700, 3)), list(range(0, 700, 7)), client=client)
    np.testing.assert_array_equal(D.compute(), graphs.distance_matrix(G, list(range(0, 700, 3)),
                                                                      list(range(0, 700, 7))))
    assert list(tmp_path.iterdir()) == []


def test_a_shared_payload_goes_only_to_processes_of_its_host(monkeypatch):
    """Workers on another host, or in the client's own process, get the payload itself; a shared payload read on
    another host says so; no room for the files: the payload itself."""
    import pickle

    from graphs import shared_payload as SP

    payload = (np.arange(SP.MIN_BYTES // 8 + 1, dtype=np.float64), "x")

    class Client:
        def __init__(self, where):
            self.where = where

        def run(self, fn, workers):
            return {w: self.where for w in workers}

    import os
    import socket

    elsewhere = Client(("another-host", 1))
    same_process = Client((socket.gethostname(), os.getpid()))
    here = Client((socket.gethostname(), os.getpid() + 1))
    for c in (elsewhere, same_process):
        with SP.host_shared(payload, c, ["w0", "w1"]) as sent:
            assert sent is payload
    with SP.host_shared(payload, here, ["w0", "w1"]) as sent:
        assert isinstance(sent, SP.SharedPayload)
        copy = pickle.loads(pickle.dumps(sent))
        np.testing.assert_array_equal(SP.opened(copy)[0], payload[0])
        copy = pickle.loads(pickle.dumps(sent))
        monkeypatch.setattr(SP.socket, "gethostname", lambda: "another-host")
        with pytest.raises(RuntimeError, match="meant for processes of the host that made it"):
            SP.opened(copy)
        monkeypatch.undo()

    def no_room(*a, **k):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(SP.np, "save", no_room)
    with SP.host_shared(payload, here, ["w0"]) as sent:
        assert sent is payload
    with SP.host_shared((1, 2), here, ["w0"]) as sent:  # no large array: nothing to share
        assert sent == (1, 2)
