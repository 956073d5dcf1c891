"""graphs.closeness_centrality, harmonic_centrality, eccentricity, diameter, radius, center, periphery
against NetworkX (weighted and unweighted, directed and undirected, disconnected)."""

from __future__ import annotations

import networkx as nx
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import graphs
from graphs.centrality import _centrality_kernels as K
from graphs.centrality.distance_measures import NotConnectedError

RTOL = 1e-9


@pytest.fixture(scope="module", autouse=True)
def warm():
    G = graphs.Graph.from_edges([0, 1], [1, 2], [1.0, 2.5], directed=False)
    graphs.closeness_centrality(G)
    graphs.closeness_centrality(G, weighted=False)


def close(ours, ref) -> bool:
    ours, ref = np.asarray(ours, dtype=float), np.asarray(ref, dtype=float)
    return ours.shape == ref.shape and bool(np.all(np.abs(ours - ref) <= RTOL * np.abs(ref) + 1e-14))


@st.composite
def nx_graphs(draw, max_n=11, connected=False):
    directed = draw(st.booleans())
    n = draw(st.integers(1, max_n))
    G = nx.DiGraph() if directed else nx.Graph()
    G.add_nodes_from(range(n))
    kind = draw(st.sampled_from(["int", "float", "none"]))

    def weight():
        if kind == "int":
            return {"weight": draw(st.integers(1, 9))}
        if kind == "float":
            return {"weight": draw(st.sampled_from([0.5, 1.0, 1.5, 0.25, 2.75, 1e-3]))}
        return {}

    if connected and n > 1:  # a cycle through all vertices (strongly connected), then extra arcs
        order = draw(st.permutations(range(n)))
        for a, b in zip(order, order[1:] + order[:1]):
            G.add_edge(a, b, **weight())
    pairs = draw(st.lists(st.tuples(st.integers(0, n - 1), st.integers(0, n - 1)), max_size=3 * n))
    for u, v in pairs:
        G.add_edge(u, v, **weight())
    return G


def as_list(d, G):
    return [d[v] for v in G.nodes]


@settings(deadline=None, max_examples=150)
@given(nx_graphs(), st.booleans(), st.booleans())
def test_closeness_and_harmonic_match_networkx(G, weighted, wf):
    w = "weight" if weighted else None
    assert close(graphs.closeness_centrality(G, weighted=weighted, wf_improved=wf),
                 as_list(nx.closeness_centrality(G, distance=w, wf_improved=wf), G))
    assert close(graphs.harmonic_centrality(G, weighted=weighted), as_list(nx.harmonic_centrality(G, distance=w), G))


@settings(deadline=None, max_examples=120)
@given(nx_graphs(connected=True), st.booleans())
def test_eccentricity_family_matches_networkx(G, weighted):
    w = "weight" if weighted else None
    ecc = graphs.eccentricity(G, weighted=weighted)
    assert close(ecc, as_list(nx.eccentricity(G, weight=w), G))
    assert graphs.diameter(G, weighted=weighted) == nx.diameter(G, weight=w)
    assert graphs.radius(G, weighted=weighted) == nx.radius(G, weight=w)
    assert graphs.center(G, weighted=weighted).tolist() == sorted(nx.center(G, weight=w))
    assert graphs.periphery(G, weighted=weighted).tolist() == sorted(nx.periphery(G, weight=w))


@settings(deadline=None, max_examples=80)
@given(nx_graphs(), st.booleans())
def test_not_connected_raises_as_networkx_does(G, weighted):
    w = "weight" if weighted else None
    try:
        ref = nx.eccentricity(G, weight=w)
    except nx.NetworkXError:
        with pytest.raises(NotConnectedError, match="components"):
            graphs.eccentricity(G, weighted=weighted)
        with pytest.raises(NotConnectedError):
            graphs.diameter(G, weighted=weighted)
    else:
        assert close(graphs.eccentricity(G, weighted=weighted), as_list(ref, G))


