"""apsp.shortest_paths(..., client=) and graphs.multi_source_sssp(..., client=) on a two-process Dask cluster.

Every result is compared with the single-process call (exactly: integer-valued
weights); predecessors are checked to be valid trees whose paths add up to the
distances, and equal to single-process ones where both use the same block.
The cluster is one module-scoped ``LocalCluster(n_workers=2, threads_per_worker=1,
processes=True)``; deselect with ``-m "not distributed"``.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time

import numpy as np
import pytest
import scipy.sparse as sp
from dask_workers import run_then_kill

import apsp
import graphs
import semiring as sr
from apsp.distributed import WorkerLostError, cluster_workers
from apsp.task_values import Stopped
from semiring.backend import gpu_available

distributed = pytest.importorskip("distributed")
da = pytest.importorskip("dask.array")

pytestmark = pytest.mark.distributed


@pytest.fixture(scope="module")
def client():
    cluster = distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None,
                                       worker_dashboard_address=None)
    c = distributed.Client(cluster)
    yield c
    c.close()
    cluster.close()


def _random(n, seed, dtype=np.float64, density=0.3, lo=1, hi=9, S=sr.min_plus):
    rng = np.random.default_rng(seed)
    W = rng.integers(lo, hi, (n, n)).astype(dtype)
    W[rng.random((n, n)) > density] = S.zero_value(np.dtype(dtype))
    return W


def _check_paths(S, W, D, P):
    """Every finite off-diagonal entry has a path in P that is a walk of W whose product is D[i, j]."""
    n = W.shape[0]
    zero = S.zero_value(D.dtype)
    add, mul = S.add_ufunc, S.mul_ufunc
    for i in range(n):
        for j in range(n):
            if i == j or D[i, j] == zero:
                continue
            p = apsp.path(P, i, j)
            assert p[0] == i and p[-1] == j, (i, j, p)
            assert len(set(p)) == len(p)
            w = S.one_value(D.dtype)
            for u, v in zip(p, p[1:]):
                assert W[u, v] != zero, (i, j, p)
                w = mul(np.asarray(w, D.dtype), np.asarray(W[u, v], D.dtype))
            assert add(np.asarray(w, D.dtype), np.asarray(D[i, j], D.dtype)) == D[i, j] and w == D[i, j], (i, j, p, w)


def test_import_apsp_does_not_import_dask():
    code = ("import sys, apsp, graphs, semiring; bad = sorted(m for m in sys.modules "
            "if m.split('.')[0] in ('dask', 'distributed')); print(bad); assert not bad")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env={**os.environ})
    assert r.returncode == 0, r.stdout + r.stderr


def test_cluster_workers_are_the_workers_every_time(client):
    """Asked from the scheduler each call, not the client's cache (whose periodic refresh drops the worker list)."""
    addresses = sorted(client.run(lambda dask_worker: dask_worker.address).values())
    assert len(addresses) == 2
    for _ in range(200):
        assert cluster_workers(client) == addresses


@pytest.mark.parametrize("n,b", [(1, 4), (5, 8), (37, 8), (48, 16), (30, 30)])
def test_dense_min_plus_matches_single_process(client, n, b):
    W = _random(n, n + b, density=0.25)
    if n > 1:
        W[0, n - 1] = -3.0  # a negative arc, no negative cycle (others are >= 1 and the way back is long)
    ref = apsp.shortest_paths(W)
    D = apsp.shortest_paths(W, client=client, block_size=b)
    assert isinstance(D, np.ndarray) and D.dtype == W.dtype
    np.testing.assert_array_equal(D, ref)


@pytest.mark.parametrize("S,dtype", [(sr.min_plus, np.float32), (sr.min_plus, np.int32), (sr.max_min, np.float32),
                                     (sr.max_min, np.float64), (sr.lor_land, np.bool_), (sr.min_max, np.int32)])
