"""Calls from many threads at once give exactly what the same calls give one after another.

Each test builds a list of calls (different inputs, and some sharing one
input object), makes every call once on this thread (the expected results),
then starts all of them on their own threads, released together by a
:class:`threading.Barrier`, for a few rounds, and compares every result with
its serial one bit for bit (GPU sums that atomics order: within a tolerance).
The kernels release the GIL, so the threads
really overlap in the shared pieces: kernel caches and their first build, the
CPU thread pool, Numba's parallel regions, the planner's measured rates, the
graphs' cached facts, the NetworkX backend's converted graphs, and on the GPU
the CUDA graph caches, pinned staging buffers and device scratch.  Nothing
here sleeps or times anything: an assertion holds whatever the interleaving.
A race shows in some rounds only; each test runs as many rounds as a race
planted in its functions (a buffer shared between calls) needed to show in
nearly every run.

The first-use tests race threads on a kernel no one has built yet in this
process (a semiring created by the test), and check that it is built once.

GPU tests carry ``@pytest.mark.gpu`` and skip without a GPU.
"""

from __future__ import annotations

import dataclasses
import os
import subprocess
import sys
import textwrap
import threading
import warnings
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import networkx as nx
import numpy as np
import pytest
import scipy.sparse as sp

import apsp
import apsp.planner
import graphs
import semiring as sr
from graphs import csgraph
from semiring.backend import gpu_available
from semiring.kernels import cpu_kernels

THREADS = 8
ROUNDS = 2
BACKEND = "semiring_paths"
pytestmark = pytest.mark.filterwarnings("ignore:Note. conversions to backend graphs are saved to cache")
needs_gpu = pytest.mark.skipif(not gpu_available(), reason="no usable CUDA GPU")


# --------------------------------------------------------------------------- the harness

def canon(x):
    """A value that compares equal exactly when the results are the same, bit for bit (NaN included)."""
    if x is None or isinstance(x, (bool, int, str)):
        return x
    if isinstance(x, float):
        return ("float", x.hex())
    if isinstance(x, np.generic):
        return canon(np.asarray(x))
    if isinstance(x, np.ndarray):
        return ("ndarray", x.dtype.str, x.shape, np.ascontiguousarray(x).tobytes())
    if hasattr(x, "__cuda_array_interface__"):
        return canon(x.get())
    if sp.issparse(x) or type(x).__module__.startswith("cupyx"):
        A = sp.csr_array(x.get() if hasattr(x, "get") else x)
        A.sort_indices()
        return ("sparse", A.shape, canon(A.indptr), canon(A.indices), canon(A.data))
    if isinstance(x, graphs.Graph):
        return ("Graph", x.n, x.directed, canon(x.indptr), canon(x.indices), canon(x.weights))
    if isinstance(x, nx.Graph):
        return (type(x).__name__, canon(list(x.nodes(data=True))), canon(list(x.edges(data=True))))
    if isinstance(x, dict):
        return ("dict", tuple((canon(k), canon(v)) for k, v in x.items()))
    if isinstance(x, (set, frozenset)):
        return ("set", frozenset(canon(v) for v in x))
    if hasattr(x, "_asdict"):
        return (type(x).__name__, canon(tuple(x)))
    if dataclasses.is_dataclass(x):
        return (type(x).__name__, canon(tuple(getattr(x, f.name) for f in dataclasses.fields(x))))
    if isinstance(x, (list, tuple)) or hasattr(x, "__next__"):  # generators too (NetworkX's components)
        return ("seq", tuple(canon(v) for v in x))
    raise TypeError(f"no canonical form for {type(x).__name__}")


class Call:
    """``fn(*args, **kwargs)``, named for the messages; ``rtol`` (set after) compares its array result with that
    relative tolerance instead of bit for bit (GPU float sums whose order atomics decide)."""

    def __init__(self, name: str, fn, *args, **kwargs) -> None:
        self.name, self.fn, self.args, self.kwargs = name, fn, args, kwargs
        self.rtol: float | None = None

    def __call__(self):
        return self.fn(*self.args, **self.kwargs)


