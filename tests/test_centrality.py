"""graphs.betweenness_centrality and edge_betweenness_centrality against NetworkX (exact and sampled,
weighted and unweighted, directed and undirected, disconnected), with the concrete cases behind them."""

from __future__ import annotations

import random

import networkx as nx
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import graphs
from graphs.centrality import _centrality_kernels as K
from graphs.centrality.scores import EdgeBetweenness, pick_sources

RTOL = 1e-9


@pytest.fixture(scope="module", autouse=True)
def warm():
    """Compile the kernels once (Numba) before the timed-out-free hypothesis runs."""
    G = graphs.Graph.from_edges([0, 1], [1, 2], [1.0, 2.5], directed=False)
    graphs.betweenness_centrality(G)
    graphs.betweenness_centrality(G, weighted=False)
    graphs.edge_betweenness_centrality(G)
    graphs.betweenness_centrality(graphs.Graph.from_edges([0, 1], [1, 2], [1, 2], directed=False))


def close(ours, ref) -> bool:
    ours, ref = np.asarray(ours, dtype=float), np.asarray(ref, dtype=float)
    return ours.shape == ref.shape and bool(np.all(np.abs(ours - ref) <= RTOL * np.abs(ref) + 1e-14))


def nx_vertex(G, **kw):
    d = nx.betweenness_centrality(G, **kw)
    return np.array([d[v] for v in G.nodes])


@st.composite
def nx_graphs(draw, max_n=11, weights=True):
    """Small random NetworkX graphs: directed or not, sparse or dense, often disconnected; weights positive
    integers, or floats with fractions (so tied and untied path lengths both occur)."""
    directed = draw(st.booleans())
    n = draw(st.integers(0, max_n))
    G = nx.DiGraph() if directed else nx.Graph()
    G.add_nodes_from(range(n))
    if n:
        pairs = draw(st.lists(st.tuples(st.integers(0, n - 1), st.integers(0, n - 1)), max_size=3 * n))
        kind = draw(st.sampled_from(["int", "float", "none"])) if weights else "none"
        for u, v in pairs:
            if kind == "int":
                G.add_edge(u, v, weight=draw(st.integers(1, 4)))
            elif kind == "float":
                G.add_edge(u, v, weight=draw(st.sampled_from([0.5, 1.0, 1.5, 0.25, 2.75, 1e-3])))
            else:
                G.add_edge(u, v)
    return G


@settings(deadline=None, max_examples=150)
@given(nx_graphs(), st.booleans(), st.booleans(), st.booleans())
def test_vertex_betweenness_matches_networkx(G, weighted, normalized, endpoints):
    ours = graphs.betweenness_centrality(G, weighted=weighted, normalized=normalized, endpoints=endpoints)
    ref = nx_vertex(G, weight="weight" if weighted else None, normalized=normalized, endpoints=endpoints)
    assert close(ours, ref), (ours, ref)


@settings(deadline=None, max_examples=100)
@given(nx_graphs(), st.booleans(), st.booleans(), st.booleans(), st.integers(1, 11), st.integers(0, 2**32))
def test_sampled_betweenness_matches_networkx(G, weighted, normalized, endpoints, k, seed):
    k = min(k, len(G))
    if k == 0:
        return
    ours = graphs.betweenness_centrality(G, sources=k, seed=seed, weighted=weighted, normalized=normalized,
                                         endpoints=endpoints)
    ref = nx_vertex(G, k=k, seed=seed, weight="weight" if weighted else None, normalized=normalized,
                    endpoints=endpoints)
    assert close(np.nan_to_num(ours, nan=-1.0), np.nan_to_num(ref, nan=-1.0)), (ours, ref)


@settings(deadline=None, max_examples=100)
@given(nx_graphs(), st.booleans(), st.booleans(), st.one_of(st.none(), st.integers(1, 11)), st.integers(0, 99))
def test_edge_betweenness_matches_networkx(G, weighted, normalized, k, seed):
    if k is not None:
        k = min(k, len(G))
        if k == 0:
            return
    eb = graphs.edge_betweenness_centrality(G, weighted=weighted, normalized=normalized, sources=k, seed=seed)
    ref = nx.edge_betweenness_centrality(G, weight="weight" if weighted else None, normalized=normalized, k=k,
                                         seed=seed)
    ours = {(int(a), int(b)): float(x) for a, b, x in zip(eb.src, eb.dst, eb.value)}
    assert len(ours) == len(ref)
    for (a, b), x in ref.items():
        key = (a, b) if G.is_directed() else (min(a, b), max(a, b))
        assert close(ours[key], x), (key, ours[key], x)


