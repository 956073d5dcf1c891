"""The semiring_paths NetworkX backend against NetworkX itself: answers, errors, dispatch, NetworkX's own tests."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from collections import defaultdict

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from nx_conversion import no_conversion_cache  # noqa: F401 - autouse: NetworkX's conversion cache off

nx = pytest.importorskip("networkx")

B = "semiring_paths"
SETTINGS = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@st.composite
def graphs_(draw, negative=False, directed=None, multigraph=None, max_n=9):
    directed = draw(st.booleans()) if directed is None else directed
    multigraph = draw(st.booleans()) if multigraph is None else multigraph
    cls = {(0, 0): nx.Graph, (1, 0): nx.DiGraph, (0, 1): nx.MultiGraph, (1, 1): nx.MultiDiGraph}[(directed, multigraph)]
    n = draw(st.integers(1, max_n))
    labels = draw(st.sampled_from(["int", "str", "mixed"]))
    names = {
        "int": list(range(n)),
        "str": [f"v{i}" for i in range(n)],
        "mixed": [(i, "x") if i % 2 else str(i) for i in range(n)],
    }[labels]
    order = draw(st.permutations(names))
    G = cls()
    G.add_nodes_from(order)  # node order differs from label order
    low = -3 if negative else 0
    edges = draw(
        st.lists(
            st.tuples(st.sampled_from(names), st.sampled_from(names), st.none() | st.integers(low, 6)), max_size=3 * n
        )
    )
    for u, v, w in edges:
        if w is None:
            G.add_edge(u, v)  # missing weight: NetworkX reads 1
        else:
            G.add_edge(u, v, weight=w, capacity=abs(w))
    return G


def outcome(f, *args, backend, **kwargs):
    """``("ok", result)`` with generators materialised, or ``("raise", type, message)``."""
    try:
        r = f(*args, backend=backend, **kwargs)
        if hasattr(r, "__next__"):
            r = list(r)
        return ("ok", r)
    except Exception as exc:  # noqa: BLE001 - the exception is the answer compared
        return ("raise", type(exc), str(exc))


def same(f, *args, **kwargs):
    ours = outcome(f, *args, backend=B, **kwargs)
    theirs = outcome(f, *args, backend="networkx", **kwargs)
    if isinstance(ours[1], np.ndarray):
        np.testing.assert_array_equal(ours[1], theirs[1])
    else:
        assert ours == theirs
    return ours


def has_negative_cycle(G):
    return nx.negative_edge_cycle(G) if len(G) else False


@SETTINGS
@given(graphs_(negative=True))
def test_floyd_warshall_numpy_and_dict(G):
    assert nx.floyd_warshall_numpy(G, backend=B).dtype == np.float64
    same(nx.floyd_warshall_numpy, G)  # negative cycles included: NetworkX's own recurrence runs then
    same(nx.floyd_warshall_numpy, G, nodelist=list(reversed(list(G))), weight=None)
    if not has_negative_cycle(G) and not any(u == v and d.get("weight", 1) < 0 for u, v, d in G.edges(data=True)):
        r = same(nx.floyd_warshall, G)[1]
        some = next(iter(r.values()))
        assert isinstance(some, defaultdict) and some["not a node"] == float("inf")


@SETTINGS
@given(graphs_(), st.none() | st.integers(0, 3))
def test_unweighted_lengths(G, cutoff):
    s = next(iter(G))
    same(nx.single_source_shortest_path_length, G, s, cutoff=cutoff)
    same(nx.all_pairs_shortest_path_length, G, cutoff=cutoff)
    same(nx.single_source_shortest_path_length, G, "missing")
    for t in list(G)[:3] + ["missing"]:
        same(nx.has_path, G, s, t)


@SETTINGS
@given(graphs_(), st.none() | st.integers(0, 8))
def test_dijkstra_lengths(G, cutoff):
    s = next(iter(G))
    r = same(nx.single_source_dijkstra_path_length, G, s, cutoff=cutoff)[1]
    assert all(type(x) is int for x in r.values())  # integer weights: Python ints, as NetworkX's
    same(nx.single_source_dijkstra_path_length, G, s, weight=None)
    same(nx.all_pairs_dijkstra_path_length, G, cutoff=cutoff)
    same(nx.single_source_dijkstra_path_length, G, "missing")


@SETTINGS
@given(graphs_(negative=True))
def test_bellman_ford_lengths_and_negative_cycles(G):
    s = next(iter(G))
    r = same(nx.single_source_bellman_ford_path_length, G, s)
    if r[0] == "raise":
        assert r[1] is nx.NetworkXUnbounded
    same(nx.single_source_bellman_ford_path_length, G, "missing")


@SETTINGS
@given(
    graphs_(negative=True), st.sampled_from(["dijkstra", "bellman-ford", "no-such"]), st.sampled_from([None, "weight"])
)
def test_shortest_path_length_every_combination(G, method, weight):
    nodes = list(G)
    if weight and method == "dijkstra":
        for _, _, d in G.edges(data=True):
            d["weight"] = abs(d.get("weight", 1))
    s, t = nodes[0], nodes[-1]
    for args in [(), (s,), (None, t), (s, t), (s, s), ("missing",), (None, "missing"), (s, "missing"), ("missing", s)]:
        same(nx.shortest_path_length, G, *args, weight=weight, method=method)


@SETTINGS
@given(graphs_(), st.booleans(), st.none() | st.integers(0, 3))
def test_bfs_edges_in_networkx_order(G, reverse, depth_limit):
    s = next(iter(G))
    if not (reverse and G.is_directed()):
        same(nx.bfs_edges, G, s, reverse=reverse, depth_limit=depth_limit)
    same(nx.bfs_edges, G, "missing")


@SETTINGS
@given(graphs_())
def test_components(G):
    if G.is_directed():
        same(nx.strongly_connected_components, G)  # the same sets in the same (sinks-first) order
        same(nx.connected_components, G)  # NetworkXNotImplemented, as NetworkX
    else:
        same(nx.connected_components, G)


@SETTINGS
@given(graphs_(negative=True, directed=False), st.sampled_from(["kruskal", "prim", "boruvka"]))
def test_minimum_spanning_tree(G, algorithm):
    G.graph["name"] = "g"
    for i, v in enumerate(G):
        G.nodes[v]["i"] = i
    if G.is_multigraph() and algorithm == "boruvka":
        assert same(nx.minimum_spanning_tree, G, algorithm=algorithm)[1] is nx.NetworkXNotImplemented
        return
    T = nx.minimum_spanning_tree(G, algorithm=algorithm, backend=B)
    R = nx.minimum_spanning_tree(G, algorithm=algorithm, backend="networkx")
    assert type(T) is type(R) and T.graph == R.graph and dict(T.nodes(data=True)) == dict(R.nodes(data=True))
    assert T.size(weight="weight") == R.size(weight="weight")
    assert nx.number_connected_components(T) == nx.number_connected_components(G)
    assert nx.is_forest(T) and T.number_of_edges() == R.number_of_edges()
    if algorithm == "kruskal":  # the very same tree, data included
        assert T._adj == R._adj


def test_minimum_spanning_tree_errors_and_nan():
    G = nx.Graph([(0, 1, {"weight": float("nan")}), (1, 2, {"weight": 1})])
    same(nx.minimum_spanning_tree, G, algorithm="nope")
    assert same(nx.minimum_spanning_tree, G)[1] is ValueError
    T = nx.minimum_spanning_tree(G, ignore_nan=True, backend=B)
    assert list(T.edges(data=True)) == [(1, 2, {"weight": 1})]
    with pytest.raises(nx.NetworkXNotImplemented):
        nx.minimum_spanning_tree(nx.DiGraph([(0, 1)]), backend=B)


@SETTINGS
@given(graphs_(multigraph=False))
def test_flow_values(G):
    nodes = list(G)
    for f in (nx.maximum_flow_value, nx.minimum_cut_value):
        same(f, G, nodes[0], nodes[-1])
        same(f, G, nodes[0], "missing")
    # missing capacities are infinite: unbounded exactly where NetworkX says so
    H = G.copy()
    for _, _, d in H.edges(data=True):
        d.pop("capacity", None) if d.get("weight", 0) == 3 else None
    same(nx.maximum_flow_value, H, nodes[0], nodes[-1])


def test_flow_refusals_fall_back():
    G = nx.MultiDiGraph([(0, 1)])
    same(nx.maximum_flow_value, G, 0, 1)
    D = nx.DiGraph([(0, 1, {"capacity": 2})])
    # NetworkX's own algorithms all compute a maximum flow: the value is the same whichever is passed
    assert nx.maximum_flow_value(D, 0, 1, flow_func=nx.flow.edmonds_karp, backend=B) == 2
    with pytest.raises(NotImplementedError):  # cutoff may stop an algorithm below the maximum
        nx.maximum_flow_value(D, 0, 1, flow_func=nx.flow.edmonds_karp, cutoff=1, backend=B)
    with pytest.raises(NotImplementedError):  # a function of the user's: its answer is its own
        nx.maximum_flow_value(D, 0, 1, flow_func=lambda *a, **k: None, backend=B)


def test_can_run_refusals_and_should_run():
    from graphs.nx_backend.interface import backend_interface as bi

    G = nx.path_graph(3)
    assert bi.can_run("single_source_dijkstra_path_length", (G, 0), {"weight": lambda u, v, d: 1}) is True
    assert bi.can_run("floyd_warshall_numpy", (G,), {"weight": lambda u, v, d: 1}) == "weight given as a function"
    assert bi.can_run("bfs_edges", (nx.DiGraph(G), 0), {"reverse": True}) is True  # G._pred order is kept
    assert bi.can_run("bfs_edges", (G, 0), {"sort_neighbors": sorted}) == "sort_neighbors is an arbitrary callable"
    assert bi.can_run("bfs_edges", (G, 0), {"reverse": True}) is True
    assert bi.can_run("pagerank", (G,), {}) == "pagerank is not implemented by semiring_paths"
    assert isinstance(bi.should_run("floyd_warshall_numpy", (G,), {}), str)
    assert bi.should_run("floyd_warshall_numpy", (nx.path_graph(100),), {}) is True
    big = nx.path_graph(5000)
    assert bi.should_run("single_source_dijkstra_path_length", (big, 0), {}) is True
    for name in ("is_connected", "has_path"):
        assert "NetworkX" in bi.should_run(name, (big, 0), {})  # one search in NetworkX: stays there
        assert bi.should_run(name, (bi.convert_from_nx(big), 0), {}) is True  # already converted: runs here
    assert bi.should_run("single_source_shortest_path_length", (big, 0), {}) is True  # 0 reaches every arc
    assert "NetworkX" in bi.should_run("single_source_shortest_path_length", (nx.relabel_nodes(big, str), "0"), {})
    assert bi.should_run("single_source_dijkstra_path_length", (nx.path_graph(499), 0), {}) != True  # noqa: E712
    # a whole-graph pass: served where the compiled reader converts the labels (ints, strings, tuples of ints)
    for labels in (big, nx.relabel_nodes(big, str), nx.relabel_nodes(big, lambda v: (v // 100, v % 100))):
        assert bi.should_run("connected_components", (labels,), {}) is True
    tuples = nx.relabel_nodes(big, lambda v: (str(v), 0))
    assert "NetworkX" in bi.should_run("connected_components", (tuples,), {})
    assert "NetworkX" in bi.should_run("connected_components", (nx.relabel_nodes(big, float),), {})
    assert bi.should_run("connected_components", (bi.convert_from_nx(tuples),), {}) is True
    # a weight function: NetworkX's own code answers, with or without the backend configured
    f = lambda u, v, d: 2  # noqa: E731
    with nx.config.backend_priority(algos=[B]):
        assert nx.single_source_dijkstra_path_length(G, 0, weight=f) == {0: 0, 1: 2, 2: 4}


def test_dijkstra_negative_weights_go_back_to_networkx():
    G = nx.DiGraph([(0, 1, {"weight": 2}), (1, 2, {"weight": -1})])
    with pytest.raises(NotImplementedError):
        nx.single_source_dijkstra_path_length(G, 0, backend=B)
    expected = nx.single_source_dijkstra_path_length(G, 0)
    G.add_nodes_from(range(3, 3100))  # large enough for should_run
    with nx.config.backend_priority(algos=[B]):
        assert nx.single_source_dijkstra_path_length(G, 0) == expected


def test_selected_through_backend_priority(monkeypatch):
    from graphs.nx_backend import interface

    calls = []
    real = interface.shortest_paths.floyd_warshall_numpy
    monkeypatch.setattr(
        interface.backend_interface, "floyd_warshall_numpy", lambda *a, **k: calls.append(1) or real(*a, **k)
    )
    G = nx.gnp_random_graph(60, 0.2, seed=3, directed=True)
    expected = nx.floyd_warshall_numpy(G)
    assert not calls
    with nx.config.backend_priority(algos=[B]):
        np.testing.assert_array_equal(nx.floyd_warshall_numpy(G), expected)
    assert calls == [1]
    before = nx.config.backend_priority.algos
    nx.config.backend_priority.algos = [B]
    try:
        nx.floyd_warshall_numpy(nx.path_graph(3))  # below the crossover: should_run keeps it on NetworkX
        assert calls == [1]
    finally:
        nx.config.backend_priority.algos = before


def test_selected_through_the_environment_variable():
    code = (
        "import networkx as nx, numpy as np\n"
        "from graphs.nx_backend import interface\n"
        "seen = []\n"
        "real = interface.backend_interface.floyd_warshall_numpy\n"
        "interface.backend_interface.floyd_warshall_numpy = lambda *a, **k: seen.append(1) or real(*a, **k)\n"
        "G = nx.gnp_random_graph(60, 0.3, seed=1, directed=True)\n"
        "D = nx.floyd_warshall_numpy(G)\n"
        "assert seen == [1], seen\n"
        "assert np.array_equal(D, nx.floyd_warshall_numpy(G, backend='networkx'))\n"
        "print(nx.config.backend_priority.algos)\n"
    )
    env = {**os.environ, "NETWORKX_BACKEND_PRIORITY": B}
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "['semiring_paths']"


def test_backend_graph_round_trip_and_info():
    import _nx_semiring_paths
    from graphs.nx_backend.convert import convert_from_nx, convert_to_nx

    G = nx.MultiDiGraph()
    G.add_edge("a", "b", key=7, weight=3)
    G.add_edge("a", "b", weight=1)
    H = convert_from_nx(G, edge_attrs={"weight": 1}, preserve_edge_attrs=True, preserve_node_attrs=True)
    assert H.__networkx_backend__ == B and H.is_directed() and H.is_multigraph()
    assert H.values["weight"].tolist() == [1]  # parallel edges: the minimum
    assert nx.utils.edges_equal(convert_to_nx(H).edges(keys=True, data=True), G.edges(keys=True, data=True))
    assert nx.single_source_dijkstra_path_length(H, "a") == {"a": 0, "b": 1}  # a backend graph runs here directly
    info = _nx_semiring_paths.get_info()
    assert set(info["functions"]) == set(__import__("graphs.nx_backend.interface").nx_backend.interface.FUNCTIONS)
    assert "graphs" not in subprocess.run(
        [
            sys.executable,
            "-c",
            "import sys, networkx; print(sorted(m for m in sys.modules if m in ('graphs', 'numba')))",
        ],
        capture_output=True,
        text=True,
    ).stdout.replace("[]", "")


def test_importing_graphs_does_not_import_networkx():
    code = "import sys, graphs; print('networkx' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300)
    assert out.stdout.strip() == "False", out.stderr


NX_SUITE = [
    "networkx.algorithms.shortest_paths",
    "networkx.algorithms.components",
    "networkx.algorithms.tree",
    "networkx.algorithms.flow",
    "networkx.algorithms.traversal",
    "networkx.algorithms.centrality.tests.test_betweenness_centrality",
    "networkx.algorithms.centrality.tests.test_closeness_centrality",
    "networkx.algorithms.centrality.tests.test_harmonic_centrality",
    "networkx.algorithms.tests.test_distance_measures",
    "networkx.algorithms.tests.test_isolate",
    "networkx.algorithms.tests.test_dag",
    "networkx.algorithms.tests.test_simple_paths",
    "networkx.algorithms.simple_paths",
]


@pytest.mark.networkx_suite
def test_networkx_own_tests_through_the_backend(tmp_path):
    """NetworkX's test modules of the implemented algorithms, every dispatchable call converted to this backend."""
    env = {**os.environ, "NETWORKX_TEST_BACKEND": B, "NETWORKX_FALLBACK_TO_NX": "True"}
    cmd = [
        sys.executable,
        "-m",
        "pytest",
        "-q",
        "-p",
        "no:cacheprovider",
        "-o",
        "addopts=",
        "--doctest-modules",
        "--rootdir",
        str(tmp_path),
    ]
    out = subprocess.run(
        [*cmd, "--pyargs", *NX_SUITE], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=600
    )
    summary = out.stdout.strip().splitlines()[-1]
    counts = {k: int(v) for v, k in re.findall(r"(\d+) (passed|failed|errors?|xfailed|skipped|xpassed)", summary)}
    print(f"NetworkX's own tests through semiring_paths: {counts}")
    assert out.returncode == 0, out.stdout[-5000:]
    assert counts.get("failed", 0) == 0 and counts.get("error", 0) == counts.get("errors", 0) == 0
    assert counts["passed"] > 600


def test_integer_weights_at_int64s_minimum_go_back_to_networkx():
    """Path sums beyond int64 are NetworkX's (exact Python ints); the range check must not wrap at -2**63."""
    G = nx.DiGraph([(0, 1, {"weight": -(2**63)}), (1, 2, {"weight": -5})])
    with pytest.raises(NotImplementedError):
        nx.single_source_bellman_ford_path_length(G, 0, backend=B)
    assert nx.single_source_bellman_ford_path_length(G, 0) == {0: 0, 1: -(2**63), 2: -(2**63) - 5}
    H = nx.DiGraph([(0, 1, {"weight": 7}), (1, 2, {"weight": -5})])  # small integers: computed here, as ints
    assert nx.single_source_bellman_ford_path_length(H, 0, backend=B) == {0: 0, 1: 7, 2: 2}
