"""Path enumeration and structural predicates of the semiring_paths backend against NetworkX itself."""

from __future__ import annotations

import math

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from nx_conversion import no_conversion_cache  # noqa: F401 - autouse: NetworkX's conversion cache off

nx = pytest.importorskip("networkx")

from networkx.algorithms.dag import has_cycle  # noqa: E402
from test_nx_backend import graphs_, same  # noqa: E402

from graphs.nx_backend import structure as S  # noqa: E402
from graphs.nx_backend.convert import convert_from_nx  # noqa: E402

B = "semiring_paths"
SETTINGS = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def node(G, data):
    return data.draw(st.sampled_from(sorted(G, key=str)))


def _listed(f):
    def g(*args, **kwargs):
        r = f(*args, **kwargs)
        return list(r) if hasattr(r, "__next__") else r
    return g


@SETTINGS
@given(graphs_(), st.data(), st.sampled_from([None, "weight"]))
def test_all_shortest_paths_in_networkx_order(G, data, weight):
    s, t = node(G, data), node(G, data)
    same(_listed(nx.all_shortest_paths), G, s, t, weight=weight)
    same(_listed(nx.all_shortest_paths), G, s, "missing", weight=weight)
    same(_listed(nx.all_shortest_paths), G, "missing", t, weight=weight)
    same(_listed(nx.all_shortest_paths), G, s, t, weight=weight, method="nonsense")
    same(nx.single_source_all_shortest_paths, G, s, weight=weight)
    same(nx.single_source_all_shortest_paths, G, "missing", weight=weight)
    same(nx.all_pairs_all_shortest_paths, G, weight=weight)
    same(nx.all_pairs_all_shortest_paths, G, weight=weight, method="nonsense")


def _walk(build, sources, target, pred):
    """The paths of ``build`` as a list, or the exception it raises (type and message)."""
    try:
        return list(build(sources, target, pred))
    except nx.NetworkXException as exc:
        return type(exc), str(exc)


@SETTINGS
@given(st.integers(1, 6).flatmap(lambda n: st.tuples(
    st.dictionaries(st.integers(0, n - 1), st.lists(st.integers(0, n - 1), max_size=4), max_size=n),
    st.frozensets(st.integers(0, n - 1), max_size=3), st.integers(0, n - 1))))
def test_the_predecessor_walk_is_networkx_s(case):
    # Any predecessor lists (cycles, repeats, sources with predecessors, a missing target): the same paths in the
    # same order, or the same lazy error, as NetworkX's own walk.
    from networkx.algorithms.shortest_paths.generic import _build_paths_from_predecessors as networkx_walk

    from graphs.nx_backend.shortest.allpaths import paths_from_predecessors

    pred, sources, target = case
    pred = {v: [u for u in us if u in pred] for v, us in pred.items()}  # NetworkX's lists name only keys
    assert _walk(paths_from_predecessors, sources, target, pred) == _walk(networkx_walk, sources, target, pred)


def test_the_predecessor_walk_of_a_cycle_through_the_source():
    # A zero-weight cycle through the source puts a predecessor on the source: NetworkX gives its path twice.
    from networkx.algorithms.shortest_paths.generic import _build_paths_from_predecessors as networkx_walk

    from graphs.nx_backend.shortest.allpaths import paths_from_predecessors

    pred = {0: [1], 1: [0], 2: [1, 0]}
    want = list(networkx_walk({0}, 2, pred))
    assert list(paths_from_predecessors({0}, 2, pred)) == want and len(want) > len({tuple(p) for p in want})


def test_lazy_errors_stay_lazy():
    G = nx.path_graph(3)
    gen = nx.single_source_all_shortest_paths(G, "missing", backend=B)  # NetworkX raises on the first item
    with pytest.raises(nx.NodeNotFound):
        next(gen)
    with pytest.raises(nx.NodeNotFound):  # all_shortest_paths reads the predecessors at the call
        nx.all_shortest_paths(G, "missing", 0, backend=B)
    with pytest.raises(NotImplementedError):  # refused at the call, before any path
        nx.all_pairs_all_shortest_paths(G, weight="weight", method="bellman-ford", backend=B)


