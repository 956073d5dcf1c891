"""Predecessors read off the distances (apsp.paths.last_hop): every route is a real walk that weighs the distance.

For every method and dtype, on graphs with zero-weight cycles, negative arcs
(no negative cycle), unreachable parts, ``n = 0, 1`` and sizes that cut the
blocks unevenly; exactly for integer weights, within rounding for real ones;
and the other selective semirings that keep the Pi update.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from reference import check_routes
from reference import with_sentinels as in_dtype
from test_apsp_strategies import SETTINGS, scipy_distances, weighted_digraphs

import apsp
import semiring as sr
from apsp.paths.last_hop import applies, last_hop_predecessors

METHODS = ["rkleene", "blocked-fw", "squaring", "fw"]
DTYPES = [np.float32, np.float64, np.int32, np.int64]


@SETTINGS
@given(W=weighted_digraphs(max_n=40, max_w=3), method=st.sampled_from(METHODS),
       dtype=st.sampled_from(DTYPES), block=st.sampled_from([None, 1, 3, 7, 16]))
def test_routes_are_walks_that_weigh_the_distance(W, method, dtype, block):
    """Integer weights (zero-weight cycles and negative arcs common): exact, in every dtype."""
    X = in_dtype(W, dtype)
    D, P = apsp.shortest_paths(X, method, predecessors=True, block_size=block)
    np.testing.assert_array_equal(D, in_dtype(scipy_distances(W), dtype))
    check_routes(sr.min_plus, X, D, P, exact=True)


@SETTINGS
@given(n=st.integers(0, 70), seed=st.integers(0, 2**32 - 1), density=st.sampled_from([0.03, 0.2, 1.0]),
       method=st.sampled_from(METHODS), dtype=st.sampled_from([np.float32, np.float64]),
       negative=st.booleans())
def test_real_weights_within_rounding(n, seed, density, method, dtype, negative):
    """Real weights: sums taken in another order differ in the last bits; routes weigh D within rounding."""
    rng = np.random.default_rng(seed)
    W = rng.uniform(0.0, 10.0, (n, n))
    if negative and n:
        p = rng.uniform(0, 10, n)
        W = W + p[:, None] - p[None, :]
    W[rng.random((n, n)) >= density] = np.inf
    X = W.astype(dtype)
    D, P = apsp.shortest_paths(X, method, predecessors=True, block_size=8)
    eps = float(np.finfo(dtype).eps)
    check_routes(sr.min_plus, X, D, P, exact=False, rtol=8 * max(n, 1) * eps)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("n", [0, 1, 2, 33, 97])
def test_awkward_sizes_and_disconnected_graphs(dtype, n):
    rng = np.random.default_rng(n)
    W = rng.integers(0, 4, (n, n)).astype(np.float64)
    W[rng.random((n, n)) > 0.15] = np.inf
    half = n // 2
    W[:half, half:] = np.inf  # no arc from the first half to the second
    X = in_dtype(W, dtype)
    for method in METHODS:
        D, P = apsp.shortest_paths(X, method, predecessors=True, block_size=16)
        check_routes(sr.min_plus, X, D, P, exact=True)
        assert (P[:half, half:] == -1).all()


def test_zero_weight_cycles_are_mended_by_rule_4():
    """1 <-> 2 weigh zero and are both reached through 3: the lightest tight arcs point at each other
    (rules 1-3 make the loop 1 -> 2 -> 1); rule 4 breaks it at 1, the smaller vertex, with its arc from 3."""
    inf = np.inf
    W = np.full((4, 4), inf)
    W[0, 3] = W[3, 1] = W[3, 2] = 1.0
    W[1, 2] = W[2, 1] = 0.0
    D = apsp.shortest_paths(W)
    P = last_hop_predecessors(sr.min_plus, D, W)
    assert P is not None
    assert apsp.path(P, 0, 1) == [0, 3, 1] and apsp.path(P, 0, 2) == [0, 3, 1, 2]
    for method in METHODS:
        D, P = apsp.shortest_paths(W, method, predecessors=True)
        check_routes(sr.min_plus, W, D, P, exact=True)
        assert apsp.path(P, 0, 1) in ([0, 3, 1], [0, 3, 2, 1])


@pytest.mark.parametrize("seed", range(6))
def test_many_zero_weight_cycles_give_trees_at_the_price_of_distances(seed):
    """A complete graph with many weight-0 pairs: every route of the last-hop rule is mended (no fallback)
    into a walk whose weights add up to the distance."""
    rng = np.random.default_rng(seed)
    n = 97 + 31 * seed
    W = rng.integers(1, 20, (n, n)).astype(np.float64)
    pairs = rng.integers(0, n, (n // 3, 2))
    W[pairs[:, 0], pairs[:, 1]] = 0.0
    W[pairs[:, 1], pairs[:, 0]] = 0.0
    chain = rng.permutation(n)[:12]  # and a longer zero-weight cycle
    W[chain, np.roll(chain, 1)] = 0.0
    np.fill_diagonal(W, 0.0)
    D = apsp.shortest_paths(W)
    P = last_hop_predecessors(sr.min_plus, D, W)
    assert P is not None
    check_routes(sr.min_plus, W, D, P, exact=True)


def test_the_pi_update_still_serves_when_the_last_hops_give_up(monkeypatch):
    """If the last-hop pass returns None (float rounding it cannot mend), apsp restarts with the Pi update."""
    import apsp.driver as api

    rng = np.random.default_rng(3)
    W = rng.integers(1, 9, (60, 60)).astype(np.float64)
    monkeypatch.setattr(api, "last_hop_predecessors", lambda *a, **k: None)
    D, P = apsp.shortest_paths(W, predecessors=True)
    np.testing.assert_array_equal(D, scipy_distances(W))
    check_routes(sr.min_plus, W, D, P, exact=True)


def test_loops_are_detected():
    """Hand-made distances that make two last hops point at each other: None, not a looping P."""
    inf = np.inf
    W = np.array([[0.0, 1.0, inf], [inf, 0.0, 0.0], [inf, 0.0, 0.0]])
    D = np.array([[0.0, 1.0, 1.0], [inf, 0.0, 0.0], [inf, 0.0, 0.0]])
    P = last_hop_predecessors(sr.min_plus, D, W)
    assert P is not None and apsp.path(P, 0, 2) == [0, 1, 2]
    W2 = np.array([[0.0, inf, inf], [inf, 0.0, 0.0], [inf, 0.0, 0.0]])
    D2 = np.array([[0.0, 1.0, 1.0], [inf, 0.0, 0.0], [inf, 0.0, 0.0]])  # not the closure of W2: 1, 2 unreachable
    assert last_hop_predecessors(sr.min_plus, D2, W2) is None


def test_the_documented_rule():
    """Rule 1 (the direct arc), then the lightest tight arc, then the smallest k."""
    inf = np.inf
    W = np.array([
        [0, 1, 2, 3, inf],
        [inf, 0, inf, inf, 3],
        [inf, inf, 0, inf, 2],
        [inf, inf, inf, 0, 1],
        [inf, inf, inf, inf, 0],
    ])
    D, P = apsp.shortest_paths(W, predecessors=True)
    assert D[0, 4] == 4.0
    assert P[0, 4] == 3  # arcs 1->4 (3), 2->4 (2), 3->4 (1) all tight: the lightest
    W[0, 4] = 4.0
    D, P = apsp.shortest_paths(W, predecessors=True)
    assert P[0, 4] == 0  # the direct arc is a shortest path too: it wins
    W[0, 4] = inf
    W[1, 4] = W[2, 4] = W[3, 4] = 1.0
    W[0, 1] = W[0, 2] = W[0, 3] = 3.0
    D, P = apsp.shortest_paths(W, predecessors=True)
    assert P[0, 4] == 1  # equal weights: the smallest k


@pytest.mark.parametrize("method", METHODS)
@pytest.mark.parametrize("S", [sr.max_min, sr.min_max], ids=lambda S: S.name)
def test_bottleneck_semirings_keep_valid_routes(S, method):
    assert not applies(S, np.zeros((1, 1)))
    rng = np.random.default_rng(5)
    n = 40
    W = rng.integers(0, 4, (n, n)).astype(np.float64)
    W[rng.random((n, n)) > 0.2] = S.zero_value(np.float64)
    D, P = apsp.shortest_paths(W, method, semiring=S, predecessors=True, block_size=8)
    check_routes(S, W, D, P, exact=True)


@pytest.mark.parametrize("method", METHODS)
def test_max_plus_on_a_dag(method):
    rng = np.random.default_rng(6)
    n = 45
    W = np.where(rng.random((n, n)) < 0.2, rng.integers(-3, 5, (n, n)).astype(np.float64), -np.inf)
    W = np.where(np.triu(np.ones((n, n), bool), 1), W, -np.inf)  # arcs i -> j with i < j only
    D, P = apsp.shortest_paths(W, method, semiring=sr.max_plus, predecessors=True, block_size=8)
    check_routes(sr.max_plus, W, D, P, exact=True)


def test_graph_input_and_cast():
    """A graph input (the matrix is rebuilt for the last hops) and an explicit dtype."""
    import scipy.sparse as sp

    import graphs

    rng = np.random.default_rng(7)
    n = 60
    W = np.where(rng.random((n, n)) < 0.1, rng.integers(0, 5, (n, n)).astype(np.float64), np.inf)
    G = sp.csr_array(np.where(np.isinf(W), 0, W + 1))  # weights 1..5 as stored entries
    Wd = np.where(np.isinf(W), np.inf, W + 1)
    D, P = apsp.shortest_paths(graphs.as_graph(G), predecessors=True)
    check_routes(sr.min_plus, Wd, D, P, exact=True)
    D32, P32 = apsp.shortest_paths(Wd, predecessors=True, dtype=np.float32)
    check_routes(sr.min_plus, Wd.astype(np.float32), D32, P32, exact=True)


@pytest.mark.parametrize("dtype", [np.int32, np.int64])
def test_complete_integer_graphs_take_plain_sums(dtype):
    """No missing arc and small weights: the scan runs on plain sums; the routes are still exact."""
    rng = np.random.default_rng(8)
    n = 130
    W = rng.integers(-2, 9, (n, n)).astype(np.float64)
    p = rng.integers(0, 10, n)
    W = np.abs(W) + p[:, None] - p[None, :]  # negative arcs, no negative cycle
    X = in_dtype(W, dtype)
    D, P = apsp.shortest_paths(X, predecessors=True)
    np.testing.assert_array_equal(D, in_dtype(scipy_distances(W), dtype))
    check_routes(sr.min_plus, X, D, P, exact=True)


def test_integer_routes_are_checked_exactly_where_a_zero_weight_cycle_may_be():
    """may_loop: integer routes skip rule 4's check only when no cycle of total weight zero exists (positive last-hop
    arcs, or no two vertices with D[u, v] + D[v, u] == 0); the predecessors are valid routes either way."""
    from apsp.paths.last_hop import may_loop

    inf = np.iinfo(np.int32).max
    rng = np.random.default_rng(11)
    n = 150
    base = np.where(rng.random((n, n)) < 0.1, rng.integers(1, 50, (n, n)), inf).astype(np.int32)
    np.fill_diagonal(base, 0)
    cases = {"positive": (base, False)}
    signed = base.copy()
    signed[3, 7], signed[7, 3] = -4, 9  # a negative arc, no cycle of weight zero through it
    cases["negative arc"] = (signed, False)
    zero = signed.copy()
    zero[20, 21], zero[21, 20] = -6, 6  # a cycle of weight zero
    cases["zero cycle"] = (zero, True)
    flat = base.copy()
    flat[30, 31], flat[31, 30] = 0, 0  # zero-weight arcs both ways
    cases["zero arcs"] = (flat, True)
    for name, (W, loops) in cases.items():
        D, P = apsp.shortest_paths(W, predecessors=True)
        arcs = W[(W != inf) & ~np.eye(n, dtype=bool)]
        assert may_loop(D, arcs, inf) == loops, name
        for i, j in rng.integers(0, n, (300, 2)):
            if i == j or D[i, j] == inf:
                continue
            p = apsp.path(P, int(i), int(j))
            assert p[0] == i and p[-1] == j, name
            assert sum(int(W[a, b]) for a, b in zip(p, p[1:])) == int(D[i, j]), name
