"""GPU betweenness (near-far delta-stepping batches) and the GPU eccentricity-bounding search, against the CPU engine."""

from __future__ import annotations

import numpy as np
import pytest
from gpu_support import cupy_or_skip
from hypothesis import given, settings
from hypothesis import strategies as st

import graphs

cp, pytestmark = cupy_or_skip()

from graphs.centrality import distance_measures as DM  # noqa: E402
from graphs.centrality.distance_measures import NotConnectedError  # noqa: E402

RTOL = 1e-9


def BS():
    from graphs.cuda import batched_search

    return batched_search


def C():
    from graphs.cuda import centrality

    return centrality


def close(ours, ref) -> bool:
    ours, ref = np.asarray(ours, dtype=float), np.asarray(ref, dtype=float)
    return ours.shape == ref.shape and bool(np.all(np.abs(ours - ref) <= RTOL * np.abs(ref) + 1e-12))


def host(x):
    return x.get() if hasattr(x, "get") else np.asarray(x)


def random_graph(n, m, seed, directed, kind):
    rng = np.random.default_rng(seed)
    u, v = rng.integers(0, n, m), rng.integers(0, n, m)
    if kind == "int":
        w = rng.integers(1, 40, m).astype(np.float64)
    elif kind == "float":
        w = rng.random(m) * 7 + 0.05
    elif kind == "coarse":  # few distinct values: many tied distances, many tight arcs
        w = rng.integers(1, 3, m).astype(np.float64)
    else:
        w = None
    return graphs.Graph.from_edges(u, v, w, n=n, directed=directed)


@pytest.fixture(params=[(1 << 30, 4.0), (7, 0.5), (13, None), (5, 64.0)], ids=["one-batch", "7-narrow", "13-bf", "5-wide"])
def batching(request, monkeypatch):
    """Sources per batch and bucket width (in mean arc weights; None: plain rounds)."""
    S, d = request.param
    monkeypatch.setattr(BS(), "BATCH_SOURCES", S)
    monkeypatch.setattr(BS(), "DELTA_ARCS", d)
    return request.param


@pytest.mark.parametrize("directed", [True, False])
@pytest.mark.parametrize("kind", ["int", "float", "coarse", "none"])
def test_betweenness_matches_cpu(batching, directed, kind):
    G = random_graph(203, 700, 3, directed, kind)
    for endpoints in (False, True):
        ref = graphs.betweenness_centrality(G, endpoints=endpoints)
        out = graphs.betweenness_centrality(G.to("gpu"), endpoints=endpoints)
        assert isinstance(out, cp.ndarray) and close(out.get(), ref)
    eref = graphs.edge_betweenness_centrality(G)
    eout = graphs.edge_betweenness_centrality(G.to("gpu"))
    assert np.array_equal(eout.src.get(), eref.src) and np.array_equal(eout.dst.get(), eref.dst)
    assert close(eout.value.get(), eref.value)
    srcs = [0, 5, 5, 202, 17]  # a given list, with a repeated source
    assert close(graphs.betweenness_centrality(G.to("gpu"), sources=srcs, endpoints=True).get(),
                 graphs.betweenness_centrality(G, sources=srcs, endpoints=True))


@pytest.mark.parametrize("steps", [1, 3, 32])
@pytest.mark.parametrize("directed", [True, False])
@pytest.mark.parametrize("kind", ["int", "coarse", "none"])
def test_high_degree_vertices(kind, directed, steps, monkeypatch):
    """Hubs of 70 to 140 arcs: tight arcs past the 31 of a pair's mask are found from the distances; the
    host reads the search's state every ``steps`` steps (launched directly, or replayed as CUDA graphs)."""
    monkeypatch.setattr(C(), "STEPS_PER_CHECK", steps)
    monkeypatch.setattr(BS(), "STEPS_PER_CHECK", steps)
    monkeypatch.setattr(BS(), "REPLAY_GRAPHS", steps != 3)
    monkeypatch.setattr(BS(), "DELTA_ARCS", 1.5)
    rng = np.random.default_rng(11)
    n = 160
    u, v = list(rng.integers(0, n, 300)), list(rng.integers(0, n, 300))
    for hub in (0, 1, 7):
        nb = rng.choice(n, 70, replace=False)
        u += [hub] * 70 + list(nb[:35])
        v += list(nb) + [hub] * 35
    m = len(u)
    w = {"int": rng.integers(1, 40, m).astype(np.float64), "coarse": rng.integers(1, 3, m).astype(np.float64),
         "none": None}[kind]
    G = graphs.Graph.from_edges(u, v, w, n=n, directed=directed)
    assert int(np.diff(G.indptr).max()) > 64
    ref = graphs.betweenness_centrality(G, endpoints=True)
    assert close(graphs.betweenness_centrality(G.to("gpu"), endpoints=True).get(), ref)
    eref = graphs.edge_betweenness_centrality(G)
    assert close(graphs.edge_betweenness_centrality(G.to("gpu")).value.get(), eref.value)


