"""``should_run``'s rules measured on graph families (benchmarks/nx_dispatch_sweep.py), on graphs of their sizes.

* a call made by NetworkX's own code of a function left on NetworkX stays
  there (``is_strongly_connected`` takes the first of
  ``strongly_connected_components``: converting the graph for it lost 0.26x);
* one-source searches told to stop (a Dijkstra target, a cutoff, a depth
  limit from a source) stay on NetworkX; without them they are served;
* ``goldberg_radzik`` on integer or few-decimal weights and the flows on
  float capacities whose sums round stay on NetworkX (the backend would
  convert, then give the call back); on other values they are served.

Automatic dispatch is checked through the conversions NetworkX asks the
backend for (none: NetworkX ran the call).
"""

from __future__ import annotations

import numpy as np
import pytest

nx = pytest.importorskip("networkx")

import inspect  # noqa: E402
import random  # noqa: E402

from graphs.nx_backend.dispatch_hints import Binder  # noqa: E402
from graphs.nx_backend.interface import FUNCTIONS, LINEAR_ON_NETWORKX, backend_interface  # noqa: E402

B = "semiring_paths"


@pytest.fixture(autouse=True)
def _automatic_dispatch():
    cache, priority = nx.config.cache_converted_graphs, nx.config.backend_priority.algos
    nx.config.cache_converted_graphs = False
    nx.config.backend_priority = [B]
    yield
    nx.config.cache_converted_graphs = cache
    nx.config.backend_priority = priority


@pytest.fixture
def conversions():
    """The names of the functions the backend converted a graph for, as automatic dispatch runs."""
    names: list = []
    convert = type(backend_interface).convert_from_nx

    def spy(G, *args, **kwargs):
        names.append(kwargs.get("name"))
        return convert(G, *args, **kwargs)

    backend_interface.convert_from_nx = spy
    yield names
    del backend_interface.convert_from_nx


def oriented(G, seed=1):
    rng = np.random.default_rng(seed)
    D = nx.DiGraph()
    D.add_nodes_from(G)
    D.add_edges_from((v, u) if f else (u, v) for (u, v), f in zip(G.edges(), (rng.random(G.number_of_edges()) < 0.5)))
    return D


@pytest.fixture(scope="module")
def ba():
    return nx.barabasi_albert_graph(5000, 2, seed=1)  # 10^4 edges


def test_calls_from_networkx_code_of_a_declined_function_stay_there(ba, conversions):
    D = oriented(ba)
    assert "is_strongly_connected" in LINEAR_ON_NETWORKX and "is_connected" in LINEAR_ON_NETWORKX
    assert nx.is_strongly_connected(D) is False and nx.is_connected(ba) is True
    assert conversions == []  # neither strongly_connected_components nor connected_components converted
    assert len(list(nx.strongly_connected_components(D))) == nx.number_strongly_connected_components(D, backend=B)
    assert conversions == ["strongly_connected_components", "number_strongly_connected_components"]
    reason = backend_interface.should_run("strongly_connected_components", (D,), {})
    assert reason is True  # called here, not from NetworkX's code


def test_one_source_searches_told_to_stop_stay_on_networkx(ba, conversions):
    G = ba.copy()
    for k, (_, _, d) in enumerate(G.edges(data=True)):
        d["weight"] = 1 + k % 7
    run = backend_interface.should_run
    assert run("single_source_dijkstra", (G, 0), {}) is True
    assert run("multi_source_dijkstra", (G, {0, 1}), {}) is True
    assert "target" in run("single_source_dijkstra", (G, 0), {"target": 5})
    assert "target" in run("multi_source_dijkstra", (G, {0, 1}, 5), {})
    assert "cutoff" in run("single_source_dijkstra_path_length", (G, 0, 3), {})
    assert "cutoff" in run("dijkstra_predecessor_and_distance", (G, 0), {"cutoff": 3})
    assert run("bfs_edges", (G, 0), {}) is True and "depth limit" in run("bfs_edges", (G, 0), {"depth_limit": 2})
    assert run("dfs_edges", (G,), {"depth_limit": 2}) is True  # every node starts a search: the whole graph
    assert "depth limit" in run("dfs_edges", (G, 0, 2), {})
    assert run("bellman_ford_path", (G, 0, 5), {}) is True  # NetworkX's Bellman-Ford relaxes everything anyway
    assert nx.dijkstra_path(G, 0, 5) == nx.dijkstra_path(G, 0, 5, backend="networkx")
    assert nx.single_source_dijkstra_path_length(G, 0, cutoff=2) == \
        nx.single_source_dijkstra_path_length(G, 0, cutoff=2, backend="networkx")
    assert conversions == []
    nx.single_source_dijkstra_path_length(G, 0)
    assert conversions == ["single_source_dijkstra_path_length"]


