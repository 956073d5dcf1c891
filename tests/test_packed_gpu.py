"""Packed 16-bit min-plus (semiring.cuda.packed, DPX) and the closure on it (apsp.cuda.packed_closure).

The product against an exact int64 reference on awkward shapes (partial tiles in
every dimension), with ``+inf`` lanes, sums that reach and pass ``INF``, and the
duplicated second output; the closure against SciPy / the float64 closure on hop
counts and small weights in every dtype, at the edge of :func:`fits` (a longest
distance of ``INF - 1``), and the choice :func:`apsp.shortest_paths` makes.
Skips cleanly without CuPy or a GPU.
"""

from __future__ import annotations

import os

import numpy as np
import pytest
from reference import with_sentinels

import apsp
import semiring as sr
from semiring.backend import gpu_available

cp = pytest.importorskip("cupy")
if not gpu_available():
    pytest.skip("no CUDA GPU", allow_module_level=True)

from apsp.cuda import packed_closure as pc  # noqa: E402
from semiring.cuda.packed import INF, duplicated, packed_matmul_into  # noqa: E402

pytestmark = pytest.mark.gpu


@pytest.fixture
def rng():
    seed = int.from_bytes(os.urandom(4), "little")
    print(f"seed={seed}")
    return np.random.default_rng(seed)


def reference(A, B, C0=None):
    """Exact min-plus of uint16 lanes in int64, capped at INF (what the packed kernel promises)."""
    out = np.full((A.shape[0], B.shape[1]), INF, dtype=np.int64)
    for k0 in range(0, A.shape[1], 64):
        s = A[:, k0:k0 + 64, None].astype(np.int64) + B[None, k0:k0 + 64, :].astype(np.int64)
        out = np.minimum(out, s.min(axis=1))
    if C0 is not None:
        out = np.minimum(out, C0)
    return out.astype(np.uint16)


@pytest.mark.parametrize("m, k, n", [(1, 1, 2), (7, 13, 6), (131, 67, 130), (37, 257, 62), (200, 45, 300),
                                     (129, 1000, 258)])
@pytest.mark.parametrize("accumulate", [False, True])
def test_product_matches_the_exact_reference(m, k, n, accumulate, rng):
    A = rng.integers(0, INF + 1, (m, k)).astype(np.uint16)
    B = rng.integers(0, INF + 1, (k, n)).astype(np.uint16)
    A[rng.random((m, k)) < 0.2] = INF
    B[rng.random((k, n)) < 0.2] = INF
    C0 = rng.integers(0, INF + 1, (m, n)).astype(np.uint16)
    dC = cp.asarray(C0) if accumulate else cp.full((m, n), 12345, dtype=cp.uint16)
    dC2 = cp.full((m, n), 0xDEADBEEF, dtype=cp.uint32)
    packed_matmul_into(duplicated(cp.asarray(A)), cp.asarray(B).view(cp.uint32), dC.view(cp.uint32), dC2,
                       accumulate=accumulate)
    want = reference(A, B, C0 if accumulate else None)
    np.testing.assert_array_equal(cp.asnumpy(dC), want)
    np.testing.assert_array_equal(cp.asnumpy(dC2), want.astype(np.uint32) * 0x10001)


def test_sums_at_and_past_inf_read_as_inf():
    """INF + INF = 0xFFFE does not wrap; INF - 1 + 1 = INF is +inf; 0 + INF is +inf."""
    A = np.array([[INF, INF - 1, 0]], dtype=np.uint16)
    B = np.array([[INF, 0], [1, 0], [INF, INF]], dtype=np.uint16)
    dC = cp.empty((1, 2), dtype=cp.uint16)
    packed_matmul_into(duplicated(cp.asarray(A)), cp.asarray(B).view(cp.uint32), dC.view(cp.uint32),
                       accumulate=False)
    assert cp.asnumpy(dC).tolist() == [[INF, INF - 1]]


def test_views_inside_a_larger_matrix(rng):
    """Blocks of one matrix as operands and output (what the closure does), leading dimensions > width."""
    X = rng.integers(0, 300, (256, 384)).astype(np.uint16)
    dX = cp.asarray(X)
    U = duplicated(dX)
    P = dX.view(cp.uint32)
    A = U[64:192, 0:128]
    B = P[0:128, 64:128].copy()  # lanes 128:256
    packed_matmul_into(A, B, P[64:192, 64:128], U[64:192, 128:256])
    want = reference(X[64:192, 0:128], X[0:128, 128:256], X[64:192, 128:256])
    np.testing.assert_array_equal(cp.asnumpy(dX[64:192, 128:256]), want)
    np.testing.assert_array_equal(cp.asnumpy(U[64:192, 128:256]), want.astype(np.uint32) * 0x10001)
    np.testing.assert_array_equal(cp.asnumpy(dX[:64]), X[:64])  # nothing else touched


def hop_graph(rng, n, density, dtype, max_w=1):
    W = rng.integers(1, max_w + 1, (n, n)).astype(np.float64)
    W[rng.random((n, n)) >= density] = np.inf
    np.fill_diagonal(W, 0.0)
    return with_sentinels(W, dtype)