def test_batches_of_64_and_more_agree_with_networkx():
    """More sources than one word, and a batch cut that is no multiple of 64 (several batches per thread)."""
    G = nx.barabasi_albert_graph(150, 3, seed=4)
    G.add_edges_from([(150, 151), (151, 152)])  # a second component
    rng = np.random.default_rng(1)
    for u, v in G.edges:
        G[u][v]["weight"] = int(rng.integers(1, 9))
    for weighted in (True, False):
        ref = nx_vertex(G, weight="weight" if weighted else None)
        assert close(graphs.betweenness_centrality(G, weighted=weighted), ref)
    D = nx.gnp_random_graph(140, 0.04, seed=2, directed=True)
    assert close(graphs.betweenness_centrality(D, weighted=False, endpoints=True), nx_vertex(D, endpoints=True))


def test_both_kernels_every_step_width():
    """Dense and sparse (arc, sources) steps give the same sums; every width from 1 to 64."""
    G = graphs.Graph.from_networkx(nx.gnp_random_graph(90, 0.06, seed=7))
    from graphs.centrality.scores import prepare

    P = prepare(G, False, "cpu")
    src = np.arange(90, dtype=np.int32)
    ref = nx_vertex(nx.gnp_random_graph(90, 0.06, seed=7), normalized=False) * 2
    for width in (1, 7, 63, 64):  # (and the per-source kernel below)
        for dense in (1, 8, 65):
            bc = np.zeros((2, 90))
            eb = np.zeros((2, P.indices.shape[0]))
            K.brandes_hops(P.indptr, P.indices, src, width, False, True, dense, bc, eb)
            assert close(bc.sum(0), ref), (width, dense)
    bc = np.zeros((2, 90))
    eb2 = np.zeros((2, P.indices.shape[0]))
    K.brandes_bfs(P.indptr, P.indices, src, False, True, bc, eb2)
    assert close(bc.sum(0), ref) and close(eb2.sum(0), eb.sum(0))


def test_deep_graphs_take_one_search_per_source():
    """A long path (depth beyond the bit-parallel limit) goes through the per-source kernel; same values."""
    G = nx.path_graph(80)
    G.add_edges_from([(0, 80), (80, 81)])
    assert close(graphs.betweenness_centrality(G, weighted=False, endpoints=True), nx_vertex(G, endpoints=True))
    eb = graphs.edge_betweenness_centrality(G, weighted=False)
    ref = nx.edge_betweenness_centrality(G)
    assert close(eb.value, [ref[(int(a), int(b))] if (int(a), int(b)) in ref else ref[(int(b), int(a))]
                            for a, b in zip(eb.src, eb.dst)])


def test_heap_and_dial_agree():
    """Float weights with fractions run on the heap, whole ones on Dial's buckets: the same values."""
    G = nx.gnp_random_graph(60, 0.08, seed=3, directed=True)
    rng = np.random.default_rng(0)
    for u, v in G.edges:
        G[u][v]["weight"] = float(rng.integers(1, 6))
    whole = graphs.betweenness_centrality(G)
    H = graphs.Graph.from_networkx(G)
    scaled = graphs.Graph(H.indptr, H.indices, H.weights * 0.5, directed=True)  # halves: not all whole
    assert close(graphs.betweenness_centrality(scaled), whole)
    big = graphs.Graph(H.indptr, H.indices, H.weights * 2.0**20, directed=True)  # beyond Dial's ring: the heap
    assert close(graphs.betweenness_centrality(big), whole)


def test_concrete_values():
    P4 = graphs.Graph.from_edges([0, 1, 2], [1, 2, 3], directed=False)
    assert np.allclose(graphs.betweenness_centrality(P4, normalized=False), [0, 2, 2, 0])
    assert np.allclose(graphs.betweenness_centrality(P4, normalized=False, endpoints=True), [3, 5, 5, 3])
    star = graphs.Graph.from_edges([0, 0, 0, 0], [1, 2, 3, 4], directed=False)
    assert np.allclose(graphs.betweenness_centrality(star), [1, 0, 0, 0, 0])
    C = nx.cycle_graph(4, create_using=nx.DiGraph)  # each vertex is inside 3 of the 12 paths
    assert close(graphs.betweenness_centrality(C), nx_vertex(C))


def test_parallel_arcs_and_self_loops():
    """Parallel arcs count once with their least weight (a NetworkX multigraph), self loops never."""
    M = nx.MultiGraph()
    M.add_edge(0, 1, weight=5.0)
    M.add_edge(0, 1, weight=1.0)
    M.add_edge(1, 2, weight=1.0)
    M.add_edge(0, 2, weight=2.5)
    M.add_edge(1, 1, weight=0.5)
    simple = nx.Graph()
    simple.add_edge(0, 1, weight=1.0)
    simple.add_edge(1, 2, weight=1.0)
    simple.add_edge(0, 2, weight=2.5)
    assert close(graphs.betweenness_centrality(M), nx_vertex(simple, weight="weight"))
    assert close(graphs.betweenness_centrality(M), [0, 1, 0])


