"""graphs.shortest_path: one route, against SciPy's Dijkstra / Bellman-Ford and NetworkX, every method."""

from __future__ import annotations

import math

import networkx as nx
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.sparse.csgraph import bellman_ford, dijkstra

import graphs
from graphs import Graph, ShortestPath, VertexError, shortest_path
from graphs.errors import GraphError, NegativeCycleError
from graphs.paths.single_pair import euclidean_scale
from semiring.backend import gpu_available

HEURISTICS = [None, "auto", "euclidean"]


def _route_length(G: Graph, route) -> float:
    """Sum of the lightest arc weights along ``route`` (asserting every arc exists)."""
    total = 0.0
    for u, v in zip(route, route[1:]):
        row = slice(int(G.indptr[u]), int(G.indptr[u + 1]))
        sel = G.indices[row] == v
        assert sel.any(), f"no arc {u} -> {v}"
        total += float(G.weights[row][sel].min()) if G.weights is not None else 1.0
    return total


def _agrees(G: Graph, ref: np.ndarray, s: int, t: int, **kw) -> ShortestPath:
    r = shortest_path(G, s, t, **kw)
    if np.isinf(ref[t]):
        assert r.distance == math.inf and r.path is None and not r.reachable
    else:
        assert float(r.distance) == ref[t]
        assert r.path[0] == s and r.path[-1] == t
        assert _route_length(G, r.path) == ref[t]
    return r


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("heuristic", HEURISTICS[:2])
def test_random_graphs_match_scipy_including_unreachable(seed, heuristic):
    G = graphs.generators.erdos_renyi(300, 700, seed=seed)  # sparse: some targets unreachable
    A = G.to_scipy()
    rng = np.random.default_rng(seed)
    unreachable = 0
    for s in rng.choice(G.n, 6, replace=False):
        ref = dijkstra(A, indices=int(s))
        unreachable += int(np.isinf(ref).sum())
        for t in rng.choice(G.n, 20, replace=False):
            r = _agrees(G, ref, int(s), int(t), heuristic=heuristic)
            assert r.method == "bidirectional-dijkstra"
    assert unreachable > 0


def test_source_equals_target_and_dtype():
    G = graphs.generators.erdos_renyi(50, 200, seed=2, dtype=np.int32)
    r = shortest_path(G, 7, 7)
    assert r.distance == 0 and r.path == [7] and r.hops == 0
    ref = dijkstra(G.to_scipy(), indices=3)
    r = _agrees(G, ref, 3, int(np.argmax(np.where(np.isinf(ref), -1, ref))))
    assert isinstance(r.distance, np.int32)


def test_zero_weights():
    rng = np.random.default_rng(5)
    src, dst = rng.integers(0, 80, 400), rng.integers(0, 80, 400)
    w = rng.integers(0, 3, 400).astype(np.float64)  # a third of the arcs weigh 0
    G = Graph.from_edges(src, dst, w, n=80)
    A = G.to_scipy()
    for s in range(0, 80, 7):
        ref = dijkstra(A, indices=s)
        for t in range(80):
            _agrees(G, ref, s, t)


def test_zero_weight_cycle_terminates():
    G = Graph.from_edges([0, 1, 2, 1], [1, 2, 1, 3], [1.0, 0.0, 0.0, 2.0])
    r = shortest_path(G, 0, 3)
    assert r.distance == 3.0 and r.path == [0, 1, 3]


def test_negative_weights_use_bellman_ford():
    rng = np.random.default_rng(1)
    n = 60
    # a DAG (arcs go up) with negative weights: no negative cycle
    src = rng.integers(0, n - 1, 300)
    dst = np.minimum(src + rng.integers(1, 10, 300), n - 1)
    w = rng.integers(-5, 20, 300).astype(np.float64)
    G = Graph.from_edges(src, dst, w, n=n)
    A = G.to_scipy()
    for s in range(0, n, 11):
        ref = bellman_ford(A, indices=s)
        for t in range(n):
            r = _agrees(G, ref, s, t)
            assert r.method == "bellman-ford"


def test_negative_cycle_raises():
    G = Graph.from_edges([0, 1, 2], [1, 2, 1], [1.0, -3.0, 1.0])
    with pytest.raises(NegativeCycleError):
        shortest_path(G, 0, 2)


def test_unweighted_counts_hops():
    G = Graph.from_edges([0, 1, 2, 0], [1, 2, 3, 4], n=6)
    r = shortest_path(G, 0, 3)
    assert r.distance == 3.0 and r.path == [0, 1, 2, 3] and r.method == "bfs"
    r = shortest_path(G, 0, 5)
    assert r.distance == math.inf and r.path is None