def _host(x) -> np.ndarray:
    return np.asarray(x.get() if hasattr(x, "get") else x)


def _released(barrier: threading.Barrier, call):
    barrier.wait(timeout=120)
    return call()


def together(calls: list, rounds: int = 1) -> list[list]:
    """Each call on its own thread, all released at once by a barrier; ``rounds`` times. Results in call order."""
    out = []
    with ThreadPoolExecutor(max_workers=len(calls)) as pool:
        for _ in range(rounds):
            barrier = threading.Barrier(len(calls))
            futures = [pool.submit(_released, barrier, call) for call in calls]
            out.append([f.result() for f in futures])
    return out


def assert_as_serial(calls: list, rounds: int = ROUNDS) -> None:
    """Every call, made from many threads at once, returns what it returned when made alone."""
    assert len(calls) >= THREADS
    expected = [canon(call()) if call.rtol is None else _host(call()) for call in calls]
    for r, results in enumerate(together(calls, rounds)):
        for i, got in enumerate(results):
            message = f"call {i} ({calls[i].name}) differs in round {r}"
            if calls[i].rtol is None:
                assert canon(got) == expected[i], message
            else:
                np.testing.assert_allclose(_host(got), expected[i], rtol=calls[i].rtol, err_msg=message)


def random_matrix(n: int, seed: int, dtype, semiring: str = "min_plus", density: float = 0.3) -> np.ndarray:
    """A dense weight matrix: the semiring zero off the edges, small integral weights on them (for ``min_plus``
    some negative ones)."""
    rng = np.random.default_rng(seed)
    S = sr.get(semiring)
    dt = np.dtype(dtype)
    if dt == np.bool_:
        return rng.random((n, n)) < density
    W = rng.integers(-2 if semiring == "min_plus" else 1, 20, (n, n)).astype(dt)
    W[rng.random((n, n)) >= density] = S.zero_value(dt)
    return W


def nonnegative(n: int, seed: int, dtype=np.float64) -> np.ndarray:
    """A dense ``min_plus`` matrix with non-negative weights (no negative cycle, whatever the method)."""
    W = random_matrix(n, seed, dtype)
    W[W < 0] = 1
    return W


def reweighted(n: int, seed: int, dtype=np.float64) -> np.ndarray:
    """A dense ``min_plus`` matrix with negative arcs but no negative cycle: ``W[i, j] + h[i] - h[j]``."""
    W = nonnegative(n, seed, dtype)
    h = np.random.default_rng(seed + 1).integers(0, 10, n).astype(W.dtype)
    edge = W != sr.min_plus.zero_value(W.dtype)
    W[edge] = (W + h[:, None] - h[None, :])[edge]
    return W


def random_csr(n: int, nnz: int, seed: int) -> sp.csr_array:
    """An ``n x n`` SciPy CSR matrix of about ``nnz`` entries in [0, 1)."""
    rng = np.random.default_rng(seed)
    A = sp.csr_array((rng.random(nnz), (rng.integers(0, n, nnz), rng.integers(0, n, nnz))), shape=(n, n))
    A.sum_duplicates()
    return A


# --------------------------------------------------------------------------- semiring: products and closures

