"""The semiring_paths NetworkX backend computes exactly NetworkX's answers, or declines.

Every function the backend implements runs on random small graphs (directed or
not, multigraphs where the function takes them) whose weights and capacities
are drawn from small ints, integers beyond int64, floats (some whose sums
round, some beyond 2**53), ``inf``, ``-inf``, NaN, missing attributes, ``None``,
bools and other number types, and is compared with NetworkX itself:

* through automatic dispatch (``backend_priority`` = the backend, falling back
  to NetworkX, ``should_run`` forced) the result must be NetworkX's exactly:
  values and their Python types (``int`` vs ``float``; NaN equals NaN; the
  sign of a zero is not compared), the same exception type where NetworkX
  raises;
* called with ``backend="semiring_paths"`` the result must be the same, or
  ``NotImplementedError`` (the backend declined, so NetworkX would run);
* on plain inputs (small non-negative ints, floats whose sums are exact) the
  backend must not decline at all.

Dict order and which of several equally light trees Prim or Boruvka returns
are not compared (NetworkX's depend on the order of its heap or of a set); the
trees' weights are.
"""

from __future__ import annotations

import math
import warnings
from contextlib import contextmanager
from decimal import Decimal
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from nx_conversion import no_conversion_cache_for_module  # noqa: F401 - autouse: NetworkX's conversion cache off

nx = pytest.importorskip("networkx")

B = "semiring_paths"
INF, NAN = float("inf"), float("nan")
SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))
pytestmark = pytest.mark.filterwarnings("ignore::RuntimeWarning")  # NetworkX's own inf - inf in floyd_warshall_numpy

ABSENT = object()  # an edge without the attribute

SMALL = st.integers(-3, 6)
HUGE = st.sampled_from([2**63 - 1, 2**63, 2**63 + 1, 2**63 + 7, -(2**63), -(2**63) - 1, 2**64, 2**62 + 1, 2**70 + 3])
FLOATS = st.sampled_from(
    [0.5, 2.5, 0.1, 0.2, 0.3, 1.7, -1.5, -0.25, 3.0, 0.0, -0.0, 1e300, 1.7e308, 2.0**53, 2.0**60 + 2.0**9,
     2.0**-1022, 5e-324, 2.0**-130]
) | st.floats(-1e3, 1e3, allow_nan=False, allow_infinity=False)
SPECIAL = st.sampled_from([INF, -INF, NAN])
EXOTIC = st.sampled_from([Fraction(1, 3), Decimal("2.5"), np.int64(3), np.float64(0.5), np.float32(1.5), None, True, False])

PROFILES = {
    "small ints": SMALL.filter(lambda x: x >= 0) | st.just(ABSENT),
    "signed ints": SMALL | st.just(ABSENT),
    "big ints": SMALL | HUGE | st.just(ABSENT),
    "floats": FLOATS,
    "floats and ints": FLOATS | SMALL | st.just(ABSENT),
    "special": SMALL | FLOATS | SPECIAL | st.just(ABSENT),
    "anything": SMALL | HUGE | FLOATS | SPECIAL | EXOTIC | st.just(ABSENT),
}
CLASSES = {(0, 0): nx.Graph, (1, 0): nx.DiGraph, (0, 1): nx.MultiGraph, (1, 1): nx.MultiDiGraph}


