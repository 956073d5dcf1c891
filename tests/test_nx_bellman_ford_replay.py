"""NetworkX's Bellman-Ford queue replayed by the backend: paths, predecessor lists and dict orders, ties included.

Where several paths are equally short, NetworkX's answer follows the order of
its queue; the backend replays that queue
(:func:`graphs.nx_backend.shortest._bf_kernels.replay_bellman_ford`) and must
answer itself -- not give the call back -- with NetworkX's answer exactly:
equal dicts in equal key order, equal lists, values of equal types.  The
graphs have small integer weights (ties everywhere), zero weights, negative
weights without negative cycles (reduced costs of random potentials), and
floats of one decimal (sums that round).  Where every shortest path is the
only one, the backend's dicts list the nodes in ``G``'s order (NetworkX's in
its queue's); where some are not, in NetworkX's order too.
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from nx_conversion import no_conversion_cache  # noqa: F401 - autouse: NetworkX's conversion cache off

nx = pytest.importorskip("networkx")

B = "semiring_paths"
SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@st.composite
def tied_graphs(draw):
    """A graph (directed or not) of ``n`` nodes whose weights make many paths equally short."""
    directed = draw(st.booleans())
    n = draw(st.integers(2, 14))
    kind = draw(st.sampled_from(["small ints", "decimals", "reduced costs"] if directed else ["small ints", "decimals"]))
    G = nx.DiGraph() if directed else nx.Graph()
    G.add_nodes_from(range(n))
    potential = draw(st.lists(st.integers(-6, 6), min_size=n, max_size=n))
    for u, v in draw(st.lists(st.tuples(st.integers(0, n - 1), st.integers(0, n - 1)), max_size=4 * n)):
        if u == v:
            continue
        if kind == "small ints":
            w = draw(st.integers(1, 3))
        elif kind == "decimals":
            w = draw(st.sampled_from([0.1, 0.2, 0.3, 0.7, 1.1]))
        else:  # w(u, v) = c + p(u) - p(v): every cycle keeps its non-negative cost c > 0
            w = draw(st.integers(1, 3)) + potential[u] - potential[v]
        G.add_edge(u, v, weight=w)
    return G


def exactly(a, b, ordered: bool = True) -> bool:
    """Equal, every number of the same type, recursively; dicts with their keys in the same order (``ordered``)."""
    if type(a) is not type(b):
        return False
    if isinstance(a, dict):
        keys = list(a) == list(b) if ordered else a.keys() == b.keys()
        return keys and all(exactly(a[k], b[k], ordered) for k in a)
    if isinstance(a, (list, tuple)):
        return len(a) == len(b) and all(exactly(x, y, ordered) for x, y in zip(a, b))
    return a == b


@SETTINGS
@given(tied_graphs(), st.data())
def test_the_backend_answers_as_networkx_among_equal_paths(G, data):
    s = data.draw(st.sampled_from(sorted(G)))
    t = data.draw(st.sampled_from(sorted(G)))
    calls = [
        (nx.single_source_bellman_ford, (G, s)),
        (nx.single_source_bellman_ford_path, (G, s)),
        (nx.bellman_ford_predecessor_and_distance, (G, s)),
        (lambda *a, backend: dict(nx.all_pairs_bellman_ford_path(*a, backend=backend)), (G,)),
    ]
    if t in nx.descendants(G, s):
        calls += [(nx.bellman_ford_path, (G, s, t)), (nx.single_source_bellman_ford, (G, s, t))]
    for f, args in calls:
        ours = f(*args, backend=B)  # answered here: no NotImplementedError
        # where every shortest path is unique the dicts list the nodes in G's order, else in NetworkX's
        assert exactly(ours, f(*args, backend="networkx"), ordered=False), (f, args)


def _fixed_graphs() -> list:
    """Deterministic graphs with equal paths: a cycle, a grid, a gnm graph of weights 1 and 2, reduced costs."""
    grid = nx.convert_node_labels_to_integers(nx.grid_2d_graph(4, 5))
    gnm = nx.gnm_random_graph(30, 90, seed=4, directed=True)
    for k, (_, _, d) in enumerate(gnm.edges(data=True)):
        d["weight"] = 1 + k % 2
    reduced = nx.gnm_random_graph(30, 90, seed=5, directed=True)
    for k, (u, v, d) in enumerate(reduced.edges(data=True)):
        d["weight"] = 1 + k % 3 + (u % 4) - (v % 4)
    return [nx.cycle_graph(6), grid, gnm, reduced]


@pytest.mark.parametrize("k", range(4))
def test_fixed_graphs_with_equal_paths(k):
    G = _fixed_graphs()[k]
    for f in (nx.single_source_bellman_ford, nx.bellman_ford_predecessor_and_distance):
        assert exactly(f(G, 0, backend=B), f(G, 0, backend="networkx")), f


def test_a_negative_cycle_is_networkx_error():
    G = nx.DiGraph([(0, 1, {"weight": 1}), (1, 2, {"weight": -3}), (2, 1, {"weight": 1})])
    for f in (nx.single_source_bellman_ford, nx.bellman_ford_predecessor_and_distance):
        with pytest.raises(nx.NetworkXUnbounded):
            f(G, 0, backend=B)


def test_zero_length_cycles_among_first_predecessors_go_back_to_networkx():
    # 1 and 2 reach each other at length 0: NetworkX's path search backtracks through the predecessor lists
    G = nx.DiGraph([(0, 1, {"weight": 1}), (0, 2, {"weight": 1}), (1, 2, {"weight": 0}), (2, 1, {"weight": 0})])
    pred, dist = nx.bellman_ford_predecessor_and_distance(G, 0, backend=B)
    assert exactly((pred, dist), nx.bellman_ford_predecessor_and_distance(G, 0, backend="networkx"))
    try:
        paths = nx.single_source_bellman_ford_path(G, 0, backend=B)
    except NotImplementedError as exc:
        assert "zero-length cycle" in str(exc)
    else:
        assert exactly(paths, nx.single_source_bellman_ford_path(G, 0, backend="networkx"))


def test_replay_on_a_barabasi_albert_graph_of_integer_weights():
    G = nx.barabasi_albert_graph(3000, 2, seed=1)
    for k, (_, _, d) in enumerate(G.edges(data=True)):
        d["weight"] = 1 + k % 5
    for f in (nx.single_source_bellman_ford, nx.bellman_ford_predecessor_and_distance):
        assert exactly(f(G, 0, backend=B), f(G, 0, backend="networkx"))