def test_semirings_and_dtypes(client, S, dtype):
    n = 41
    if dtype == np.bool_:
        W = np.random.default_rng(1).random((n, n)) < 0.05
    else:
        W = _random(n, 2, dtype, density=0.15, S=S)
    ref = apsp.shortest_paths(W, semiring=S)
    D = apsp.shortest_paths(W, semiring=S, client=client, block_size=16)
    assert D.dtype == ref.dtype
    np.testing.assert_array_equal(D, ref)


def test_int32_near_the_sentinels_runs_wide(client):
    big = 2**29
    W = np.full((20, 20), np.iinfo(np.int32).max, np.int32)
    for i in range(19):
        W[i, i + 1] = big
    W[19, 0] = -big + 5
    ref = apsp.shortest_paths(W)
    assert (ref == np.iinfo(np.int32).max).any() and (ref == big * 3).any()
    np.testing.assert_array_equal(apsp.shortest_paths(W, client=client, block_size=6), ref)


@pytest.mark.parametrize("S", [sr.min_plus, sr.max_min, sr.lor_land])
def test_predecessors_are_valid_trees(client, S):
    n = 45
    if S is sr.lor_land:
        W = np.random.default_rng(3).random((n, n)) < 0.06
    else:
        W = _random(n, 3, density=0.12, lo=0, hi=3, S=S)  # many ties, zero-weight cycles for min_plus
    ref = apsp.shortest_paths(W, semiring=S)
    D, P = apsp.shortest_paths(W, semiring=S, predecessors=True, client=client, block_size=16)
    np.testing.assert_array_equal(D, ref)
    assert P.dtype == np.int32
    _check_paths(S, W, D, P)


def test_predecessors_equal_single_process_with_its_block(client, monkeypatch):
    # the single-process Pi update (what runs where last hops do not: other semirings, the GPU) is blocked
    # Floyd-Warshall with blocks of Job.pred_block = 128; for min_plus on the CPU the last hops are switched
    # off here so that the Pi update runs
    import apsp.driver

    monkeypatch.setattr(apsp.driver, "last_hop_predecessors", lambda *a, **k: None)
    W = _random(150, 4, density=0.08, lo=0, hi=4)
    D0, P0 = apsp.shortest_paths(W, predecessors=True)
    D, P = apsp.shortest_paths(W, predecessors=True, client=client, block_size=128)
    np.testing.assert_array_equal(D, D0)
    np.testing.assert_array_equal(P, P0)


def test_graph_input_sends_each_row_blocks_arcs_to_its_owner(client):
    rng = np.random.default_rng(5)
    n, m = 70, 300
    r, c = rng.integers(0, n, m), rng.integers(0, n, m)
    w = rng.integers(0, 9, m).astype(np.float64)  # explicit zeros and parallel arcs
    A = sp.coo_array((w, (r, c)), shape=(n, n))  # duplicates stay stored: the semiring add combines them
    G = graphs.as_graph(A)
    ref = apsp.shortest_paths(G)
    np.testing.assert_array_equal(ref, apsp.shortest_paths(_dense(A)))
    np.testing.assert_array_equal(apsp.shortest_paths(G, client=client, block_size=32), ref)
    D, P = apsp.shortest_paths(G, client=client, block_size=32, predecessors=True)
    np.testing.assert_array_equal(D, ref)
    _check_paths(sr.min_plus, _dense(A), D, P)
    B = graphs.as_graph(sp.csr_array(A.tocsr() != 0))
    np.testing.assert_array_equal(apsp.transitive_closure(B, client=client, block_size=32),
                                  apsp.transitive_closure(B))
    I32 = graphs.Graph.from_edges(r, c, (w + 1).astype(np.int32), n=n)  # int32 arcs: the range test reads them
    np.testing.assert_array_equal(apsp.shortest_paths(I32, client=client, block_size=32),
                                  apsp.shortest_paths(I32))