def test_semiring_products_and_closures_from_many_threads():
    """GEMM (with witness, accumulated) and closures over several semirings and dtypes, large enough for the pool."""
    n = 200  # 8e6 multiply-adds: above the CPU pool's serial threshold, so the products share its workers
    cases = [("min_plus", np.float32), ("min_plus", np.int32), ("max_plus", np.float64), ("max_min", np.int64),
             ("min_max", np.float32), ("lor_land", np.bool_), ("plus_times", np.float64), ("max_times", np.float64)]
    calls = []
    for i, (name, dt) in enumerate(cases):
        S = sr.get(name)
        A, B = random_matrix(n, 10 + i, dt, name), random_matrix(n, 20 + i, dt, name)
        if name == "max_times":  # probabilities
            A, B = A / 20.0, B / 20.0
        calls.append(Call(f"{name}-{np.dtype(dt)}-matmul", S.matmul, A, B))
        if S.selective:
            calls.append(Call(f"{name}-{np.dtype(dt)}-witness", S.matmul, A, B, witness=True))
        if name == "plus_times":
            C = random_matrix(n, 30 + i, dt, name)
            calls.append(Call("plus_times-accumulate", lambda S=S, A=A, B=B, C=C: S.matmul(A, B, out=C.copy(),
                                                                                              accumulate=True)))
        elif name in ("min_plus", "max_min", "lor_land"):
            calls.append(Call(f"{name}-{np.dtype(dt)}-closure", S.closure, nonnegative(n, 40 + i, dt)
                              if name == "min_plus" else A))
    assert_as_serial(calls)


def test_sparse_products_from_many_threads():
    """SpMV and SpMM of several semirings, on a shared matrix and on separate ones."""
    shared = random_csr(3000, 36000, 1)
    calls = []
    for i in range(THREADS):
        M = shared if i % 2 else random_csr(3000, 36000, 50 + i)
        S = (sr.min_plus, sr.max_plus, sr.max_min, sr.plus_times)[i % 4]
        calls.append(Call(f"{S.name}-mxv-{i}", S.mxv, M, np.random.default_rng(i).random(3000)))
        calls.append(Call(f"{S.name}-mxm-{i}", S.mxm, M, np.random.default_rng(100 + i).random((3000, 5))))
    assert_as_serial(calls)


# --------------------------------------------------------------------------- apsp

def test_shortest_paths_from_many_threads():
    """apsp.shortest_paths by every CPU method, with predecessors (a Numba parallel kernel), and its siblings.

    The matrices are large enough (n ~ 300) for the products of different threads to overlap in most rounds."""
    calls = []
    methods = ("rkleene", "blocked-fw", "squaring", "auto", "rkleene", "blocked-fw", "auto", "rkleene", "fw")
    for i, method in enumerate(methods):
        dt = (np.float64, np.float32, np.int32, np.int64)[i % 4]
        n = 200 if method == "fw" else 300 + 7 * i  # the reference method is an order slower
        W = (nonnegative if i % 3 else reweighted)(n, 60 + i, dt)
        calls.append(Call(f"shortest_paths-{method}-{np.dtype(dt)}", apsp.shortest_paths, W, method,
                          predecessors=True))
    calls.append(Call("widest_paths", apsp.widest_paths, random_matrix(250, 90, np.float64, "max_min")))
    for i in range(2):  # max_min predecessors come from the Pi update (apsp.paths.predecessors), a parallel kernel
        calls.append(Call(f"max_min-predecessors-{i}", apsp.shortest_paths, random_matrix(260 + i, 92 + i, np.float64,
                          "max_min"), ("rkleene", "squaring")[i], semiring="max_min", predecessors=True))
    calls.append(Call("transitive_closure", apsp.transitive_closure, random_matrix(270, 91, np.bool_, density=0.02)))
    assert_as_serial(calls, rounds=3)  # a scratch buffer shared between jobs (planted) showed in 19 rounds of 20


def test_planner_measures_each_rate_once(monkeypatch):
    """Threads planning at once share one measurement of a rate: every thread plans with the same figure."""
    monkeypatch.setattr(apsp.planner, "MEASURED", {})
    rates = together([Call("rate", apsp.planner.measured_gemm_rate, np.float32)] * THREADS)[0]
    assert len(set(rates)) == 1 and apsp.planner.MEASURED == {("gemm", "min_plus", "float32", "cpu"): rates[0]}
    monkeypatch.setattr(apsp.planner, "CALIBRATE_FROM", 1000)  # plans of n >= 1000 read the measured rate
    plans = together([Call("plan", apsp.plan, 1500, np.float32)] * THREADS)[0]
    assert all(p == plans[0] for p in plans) and plans[0] == apsp.plan(1500, np.float32)