def test_deep_graph_renumbered(monkeypatch):
    """A road network past the renumbering size: vertices renumbered, results mapped back (vertices and arcs)."""
    import graphs.locality

    monkeypatch.setattr(graphs.locality, "RENUMBER_MIN", 100)
    monkeypatch.setattr(BS(), "BATCH_SOURCES", 97)
    G = graphs.generators.road_network(1500, seed=4)
    assert graphs.locality.deep_order(G.indptr, G.indices) is not None
    ref = graphs.betweenness_centrality(G, sources=300, seed=1)
    assert close(graphs.betweenness_centrality(G.to("gpu"), sources=300, seed=1).get(), ref)
    eref = graphs.edge_betweenness_centrality(G, sources=200, seed=2)
    assert close(graphs.edge_betweenness_centrality(G.to("gpu"), sources=200, seed=2).value.get(), eref.value)
    for weighted in (True, False):
        ref = graphs.betweenness_centrality(G, weighted=weighted, normalized=False)
        assert close(graphs.betweenness_centrality(G.to("gpu"), weighted=weighted, normalized=False).get(), ref)


def test_road_network_in_default_batches():
    """Default batching on a deep graph: every source in one batch, many rounds, far lists and waves."""
    G = graphs.generators.road_network(2600, seed=5)
    ref = graphs.betweenness_centrality(G, normalized=False)
    assert close(graphs.betweenness_centrality(G.to("gpu"), normalized=False).get(), ref)
    eref = graphs.edge_betweenness_centrality(G, sources=900, seed=3)
    assert close(graphs.edge_betweenness_centrality(G.to("gpu"), sources=900, seed=3).value.get(), eref.value)


@settings(deadline=None, max_examples=40)
@given(st.integers(1, 60), st.integers(0, 200), st.integers(0, 10**6), st.booleans(),
       st.sampled_from(["int", "float", "coarse", "none"]), st.sampled_from([0.3, 2.0, None]), st.integers(1, 9))
def test_betweenness_property(n, m, seed, directed, kind, delta, S):
    c = BS()
    old = c.DELTA_ARCS, c.BATCH_SOURCES
    c.DELTA_ARCS, c.BATCH_SOURCES = delta, S
    try:
        G = random_graph(n, m, seed, directed, kind)
        assert close(graphs.betweenness_centrality(G.to("gpu"), endpoints=bool(seed % 2)).get(),
                     graphs.betweenness_centrality(G, endpoints=bool(seed % 2)))
    finally:
        c.DELTA_ARCS, c.BATCH_SOURCES = old


# -- eccentricity bounds on the GPU ---------------------------------------------------------------------------------


def lcc(G):
    _, labels = graphs.connected_components(G)
    big = np.flatnonzero(labels == np.bincount(labels).argmax())
    return graphs.as_graph(G.to_scipy()[big][:, big], directed=False)


@pytest.mark.parametrize("B", [64, 128, 1024])
def test_bounded_extremes_match_cpu(B, monkeypatch):
    from graphs.cuda import distance

    monkeypatch.setattr(distance, "BOUND_SOURCES", B)
    cases = [lcc(graphs.generators.rmat(11, seed=2, weights=None)),
             graphs.as_graph(graphs.generators.road_network(700, seed=1).to_scipy(), directed=False),
             graphs.as_graph(graphs.generators.grid_2d(9, 31, weights=None).to_scipy(), directed=False)]
    for G in cases:
        for weighted in (False, True):
            ecc = DM._all_eccentricities(DM.prepare(G, weighted, "cpu"), None)
            Gg = G.to("gpu")
            got = graphs.eccentricity(Gg, weighted=weighted)
            assert isinstance(got, cp.ndarray) and got.dtype == ecc.dtype and np.array_equal(got.get(), ecc)
            assert graphs.diameter(Gg, weighted=weighted) == ecc.max()
            assert graphs.radius(Gg, weighted=weighted) == ecc.min()
            assert host(graphs.center(Gg, weighted=weighted)).tolist() == np.flatnonzero(ecc == ecc.min()).tolist()
            assert host(graphs.periphery(Gg, weighted=weighted)).tolist() == np.flatnonzero(ecc == ecc.max()).tolist()


@settings(deadline=None, max_examples=40)
@given(st.integers(1, 150), st.integers(0, 400), st.integers(0, 10**6), st.booleans())
def test_bounded_property(n, m, seed, chain):
    rng = np.random.default_rng(seed)
    u, v = list(rng.integers(0, n, m)), list(rng.integers(0, n, m))
    if chain:
        u += list(range(n - 1))
        v += list(range(1, n))
    G = graphs.Graph.from_edges(u, v, n=n, directed=False)
    try:
        ecc = DM._all_eccentricities(DM.prepare(G, False, "cpu"), None)
    except NotConnectedError as e:
        with pytest.raises(NotConnectedError) as info:
            graphs.diameter(G.to("gpu"))
        assert str(info.value) == str(e)
        return
    assert np.array_equal(graphs.eccentricity(G.to("gpu")).get(), ecc)
    assert graphs.diameter(G.to("gpu")) == ecc.max() and graphs.radius(G.to("gpu")) == ecc.min()