@pytest.mark.parametrize("heuristic", HEURISTICS)
def test_road_network_astar_is_exact(heuristic):
    G = graphs.generators.road_network(1500, seed=4)
    A = G.to_scipy()
    rng = np.random.default_rng(0)
    settled = {}
    for s in rng.choice(G.n, 5, replace=False):
        ref = dijkstra(A, indices=int(s))
        for t in rng.choice(G.n, 15, replace=False):
            r = _agrees(G, ref, int(s), int(t), heuristic=heuristic)
            settled[r.method] = settled.get(r.method, 0) + r.settled
    expected = "bidirectional-dijkstra" if heuristic is None else "astar"
    assert set(settled) == {expected}


def test_astar_against_a_loose_bound_and_integer_weights():
    # grid weights 1..100 on unit spacing: the bound is loose, "auto" keeps bidirectional Dijkstra,
    # "euclidean" still gives exact answers
    G = graphs.generators.grid_2d(30, seed=3, dtype=np.int64)
    assert euclidean_scale(G) == pytest.approx(1.0)
    ref = dijkstra(G.to_scipy(), indices=0)
    for t in range(0, G.n, 37):
        assert _agrees(G, ref, 0, t, heuristic="euclidean").method == "astar"
        assert _agrees(G, ref, 0, t).method == "bidirectional-dijkstra"


def test_networkx_labels_in_the_route():
    g = nx.DiGraph()
    g.add_weighted_edges_from([("a", "b", 1.0), ("b", "c", 2.0), ("a", "c", 5.0), ("c", "d", 1.0)])
    G = graphs.as_graph(g)
    r = shortest_path(G, 0, 3)
    assert r.path == nx.shortest_path(g, "a", "d", weight="weight") == ["a", "b", "c", "d"]
    assert r.distance == nx.shortest_path_length(g, "a", "d", weight="weight")


@settings(max_examples=60, deadline=None)
@given(
    n=st.integers(1, 25),
    arcs=st.lists(st.tuples(st.integers(0, 24), st.integers(0, 24), st.integers(0, 2**40)), max_size=80),
    s=st.integers(0, 24),
    t=st.integers(0, 24),
    dtype=st.sampled_from([np.int64, np.float64, np.float32]),
)
def test_property_matches_networkx(n, arcs, s, t, dtype):
    arcs = [(u % n, v % n, w) for u, v, w in arcs]
    s, t = s % n, t % n
    g = nx.DiGraph()
    g.add_nodes_from(range(n))
    for u, v, w in arcs:
        w = dtype(w).item()
        if not g.has_edge(u, v) or g[u][v]["weight"] > w:
            g.add_edge(u, v, weight=w)
    G = Graph.from_edges([u for u, _, _ in arcs], [v for _, v, _ in arcs],
                         np.array([w for _, _, w in arcs], dtype=dtype), n=n)
    r = shortest_path(G, s, t)
    try:
        expected = nx.shortest_path_length(g, s, t, weight="weight")
    except nx.NetworkXNoPath:
        assert r.distance == math.inf and r.path is None
        return
    if dtype == np.float32:
        assert float(r.distance) == pytest.approx(expected, rel=1e-5)
    else:
        assert r.distance == expected
        assert _route_length(G, r.path) == expected


def test_tiny_graphs_self_loops_and_parallel_arcs():
    one = Graph.from_edges([0], [0], [3.0], n=1)
    assert shortest_path(one, 0, 0) == ShortestPath(0.0, [0], "bidirectional-dijkstra", 0)
    with pytest.raises(VertexError):
        shortest_path(Graph.from_edges([], [], np.empty(0), n=0), 0, 0)
    G = Graph.from_edges([0, 0, 0, 1, 1], [0, 1, 1, 1, 2], [1.0, 7.0, 2.0, 0.0, 3.0])
    for h in HEURISTICS[:2]:
        r = shortest_path(G, 0, 2, heuristic=h)
        assert r.distance == 5.0 and r.path == [0, 1, 2]


def test_bad_arguments():
    G = Graph.from_edges([0], [1], [1.0])
    with pytest.raises(VertexError, match="target = 5"):
        shortest_path(G, 0, 5)
    with pytest.raises(VertexError, match="source"):
        shortest_path(G, -1, 0)
    with pytest.raises(GraphError, match="heuristic"):
        shortest_path(G, 0, 1, heuristic="manhattan")
    with pytest.raises(GraphError, match="coords"):
        shortest_path(G, 0, 1, heuristic="euclidean")


@pytest.mark.gpu
@pytest.mark.skipif(not gpu_available(), reason="needs CuPy and a CUDA GPU")
def test_gpu_graph_uses_its_host_copy():
    G = graphs.generators.road_network(800, seed=2)
    Gd = G.to("gpu")
    for t in (1, 400, 799):
        a, b = shortest_path(G, 0, t), shortest_path(Gd, 0, t)
        assert a == b