# --------------------------------------------------------------------------- graphs

@pytest.fixture(scope="module")
def shared_graphs():
    return {
        "directed": graphs.generators.erdos_renyi(3000, 24000, seed=7),
        "undirected": graphs.generators.erdos_renyi(3000, 12000, seed=8, directed=False),
        "unweighted": graphs.generators.erdos_renyi(3000, 24000, seed=9, weights=None),
        "small": graphs.generators.erdos_renyi(400, 2400, seed=10),
    }


def test_searches_from_many_threads(shared_graphs):
    """bfs, sssp (every method), multi_source_sssp and shortest_path: some on one shared graph, some on their own."""
    G, U = shared_graphs["directed"], shared_graphs["unweighted"]
    own = [graphs.generators.erdos_renyi(2000 + 10 * i, 16000, seed=200 + i) for i in range(4)]
    calls = []
    for i, method in enumerate(("dijkstra", "delta-stepping", "bellman-ford", "label-correcting", "auto")):
        calls.append(Call(f"sssp-{method}", graphs.sssp, own[i % 4] if i % 2 else G, 3 * i, method))
    for i in range(4):
        H = own[i] if i % 2 else U
        calls.append(Call(f"bfs-{i}", graphs.bfs, H, i))
        calls.append(Call(f"bfs-pull-{i}", graphs.bfs, H, i + 5, direction="pull"))
    calls.append(Call("multi_source_sssp", graphs.multi_source_sssp, G, [0, 5, 9, 11]))
    calls.append(Call("multi_source_sssp-own", graphs.multi_source_sssp, own[1], [1, 2, 3]))
    for i, H in enumerate((G, own[2], G)):
        calls.append(Call(f"shortest_path-{i}", graphs.shortest_path, H, i, 100 + i))
    assert_as_serial(calls)


def test_structure_and_flow_from_many_threads(shared_graphs):
    """Connected components, spanning trees and maximum flows, on shared and separate graphs."""
    G, Un = shared_graphs["directed"], shared_graphs["undirected"]
    calls = []
    for i in range(3):
        H = G if i != 1 else graphs.generators.erdos_renyi(2500, 5000, seed=300 + i)
        calls.append(Call(f"weak-{i}", graphs.connected_components, H))
        calls.append(Call(f"strong-{i}", graphs.connected_components, H, "strong"))
        H = Un if i != 1 else graphs.generators.erdos_renyi(2500, 9000, seed=310 + i, directed=False)
        calls.append(Call(f"mst-{i}", graphs.minimum_spanning_tree, H))
    for i in range(THREADS):
        H = G if i % 4 else graphs.generators.erdos_renyi(3000, 24000, seed=320 + i)
        calls.append(Call(f"flow-{i}", graphs.maximum_flow, H, i, 50 + i))
    assert_as_serial(calls, rounds=25)  # flows take milliseconds: a shared label array (planted) showed in 1 round of 5


def test_centrality_from_many_threads(shared_graphs):
    """Betweenness (weighted, hop counts) and closeness: Numba parallel regions entered by many threads."""
    small = shared_graphs["small"]
    calls = []
    for i in range(4):
        H = small if i % 2 else graphs.generators.erdos_renyi(300 + 20 * i, 1800, seed=400 + i)
        calls.append(Call(f"betweenness-{i}", graphs.betweenness_centrality, H))
        calls.append(Call(f"betweenness-hops-{i}", graphs.betweenness_centrality, H, weighted=False))
        calls.append(Call(f"closeness-{i}", graphs.closeness_centrality, H))
    calls.append(Call("edge_betweenness", graphs.edge_betweenness_centrality, small))
    grid = graphs.generators.grid_2d(40, 40)
    calls.append(Call("eccentricity-hops", graphs.eccentricity, grid, weighted=False))  # bit-parallel bounds
    calls.append(Call("harmonic", graphs.harmonic_centrality, small, weighted=False))
    assert_as_serial(calls)