def test_sampled_edge_values_keep_the_calls_the_backend_would_give_back(ba, conversions):
    G = ba.copy()
    run = backend_interface.should_run
    rng = np.random.default_rng(2)
    real = rng.uniform(1, 100, G.number_of_edges()).tolist()
    for kind, values in [("int", [1 + k % 9 for k in range(G.number_of_edges())]),
                         ("decimal", np.round(real, 2).tolist()), ("real", real), ("dyadic", [k % 8 / 4 + 0.5 for k in
                                                                                            range(len(real))])]:
        for (_, _, d), w in zip(G.edges(data=True), values):
            d["weight"] = w
        gr = run("goldberg_radzik", (G, 0), {})
        flow = run("maximum_flow_value", (G, 0, 1), {"capacity": "weight"})
        assert (gr is True) == (kind == "real"), (kind, gr)
        assert (flow is True) == (kind in ("int", "dyadic")), (kind, flow)
        assert run("minimum_cut", (G, 0, 1, "weight"), {}) == flow
    assert "Python set" in run("goldberg_radzik", (ba, 0), {})  # no weights: every edge 1
    # through automatic dispatch: NetworkX answered, nothing was converted
    for (_, _, d), w in zip(G.edges(data=True), np.round(real, 2).tolist()):
        d["weight"] = w
    assert nx.goldberg_radzik(G, 0) == nx.goldberg_radzik(G, 0, backend="networkx")
    assert nx.maximum_flow_value(G, 0, 1, capacity="weight") == \
        nx.maximum_flow_value(G, 0, 1, capacity="weight", backend="networkx")
    assert conversions == []


def test_the_binder_binds_as_inspect_does():
    rng = random.Random(1)
    for name, f in FUNCTIONS.items():
        sig = inspect.signature(f)
        binder = Binder(sig)
        pool = [*sig.parameters, "zz", "kwargs"]
        for _ in range(60):
            args = tuple(range(rng.randint(0, len(sig.parameters) + 1)))
            kwargs = dict.fromkeys(rng.sample(pool, rng.randint(0, min(4, len(pool)))), 1)
            try:
                expected = dict(sig.bind(*args, **kwargs).arguments)
            except TypeError:
                expected = None
            assert binder.bind(args, kwargs) == expected, (name, args, kwargs)


def _reach_graph(reached: int, other: int) -> nx.DiGraph:
    """A directed path 0 -> 1 -> ... of ``reached`` nodes, and a cycle of ``other`` nodes that 0 cannot reach."""
    G = nx.path_graph(reached, create_using=nx.DiGraph)
    nx.add_cycle(G, range(reached, reached + other))
    for k, (_, _, d) in enumerate(G.edges(data=True)):
        d["weight"] = 1 + k % 3
    return G


@pytest.mark.parametrize(("name", "fraction"), [("single_source_shortest_path_length", 0.4), ("descendants", 0.4),
                                                ("bfs_edges", 0.4), ("single_source_dijkstra_path_length", 0.25),
                                                ("single_source_bellman_ford", 0.2)])
def test_one_source_searches_are_served_where_the_source_reaches_enough_of_the_graph(name, fraction):
    run = backend_interface.should_run
    total = 2000
    below, above = int(fraction * total) - 20, int(fraction * total) + 20
    assert run(name, (_reach_graph(below, total - below), 0), {}).startswith(f"the source reaches {below} of")
    assert run(name, (_reach_graph(above, total - above), 0), {}) is True
    G = _reach_graph(above, total - above)
    assert isinstance(run(name, (G, above - 1), {}), str)  # the end of the path reaches itself alone
    assert isinstance(run(name, (nx.relabel_nodes(G, str), "0"), {}), str if name.startswith("single_source_shortest")
                      else bool)  # other labels: not counted, the earlier rule
    H = _reach_graph(1800, 200)
    assert run("ancestors", (H, 1799), {}) is True and isinstance(run("ancestors", (H, 0), {}), str)  # backwards