@st.composite
def graphs(draw, directed=None, multigraph=None, profile=None, min_n=1, max_n=6):
    """A small graph with ``weight`` and ``capacity`` drawn from one value profile (node order != label order)."""
    directed = draw(st.booleans()) if directed is None else directed
    multigraph = draw(st.booleans()) if multigraph is None else multigraph
    profile = draw(st.sampled_from(sorted(PROFILES))) if profile is None else profile
    values = PROFILES[profile]
    n = draw(st.integers(min_n, max_n))
    labels = draw(st.sampled_from(["int", "mixed"]))
    names = list(range(n)) if labels == "int" else [(i, "x") if i % 2 else str(i) for i in range(n)]
    G = CLASSES[(directed, multigraph)]()
    G.add_nodes_from(draw(st.permutations(names)))
    for u, v, w, c in draw(st.lists(st.tuples(st.integers(0, max(n - 1, 0)), st.integers(0, max(n - 1, 0)),
                                              values, values), max_size=3 * n if n else 0)):
        attrs = {k: x for k, x in (("weight", w), ("capacity", c)) if x is not ABSENT}
        G.add_edge(names[u], names[v], **attrs)
    if n > 1 and draw(st.booleans()):  # a view: NetworkX's filtered adjacency
        G = G.subgraph(list(G)[1:]) if draw(st.booleans()) else nx.restricted_view(G, [], list(G.edges)[:1])
    return G


CUTOFFS = st.none() | st.integers(-1, 4) | st.sampled_from([1.5, 0.5, INF, NAN, 2.0])


# Exact comparison ---------------------------------------------------------------------------------


def exact(a, b) -> bool:
    """Equal values of the same Python types, recursively (NaN equals NaN; -0.0 equals 0.0)."""
    if type(a) is not type(b):
        return False
    if isinstance(a, float | np.floating):
        return bool(a == b) or (math.isnan(a) and math.isnan(b))
    if isinstance(a, np.ndarray):
        return a.dtype == b.dtype and a.shape == b.shape and bool(np.array_equal(a, b, equal_nan=True))
    if isinstance(a, dict):
        return a.keys() == b.keys() and all(exact(a[k], b[k]) for k in a)
    if isinstance(a, list | tuple):
        return len(a) == len(b) and all(map(exact, a, b))
    if isinstance(a, nx.Graph):
        return same_graph(a, b)
    return a == b


def same_graph(T, R) -> bool:
    """The same graph: class, graph data, nodes with data in order, adjacency with edge data in order."""
    return (
        type(T) is type(R)
        and T.graph == R.graph
        and exact(list(T.nodes(data=True)), list(R.nodes(data=True)))
        and exact([(u, list(nbrs.items())) for u, nbrs in T._adj.items()],
                  [(u, list(nbrs.items())) for u, nbrs in R._adj.items()])
    )


def outcome(f, *args, **kwargs):
    """``("ok", result)`` with generators materialised, or ``("raise", exception type)``."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        try:
            r = f(*args, **kwargs)
            if hasattr(r, "__next__"):
                r = list(r)
            return ("ok", r)
        except Exception as exc:  # noqa: BLE001 - the exception type is the answer compared
            return ("raise", type(exc))


@contextmanager
def automatic():
    """NetworkX tries the backend first for every call (whatever the size) and falls back to itself."""
    from graphs.nx_backend.interface import backend_interface

    cfg = nx.config
    saved = (list(cfg.backend_priority.algos), list(cfg.backend_priority.generators), cfg.fallback_to_nx)
    backend_interface.should_run = lambda name, args, kwargs: True
    cfg.backend_priority.algos = [B]
    cfg.backend_priority.generators = [B]
    cfg.fallback_to_nx = True
    try:
        yield
    finally:
        cfg.backend_priority.algos, cfg.backend_priority.generators, cfg.fallback_to_nx = saved
        del backend_interface.should_run


def show(args) -> str:
    """The arguments, graphs written out (class, nodes, edges with data)."""
    return ", ".join(
        f"{type(a).__name__}(nodes={list(a)}, edges={list(a.edges(data=True))})" if isinstance(a, nx.Graph) else repr(a)
        for a in args
    )


def agree(f, *args, compare=exact, must_run=False, **kwargs):
    """Check ``f`` through the backend against NetworkX; returns NetworkX's outcome and whether the backend ran."""
    ref = outcome(f, *args, backend="networkx", **kwargs)
    with automatic():
        auto = outcome(f, *args, **kwargs)
    ours = outcome(f, *args, backend=B, **kwargs)
    assert auto[0] == ref[0] and (compare(auto[1], ref[1]) if ref[0] == "ok" else auto[1] is ref[1]), (
        f"{f.__name__}({show(args)}, **{kwargs}): automatic dispatch gave {auto}, NetworkX {ref}"
    )
    declined = ours == ("raise", NotImplementedError) and ref != ours
    if not declined:
        assert ours[0] == ref[0] and (compare(ours[1], ref[1]) if ref[0] == "ok" else ours[1] is ref[1]), (
            f"{f.__name__}({show(args)}, **{kwargs}): the backend gave {ours}, NetworkX {ref}"
        )
    assert not (must_run and declined), f"{f.__name__}({show(args)}, **{kwargs}): the backend declined a plain input"
    return ref, not declined