def test_csgraph_from_many_threads(shared_graphs):
    """The scipy.sparse.csgraph drop-in: shortest_path and dijkstra with predecessors."""
    A = shared_graphs["directed"].to_scipy()
    calls = []
    for i in range(THREADS):
        M = A if i % 2 else random_csr(1500, 9000, 500 + i)
        calls.append(Call(f"csgraph.shortest_path-{i}", csgraph.shortest_path, M, method="D", indices=[i, i + 1],
                          return_predecessors=True))
        calls.append(Call(f"csgraph.dijkstra-{i}", csgraph.dijkstra, M, indices=i, limit=50.0))
    assert_as_serial(calls)


def _edge_file(path: Path, seed: int) -> Path:
    src, dst, w = graphs.generators.erdos_renyi(2000, 30000, seed=seed).edges()
    path.write_text("".join(f"{a} {b} {c:g}\n" for a, b, c in zip(src.tolist(), dst.tolist(), w.tolist())))
    return path


def test_read_from_many_threads(tmp_path):
    """graphs.read of small edge files (some read by several threads at once)."""
    files = [_edge_file(tmp_path / f"g{i}.txt", 600 + i) for i in range(5)]
    calls = [Call(f"read-{i}", graphs.read, files[i % 5]) for i in range(THREADS)]
    calls.append(Call("read-int", graphs.read, files[0], dtype=np.int64))
    assert_as_serial(calls, rounds=25)  # a weight buffer shared by CSR builds (planted) showed in 1 round of 5


def test_read_leaves_the_warning_filters_alone(tmp_path, monkeypatch):
    """A read must not swap the process-wide warning filters, which every thread shares."""
    path = _edge_file(tmp_path / "g.txt", 1)
    entered = []

    class Recording(warnings.catch_warnings):
        def __enter__(self):
            entered.append(threading.get_ident())
            return super().__enter__()

    monkeypatch.setattr(warnings, "catch_warnings", Recording)
    graphs.read(path)
    assert entered == []


# --------------------------------------------------------------------------- the NetworkX backend

def _nx_weighted(seed: int, n: int = 800) -> nx.DiGraph:
    """A random digraph whose edges mostly carry an int ``weight`` (some lack it: NetworkX then uses 1)."""
    G = nx.gnm_random_graph(n, 5 * n, seed=seed, directed=True)
    for (u, v), w in zip(list(G.edges), np.random.default_rng(seed).integers(1, 50, G.number_of_edges()).tolist()):
        if w % 7:
            G[u][v]["weight"] = w
    return G


def test_networkx_backend_from_many_threads():
    """Dijkstra, paths and components through backend="semiring_paths", on shared and separate NetworkX graphs
    (a shared graph's conversion is cached on it, and its weights column is read by whichever thread comes first)."""
    shared, shared_u = _nx_weighted(1), nx.gnm_random_graph(900, 1200, seed=2)
    calls = []
    for i in range(4):
        G = shared if i % 2 else _nx_weighted(10 + i)
        U = shared_u if i % 2 else nx.gnm_random_graph(900, 1200, seed=20 + i)
        calls.append(Call(f"nx-sssp-{i}", nx.single_source_dijkstra_path_length, G, i, backend=BACKEND))
        calls.append(Call(f"nx-dijkstra_path-{i}", nx.dijkstra_path, G, i, 700 - i, backend=BACKEND))
        calls.append(Call(f"nx-components-{i}", lambda U=U: list(nx.connected_components(U, backend=BACKEND))))
        calls.append(Call(f"nx-scc-{i}", lambda G=G: list(nx.strongly_connected_components(G, backend=BACKEND))))
    G = _nx_weighted(10)
    assert calls[0]() == nx.single_source_dijkstra_path_length(G, 0, backend="networkx")  # and the answer is right
    assert_as_serial(calls, rounds=20)  # a distance array shared by searches (planted) showed in 1 round of 3


