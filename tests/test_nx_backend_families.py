"""The families added to the semiring_paths backend against NetworkX itself: answers, orders, errors."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from nx_conversion import no_conversion_cache  # noqa: F401 - autouse: NetworkX's conversion cache off

nx = pytest.importorskip("networkx")

from test_nx_backend import graphs_, same  # noqa: E402

B = "semiring_paths"
SETTINGS = settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def node(G, data):
    return data.draw(st.sampled_from(sorted(G, key=str)))


@SETTINGS
@given(graphs_(), st.data(), st.none() | st.integers(0, 3))
def test_traversal_orders(G, data, depth):
    s = node(G, data)
    for f in (nx.bfs_predecessors, nx.bfs_successors, nx.dfs_edges, nx.dfs_preorder_nodes, nx.dfs_postorder_nodes,
              nx.dfs_labeled_edges, nx.dfs_predecessors, nx.dfs_successors):
        same(f, G, s, depth_limit=depth)
    for f in (nx.dfs_edges, nx.dfs_labeled_edges, nx.dfs_postorder_nodes):
        same(f, G, None, depth)
    same(nx.bfs_edges, G, s, reverse=True, depth_limit=depth)
    same(nx.bfs_layers, G, s)
    same(nx.descendants, G, s)
    same(nx.ancestors, G, s)
    same(nx.descendants_at_distance, G, s, 2)
    same(nx.bfs_edges, G, "missing")
    assert nx.utils.graphs_equal(nx.bfs_tree(G, s, backend=B), nx.bfs_tree(G, s))
    assert nx.utils.graphs_equal(nx.dfs_tree(G, s, backend=B), nx.dfs_tree(G, s))


@SETTINGS
@given(graphs_(), st.data())
def test_components(G, data):
    s = node(G, data)
    for f in (nx.number_connected_components, nx.is_connected, nx.number_strongly_connected_components,
              nx.is_strongly_connected, nx.number_weakly_connected_components, nx.is_weakly_connected,
              nx.weakly_connected_components):
        same(f, G)
    same(nx.node_connected_component, G, s)
    if G.is_directed():
        C, R = nx.condensation(G, backend=B), nx.condensation(G)
        assert C.graph == R.graph and dict(C.nodes(data=True)) == dict(R.nodes(data=True))
        assert set(C.edges()) == set(R.edges())


@SETTINGS
@given(graphs_(), st.data(), st.none() | st.integers(0, 8))
def test_dijkstra_paths_and_tie_order(G, data, cutoff):
    s, t = node(G, data), node(G, data)
    same(nx.single_source_dijkstra, G, s, cutoff=cutoff)
    same(nx.single_source_dijkstra, G, s, t)
    same(nx.dijkstra_path, G, s, t)
    same(nx.dijkstra_path_length, G, s, t)
    same(nx.dijkstra_predecessor_and_distance, G, s, cutoff=cutoff)
    same(nx.multi_source_dijkstra, G, {s, t}, cutoff=cutoff)
    same(nx.astar_path, G, s, t)
    same(nx.astar_path_length, G, s, t)
    same(nx.shortest_path, G, target=t, weight="weight")
    same(nx.johnson, G)
    same(lambda *a, **k: dict(nx.all_pairs_dijkstra(*a, **k)), G, cutoff=cutoff)
    # a weight function, evaluated once per arc; None hides an arc
    hide = lambda u, v, d: None if d.get("weight", 1) == 2 else d.get("weight", 1)  # noqa: E731
    if not G.is_multigraph():
        same(nx.single_source_dijkstra, G, s, weight=hide)


@SETTINGS
@given(graphs_(), st.data(), st.none() | st.integers(0, 3))
def test_breadth_first_paths(G, data, cutoff):
    s, t = node(G, data), node(G, data)
    same(nx.single_source_shortest_path, G, s, cutoff)
    same(nx.single_target_shortest_path, G, t, cutoff)
    same(nx.single_target_shortest_path_length, G, t, cutoff)
    same(nx.bidirectional_shortest_path, G, s, t)
    same(nx.predecessor, G, s, cutoff=cutoff)
    same(nx.predecessor, G, s, t, return_seen=True)
    same(lambda *a: dict(nx.all_pairs_shortest_path(*a)), G, cutoff)
    same(nx.shortest_path, G, s)


def _ok_or_given_back(f, *args, **kwargs):
    """Same answer as NetworkX, or NotImplementedError (the call goes back to NetworkX)."""
    try:
        ours = f(*args, backend=B, **kwargs)
    except NotImplementedError:
        return
    except Exception as exc:  # noqa: BLE001 - compared with NetworkX's
        with pytest.raises(type(exc)):
            f(*args, **kwargs)
        return
    assert ours == f(*args, **kwargs)


@SETTINGS
@given(graphs_(negative=True), st.data())
def test_bellman_ford_family(G, data):
    s, t = node(G, data), node(G, data)
    for f, args in ((nx.single_source_bellman_ford, (s,)), (nx.bellman_ford_path, (s, t)),
                    (nx.bellman_ford_path_length, (s, t)), (nx.bellman_ford_predecessor_and_distance, (s,)),
                    (nx.goldberg_radzik, (s,)), (nx.negative_edge_cycle, ()), (nx.bidirectional_dijkstra, (s, t))):
        _ok_or_given_back(f, G, *args)


@SETTINGS
@given(graphs_(multigraph=False, directed=False), st.sampled_from(["kruskal"]))
def test_spanning_edges_in_kruskal_order(G, algorithm):
    for f in (nx.minimum_spanning_edges, nx.maximum_spanning_edges):
        same(lambda *a, f=f, **k: list(f(*a, **k)), G, algorithm, data=False)
        same(lambda *a, f=f, **k: list(f(*a, **k)), G, algorithm)
    T, R = nx.maximum_spanning_tree(G, backend=B), nx.maximum_spanning_tree(G)
    assert nx.utils.edges_equal(T.edges(data=True), R.edges(data=True))


@SETTINGS
@given(graphs_(multigraph=False), st.data(), st.sampled_from(["edmonds_karp", "preflow_push", "dinitz"]))
def test_flows_any_flow_func(G, data, algo):
    s, t = node(G, data), node(G, data)
    func = getattr(nx.flow, algo)
    same(nx.maximum_flow_value, G, s, t, flow_func=func)
    same(nx.minimum_cut_value, G, s, t, flow_func=func)
    same(nx.minimum_cut, G, s, t, flow_func=func)
    if s != t and not any(d.get("capacity") is None for *_, d in G.edges(data=True)):
        try:
            value, flows = nx.maximum_flow(G, s, t, backend=B)
        except nx.NetworkXUnbounded:
            return
        assert value == nx.maximum_flow_value(G, s, t)
        excess = dict.fromkeys(G, 0)
        for u, row in flows.items():
            assert set(row) == set(G[u])
            for v, f in row.items():
                assert 0 <= f <= G[u][v]["capacity"]
                excess[u] -= f
                excess[v] += f
        assert excess[t] == value and all(x == 0 for k, x in excess.items() if k not in (s, t))


@SETTINGS
@given(graphs_(directed=True), st.sampled_from([False, True, None]))
def test_dags_and_closures(G, reflexive):
    same(nx.dag_longest_path, G)
    same(nx.dag_longest_path_length, G)
    same(nx.is_directed_acyclic_graph, G)
    assert nx.utils.graphs_equal(nx.transitive_closure(G, reflexive, backend=B), nx.transitive_closure(G, reflexive))
    if nx.is_directed_acyclic_graph(G):
        assert nx.utils.graphs_equal(nx.transitive_closure_dag(G, backend=B), nx.transitive_closure_dag(G))
        if not G.is_multigraph():
            assert nx.utils.graphs_equal(nx.transitive_reduction(G, backend=B), nx.transitive_reduction(G))
    same(nx.transitive_reduction, nx.DiGraph([(0, 1), (1, 0)]))


@SETTINGS
@given(graphs_(), st.sampled_from([None, "weight"]))
def test_average_shortest_path_length(G, weight):
    same(nx.average_shortest_path_length, G, weight)


def test_concrete_edge_cases():
    same(nx.average_shortest_path_length, nx.Graph())
    same(nx.is_connected, nx.Graph())
    same(nx.node_connected_component, nx.path_graph(3), 9)
    same(nx.multi_source_dijkstra_path_length, nx.path_graph(3), set())
    same(nx.find_negative_cycle, nx.path_graph(3), 0)
    D = nx.DiGraph([(0, 1, {"weight": 3.5}), (1, 2, {"weight": -1.25}), (0, 2, {"weight": 9.0})])
    same(nx.single_source_bellman_ford, D, 0)
    same(nx.negative_edge_cycle, nx.DiGraph([(0, 1, {"weight": -1}), (1, 0, {"weight": 0})]))
    same(lambda *a: list(nx.dfs_labeled_edges(*a)), nx.path_graph(3), 7)  # NetworkX yields the start, then raises
    # NetworkX's Dijkstra tie rule: the first popped neighbour at the final distance is the parent
    G = nx.Graph([(0, 2), (0, 1), (2, 3), (1, 3)])
    assert nx.dijkstra_path(G, 0, 3, backend=B) == nx.dijkstra_path(G, 0, 3) == [0, 2, 3]


@pytest.mark.parametrize("block", [1, 3, 64])
def test_all_pairs_shortest_path_in_blocks_of_searches(block, monkeypatch):
    """The searches of all_pairs_shortest_path run a block of sources per kernel call: the same dicts (keys and
    paths in NetworkX's order) whatever the block, across block boundaries, with and without a cutoff."""
    from graphs.nx_backend.shortest import bfs_paths

    monkeypatch.setattr(bfs_paths, "ALL_PAIRS_BLOCK", block)
    D = nx.DiGraph(nx.scale_free_graph(150, seed=4))
    U = nx.relabel_nodes(nx.barabasi_albert_graph(130, 2, seed=1), {i: f"v{i}" for i in range(130)})
    for G in (D, U):
        for cutoff in (None, 0, 2):
            ours = list(nx.all_pairs_shortest_path(G, cutoff, backend=B))
            ref = list(nx.all_pairs_shortest_path(G, cutoff, backend="networkx"))
            assert [k for k, _ in ours] == [k for k, _ in ref]
            for (_, a), (_, b) in zip(ours, ref):
                assert list(a.items()) == list(b.items())