def some_nodes(G, data):
    nodes = list(G)
    return data.draw(st.sampled_from(nodes)), data.draw(st.sampled_from(nodes + ["missing"]))


def plain(G) -> bool:
    """Weights every engine takes: small non-negative ints (or missing), or floats whose sums are exact, no NaN."""
    vals = [d.get("weight", 1) for _, _, d in G.edges(data=True)]
    if all(type(v) is int and 0 <= v <= 6 for v in vals):
        return True
    return all(type(v) is float and v in (0.5, 2.5, 3.0, 0.0) for v in vals) and all(
        "weight" in d for _, _, d in G.edges(data=True)
    )


# The properties ----------------------------------------------------------------------------------


@SETTINGS
@given(graphs(min_n=0), st.sampled_from(["weight", None]))
def test_dense_all_pairs(G, weight):
    agree(nx.floyd_warshall_numpy, G, weight=weight, must_run=weight is None or plain(G))
    agree(nx.floyd_warshall_numpy, G, nodelist=list(reversed(list(G))), weight=weight)
    agree(nx.floyd_warshall, G, weight=weight)


@SETTINGS
@given(graphs(), CUTOFFS, st.sampled_from(["weight", None]), st.data())
def test_single_source_and_all_pairs(G, cutoff, weight, data):
    s, t = some_nodes(G, data)
    run = plain(G) or weight is None
    agree(nx.single_source_dijkstra_path_length, G, s, cutoff=cutoff, weight=weight, must_run=run)
    agree(nx.single_source_bellman_ford_path_length, G, s, weight=weight)
    agree(nx.single_source_shortest_path_length, G, t, cutoff=cutoff)
    agree(nx.all_pairs_dijkstra_path_length, G, cutoff=cutoff, weight=weight, must_run=run)
    agree(nx.all_pairs_shortest_path_length, G, cutoff=cutoff, must_run=True)
    agree(nx.has_path, G, s, t)


@SETTINGS
@given(graphs(), st.sampled_from(["dijkstra", "bellman-ford"]), st.sampled_from(["weight", None]), st.data())
def test_shortest_path_length_every_combination(G, method, weight, data):
    s, t = some_nodes(G, data)
    for args in [(), (s,), (None, t), (s, t), (s, s), (t, s)]:
        agree(nx.shortest_path_length, G, *args, weight=weight, method=method)


@SETTINGS
@given(graphs(), st.booleans(), CUTOFFS, st.data())
def test_traversal_and_components(G, reverse, depth_limit, data):
    s, t = some_nodes(G, data)
    if not (reverse and G.is_directed()):
        agree(nx.bfs_edges, G, t, reverse=reverse, depth_limit=depth_limit)
    agree(nx.connected_components, G)
    agree(nx.strongly_connected_components, G)


def forest_weights(T, weight):
    return sorted((d.get(weight, 1) for _, _, d in T.edges(data=True)), key=lambda x: (math.isnan(x), x))


def same_forest_weights(weight):
    """Prim and Boruvka: a minimum spanning forest like NetworkX's (the same weights, the same components)."""

    def compare(T, R):
        if not (type(T) is type(R) and T.graph == R.graph and exact(list(T.nodes(data=True)), list(R.nodes(data=True)))):
            return False
        parts = lambda F: sorted(sorted(map(repr, c)) for c in nx.connected_components(F))  # noqa: E731
        wt, wr = forest_weights(T, weight), forest_weights(R, weight)
        return parts(T) == parts(R) and len(wt) == len(wr) and all(a == b for a, b in zip(wt, wr))

    return compare


