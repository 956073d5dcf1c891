"""graphs.csgraph on the GPU (CuPy and cupyx inputs) against SciPy on the same inputs copied to the host."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.sparse as sp
import scipy.sparse.csgraph as scs

cp = pytest.importorskip("cupy")

import cupyx.scipy.sparse as csp  # noqa: E402
from reference import random_csr_with_explicit_zeros  # noqa: E402

from graphs import csgraph as gcs  # noqa: E402
from semiring.backend import gpu_available  # noqa: E402

pytestmark = [pytest.mark.gpu, pytest.mark.skipif(not gpu_available(), reason="no usable CUDA GPU")]


def dense_graph(seed, n, density=0.3):
    rng = np.random.default_rng(seed)
    W = rng.random((n, n)) + 0.01
    W[rng.random((n, n)) >= density] = 0
    W[rng.random((n, n)) < 0.03] = np.inf
    return W


def sparse_graph(seed, n, density=0.2):
    return random_csr_with_explicit_zeros(seed, n, density)


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("directed", [True, False])
@pytest.mark.parametrize("method", ["FW", "D", "BF", "J"])
def test_shortest_path_cupy_dense(seed, directed, method):
    W = dense_graph(seed, 40)
    D0, P0 = scs.shortest_path(W, method=method, directed=directed, return_predecessors=True)
    D1, P1 = gcs.shortest_path(cp.asarray(W), method=method, directed=directed, return_predecessors=True)
    assert isinstance(D1, cp.ndarray) and isinstance(P1, cp.ndarray)
    assert D1.dtype == np.float64 and P1.dtype == np.int32
    np.testing.assert_allclose(D1.get(), D0, rtol=1e-12)
    np.testing.assert_array_equal(P1.get(), P0)


@pytest.mark.parametrize("seed", range(3))
@pytest.mark.parametrize("method", ["FW", "D", "BF", "J"])
def test_shortest_path_cupyx_sparse_with_explicit_zeros(seed, method):
    A = sparse_graph(seed, 50)
    D0 = scs.shortest_path(A, method=method)
    D1 = gcs.shortest_path(csp.csr_matrix(A), method=method)
    assert isinstance(D1, cp.ndarray)
    np.testing.assert_allclose(D1.get(), D0, rtol=1e-12)


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
@pytest.mark.parametrize("seed", range(3))
def test_noncanonical_cupyx_input_read_as_scipy_reads_its_host_copy(dtype, seed):
    """Duplicates, unsorted rows, explicit zeros: Floyd-Warshall takes the least duplicate, the searches
    sum those of a float32 matrix and keep those of a float64 one (SciPy's astype(float64) reading)."""
    rng = np.random.default_rng(seed)
    n, m = 40, 200
    rows = np.sort(rng.integers(0, n, m))
    cols = rng.integers(0, n, m)
    p = rng.integers(-4, 5, n)
    w = (rng.integers(0, 6, m) + p[rows] - p[cols]).astype(dtype)  # negative weights, no negative cycle
    indptr = np.searchsorted(rows, np.arange(n + 1)).astype(np.int32)
    A = sp.csr_matrix((w, cols.astype(np.int32), indptr), shape=(n, n))
    assert not A.has_canonical_format
    G = csp.csr_matrix((cp.asarray(A.data), cp.asarray(A.indices), cp.asarray(A.indptr)), shape=(n, n))
    for method in ("FW", "BF", "J"):
        D0 = scs.shortest_path(A, method=method)
        D1 = gcs.shortest_path(G, method=method)
        np.testing.assert_array_equal(D1.get(), D0)
    np.testing.assert_array_equal(G.data.get(), A.data)  # the caller's matrix is left as it was


def test_numpy_input_on_the_gpu_returns_numpy():
    W = dense_graph(7, 30)
    for method in ("FW", "D"):
        D = gcs.shortest_path(W, method=method, device="gpu")
        assert isinstance(D, np.ndarray)
        np.testing.assert_allclose(D, scs.shortest_path(W, method=method), rtol=1e-12)


def test_dijkstra_indices_limit_min_only_on_gpu():
    W = dense_graph(3, 60, 0.2)
    idx = [3, 17, 40]
    for kw in (dict(), dict(limit=0.5), dict(min_only=True)):
        r0 = scs.dijkstra(W, indices=idx, return_predecessors=True, **kw)
        r1 = gcs.dijkstra(cp.asarray(W), indices=idx, return_predecessors=True, **kw)
        for a, b in zip(r0, r1, strict=True):
            np.testing.assert_allclose(b.get(), a, rtol=1e-12)


def test_float32_on_gpu():
    W = dense_graph(1, 64, 0.5)
    D = gcs.floyd_warshall(cp.asarray(W), dtype=np.float32)
    assert D.dtype == np.float32
    np.testing.assert_allclose(D.get(), scs.floyd_warshall(W), rtol=1e-5)


def test_negative_cycle_on_gpu():
    W = np.array([[0, 1.0, 0], [-3.0, 0, 0], [0, 0, 0]])
    for f in (gcs.floyd_warshall, gcs.bellman_ford, gcs.johnson):
        with pytest.raises(scs.NegativeCycleError):
            f(cp.asarray(W))


@pytest.mark.parametrize("seed", range(3))
@pytest.mark.parametrize("directed", [True, False])
def test_traversals_and_components_on_gpu(seed, directed):
    A = sparse_graph(seed, 60, 0.05)
    Ad = csp.csr_matrix(A)
    for name in ("breadth_first_order", "depth_first_order"):
        o0, p0 = getattr(scs, name)(A, 0, directed)
        o1, p1 = getattr(gcs, name)(Ad, 0, directed)
        np.testing.assert_array_equal(o1.get(), o0)
        np.testing.assert_array_equal(p1.get(), p0)
    for connection in ("weak", "strong"):
        k0, l0 = scs.connected_components(A, directed, connection)
        k1, l1 = gcs.connected_components(Ad, directed, connection)
        assert k1 == k0
        np.testing.assert_array_equal(l1.get(), gcs.connected_components(A, directed, connection)[1])
        np.testing.assert_array_equal(l1.get(), l0)


@pytest.mark.parametrize("seed", range(3))
def test_minimum_spanning_tree_on_gpu(seed):
    A = sparse_graph(seed, 80, 0.1)
    T0 = scs.minimum_spanning_tree(A)
    T1 = gcs.minimum_spanning_tree(csp.csr_matrix(A))
    assert csp.issparse(T1)
    np.testing.assert_array_equal(T1.get().toarray(), T0.toarray())
    T2 = gcs.minimum_spanning_tree(A, device="gpu")
    assert type(T2) is type(T0)
    np.testing.assert_array_equal(T2.toarray(), T0.toarray())


def test_maximum_flow_on_gpu():
    rng = np.random.default_rng(0)
    C = rng.integers(1, 20, size=(30, 30)) * (rng.random((30, 30)) < 0.2)
    np.fill_diagonal(C, 0)
    A = sp.csr_array(C.astype(np.int32))
    r0 = scs.maximum_flow(A, 0, 29)
    r1 = gcs.maximum_flow(csp.csr_matrix(A.astype(np.float64)), 0, 29)  # cupyx holds no integers
    assert r1.flow_value == r0.flow_value
    F = r1.flow.get().toarray()
    np.testing.assert_array_equal(F, -F.T)
    np.testing.assert_array_equal(F.sum(axis=1)[[0, 29]], [r0.flow_value, -r0.flow_value])
    r2 = gcs.maximum_flow(A, 0, 29, device="gpu")  # SciPy input on the GPU: SciPy's int32 result
    assert r2.flow_value == r0.flow_value and r2.flow.dtype == np.int32 and isinstance(r2.flow, sp.csr_array)
    with pytest.raises(ValueError, match="integers"):
        gcs.maximum_flow(csp.csr_matrix(A.astype(np.float64) * 0.5), 0, 29)