def _dense(A):
    """The min_plus dense matrix of a sparse one (missing: inf; duplicates: their minimum)."""
    C = A.tocoo()
    D = np.full(A.shape, np.inf)
    np.minimum.at(D, (C.row, C.col), C.data)
    return D


def test_networkx_graph_input_and_out(client):
    nx = pytest.importorskip("networkx")
    G = graphs.as_graph(nx.gnp_random_graph(30, 0.1, seed=2, directed=True))
    ref = apsp.shortest_paths(G)
    np.testing.assert_array_equal(ref, graphs.all_pairs_shortest_paths(G, dtype=ref.dtype))
    out = np.empty_like(ref)
    D = apsp.shortest_paths(G, client=client, block_size=8, out=out)
    assert D is out
    np.testing.assert_array_equal(out, ref)


@pytest.mark.parametrize("b", [8, 64])
def test_negative_cycle(client, b):
    W = _random(40, 6, density=0.1)
    W[3, 35] = 1.0
    W[35, 17] = -4.0
    W[17, 3] = 2.0
    with pytest.raises(apsp.NegativeCycleError) as single:
        apsp.shortest_paths(W)
    with pytest.raises(apsp.NegativeCycleError) as err:
        apsp.shortest_paths(W, client=client, block_size=b)
    cyc = err.value.cycle
    assert sorted(cyc) == sorted(single.value.cycle) == [3, 17, 35]
    assert err.value.weight == -1.0
    assert "negative cycle" in str(err.value)


def test_negative_self_loop_in_a_later_tile(client):
    W = _random(30, 7, density=0.1)
    W[25, 25] = -1.0
    with pytest.raises(apsp.NegativeCycleError) as err:
        apsp.shortest_paths(W, client=client, block_size=8)
    assert err.value.vertex == 25


def _worker_errors_since(client, start: float) -> list:
    """The ERROR / CRITICAL records (and any "Compute Failed") the workers logged since ``time.time()`` was ``start``.

    A worker logs a task's failure before it tells the scheduler, so what the
    caller saw raised has been logged by then.
    """
    logs = client.run(lambda dask_worker: dask_worker.get_logs(start=start))
    return [(w, level, msg.splitlines()[0]) for w, records in logs.items() for level, msg in records
            if level in ("ERROR", "CRITICAL") or "Compute Failed" in msg or "Traceback" in msg]


def _cycle_weight(S, W, cycle):
    w = S.one_value(W.dtype)
    for u, v in zip(cycle, cycle[1:] + cycle[:1]):
        w = S.mul_ufunc(np.asarray(w, W.dtype), np.asarray(W[u, v], W.dtype))
    return w


@pytest.mark.parametrize("case", ["across-tiles", "predecessors", "dask-array", "self-loop-late", "int32",
                                  "max_plus", "one-tile"])
def test_negative_cycle_is_reported_without_worker_errors(client, case):
    """The diagonal tasks return a status instead of raising: no worker logs "Compute Failed", the error names
    a vertex on the cycle, found from the input."""
    S, dtype, b, predecessors = sr.min_plus, np.float64, 8, False
    if case == "max_plus":
        S = sr.max_plus
    if case == "int32":
        dtype = np.int32
    W = _random(40, 14, dtype, density=0.1, S=S) if S is sr.min_plus else -_random(40, 14, density=0.1, S=sr.min_plus)
    if case == "self-loop-late":
        W[37, 37] = -1
    else:
        sign = 1 if S is sr.max_plus else -1
        W[3, 35], W[35, 17], W[17, 3] = 1, sign * 4, 2  # min_plus: 1 - 4 + 2 = -1; max_plus: 1 + 4 + 2 > 0
    if case == "predecessors":
        predecessors, b = True, 16
    if case == "one-tile":
        b = 64
    X = da.from_array(W, chunks=b) if case == "dask-array" else W
    _wait_until_quiet(client)
    before = time.time()
    with pytest.raises(apsp.NegativeCycleError) as err:
        apsp.shortest_paths(X, semiring=S, client=client, block_size=b, predecessors=predecessors)
    cycle = err.value.cycle
    assert err.value.vertex == cycle[0] and cycle == ([37] if case == "self-loop-late" else [3, 35, 17])
    w = _cycle_weight(S, W, cycle)
    assert S.add_ufunc(w, S.one_value(W.dtype)) == w != S.one_value(W.dtype)  # better than the identity
    assert _worker_errors_since(client, before) == []