def test_unit_types():
    """Distances in the weights' units: ints for hops and integer weights, floats for float weights."""
    P = graphs.Graph.from_edges([0, 1, 2], [1, 2, 3], directed=False)
    assert graphs.eccentricity(P).dtype == np.int64 and isinstance(graphs.diameter(P), int)
    Pi = graphs.Graph.from_edges([0, 1, 2], [1, 2, 3], np.array([2, 3, 4], np.int32), directed=False)
    assert graphs.diameter(Pi) == 9 and isinstance(graphs.diameter(Pi), int)
    Pf = graphs.Graph.from_edges([0, 1, 2], [1, 2, 3], [2.0, 3.0, 4.0], directed=False)
    assert graphs.diameter(Pf) == 9.0 and isinstance(graphs.diameter(Pf), float)
    assert graphs.eccentricity(Pf).dtype == np.float64
    assert graphs.radius(Pf) == 5.0 and graphs.center(Pf).tolist() == [2]  # eccentricities 9, 7, 5, 9
    assert graphs.periphery(Pf).tolist() == [0, 3]
    assert graphs.diameter(Pf, weighted=False) == 3


def test_directed_closeness_reads_distances_into_the_vertex():
    G = graphs.Graph.from_edges([0, 1], [1, 2])  # 0 -> 1 -> 2
    assert close(graphs.closeness_centrality(G), [0.0, 0.5, 2 / 3])
    assert close(graphs.closeness_centrality(G, wf_improved=False), [0.0, 1.0, 2 / 3])
    assert close(graphs.harmonic_centrality(G), [0.0, 1.0, 1.5])


def test_error_names_components():
    G = graphs.Graph.from_edges([0, 1, 3], [1, 2, 4], directed=False, n=6)
    with pytest.raises(NotConnectedError, match="3 connected components") as info:
        graphs.eccentricity(G)
    assert info.value.components == 3 and isinstance(info.value, ValueError)
    D = graphs.Graph.from_edges([0, 1], [1, 2])
    with pytest.raises(NotConnectedError, match="strongly connected"):
        graphs.diameter(D)


def test_many_batches_match_networkx():
    """Several 64-source words per thread, a cut that is no multiple of 64."""
    G = nx.connected_watts_strogatz_graph(200, 4, 0.1, seed=3)
    rng = np.random.default_rng(2)
    for u, v in G.edges:
        G[u][v]["weight"] = float(rng.integers(1, 20)) / 4
    for weighted in (False, True):
        w = "weight" if weighted else None
        assert close(graphs.closeness_centrality(G, weighted=weighted), as_list(nx.closeness_centrality(G, distance=w), G))
        assert close(graphs.eccentricity(G, weighted=weighted), as_list(nx.eccentricity(G, weight=w), G))
        assert close(graphs.harmonic_centrality(G, weighted=weighted), as_list(nx.harmonic_centrality(G, distance=w), G))


def test_hop_kernel_any_width():
    G = graphs.Graph.from_networkx(nx.gnp_random_graph(70, 0.05, seed=1, directed=True))
    src = np.arange(70, dtype=np.int32)
    outs = []
    for width in (1, 5, 64):
        t, r, h, e = (np.zeros(70, np.int64), np.zeros(70, np.int64), np.zeros(70), np.zeros(70, np.int64))
        K.hop_distance_stats(G.indptr, G.indices, src, width, 2, t, r, h, e)
        outs.append((t, r, h, e))
    for o in outs[1:]:
        for a, b in zip(o, outs[0]):
            assert np.allclose(a, b)


def test_empty_graph():
    E = graphs.Graph(np.zeros(1, np.int64), np.zeros(0, np.int32))
    assert graphs.closeness_centrality(E).shape == (0,)
    with pytest.raises(graphs.GraphError, match="no vertices"):
        graphs.diameter(E)


def test_bad_arguments():
    G = graphs.Graph.from_edges([0], [1], directed=False)
    with pytest.raises(TypeError):
        graphs.closeness_centrality(G, wf_improved="yes")
    with pytest.raises(TypeError):
        graphs.eccentricity(G, weighted=1)
    with pytest.raises(graphs.GraphError, match="non-negative"):
        graphs.closeness_centrality(graphs.Graph.from_edges([0], [1], [-1.0]))


