"""graphs.maximum_flow on the GPU against the CPU, SciPy and the definition of a maximum flow."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

cp = pytest.importorskip("cupy")

from flow_reference import check_flow, networkx_flow_value, scipy_flow_value  # noqa: E402

import graphs  # noqa: E402
from graphs import Graph  # noqa: E402
from graphs import generators as gen  # noqa: E402
from semiring.backend import gpu_available  # noqa: E402

pytestmark = [pytest.mark.gpu, pytest.mark.skipif(not gpu_available(), reason="no usable CUDA GPU")]

DATA = Path(__file__).resolve().parents[2] / "shared" / "data"


def _pairs(G, rng):
    deg = np.diff(cp.asnumpy(G.indptr) if G.device == "gpu" else G.indptr)
    order = np.argsort(-deg, kind="stable")
    return [(int(order[0]), int(order[1])), (0, G.n - 1), tuple(int(x) for x in rng.choice(G.n, 2, replace=False))]


def _same_as_cpu(G, s, t, tol=0.0):
    Gg = G.to("gpu")
    r = graphs.maximum_flow(Gg, s, t)
    assert isinstance(r.source_side, cp.ndarray) and isinstance(r.cut_edges[0], cp.ndarray)
    import cupyx.scipy.sparse as csp

    assert csp.isspmatrix_csr(r.flow)
    c = graphs.maximum_flow(G, s, t)
    if tol:
        assert r.flow_value == pytest.approx(c.flow_value, rel=1e-9)
    else:
        assert type(r.flow_value) is int and r.flow_value == c.flow_value
    check_flow(G, s, t, r, tol=tol)
    return r


@pytest.mark.parametrize("n, m, seed", [(2, 1, 0), (7, 30, 1), (33, 200, 2), (129, 1000, 3), (1000, 7777, 4),
                                        (4099, 30001, 5)])
@pytest.mark.parametrize("directed", [True, False])
def test_random_graphs_awkward_sizes(n, m, seed, directed):
    rng = np.random.default_rng(seed)
    src, dst = rng.integers(0, n, m), rng.integers(0, n, m)  # self loops and parallel arcs included
    w = rng.integers(0, 50, m).astype(np.int64)  # zero capacities included
    G = Graph.from_edges(src, dst, w, n=n, directed=directed)
    for s, t in _pairs(G, rng):
        if s != t:
            r = _same_as_cpu(G, s, t)
            assert r.flow_value == scipy_flow_value(G, s, t)


@pytest.mark.parametrize("name, G", [
    ("rmat12", gen.rmat(12, seed=1, dtype=np.int64)),
    ("rmat11-directed", gen.rmat(11, seed=2, directed=True, dtype=np.int32)),
    ("grid", gen.grid_2d(61, 73, seed=3, dtype=np.int64)),
    ("road", gen.road_network(3001, seed=4, dtype=np.int64)),
    ("ssca2", gen.ssca2(10, seed=5, dtype=np.int64)),
    ("unweighted", gen.grid_2d(40, 41, seed=6, weights=None)),
])
def test_generated_graphs(name, G):
    rng = np.random.default_rng(7)
    for s, t in _pairs(G, rng):
        _same_as_cpu(G, s, t)


def test_float_capacities():
    G = gen.rmat(11, seed=8, dtype=np.float64)
    rng = np.random.default_rng(9)
    w = rng.random(G.nnz) * 100 + 0.5
    G = Graph(G.indptr, G.indices, w)
    for s, t in _pairs(G, rng):
        _same_as_cpu(G, s, t, tol=1e-9 * 101)


def test_int64_exact_above_2_31():
    rng = np.random.default_rng(10)
    n, m = 300, 2000
    src, dst = rng.integers(0, n, m), rng.integers(0, n, m)
    w = rng.integers(2**31, 2**40, m).astype(np.int64)
    G = Graph.from_edges(src, dst, w, n=n)
    for s, t in _pairs(G, rng)[:2]:
        r = _same_as_cpu(G, s, t)
        assert r.flow_value == networkx_flow_value(G, s, t)


def test_outputs_are_not_stale():
    """Two problems in a row on the same graph: nothing carries over (buffers poisoned by the first)."""
    G = gen.grid_2d(31, 29, seed=11, dtype=np.int64).to("gpu")
    junk = cp.full(1 << 24, -7, dtype=cp.int64)  # freed to the pool: later cp.empty buffers hold -7s
    del junk
    a = graphs.maximum_flow(G, 0, G.n - 1)
    b = graphs.maximum_flow(G, 5, 400)
    c = graphs.maximum_flow(G, 0, G.n - 1)
    assert a.flow_value == c.flow_value == graphs.maximum_flow(G.to("cpu"), 0, G.n - 1).flow_value
    assert b.flow_value == graphs.maximum_flow(G.to("cpu"), 5, 400).flow_value
    assert a.flow_value > 0 and b.flow_value > 0


def test_device_argument_and_empty_graph():
    G = Graph.from_edges([0, 1], [1, 2], [3, 4])
    r = graphs.maximum_flow(G, 0, 2, device="gpu")
    assert r.flow_value == 3 and isinstance(r.source_side, cp.ndarray)
    E = Graph.from_edges([], [], n=2).to("gpu")
    r = graphs.maximum_flow(E, 0, 1)
    assert r.flow_value == 0 and r.flow.nnz == 0
    assert cp.asnumpy(r.source_side).tolist() == [True, False]


@pytest.mark.parametrize("name", ["rome99.gr", "email-Enron.txt"])
def test_real_graphs(name):
    if not (DATA / name).exists():
        pytest.skip(f"{name} not in {DATA}")
    G0 = graphs.read(DATA / name)
    rng = np.random.default_rng(12)
    src, dst, _ = G0.edges()
    G = Graph.from_edges(src, dst, rng.integers(1, 1000, src.size).astype(np.int64), n=G0.n, directed=G0.directed)
    for s, t in _pairs(G, rng):
        _same_as_cpu(G, s, t)