def as_float(D):
    D = np.asarray(D)
    if D.dtype.kind == "f":
        return D.astype(np.float64)
    return np.where(D == np.iinfo(D.dtype).max, np.inf, D.astype(np.float64))


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.int32, np.int64])
@pytest.mark.parametrize("n", [1, 2, 63, 65, 130, 257, 700])
def test_closure_matches_scipy(dtype, n, rng):
    from scipy.sparse.csgraph import shortest_path

    W = hop_graph(rng, n, 3.0 / max(n, 1), dtype, max_w=3)
    D = cp.asarray(W)
    pc.packed_closure(D)
    want = shortest_path(np.where(np.isinf(as_float(W)), 0, as_float(W)), method="D")
    np.testing.assert_array_equal(as_float(cp.asnumpy(D)), want)
    assert cp.asnumpy(D).dtype == np.dtype(dtype)


def test_longest_distance_at_the_edge_of_the_lanes():
    """A chain of 259 vertices of weight 127: the longest distance is 32766 = INF - 1 (exact);
    weight 128 does not fit and keeps the ordinary closure."""
    n = 259
    for w, ok in ((127, True), (128, False)):
        W = np.full((n, n), np.inf, np.float32)
        np.fill_diagonal(W, 0)
        W[np.arange(n - 1), np.arange(1, n)] = w
        dW = cp.asarray(W)
        pc.config.mode = "on"
        try:
            assert pc.packed_applies(sr.min_plus, dW) == ok
            got = cp.asnumpy(apsp.shortest_paths(dW))
        finally:
            pc.config.mode = "auto"
        steps = (np.arange(n)[None, :] - np.arange(n)[:, None]).astype(np.float64)
        want = np.where(steps >= 0, steps * w, np.inf)
        np.testing.assert_array_equal(got, want)
        if ok:
            assert got[0, -1] == INF - 1


def test_what_does_not_apply(rng):
    pc.config.mode = "on"
    try:
        W = hop_graph(rng, 50, 0.2, np.float32)
        assert pc.packed_applies(sr.min_plus, cp.asarray(W))
        assert not pc.packed_applies(sr.min_plus, cp.asarray(W + np.float32(0.5)))  # not integral
        V = W.copy()
        V[3, 4] = -1
        assert not pc.packed_applies(sr.min_plus, cp.asarray(V))  # negative
        assert not pc.packed_applies(sr.max_plus, cp.asarray(np.where(np.isinf(W), -np.inf, W)))
    finally:
        pc.config.mode = "auto"
    pc.config.mode = "off"
    try:
        assert not pc.packed_applies(sr.min_plus, cp.asarray(W))
    finally:
        pc.config.mode = "auto"


@pytest.mark.parametrize("dtype", [np.float32, np.int32])
def test_shortest_paths_takes_the_packed_route(dtype, rng, monkeypatch):
    """Unweighted APSP picks the packed closure by itself (Hopper, n >= min_n) and equals float64 on the CPU;
    with predecessors too (distances packed, last hops read off them)."""
    from reference import check_routes

    monkeypatch.setattr(pc.config, "min_n", 300)
    monkeypatch.setattr(pc.config, "mode", "on")
    calls = []
    real = pc.packed_closure
    monkeypatch.setattr(pc, "packed_closure", lambda D, progress=None, **kw: calls.append(D.shape) or real(D, progress, **kw))
    n = 1100
    W = hop_graph(rng, n, 4.0 / n, dtype)
    D = cp.asnumpy(apsp.shortest_paths(cp.asarray(W)))
    assert calls == [(n, n)]
    want = apsp.shortest_paths(as_float(W), device="cpu")
    np.testing.assert_array_equal(as_float(D), want)
    Dp, P = apsp.shortest_paths(cp.asarray(W[:400, :400]), predecessors=True)
    Dp, P = cp.asnumpy(Dp), cp.asnumpy(P)
    np.testing.assert_array_equal(as_float(Dp), apsp.shortest_paths(as_float(W[:400, :400]), device="cpu"))
    check_routes(sr.min_plus, W[:400, :400], Dp, P, exact=True)


def test_replayed_sub_closures_are_exact(rng):
    """Sub-closures of up to GRAPH_MAX vertices are captured on the first call and replayed on the next:
    two graphs of one size, different contents, both exact (against the float32 closure on the device)."""
    pc.clear_graphs()
    n = 2600  # blocks of 1344 and 1280 vertices: captured by the first call, replayed by the second
    for _ in range(2):
        W = hop_graph(rng, n, 3.0 / n, np.float32, max_w=4)
        D = cp.asarray(W)
        pc.packed_closure(D)
        pc.config.mode = "off"
        try:
            want = apsp.shortest_paths(cp.asarray(W))
        finally:
            pc.config.mode = "auto"
        assert cp.array_equal(D, want)
    assert len(pc._GRAPHS) == 2 and all(v is not pc._FAILED for v in pc._GRAPHS.values())
    pc.clear_graphs()


def test_bad_input_is_named():
    with pytest.raises(TypeError, match="square CuPy array"):
        pc.packed_closure(np.zeros((2, 2)))
    with pytest.raises(ValueError, match="non-negative integers"):
        pc.packed_closure(cp.asarray([[0.0, -1.0], [1.0, 0.0]]))
    with pytest.raises(ValueError, match="non-negative integers"):
        pc.packed_closure(cp.asarray([[0.0, 0.5], [1.0, 0.0]]))
    with pytest.raises(ValueError, match=r"\(n - 1\) \* max"):
        pc.packed_closure(cp.asarray([[0, 20000, 1], [1, 0, 1], [1, 1, 0]], dtype=cp.float32))  # 2 * 20000