@pytest.mark.gpu
def test_gpu_matches_cpu():
    cp = pytest.importorskip("cupy")
    G = graphs.generators.road_network(300, seed=1)
    for weighted in (False, True):
        ecc = graphs.eccentricity(G, weighted=weighted, device="gpu")
        assert isinstance(ecc, cp.ndarray)
        assert np.array_equal(ecc.get(), graphs.eccentricity(G, weighted=weighted))
        assert close(graphs.closeness_centrality(G, weighted=weighted, device="gpu").get(),
                     graphs.closeness_centrality(G, weighted=weighted))
        assert close(graphs.harmonic_centrality(G, weighted=weighted, device="gpu").get(),
                     graphs.harmonic_centrality(G, weighted=weighted))
    R = graphs.generators.rmat(10, seed=2)
    _, labels = graphs.connected_components(R)
    big = np.flatnonzero(labels == np.bincount(labels).argmax())
    assert graphs.diameter(R.to_scipy()[big][:, big], weighted=False, device="gpu") == \
        graphs.diameter(R.to_scipy()[big][:, big], weighted=False)


# -- the eccentricity-bounding search (undirected graphs, integer lengths) ------------------------------------------

import graphs.centrality.distance_measures as DM  # noqa: E402


@st.composite
def undirected_graphs(draw, max_n=60):
    """Undirected graphs, connected or not, with hop, integer or whole-number float lengths."""
    n = draw(st.integers(1, max_n))
    kind = draw(st.sampled_from(["none", "int", "whole"]))
    G = nx.Graph()
    G.add_nodes_from(range(n))
    if draw(st.booleans()) and n > 1:  # a spanning path in a random order, so most graphs are connected
        order = draw(st.permutations(range(n)))
        pairs = list(zip(order, order[1:]))
    else:
        pairs = []
    pairs += draw(st.lists(st.tuples(st.integers(0, n - 1), st.integers(0, n - 1)), max_size=2 * n))
    for u, v in pairs:
        if kind == "int":
            G.add_edge(u, v, weight=draw(st.integers(1, 9)))
        elif kind == "whole":
            G.add_edge(u, v, weight=float(draw(st.integers(1, 30))))
        else:
            G.add_edge(u, v)
    return G, kind != "none"


def every_search(G, weighted):
    """The eccentricities from a search from every vertex (the path the bounds replace), or the error."""
    P = DM.prepare(G, weighted, "auto")
    return DM._all_eccentricities(P, None)


@pytest.fixture(scope="module")
def narrow():
    """Batches of a few sources, so that a search runs many batches."""
    mp = pytest.MonkeyPatch()
    mp.setattr(DM, "HOP_WIDTH", 3)
    mp.setattr(DM, "BOUND_BATCH", 2)
    yield
    mp.undo()


@settings(deadline=None, max_examples=200)
@given(undirected_graphs(), st.booleans())
def test_bounded_extremes_match_networkx(case, weighted):
    """diameter, radius, center, periphery and eccentricity by bounds against NetworkX, disconnected graphs too."""
    G, has_w = case
    w = "weight" if weighted and has_w else None
    try:
        ref = nx.eccentricity(G, weight=w)
    except nx.NetworkXError:
        for fn in (graphs.eccentricity, graphs.diameter, graphs.radius, graphs.center, graphs.periphery):
            with pytest.raises(NotConnectedError, match="graph is not connected"):
                fn(G, weighted=weighted)
        return
    assert graphs.eccentricity(G, weighted=weighted).tolist() == as_list(ref, G)
    assert graphs.diameter(G, weighted=weighted) == nx.diameter(G, weight=w)
    assert graphs.radius(G, weighted=weighted) == nx.radius(G, weight=w)
    assert graphs.center(G, weighted=weighted).tolist() == sorted(nx.center(G, weight=w))
    assert graphs.periphery(G, weighted=weighted).tolist() == sorted(nx.periphery(G, weight=w))
    if G.number_of_nodes() > 1 and w is None:  # NetworkX's own bounding search agrees too
        assert graphs.diameter(G, weighted=False) == nx.diameter(G, usebounds=True)


@settings(deadline=None, max_examples=120)
@given(undirected_graphs(max_n=150), st.booleans())
def test_bounded_equals_every_search_in_small_batches(narrow, case, weighted):
    """Many batches of 3 sources per word (hops) or 2 rows (weights): the same values, types and errors as
    a search from every vertex."""
    G, _ = case
    try:
        ecc = every_search(G, weighted)
    except NotConnectedError as e:
        for fn in (graphs.eccentricity, graphs.diameter, graphs.radius, graphs.center, graphs.periphery):
            with pytest.raises(NotConnectedError) as info:
                fn(G, weighted=weighted)
            assert str(info.value) == str(e) and info.value.components == e.components
        return
    got = graphs.eccentricity(G, weighted=weighted)
    assert got.dtype == ecc.dtype and got.tolist() == ecc.tolist()
    d, r = graphs.diameter(G, weighted=weighted), graphs.radius(G, weighted=weighted)
    assert d == ecc.max() and type(d) is type(ecc.max().item())
    assert r == ecc.min() and type(r) is type(ecc.min().item())
    assert graphs.center(G, weighted=weighted).tolist() == np.flatnonzero(ecc == ecc.min()).tolist()
    assert graphs.periphery(G, weighted=weighted).tolist() == np.flatnonzero(ecc == ecc.max()).tolist()