def test_bad_entry_is_reported_without_worker_errors(client):
    W = _random(20, 9)
    W[13, 4] = np.nan
    _wait_until_quiet(client)
    before = time.time()
    with pytest.raises(sr.errors.InvalidEntryError, match=r"W\[8:16, 0:20\]\[5, 4\] is NaN"):
        apsp.shortest_paths(da.from_array(W, chunks=8), client=client, block_size=8)
    assert _worker_errors_since(client, before) == []


def test_worker_errors_are_seen_by_the_log_check(client):
    """The check above sees a task that raises on a worker (so that its empty answer means something)."""
    def raising(S, D):  # what closing a diagonal tile did before it returned a status (nested: sent by value)
        from apsp.negative_cycle import raise_if_diverged

        raise_if_diverged(S, D, None, whole=False)

    _wait_until_quiet(client)
    before = time.time()
    with pytest.raises(apsp.NegativeCycleError):
        client.submit(raising, sr.min_plus, np.array([[-1.0]]), pure=False).result()
    assert any("Compute Failed" in msg for _, _, msg in _worker_errors_since(client, before))


def test_a_stopped_value_travels_between_workers():
    """Without Dask: a Stopped value keeps its vertex and its error (class and message) through pickling."""
    import pickle

    err = sr.errors.InvalidEntryError("W[2:3, 0:2][0, 1] is NaN; semiring operations do not accept NaN")
    for stop in (Stopped(vertex=4), Stopped(error=err)):
        back = pickle.loads(pickle.dumps(stop))
        assert back.vertex == stop.vertex and type(back.error) is type(stop.error)
        assert str(back.error) == str(stop.error)


def test_dask_array_in_and_out(client):
    W = _random(50, 8, np.float32, density=0.2)
    ref = apsp.shortest_paths(W)
    X = da.from_array(W, chunks=20)  # rechunked to the tiles
    D = apsp.shortest_paths(X, block_size=16)  # the default client
    assert isinstance(D, da.Array) and D.dtype == np.float32 and D.chunks[0][0] == 16
    np.testing.assert_array_equal(D.compute(), ref)
    D2, P2 = apsp.shortest_paths(da.from_array(W, chunks=25), block_size=25, predecessors=True, client=client)
    assert isinstance(P2, da.Array) and P2.dtype == np.int32
    np.testing.assert_array_equal(D2.compute(), ref)
    _check_paths(sr.min_plus, W, ref, P2.compute())


def test_dask_array_bad_entry_is_named(client):
    W = _random(20, 9)
    W[13, 4] = np.nan
    with pytest.raises(sr.errors.InvalidEntryError, match="W\\[8:16, 0:20\\]"):
        apsp.shortest_paths(da.from_array(W, chunks=8), client=client, block_size=8).compute()


def test_dense_input_is_checked_once_at_the_door(client, monkeypatch):
    """apsp.request.make_request reads a dense W's entries; the cluster's route trusts it and reads them no more."""
    import apsp.request
    import semiring.validate

    calls = []
    real = semiring.validate.check_entries

    def counting(name, X, S):
        calls.append(X.shape)
        return real(name, X, S)

    monkeypatch.setattr(semiring.validate, "check_entries", counting)
    monkeypatch.setattr(apsp.request, "check_entries", counting)
    W = _random(12, 3)
    np.testing.assert_array_equal(apsp.shortest_paths(W, client=client, block_size=4), apsp.shortest_paths(W))
    assert calls == [(12, 12), (12, 12)]  # one check for each call: the cluster's and the single process's


