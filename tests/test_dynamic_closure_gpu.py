"""apsp.Closure on the GPU: every update agrees with recomputing the closure from the current arcs."""

from __future__ import annotations

import numpy as np
import pytest
from gpu_support import cupy_or_skip

import apsp
from apsp import Closure, NegativeCycleError

cp, pytestmark = cupy_or_skip()


from test_dynamic_closure import _random_arcs, _random_batch  # noqa: E402


def _check(C: Closure, predecessors: bool) -> None:
    W = C.arcs.get()
    D = C.distances
    assert isinstance(D, cp.ndarray)
    D = D.get()
    ref = apsp.shortest_paths(W, semiring=C.semiring)
    if D.dtype.kind == "f":
        rtol = 1e-5 if D.dtype == np.float32 else 1e-12
        np.testing.assert_allclose(D, ref, rtol=rtol, atol=rtol)
    else:
        np.testing.assert_array_equal(D, ref)
    if predecessors:
        S = C.semiring
        zero = S.zero_value(D.dtype)
        for i in range(C.n):
            for j in range(C.n):
                route = C.path(i, j)
                if D[i, j] == zero and i != j:
                    assert route == []
                    continue
                assert route[0] == i and route[-1] == j and len(set(route)) == len(route)
                total = sum(W[a, b] for a, b in zip(route, route[1:])) if len(route) > 1 else 0
                assert np.isclose(float(total), float(D[i, j]), rtol=1e-4, atol=1e-4)


CASES = [("min_plus", np.float64, True), ("min_plus", np.float32, False), ("min_plus", np.int32, True),
         ("min_plus", np.int64, False), ("max_min", np.float64, False), ("lor_land", np.bool_, False)]