@SETTINGS
@given(graphs_(negative=True), st.data())
def test_structure(G, data):
    for f in (nx.number_of_isolates, nx.is_negatively_weighted):
        same(f, G)
    same(_listed(nx.isolates), G)
    same(nx.is_isolate, G, node(G, data))
    counts = (nx.is_tree, nx.is_forest) + ((nx.is_branching, nx.is_arborescence) if G.is_directed() else ())
    for f in counts:
        same(f, G)
        if G.is_multigraph():  # parallel edges counted at conversion, or from the edge data
            H = convert_from_nx(G, preserve_edge_attrs=True)
            H.multiplicity = None
            assert getattr(S, f.__name__)(H) is f(G)
    if G.is_directed():
        for f in (has_cycle, nx.is_aperiodic, nx.is_semiconnected, nx.number_attracting_components,
                  nx.is_attracting_component):
            same(f, G)
        same(_listed(nx.attracting_components), G)
    else:
        same(has_cycle, G)
    if not G.is_multigraph():
        u, v = node(G, data), node(G, data)
        if G.has_edge(u, v):
            same(nx.is_negatively_weighted, G, edge=(u, v))
        same(nx.is_negatively_weighted, G, edge=(u, "missing"))


def test_multigraph_edge_counts_from_edge_data():
    M = nx.MultiGraph([(0, 1), (0, 1)])  # a 2-cycle: no tree, no forest
    H = convert_from_nx(M, preserve_edge_attrs=True)
    assert S.is_tree(H) is nx.is_tree(M) is False
    assert S.is_forest(H) is nx.is_forest(M) is False
    assert S.is_tree(convert_from_nx(M)) is False  # counted at conversion
    V = nx.subgraph_view(nx.MultiGraph([(0, 1, 0), (0, 1, 1), (1, 2, 0)]), filter_edge=lambda u, v, k: k == 0)
    assert S.is_tree(convert_from_nx(V)) is nx.is_tree(V) is True  # a filtered view: its visible edges only
    H = convert_from_nx(M)
    H.multiplicity = None
    with pytest.raises(NotImplementedError):  # neither counts nor edge data: the parallel edges are unknown
        S.is_tree(H)
    D = nx.MultiDiGraph([(0, 1), (0, 1)])
    assert S.is_branching(convert_from_nx(D, preserve_edge_attrs=True)) is nx.is_branching(D) is False


@SETTINGS
@given(graphs_(negative=True, multigraph=False, max_n=7), st.data(), st.sampled_from([None, "weight"]))
def test_number_of_spanning_trees_exact(G, data, weight):
    """Exact Kirchhoff counts: NetworkX's floating determinant to a relative 1e-9 (exact 0 where it returns 0)."""
    root = node(G, data) if G.is_directed() else None
    ours = nx.number_of_spanning_trees(G, root=root, weight=weight, backend=B)
    theirs = nx.number_of_spanning_trees(G, root=root, weight=weight)
    assert type(ours) is type(theirs)
    assert math.isclose(ours, theirs, rel_tol=1e-9, abs_tol=1e-6)
    if ours:
        assert ours == round(ours)  # integer weights: an integer count