# --------------------------------------------------------------------------- first use of a kernel

def _fresh_min_times() -> sr.Semiring:
    """A custom semiring this process has never built kernels for (its Numba ops are new functions)."""
    from numba import njit

    return sr.Semiring("min_times_fresh", np.minimum, np.multiply, zero=np.inf, one=1.0, idempotent=True,
                       selective=True, dtypes=("float64",), nonnegative=True,
                       numba_add=njit(lambda a, b: min(a, b)), numba_mul=njit(lambda a, b: a * b))


def test_first_use_builds_one_kernel_module():
    """Threads asking at once for kernels no one has built get one module, built once (a new semiring each round:
    a build that is not guarded shows as two modules in most rounds, so a handful of rounds catch it)."""
    for _ in range(2 * ROUNDS):
        S = _fresh_min_times()
        modules = together([Call("cpu_kernels", cpu_kernels, S, np.dtype(np.float64))] * THREADS)[0]
        assert all(m is modules[0] for m in modules)


def test_first_products_of_a_new_semiring_race_on_compilation():
    """The first products of a new semiring, compiled by whichever thread comes first, equal the serial ones."""
    S = _fresh_min_times()
    rng = np.random.default_rng(3)
    pairs = [(rng.random((90 + i, 70)), rng.random((70, 60 + i))) for i in range(THREADS)]
    calls = [Call(f"first-matmul-{i}", S.matmul, A, B, witness=True) for i, (A, B) in enumerate(pairs)]
    first = together(calls)[0]  # nothing compiled yet: the threads race on the first use
    for (A, B), (C, K) in zip(pairs, first):
        P = A[:, :, None] * B[None]
        np.testing.assert_array_equal(C, P.min(axis=1))
        np.testing.assert_array_equal(K, P.argmin(axis=1))
    assert_as_serial(calls, rounds=1)


_WORKQUEUE_SCRIPT = """
import threading
from concurrent.futures import ThreadPoolExecutor
import numpy as np, numba, graphs, apsp

inputs = [graphs.generators.erdos_renyi(300 + 10 * i, 2400, seed=i) for i in range(8)]
rng = np.random.default_rng(0)
W = [np.where(rng.random((200, 200)) < 0.3, rng.integers(1, 9, (200, 200)), -np.inf) for i in range(8)]

def work(i):  # max_min predecessors come from the Pi update, a parallel kernel too
    return (graphs.betweenness_centrality(inputs[i], weighted=i % 2 == 0),
            apsp.shortest_paths(W[i], "rkleene", semiring="max_min", predecessors=True)[1])

def released(barrier, i):
    barrier.wait(timeout=120)
    return work(i)

serial = [work(i) for i in range(8)]
assert numba.threading_layer() == "workqueue", numba.threading_layer()
with ThreadPoolExecutor(8) as pool:
    for _ in range(3):
        barrier = threading.Barrier(8)
        got = [f.result() for f in [pool.submit(released, barrier, i) for i in range(8)]]
        for (b, p), (b2, p2) in zip(serial, got):
            assert np.array_equal(b, b2) and np.array_equal(p, p2)
print("ok")
"""


def test_parallel_kernels_under_the_workqueue_layer():
    """Numba's workqueue layer ends the process when two threads enter parallel code at once; the library's
    parallel kernels (betweenness, the predecessor update) take turns under it and give the serial answers."""
    env = dict(os.environ, NUMBA_THREADING_LAYER="workqueue", PYTHONPATH=str(Path(__file__).resolve().parents[1]))
    done = subprocess.run([sys.executable, "-c", textwrap.dedent(_WORKQUEUE_SCRIPT)], env=env, capture_output=True,
                          text=True, timeout=300)
    assert done.returncode == 0 and done.stdout.strip() == "ok", done.stdout + done.stderr


# --------------------------------------------------------------------------- GPU