def test_huge_path_counts_stay_finite_and_exact():
    """A chain of 300 diamonds has 2**300 shortest paths end to end: float64 holds them."""
    k = 300
    src, dst = [], []
    for i in range(k):
        a, b, c, d = 3 * i, 3 * i + 1, 3 * i + 2, 3 * i + 3
        src += [a, a, b, c]
        dst += [b, c, d, d]
    G = graphs.Graph.from_edges(src, dst, n=3 * k + 1, directed=False)
    ours = graphs.betweenness_centrality(G, normalized=False)
    ref = nx_vertex(nx.Graph(list(zip(src, dst))), normalized=False)
    assert np.all(np.isfinite(ours)) and close(ours, ref)


def test_labelled_sources_and_sample_draw():
    G = nx.Graph([("a", "b"), ("b", "c"), ("c", "d")])
    ours = graphs.betweenness_centrality(G, sources=["a", "d"], normalized=False)
    H = graphs.Graph.from_networkx(G)
    assert np.array_equal(pick_sources(4, ["a", "d"], None, H)[0], [0, 3])
    assert ours.shape == (4,)
    # the same draw as NetworkX's random.Random(seed).sample
    assert list(pick_sources(10, 4, 123)[0]) == random.Random(123).sample(range(10), 4)
    assert pick_sources(10, 10, 1)[1] is False  # k = n: exact


def test_edge_result_layout():
    eb = graphs.edge_betweenness_centrality(graphs.Graph.from_edges([1, 0], [2, 1], directed=False),
                                            normalized=False)
    assert isinstance(eb, EdgeBetweenness)
    assert eb.src.tolist() == [0, 1] and eb.dst.tolist() == [1, 2] and eb.value.tolist() == [2.0, 2.0]


def test_empty_and_single_vertex():
    assert graphs.betweenness_centrality(graphs.Graph(np.zeros(1, np.int64), np.zeros(0, np.int32))).shape == (0,)
    one = graphs.Graph(np.zeros(2, np.int64), np.zeros(0, np.int32))
    assert graphs.betweenness_centrality(one).tolist() == [0.0]
    assert graphs.edge_betweenness_centrality(one).value.shape == (0,)


@pytest.mark.parametrize("bad, err", [
    (dict(sources=0), graphs.GraphError),
    (dict(sources=5), graphs.GraphError),
    (dict(sources=True), TypeError),
    (dict(sources=2.0), TypeError),
    (dict(sources=[0, 9]), graphs.GraphError),
    (dict(sources=[[0, 1]]), graphs.GraphError),
    (dict(sources=[]), graphs.GraphError),
    (dict(sources=2, seed="x"), TypeError),
    (dict(normalized=1), TypeError),
    (dict(weighted=None), TypeError),
    (dict(device="tpu"), graphs.GraphError),
])
def test_bad_arguments(bad, err):
    G = graphs.Graph.from_edges([0, 1, 2], [1, 2, 3], [1.0, 1.0, 1.0])
    with pytest.raises(err):
        graphs.betweenness_centrality(G, **bad)


def test_negative_weight_is_an_error_naming_the_arc():
    G = graphs.Graph.from_edges([0, 1], [1, 2], [1.0, -2.0])
    with pytest.raises(graphs.GraphError, match="arc 1 -> 2 weighs -2.0"):
        graphs.betweenness_centrality(G)
    assert graphs.betweenness_centrality(G, weighted=False).tolist() == [0.0, 0.5, 0.0]


def test_integer_weights_that_could_overflow_are_refused():
    G = graphs.Graph.from_edges([0, 1], [1, 2], np.array([2**62, 2**62], dtype=np.int64))
    with pytest.raises(graphs.GraphError, match="int64"):
        graphs.betweenness_centrality(G)


@pytest.mark.gpu
def test_gpu_matches_cpu():
    cp = pytest.importorskip("cupy")
    G = graphs.generators.road_network(400, seed=2)
    ref = graphs.betweenness_centrality(G)
    out = graphs.betweenness_centrality(G, device="gpu")
    assert isinstance(out, cp.ndarray) and close(out.get(), ref)
    R = graphs.generators.rmat(9, seed=1)
    for weighted in (False, True):
        ref = graphs.betweenness_centrality(R, weighted=weighted, endpoints=True)
        assert close(graphs.betweenness_centrality(R, weighted=weighted, endpoints=True, device="gpu").get(), ref)
    eref = graphs.edge_betweenness_centrality(R, weighted=False)
    eout = graphs.edge_betweenness_centrality(R, weighted=False, device="gpu")
    assert close(eout.value.get(), eref.value)