def test_hop_bound_kernel_against_bfs_rows():
    """hop_ecc_bounds: each source's eccentricity, and bounds that hold and equal the rows' fold."""
    from scipy.sparse.csgraph import shortest_path

    G = graphs.Graph.from_networkx(nx.connected_watts_strogatz_graph(90, 4, 0.2, seed=5))
    D = shortest_path(G.to_scipy(), unweighted=True).astype(np.int64)
    ecc = D.max(axis=1)
    src = np.array([3, 17, 17, 40, 89, 0, 55], dtype=np.int32)  # a repeated source, words of 2
    for slots in (1, 3):
        lo = np.zeros((slots, 90), np.int64)
        hi = np.full((slots, 90), DM._NO_BOUND, np.int64)
        e = np.zeros(src.shape[0], np.int64)
        K.hop_ecc_bounds(G.indptr, G.indices, src, 2, e, lo, hi)
        assert e.tolist() == ecc[src].tolist()
        Ds = D[src]
        assert lo.max(axis=0).tolist() == np.maximum(Ds, ecc[src][:, None] - Ds).max(axis=0).tolist()
        assert hi.min(axis=0).tolist() == (ecc[src][:, None] + Ds).min(axis=0).tolist()
        assert np.all(lo.max(axis=0) <= ecc) and np.all(ecc <= hi.min(axis=0))


def test_bounds_search_few_sources_on_small_world_graphs(monkeypatch):
    """The diameter of a small-world graph takes a few batches of sources, not one search per vertex."""
    searched = []
    kernel = K.hop_ecc_bounds

    def counting(indptr, indices, src, width, ecc, lo, hi):
        searched.append(src.shape[0])
        return kernel(indptr, indices, src, width, ecc, lo, hi)

    monkeypatch.setattr(DM.K, "hop_ecc_bounds", counting)
    monkeypatch.setattr(DM, "HOP_WIDTH", 8)
    G = nx.connected_watts_strogatz_graph(3000, 6, 0.1, seed=1)
    assert graphs.diameter(G) == nx.diameter(G, usebounds=True)
    assert sum(searched) < 3000 // 4


def test_directed_and_fractional_weights_search_every_vertex():
    """No bounds where they could be wrong: directed graphs, fractional weights (rounded sums)."""
    D = graphs.Graph.from_edges([0, 1, 2], [1, 2, 0], [1.0, 2.0, 3.0])
    assert not DM._bounds_apply(DM.prepare(D, True, "auto"))
    F = graphs.Graph.from_edges([0, 1], [1, 2], [0.1, 0.2], directed=False)
    assert not DM._bounds_apply(DM.prepare(F, True, "auto"))
    assert graphs.diameter(F) == 0.1 + 0.2 and graphs.eccentricity(F).tolist() == [0.1 + 0.2, 0.2, 0.1 + 0.2]
    assert DM._bounds_apply(DM.prepare(F, False, "auto"))


def test_bounded_concrete_values():
    C = nx.cycle_graph(101)  # every vertex is center and periphery: the bounds never prune, all searched
    assert graphs.diameter(C) == 50 and graphs.radius(C) == 50
    assert graphs.center(C).tolist() == list(range(101)) == graphs.periphery(C).tolist()
    S = nx.star_graph(9)
    assert graphs.diameter(S) == 2 and graphs.center(S).tolist() == [0] and graphs.radius(S) == 1
    assert graphs.eccentricity(nx.empty_graph(1)).tolist() == [0] and graphs.diameter(nx.empty_graph(1)) == 0
    with pytest.raises(NotConnectedError, match="vertex 1 cannot be reached from vertex 0"):
        graphs.radius(nx.empty_graph(2))