def test_bad_arguments(client):
    W = _random(6, 1)
    with pytest.raises(TypeError, match="client"):
        apsp.shortest_paths(W, client=object())
    with pytest.raises(sr.errors.UnsupportedOperationError, match="blocked Floyd-Warshall"):
        apsp.shortest_paths(W, "squaring", client=client)
    with pytest.raises(sr.errors.UnsupportedOperationError):
        apsp.shortest_paths(W, semiring=sr.plus_times, client=client)
    with pytest.raises(sr.errors.ShapeError):
        apsp.shortest_paths(np.zeros((3, 4)), client=client)


_BUSY = frozenset({"waiting", "ready", "constrained", "executing", "long-running", "fetch", "flight",
                   "cancelled", "resumed"})


def _wait_until_quiet(client, timeout: float = 30.0) -> None:
    """Wait until no worker holds a task that runs, waits or is being fetched.

    An earlier test's computation that raised (a negative cycle, a bad entry) is cancelled,
    but a transfer it started can still complete, and be logged, a little later.
    """
    deadline = time.monotonic() + timeout
    while True:
        busy = client.run(lambda dask_worker: sorted(str(k) for k, ts in dask_worker.state.tasks.items()
                                                     if ts.state in _BUSY))
        if not any(busy.values()):
            return
        assert time.monotonic() < deadline, f"workers still busy after {timeout} s: {busy}"
        time.sleep(0.05)


def test_transfers_are_the_schedules_broadcasts(client):
    """Only panels move between workers: each worker receives the panel of every round it does not own, once."""
    from apsp.distributed.rows import RowLayout

    n, b = 80, 16
    W = _random(n, 10, density=0.3)
    _wait_until_quiet(client)
    client.run(lambda dask_worker: dask_worker.transfer_incoming_log.clear())
    D = apsp.shortest_paths(W, client=client, block_size=b)
    np.testing.assert_array_equal(D, apsp.shortest_paths(W))
    logs = client.run(lambda dask_worker: [k for e in dask_worker.transfer_incoming_log for k in e["keys"]])
    workers = sorted(logs)
    lay = RowLayout(n, b, len(workers))
    for g, w in enumerate(workers):
        got = [str(key) for key in logs[w]]
        assert len(got) == len(set(got)), f"a key reached {w} twice"
        rounds = sorted(int(key.rsplit("-", 1)[1]) for key in got if key.startswith("apsp-panel-"))
        assert rounds == [k for k in range(lay.count) if lay.owner(k) != g], (w, got)
        assert len(rounds) == len(got), f"{w} received more than panels: {got}"
    assert client.run(lambda: __import__("apsp.distributed.rows", fromlist=["local_runs"]).local_runs()) == \
        {w: [] for w in workers}, "a run's rows were left on a worker"


def test_multi_source_sssp_rows_as_dask_arrays(client):
    rng = np.random.default_rng(11)
    n, m = 80, 400
    G = graphs.Graph.from_edges(rng.integers(0, n, m), rng.integers(0, n, m), rng.integers(1, 20, m).astype(float))
    D0, P0 = graphs.multi_source_sssp(G)
    D, P = graphs.multi_source_sssp(G, client=client)
    assert isinstance(D, da.Array) and isinstance(P, da.Array) and D.shape == (n, n)
    np.testing.assert_array_equal(D.compute(), D0)
    np.testing.assert_array_equal(P.compute(), P0)
    src = [5, 0, 79, 5]
    D1, P1 = graphs.multi_source_sssp(G, src, client=client)
    np.testing.assert_array_equal(D1.compute(), D0[src])
    D2, none = graphs.multi_source_sssp(G, src, client=client, predecessors=False)
    assert none is None and isinstance(D2, da.Array)
    np.testing.assert_array_equal(D2.compute(), D0[src])
    # the predecessors' rows are shortest-path trees of their sources
    Dd = D1.compute()
    for r, s in enumerate(src):
        for t in range(0, n, 7):
            if np.isfinite(Dd[r, t]) and t != s:
                p = graphs.path(P1[r].compute(), s, t) if hasattr(graphs, "path") else apsp.path(P1[r].compute(), s, t)
                assert p[0] == s and p[-1] == t


