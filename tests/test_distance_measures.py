"""graphs.closeness_centrality, harmonic_centrality, eccentricity, diameter, radius, center, periphery
against NetworkX (weighted and unweighted, directed and undirected, disconnected)."""

from __future__ import annotations

import networkx as nx
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import graphs
from graphs import _centrality_kernels as K
from graphs.distance_measures import NotConnectedError

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