@pytest.mark.gpu
@needs_gpu
def test_gpu_products_and_first_kernel_from_many_threads():
    """GPU GEMM over semirings and dtypes, and a custom semiring's kernel compiled by whichever thread comes first."""
    import cupy as cp

    # CUDA expressions of their own: a kernel no other test of this process has built
    fresh = sr.Semiring("min_times_fresh_gpu", np.minimum, np.multiply, zero=np.inf, one=1.0, idempotent=True,
                        selective=True, nonnegative=True, cuda_add="fmin(b, a)", cuda_mul="b * a")
    pairs = [(np.random.default_rng(i).random((300 + i, 200)), np.random.default_rng(50 + i).random((200, 250)))
             for i in range(THREADS)]
    calls = [Call(f"fresh-{i}", fresh.matmul, cp.asarray(A), cp.asarray(B)) for i, (A, B) in enumerate(pairs)]
    got = together(calls)[0]  # nothing compiled for this semiring yet: the threads race on the build
    for (A, B), C in zip(pairs, got):
        np.testing.assert_array_equal(cp.asnumpy(C), (A[:, :, None] * B[None]).min(axis=1))
    cases = [("min_plus", np.float32), ("min_plus", np.int32), ("max_plus", np.float64), ("max_min", np.int64),
             ("lor_land", np.bool_), ("plus_times", np.float32), ("min_plus", np.int64), ("min_max", np.float32)]
    for i, (name, dt) in enumerate(cases):
        S = sr.get(name)
        A, B = cp.asarray(random_matrix(700, 700 + i, dt, name)), cp.asarray(random_matrix(700, 800 + i, dt, name))
        calls.append(Call(f"gpu-{name}-{np.dtype(dt)}", S.matmul, A, B))
        if S.selective:
            calls.append(Call(f"gpu-{name}-{np.dtype(dt)}-witness", S.matmul, A, B, witness=True))
    assert_as_serial(calls)


@pytest.mark.gpu
@needs_gpu
def test_gpu_streamed_and_sparse_products_from_many_threads():
    """Host products streamed through the GPU under a small budget (pinned staging buffers) and GPU SpMV with
    rows long enough for the chunked pass (its device counter), from many threads."""
    import cupy as cp
    import cupyx.scipy.sparse as csp

    calls = []
    for i in range(THREADS):
        dt = (np.float32, np.int32)[i % 2]
        A, B = random_matrix(600, 900 + i, dt), random_matrix(600, 950 + i, dt)
        call = Call(f"streamed-{i}", sr.min_plus.matmul, A, B, witness=True, device="gpu", memory_budget=1 << 20)
        assert canon(call()) == canon(sr.min_plus.matmul(A, B, witness=True))
        calls.append(call)
    n = 20000
    for i in range(THREADS):
        rng = np.random.default_rng(960 + i)
        rows = np.concatenate((np.full(40000, i, np.int64), rng.integers(0, n, 150000)))  # row i: a long one
        H = sp.csr_array((rng.random(rows.size).astype(np.float32), (rows, rng.integers(0, n, rows.size))),
                         shape=(n, n))
        H.sum_duplicates()
        x = rng.random(n).astype(np.float32)
        call = Call(f"gpu-mxv-{i}", sr.min_plus.mxv, csp.csr_matrix(H), cp.asarray(x))
        assert canon(call()) == canon(sr.min_plus.mxv(H, x))
        calls.append(call)
    assert_as_serial(calls)