@SETTINGS
@given(graphs(directed=False, min_n=0), st.sampled_from(["kruskal", "prim", "boruvka"]),
       st.sampled_from(["weight", None]), st.booleans())
def test_minimum_spanning_tree(G, algorithm, weight, ignore_nan):
    G.graph["name"] = "g"
    for i, v in enumerate(G):
        G.nodes[v]["i"] = i
    compare = exact if algorithm == "kruskal" else same_forest_weights(weight)
    agree(nx.minimum_spanning_tree, G, weight=weight, algorithm=algorithm, ignore_nan=ignore_nan, compare=compare,
          must_run=plain(G) and not (algorithm == "boruvka" and G.is_multigraph()))


@SETTINGS
@given(graphs(multigraph=False), st.sampled_from(["capacity", None]), st.data())
def test_flow_values(G, capacity, data):
    s, t = some_nodes(G, data)
    agree(nx.maximum_flow_value, G, s, t, capacity=capacity)
    agree(nx.minimum_cut_value, G, t, s, capacity=capacity)


def test_directed_and_multigraph_refusals_are_networkx_errors():
    agree(nx.minimum_spanning_tree, nx.DiGraph([(0, 1)]))
    agree(nx.connected_components, nx.DiGraph([(0, 1)]))
    agree(nx.maximum_flow_value, nx.MultiDiGraph([(0, 1)]), 0, 1)


# The reported cases, one per family ------------------------------------------------------------


def test_integers_beyond_int64_are_exact_or_declined():
    G = nx.Graph([(0, 1, {"weight": 2**63 + 1}), (1, 2, {"weight": 5})])
    assert nx.single_source_dijkstra_path_length(G, 0) == {0: 0, 1: 2**63 + 1, 2: 2**63 + 6}
    agree(nx.single_source_dijkstra_path_length, G, 0)
    with pytest.raises(NotImplementedError):
        nx.single_source_dijkstra_path_length(G, 0, backend=B)
    F = nx.DiGraph([(0, 1, {"capacity": 2**63 + 1}), (1, 2, {"capacity": 5})])
    agree(nx.maximum_flow_value, F, 0, 2)
    with automatic():
        assert nx.maximum_flow_value(F, 0, 2) == 5
    # in-range weights whose sum leaves int64: declined, NetworkX's exact int wins
    H = nx.DiGraph([(0, 1, {"weight": 2**62}), (1, 2, {"weight": 2**62})])
    agree(nx.single_source_bellman_ford_path_length, H, 0)
    with automatic():
        assert nx.single_source_bellman_ford_path_length(H, 0)[2] == 2**63
    # an int beyond 2**53 with floats: floyd_warshall_numpy rounds each weight as NetworkX's float() does
    M = nx.DiGraph([(0, 1, {"weight": 2**53 + 1}), (1, 2, {"weight": 0.5})])
    ref, ran = agree(nx.floyd_warshall_numpy, M, must_run=True)
    assert ref[1][0, 2] == float(2**53 + 1) + 0.5


def test_inf_weights_are_not_capacities():
    G = nx.DiGraph([(0, 1, {"weight": 1}), (1, 2, {"weight": INF})])
    D = nx.floyd_warshall_numpy(G, backend=B)
    assert D[0, 2] == INF
    agree(nx.floyd_warshall_numpy, G, must_run=True)
    r = agree(nx.single_source_dijkstra_path_length, G, 0, must_run=True)[0][1]
    assert r == {0: 0, 1: 1, 2: INF}  # NetworkX's Dijkstra reaches 2 at length inf
    assert agree(nx.single_source_bellman_ford_path_length, G, 0, must_run=True)[0][1] == {0: 0, 1: 1}
    agree(nx.floyd_warshall, G, must_run=True)
    # capacities: missing or inf is infinite, integers stay integers
    F = nx.DiGraph([(0, 1, {"capacity": 3}), (1, 2, {"capacity": INF}), (0, 2, {})])
    agree(nx.maximum_flow_value, F, 0, 2, must_run=True)  # NetworkXUnbounded through 0 -> 2
    F.remove_edge(0, 2)
    assert agree(nx.maximum_flow_value, F, 0, 2, must_run=True)[0] == ("ok", 3)