def test_automatic_dispatch_converts_only_where_the_source_reaches_enough(conversions):
    small, large = _reach_graph(200, 1800), _reach_graph(1800, 200)
    assert nx.single_source_shortest_path_length(small, 0) == nx.single_source_shortest_path_length(small, 0,
                                                                                                     backend="networkx")
    assert nx.descendants(small, 0) == nx.descendants(small, 0, backend="networkx")
    assert conversions == []
    assert nx.single_source_shortest_path_length(large, 0) == nx.single_source_shortest_path_length(large, 0,
                                                                                                     backend="networkx")
    assert conversions == ["single_source_shortest_path_length"]


def test_average_shortest_path_length_of_a_visibly_disconnected_graph_stays_on_networkx(conversions):
    """NetworkX raises at once where the graph is not (strongly) connected; a node without out-arcs, in-arcs or
    neighbours shows it, and the call is not converted (it was, and lost 0.39x on scale_free(1000))."""
    D = nx.DiGraph(nx.scale_free_graph(1000, seed=3))
    D.remove_edges_from(list(nx.selfloop_edges(D)))
    run = backend_interface.should_run
    assert "not (strongly) connected" in run("average_shortest_path_length", (D,), {})
    with pytest.raises(nx.NetworkXError, match="not strongly connected"):
        nx.average_shortest_path_length(D)
    assert conversions == []
    U = nx.path_graph(600)
    U.add_node("alone")
    assert "not (strongly) connected" in run("average_shortest_path_length", (U,), {})
    C = nx.cycle_graph(600, create_using=nx.DiGraph)  # one way round: strongly connected, served
    assert run("average_shortest_path_length", (C,), {}) is True
    assert nx.average_shortest_path_length(C) == 300.0  # (1 + 2 + ... + 599) / 599: each ordered pair once
    assert conversions == ["average_shortest_path_length"]


@pytest.mark.parametrize("name", ["single_target_shortest_path", "single_target_shortest_path_length"])
def test_searches_to_a_target_are_served_where_enough_nodes_reach_it(name):
    """Searches to a target in a directed graph need as many nodes reaching it as REACH_MIN_NODES (NetworkX builds the same lists and
    the backend reads the predecessor dicts too): a graph with fewer nodes stays on NetworkX without a count,
    a larger one is served where that many reach the target, and not where fewer do."""
    from graphs.nx_backend.interface import REACH_MIN_NODES

    run = backend_interface.should_run
    fewest = REACH_MIN_NODES[name]
    few = _reach_graph(fewest // 2, fewest // 2 - 1)
    assert "a search to a target is served where" in run(name, (few, fewest // 2 - 1), {})
    G = _reach_graph(fewest + 10, fewest // 4)
    assert run(name, (G, fewest + 9), {}) is True  # the path's last node: every node of the path reaches it
    assert run(name, (G, fewest - 100), {}).startswith(f"the source reaches {fewest - 99} of")  # just too few
    assert run(name, (G, 5), {}).startswith("the source reaches 6 of")
    assert run(name, (nx.path_graph(2000), 0), {}) is True  # undirected: the rule of searches from a source


def test_transitive_closure_of_an_undirected_graph_is_not_converted(conversions):
    """The backend gives an undirected transitive closure back to NetworkX; can_run says so before any conversion
    (it was converted, then given back: 0.97x on barabasi_albert(1000, 3))."""
    U = nx.Graph([(2 * i, 2 * i + 1) for i in range(400)])  # 800 nodes: large enough to be served if it could
    assert "undirected closure" in backend_interface.can_run("transitive_closure", (U,), {})
    assert backend_interface.can_run("transitive_closure", (nx.DiGraph(U),), {}) is True
    assert backend_interface.should_run("transitive_closure", (nx.DiGraph(U),), {}) is True
    C = nx.transitive_closure(U)  # automatic dispatch
    assert nx.utils.edges_equal(C.edges, nx.transitive_closure(U, backend="networkx").edges)
    assert conversions == []