def test_multi_source_sssp_negative_weights_and_cycles(client):
    G = graphs.Graph.from_edges([0, 1, 2, 2], [1, 2, 0, 3], [2.0, -1.0, 4.0, -2.0])
    D0, _ = graphs.multi_source_sssp(G)
    D, _ = graphs.multi_source_sssp(G, client=client)
    np.testing.assert_array_equal(D.compute(), D0)
    bad = graphs.Graph.from_edges([0, 1, 2], [1, 2, 0], [1.0, -1.0, -1.0])
    with pytest.raises(apsp.NegativeCycleError):
        graphs.multi_source_sssp(bad, client=client)


def test_a_worker_killed_mid_run_recovers_or_fails_clearly(client):
    """A worker process dies during the run: the run starts again on the workers present and is right."""
    n, b = 360, 4
    W = _random(n, 12, density=0.05)
    ref = apsp.shortest_paths(W)
    outcome = {}

    def run():
        try:
            outcome["D"] = apsp.shortest_paths(W, client=client, block_size=b)
        except Exception as err:  # noqa: BLE001 - the test inspects it
            outcome["error"] = err
        outcome["done"] = time.perf_counter()

    outcome["interiors"], killed_at = run_then_kill(client, run, "apsp-update", 20)
    assert outcome["done"] > killed_at, "the run finished before the worker was killed: make it longer"
    assert outcome["interiors"] < (n // b) * 2 // 2, "killed too late to be mid-run"  # half of the updates
    if "error" in outcome:  # only if workers kept leaving: never here, with one kill
        assert isinstance(outcome["error"], WorkerLostError), repr(outcome["error"])
    else:  # the run was started again on the workers present
        np.testing.assert_array_equal(outcome["D"], ref)
    client.wait_for_workers(2, timeout=60)


@pytest.mark.gpu
@pytest.mark.skipif(not gpu_available(), reason="needs CuPy and a CUDA GPU")
def test_gpu_tiles_match_one_gpu(client):
    """CuPy input: CuPy tiles on the workers (both on the visible GPU here), a CuPy result, equal to one GPU's."""
    cp = pytest.importorskip("cupy")
    W = cp.asarray(_random(70, 13, np.float32, density=0.2))
    ref = apsp.shortest_paths(W)
    D = apsp.shortest_paths(W, client=client, block_size=32)
    assert isinstance(D, cp.ndarray)
    cp.testing.assert_array_equal(D, ref)
    Dd = apsp.shortest_paths(da.from_array(_random(70, 13, np.float32, density=0.2), chunks=32), client=client,
                             device="gpu", block_size=32)
    cp.testing.assert_array_equal(cp.asarray(Dd.compute()), ref)


def _planted_cycle_graph(dtype=np.float64):
    """40 vertices, random arcs of weight 5..19, none from 0..29 into 30..39; one negative cycle 31 -> 35 -> 33 -> 31
    (1 - 4 + 2 = -1): any other cycle through the -4 arc also takes an arc of weight >= 5."""
    rng = np.random.default_rng(21)
    u, v = rng.integers(0, 40, 200), rng.integers(0, 40, 200)
    keep = ~((u < 30) & (v >= 30))  # sources in 0..29 cannot reach the cycle
    u, v = np.r_[u[keep], 31, 35, 33], np.r_[v[keep], 35, 33, 31]
    w = np.r_[rng.integers(5, 20, int(keep.sum())), 1, -4, 2].astype(dtype)
    return graphs.Graph.from_edges(u, v, w, n=40)


@pytest.mark.parametrize("case", ["dijkstra", "spmm", "int32", "int64-spmm", "no-predecessors", "some-chunks"])
def test_multi_source_sssp_negative_cycle_without_worker_errors(client, case):
    """A chunk of sources that meets a negative cycle returns a status instead of raising: the caller gets the
    single-process error (naming a vertex on the cycle, the cycle and its weight) and no worker logs an error."""
    dtype = {"int32": np.int32, "int64-spmm": np.int64}.get(case, np.float64)
    G = _planted_cycle_graph(dtype)
    method = "spmm" if case in ("spmm", "int64-spmm", "some-chunks") else "dijkstra"
    sources = [1, 2, 3, 35] if case == "some-chunks" else None  # two chunks: only the second reaches the cycle
    kw = dict(method=method, predecessors=case != "no-predecessors")
    with pytest.raises(apsp.NegativeCycleError) as ref:
        graphs.multi_source_sssp(G, sources, **kw)
    _wait_until_quiet(client)
    before = time.time()
    with pytest.raises(graphs.NegativeCycleError) as err:
        graphs.multi_source_sssp(G, sources, client=client, **kw)
    e = err.value
    assert type(e) is type(ref.value) and str(e) == str(ref.value)
    assert e.vertex == e.cycle[0] and e.weight == -1
    k = e.cycle.index(31)
    assert e.cycle[k:] + e.cycle[:k] == [31, 35, 33]
    assert _worker_errors_since(client, before) == []


def test_multi_source_sssp_chunks_that_miss_the_cycle_return_rows(client):
    """Bellman-Ford by SpMM from sources that cannot reach the cycle: rows, as in one process."""
    G = _planted_cycle_graph()
    D0, P0 = graphs.multi_source_sssp(G, [1, 2, 3, 29], method="spmm")
    D, P = graphs.multi_source_sssp(G, [1, 2, 3, 29], method="spmm", client=client)
    np.testing.assert_array_equal(D.compute(), D0)
    np.testing.assert_array_equal(P.compute(), P0)


def test_multi_source_sssp_input_errors_in_tasks_come_back_as_a_status(client):
    """Any input error of the library raised in a task (a SemiringError or a GraphError) reaches the caller as it
    was raised, with nothing logged; an exception that is no input error still fails its task, and is raised."""
    from graphs.paths.distributed import distributed_multi_source_sssp

    G = graphs.Graph.from_edges([0, 1], [1, 2], [1.0, 2.0])

    def bad_entry(G, sources, method, device, predecessors):  # nested: sent by value
        import semiring

        if int(sources[0]) == 2:
            raise semiring.errors.InvalidEntryError("weights[1] is NaN; min_plus cannot combine it")
        return np.zeros((len(sources), G.n)), None

    def bad_vertex(G, sources, method, device, predecessors):
        import graphs

        raise graphs.errors.VertexError("source 7 is no vertex of a graph of 3 vertices")

    def broken(G, sources, method, device, predecessors):
        raise RuntimeError("a bug in the kernel")

    src = np.arange(3, dtype=np.int32)
    for kernel, error, match in ((bad_entry, sr.errors.InvalidEntryError, r"weights\[1\] is NaN"),
                                 (bad_vertex, graphs.errors.VertexError, "source 7")):
        _wait_until_quiet(client)
        before = time.time()
        with pytest.raises(error, match=match):
            distributed_multi_source_sssp(G, src, "dijkstra", client, kernel, chunk=1, predecessors=False)
        assert _worker_errors_since(client, before) == []
    _wait_until_quiet(client)
    before = time.time()
    with pytest.raises(RuntimeError, match="a bug in the kernel"):
        distributed_multi_source_sssp(G, src, "dijkstra", client, broken, chunk=1, predecessors=False)
    assert any("Compute Failed" in msg for _, _, msg in _worker_errors_since(client, before))


def test_multi_source_sssp_stopped_chunk_without_dask():
    """A chunk's task returns Stopped with the error (its frames dropped); it pickles whole."""
    import pickle

    from graphs.paths.distributed import Stopped, _rows, _stop

    G = _planted_cycle_graph()
    stop = _rows(graphs.multi_source_sssp, G, np.array([31], np.int32), "spmm")
    assert isinstance(stop, Stopped) and _stop(stop) is stop
    assert isinstance(stop.error, graphs.NegativeCycleError) and stop.error.__traceback__ is None
    back = pickle.loads(pickle.dumps(stop))
    assert type(back.error) is type(stop.error) and str(back.error) == str(stop.error)
    assert back.error.cycle == stop.error.cycle and back.error.vertex == stop.error.vertex
    rows = _rows(graphs.multi_source_sssp, G, np.array([1], np.int32), "spmm")
    assert _stop(rows) is None
    np.testing.assert_array_equal(rows[0], graphs.multi_source_sssp(G, [1], method="spmm")[0])


def test_worker_processes_run_their_kernels_on_their_dask_threads(client):
    """Two worker processes of one thread each on this host: one kernel thread each, not every core each."""
    apsp.shortest_paths(_random(40, 2), client=client, block_size=16)

    def kernel_threads():
        from semiring.kernels import num_threads

        return num_threads()

    assert set(client.run(kernel_threads).values()) == {1}


def _infos(*procs):
    return [{"host": h, "pid": pid} for h, pid in procs]


class _NoClient:
    """A client that fails the test when the driver would probe the workers."""

    def submit(self, *args, **kwargs):
        raise AssertionError("no probe was expected")

    run = gather = submit


@pytest.mark.parametrize("dev,procs,env,want", [
    ("cpu", [("a", 1), ("a", 2)], "", "copy"),           # CPU workers: panels are host arrays anyway
    ("gpu", [("a", 1), ("a", 1)], "", "copy"),           # threads of one process: passed by reference
    ("gpu", [("a", 1), ("b", 2)], "", "copy"),           # two hosts: a handle cannot cross
    ("gpu", [("a", 1), ("a", 2)], "0", "copy"),          # turned off in the environment
])
def test_panel_sharing_needs_gpu_processes_of_one_host(monkeypatch, dev, procs, env, want):
    from apsp.distributed import _panel_sharing

    monkeypatch.setenv("SEMIRING_PATHS_DASK_IPC", env)
    workers = [f"w{i}" for i in range(len(procs))]
    assert _panel_sharing(_NoClient(), workers, _infos(*procs), dev, "tok") == want


@pytest.mark.parametrize("fails_on,want", [(None, "ipc"), ("w2", "copy")])
def test_panel_sharing_follows_the_probe(monkeypatch, caplog, fails_on, want):
    """GPU processes of one host: CUDA IPC when the probe reads back everywhere; else Dask's comm, and why."""
    import logging

    from apsp import distributed as drv

    class Submitted(tuple):
        def release(self):
            pass

    class Probing:
        """Submissions recorded; the probe reads back everywhere but on `fails_on`."""

        def __init__(self):
            self.ran = []

        def submit(self, fn, *args, **kwargs):
            return Submitted((fn, args, kwargs))

        def gather(self, futs):
            return ["cudaErrorMapBufferObjectFailed" if kw["workers"] == [fails_on] else "" for _, _, kw in futs]

        def run(self, fn, *args):
            self.ran.append(fn.__name__)

    c = Probing()
    monkeypatch.delenv("SEMIRING_PATHS_DASK_IPC", raising=False)
    with caplog.at_level(logging.INFO, logger="apsp.distributed"):
        got = drv._panel_sharing(c, ["w0", "w1", "w2"], _infos(("h", 1), ("h", 2), ("h", 3)), "gpu", "tok")
    assert got == want
    if want == "copy":
        assert "w2: cudaErrorMapBufferObjectFailed" in caplog.text
        assert c.ran == ["close_imports"]
    else:
        assert "CUDA IPC, GPU to GPU (3 processes on h)" in caplog.text
        assert c.ran == []