def test_number_of_spanning_trees_concrete():
    assert nx.number_of_spanning_trees(nx.complete_graph(6), backend=B) == 6.0**4  # Cayley
    G = nx.Graph([(0, 1, {"weight": 2}), (1, 2, {"weight": 3}), (0, 2, {"weight": 5})])
    assert nx.number_of_spanning_trees(G, weight="weight", backend=B) == 2 * 3 + 3 * 5 + 2 * 5
    assert nx.number_of_spanning_trees(nx.Graph([(0, 1), (2, 3)]), backend=B) == 0
    D = nx.DiGraph([(0, 1), (0, 2), (1, 2), (2, 1)])
    assert nx.number_of_spanning_trees(D, root=0, backend=B) == 3.0  # NetworkX's determinant: 2.9999999999999996
    assert math.isclose(nx.number_of_spanning_trees(D, root=0), 3.0, rel_tol=1e-9)
    with pytest.raises(nx.NetworkXError, match="root"):
        nx.number_of_spanning_trees(D, backend=B)
    with pytest.raises(NotImplementedError):
        S.number_of_spanning_trees(convert_from_nx(nx.Graph([(0, 1, {"weight": 0.5})]), edge_attrs={"weight": 1}),
                                   weight="weight")
    # large counts stay exact: the 80-cycle's square has far more than 2**53 spanning trees
    C = nx.circulant_graph(80, [1, 2])
    assert nx.number_of_spanning_trees(C, backend=B) == float(S._bareiss(
        [row[1:] for row in nx.laplacian_matrix(C).toarray().astype(object).tolist()[1:]]))


def test_aperiodic_and_semiconnected_concrete():
    assert nx.is_aperiodic(nx.DiGraph([(0, 1), (1, 2), (2, 0), (2, 1)]), backend=B) is True
    assert nx.is_aperiodic(nx.cycle_graph(4, create_using=nx.DiGraph), backend=B) is False
    assert nx.is_semiconnected(nx.DiGraph([(0, 1), (2, 1)]), backend=B) is False
    with pytest.raises(nx.NetworkXPointlessConcept):
        nx.is_semiconnected(nx.DiGraph(), backend=B)


def test_should_run_routes_linear_passes_and_few_sources_to_networkx():
    from graphs.nx_backend.interface import backend_interface as bi

    big, small, path = nx.empty_graph(5000), nx.empty_graph(16), nx.path_graph(5000)
    for name in ("is_connected", "is_tree", "isolates", "has_cycle", "is_negatively_weighted", "is_strongly_connected"):
        assert isinstance(bi.should_run(name, (big,), {}), str)
    for name in ("single_target_shortest_path_length", "single_source_shortest_path", "predecessor", "bfs_layers"):
        assert isinstance(bi.should_run(name, (big, 0), {}), str)  # the source reaches nothing: NetworkX's search
        assert bi.should_run(name, (path, 0), {}) is True  # the source reaches the whole graph
    for name in ("dijkstra_path", "bidirectional_shortest_path", "astar_path_length", "descendants_at_distance",
                 "is_directed_acyclic_graph", "is_weakly_connected", "node_connected_component"):
        assert isinstance(bi.should_run(name, (big, 0, 1), {}), str)  # NetworkX stops early
    for name in ("shortest_path", "shortest_path_length"):  # by the arguments: what NetworkX would run
        assert isinstance(bi.should_run(name, (big, 0, 1), {}), str)  # stops at the target
        assert isinstance(bi.should_run(name, (big,), {"target": 1, "weight": "weight"}), str)
        assert isinstance(bi.should_run(name, (big, 0), {}), str)  # a breadth-first search that reaches nothing
        assert bi.should_run(name, (path, 0), {}) is True  # one that reaches every arc
        assert bi.should_run(name, (path, 0), {"weight": "weight"}) is True  # Dijkstra over the graph
        tail = nx.path_graph(5000, create_using=nx.DiGraph)
        assert isinstance(bi.should_run(name, (tail, 4999), {"weight": "weight"}), str)  # the last node reaches nothing
        assert bi.should_run(name, (big,), {}) is True  # all pairs
    assert bi.should_run("betweenness_centrality", (nx.empty_graph(64),), {}) is True
    assert isinstance(bi.should_run("betweenness_centrality", (small,), {}), str)
    assert isinstance(bi.should_run("closeness_centrality", (nx.empty_graph(64),), {"u": 0}), str)
    assert isinstance(bi.should_run("diameter", (big,), {"e": {0: 1}}), str)
    assert bi.should_run("is_forest", (big,), {}) is True