@pytest.mark.gpu
@needs_gpu
def test_gpu_shortest_paths_replay_graphs_from_many_threads():
    """GPU APSP whose diagonal blocks replay captured CUDA graphs: the threads share each size's graph, the first
    round races on the captures (caches emptied), and the packed route (two 16-bit lanes) does the same."""
    import cupy as cp

    from apsp.cuda import graph_replay, packed_closure

    inputs = []
    for i in range(THREADS):  # quarter weights: no 16-bit lanes, R-Kleene with replayed sub-closures, exact sums
        W = nonnegative(1100, 1000 + i, np.float32)
        inputs.append(np.where(W == np.inf, W, W / 4).astype(np.float32))
    for i in range(3):  # small integer weights: the packed route
        W = nonnegative(1200, 1200 + i, np.int32)
        W[(W > 8) & (W != sr.min_plus.zero_value(W.dtype))] = 8
        inputs.append(W)
    calls = [Call(f"gpu-apsp-{i}", apsp.shortest_paths, cp.asarray(W)) for i, W in enumerate(inputs)]
    calls.append(Call("gpu-apsp-predecessors", apsp.shortest_paths, cp.asarray(inputs[0][:700, :700]),
                      predecessors=True))
    previous = packed_closure.config.mode
    packed_closure.config.mode = "on"
    try:
        graph_replay.clear()
        packed_closure.clear_graphs()
        got = together(calls)[0]  # empty caches: the threads race on the captures
        for i, W in enumerate(inputs):
            np.testing.assert_array_equal(cp.asnumpy(got[i]), apsp.shortest_paths(W), err_msg=calls[i].name)
        assert any(v is not graph_replay._FAILED for v in graph_replay._CACHE.values()), "no graph was captured"
        assert len(packed_closure._GRAPHS) > 0, "no packed graph was captured"
        assert_as_serial(calls)
    finally:
        packed_closure.config.mode = previous


def _gpu_tree(search, G: graphs.Graph, H: graphs.Graph, s: int):
    """``search(G, s)`` on the GPU as ``(distances or levels, whether the parents form a tree of them)``.

    A GPU search may keep any of several equally good parents (the first to claim a vertex wins), so the
    parents are checked, not compared: each reached vertex but ``s`` hangs from a tight arc of ``H``."""
    d, p = (_host(a) for a in search(G, s))
    src, dst, w = H.edges()
    if search is graphs.bfs:
        tight = (d[src] >= 0) & (d[src] + 1 == d[dst])
        reached = d >= 0
    else:
        tight = d[src] + w == d[dst]
        reached = np.isfinite(d)
    reached[s] = False
    v = np.flatnonzero(reached)
    arcs = (src.astype(np.int64) * H.n + dst)[tight]
    return d, bool((p[v] >= 0).all() and np.isin(p[v].astype(np.int64) * H.n + v, arcs).all())


@pytest.mark.gpu
@needs_gpu
def test_gpu_searches_and_betweenness_from_many_threads():
    """GPU BFS, SSSP and betweenness (each call captures and replays its own CUDA graphs) from many threads."""
    calls = []
    for i in range(THREADS):
        H = graphs.generators.erdos_renyi(20000, 160000, seed=1300 + i)
        U = graphs.generators.erdos_renyi(20000, 160000, seed=1400 + i, weights=None)
        calls.append(Call(f"gpu-sssp-{i}", _gpu_tree, graphs.sssp, H.to("gpu"), H, i))
        calls.append(Call(f"gpu-bfs-{i}", _gpu_tree, graphs.bfs, U.to("gpu"), U, i))
        small = graphs.generators.erdos_renyi(1500, 9000, seed=1500 + i)
        bc = Call(f"gpu-betweenness-{i}", graphs.betweenness_centrality, small.to("gpu"), weighted=bool(i % 2))
        bc.rtol = 1e-12  # the dependencies of a batch's chunks are summed by atomics, in any order
        calls.append(bc)
        if i < 2:
            np.testing.assert_allclose(_host(bc()), graphs.betweenness_centrality(small, weighted=bool(i % 2)),
                                       rtol=1e-9)
            assert calls[-3]()[1] and calls[-2]()[1]
            np.testing.assert_array_equal(calls[-3]()[0], graphs.sssp(H, i, "dijkstra")[0])
            np.testing.assert_array_equal(calls[-2]()[0], graphs.bfs(U, i)[0])
    assert_as_serial(calls)