def test_refusals_come_before_anything_is_returned():
    G = nx.Graph([(0, 1, {"weight": NAN}), (1, 2, {"weight": 2})])
    agree(nx.minimum_spanning_tree, G, weight=None, must_run=True)
    for method in ("bellman-ford", "dijkstra"):
        agree(nx.shortest_path_length, G, weight="weight", method=method)
    N = nx.Graph([(0, 1, {"weight": -INF}), (1, 2, {"weight": 2})])
    agree(nx.shortest_path_length, N, weight="weight", method="bellman-ford")
    with pytest.raises(NotImplementedError):  # at the call, not while iterating
        nx.shortest_path_length(N, weight="weight", method="bellman-ford", backend=B)
    with pytest.raises(NotImplementedError):
        nx.all_pairs_dijkstra_path_length(nx.Graph([(0, 1, {"weight": -1})]), backend=B)


def test_exact_types_of_float_lengths():
    """Float weights give float lengths and the int 0 at the source; ints mixed with floats are NetworkX's."""
    G = nx.DiGraph([(0, 1, {"weight": 0.5}), (1, 2, {"weight": 2.5})])
    r = agree(nx.single_source_dijkstra_path_length, G, 0, must_run=True)[0][1]
    assert [type(x) for x in r.values()] == [int, float, float]
    M = nx.DiGraph([(0, 1, {"weight": 1}), (1, 2, {"weight": 2.5})])
    agree(nx.single_source_dijkstra_path_length, M, 0)
    agree(nx.floyd_warshall, M, must_run=True)  # types follow the paths, as NetworkX's sums
    U = nx.DiGraph([(0, 1), (1, 2, {"weight": 2})])  # missing weights: 1.0 in floyd_warshall
    r = agree(nx.floyd_warshall, U, must_run=True)[0][1]
    assert type(r[0][2]) is float and type(r[1][2]) is int


def test_strongly_connected_components_in_networkx_order():
    """Components come as NetworkX's search completes them: 1 -> 4 -> 0 finishes {0} before 1's next arc reaches {2}."""
    G = nx.DiGraph()
    G.add_nodes_from([1, 0, 2, 3, 4])
    G.add_edges_from([(1, 4), (1, 2), (0, 0), (4, 1), (4, 0)])
    ref, _ = agree(nx.strongly_connected_components, G, must_run=True)
    assert ref[1] == [{0}, {2}, {1, 4}, {3}]


def test_conversion_never_raises_what_networkx_would_not():
    """Parallel values Python cannot compare (Decimal and NaN) are left to NetworkX, which meets them or not."""
    G = nx.MultiDiGraph([(0, 1, {"weight": NAN}), (0, 1, {"weight": Decimal("2.5")}), (1, 2, {"weight": 1})])
    assert agree(nx.single_source_dijkstra_path_length, G, 1)[0] == ("ok", {1: 0, 2: 1})  # NetworkX never meets them
    agree(nx.floyd_warshall_numpy, G)


def test_tiny_floats_are_not_flushed_to_zero():
    """Weights below float32's range: an exact float32 closure would lose them; the float64 answer is NetworkX's."""
    G = nx.Graph([(0, 0, {"weight": 0.5}), (0, 1, {"weight": 2.0**-1022}), (1, 2, {"weight": 5e-324})])
    ref, _ = agree(nx.floyd_warshall_numpy, G, must_run=True)
    assert ref[1][0, 2] == 2.0**-1022 + 5e-324
    agree(nx.floyd_warshall, G, must_run=True)
    agree(nx.single_source_bellman_ford_path_length, G, 0, must_run=True)