@pytest.mark.parametrize("family,dtype,predecessors", CASES, ids=[f"{f}-{np.dtype(d)}" for f, d, _ in CASES])
def test_gpu_sequences_equal_recomputation(family, dtype, predecessors):
    for seed in range(6):
        rng = np.random.default_rng(seed)
        negative = family == "min_plus" and seed % 2 == 1
        n = int(rng.integers(3, 40))
        C = Closure(_random_arcs(rng, n, dtype, family, negative=negative), predecessors=predecessors,
                    semiring=family, device="gpu")
        _check(C, predecessors)
        for _ in range(10):
            op = rng.random()
            if op < 0.7:
                us, vs, ws = _random_batch(rng, C, family, negative)
                before = (C.arcs.get(), C.distances.get())
                try:
                    C.update(us, vs, ws)
                except NegativeCycleError:
                    np.testing.assert_array_equal(C.arcs.get(), before[0])
                    np.testing.assert_array_equal(C.distances.get(), before[1])
                    continue
            elif op < 0.85:
                flat = rng.choice(C.n * C.n, size=min(3, C.n * C.n), replace=False)
                C.remove(flat // C.n, flat % C.n)
            elif op < 0.93:
                C.add_vertices(int(rng.integers(1, 3)))
            elif C.n > 2:
                C.remove_vertices(rng.choice(C.n, size=1, replace=False))
            _check(C, predecessors)


def test_gpu_road_closure_decrease_and_removal():
    import graphs

    G = graphs.generators.road_network(600, seed=3)
    W = cp.asarray(G.to_dense())
    C = Closure(W, predecessors=True)
    rng = np.random.default_rng(0)
    src, dst = np.nonzero(G.to_dense() < np.inf)
    off = src != dst
    src, dst = src[off], dst[off]
    for _ in range(5):
        k = int(rng.integers(src.size))
        C.update([src[k]], [dst[k]], [float(C.arcs[src[k], dst[k]]) * 0.5])
        k = int(rng.integers(src.size))
        C.remove([src[k]], [dst[k]])
    ref = apsp.shortest_paths(C.arcs.get())
    np.testing.assert_allclose(C.distances.get(), ref, rtol=1e-12)
    _check(C, True)


@pytest.mark.parametrize("fused_ends", [16, 0])
@pytest.mark.parametrize("dtype", [np.int64, np.int32, np.float32])
def test_gpu_fused_block_update_on_a_road_closure(dtype, fused_ends, monkeypatch):
    """Decreases and insertions without predecessors run on the fused endpoint-block kernels up to FUSED_ENDS
    endpoints (the tiled products above): equal to recomputation after every step (bit-equal for integers), and
    a single arc's block is smaller than the matrix."""
    import graphs
    from apsp.cuda import closure_update as CU

    monkeypatch.setattr(CU, "FUSED_ENDS", fused_ends)
    pairs = []
    real = CU.improve_block_gpu
    monkeypatch.setattr(CU, "improve_block_gpu", lambda *a: pairs.append(real(*a)) or pairs[-1])
    G = graphs.generators.road_network(700, seed=5)
    r, c, w = G.edges()
    big = np.inf if np.dtype(dtype).kind == "f" else np.iinfo(dtype).max
    W = np.full((G.n, G.n), big, dtype=dtype)
    W[r, c] = np.maximum(1, np.round(w)).astype(dtype)
    np.fill_diagonal(W, 0)
    C = Closure(cp.asarray(W))
    rng = np.random.default_rng(9)
    for step in range(12):
        if step % 2 == 0:
            i = rng.integers(0, r.shape[0], 1 if step % 4 == 0 else 20)
            us, vs = r[i], c[i]
            keep = np.unique(us * G.n + vs, return_index=True)[1]
            us, vs = us[keep], vs[keep]
            ws = np.maximum(1, C.arcs[cp.asarray(us), cp.asarray(vs)].get() // 3).astype(dtype)
        else:
            flat = rng.choice(G.n * G.n, size=6, replace=False)
            us, vs = flat // G.n, flat % G.n
            keep = us != vs
            us, vs = us[keep], vs[keep]
            ws = rng.integers(1, 40, us.size).astype(dtype)
        C.update(us, vs, ws)
        _check(C, False)
        if dtype == np.float32:  # sums of whole numbers below 2**24: exact
            np.testing.assert_array_equal(C.distances.get(), apsp.shortest_paths(C.arcs.get()))
    if fused_ends:
        assert len(pairs) >= 3 and any(0 < p < G.n * G.n for p in pairs)  # the single arcs among them
    else:
        assert not pairs


@pytest.mark.parametrize("family,dtype", [("min_plus", np.float64), ("min_plus", np.int32), ("min_plus", np.float32),
                                          ("max_min", np.float64)])
def test_gpu_removals_on_a_road_closure_settle_by_relaxation(family, dtype, monkeypatch):
    """Removed and raised arcs of a road network's closure: the rows that used them are settled by the relaxation
    kernel (hundreds of rows, a few arcs each, both orientations), equal to recomputing from the current arcs."""
    import graphs
    from apsp.cuda import closure_settle

    used = []
    real = closure_settle.settle_rows_gpu
    monkeypatch.setattr(closure_settle, "settle_rows_gpu", lambda *a: used.append(a[3].size) or real(*a))
    G = graphs.generators.road_network(700, seed=3)
    W = G.to_dense()
    if dtype == np.int32:
        W = np.where(np.isinf(W), np.iinfo(np.int32).max, np.round(W)).astype(np.int32)
        np.fill_diagonal(W, 0)
    W = W.astype(dtype)
    if family == "max_min":  # capacities: no arc is -inf, staying put is +inf
        W = np.where(np.isinf(W), -np.inf, W)
        np.fill_diagonal(W, np.inf)
    C = Closure(cp.asarray(W), semiring=family)
    zero = C.semiring.zero_value(C.dtype)
    rng = np.random.default_rng(5)
    src, dst = np.nonzero(W != zero)
    off = src != dst
    src, dst = src[off], dst[off]
    for step in range(24):
        k = int(rng.integers(src.size))
        u, v = int(src[k]), int(dst[k])
        if step % 3 == 2:  # a raise (a cut in capacity for max_min)
            old = C.arcs[u, v].get()
            if old == zero:
                continue
            new = old * 3 if family == "min_plus" else old / 3
            C.update([u], [v], [np.asarray(new, dtype=C.dtype)[()]])
        else:
            C.remove([u], [v])
        _check(C, False)
    assert used and max(used) >= 16  # the relaxation ran, on column sets of some size


@pytest.mark.parametrize("dtype", [np.float64, np.int64])
def test_gpu_batches_of_one_tile_of_endpoints(dtype):
    """Batches of 40-60 better arcs (65-128 endpoints: their block closed in one launch on the GPU) equal
    recomputation; a batch that closes an improving cycle raises and leaves the closure as it was."""
    import graphs

    G = graphs.generators.road_network(420, seed=8)
    W = G.to_dense()
    if dtype == np.int64:
        far = np.isinf(W)
        W = np.round(np.where(far, 0, W) * 10).astype(np.int64)  # (int64's max is no float64: set apart)
        W[far] = np.iinfo(np.int64).max
        np.fill_diagonal(W, 0)
    C = Closure(cp.asarray(W))
    rng = np.random.default_rng(9)
    n = C.n
    for _ in range(6):
        b = int(rng.integers(40, 61))
        flat = rng.choice(n * n, size=b, replace=False)
        us, vs = flat // n, flat % n
        keep = us != vs
        us, vs = us[keep], vs[keep]
        cur = C.arcs[cp.asarray(us), cp.asarray(vs)].get()
        scale = float(np.median(W[W < W.max()][W[W < W.max()] > 0]))
        ws = np.minimum(cur, (rng.uniform(0.5, 4.0, us.size) * scale).astype(dtype))
        assert np.unique(np.concatenate([us, vs])).size > 64
        C.update(us, vs, ws)
        _check(C, False)
    before = (C.arcs.get(), C.distances.get())
    us = rng.choice(n, size=50, replace=False)
    vs = np.roll(us, 1)
    D = before[1]
    ws = np.array([-(D[v, u] if D[v, u] < (np.inf if dtype == np.float64 else 10**15) else 0) - 1
                   for u, v in zip(us, vs)]).astype(dtype)  # u -> v closes a negative cycle with v ~> u
    with pytest.raises(NegativeCycleError):
        C.update(us, vs, ws)
    np.testing.assert_array_equal(C.arcs.get(), before[0])
    np.testing.assert_array_equal(C.distances.get(), before[1])
