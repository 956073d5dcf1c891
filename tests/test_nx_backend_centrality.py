"""Centralities and distance measures of the semiring_paths backend against NetworkX itself."""

from __future__ import annotations

import math
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from nx_conversion import no_conversion_cache  # noqa: F401 - autouse: NetworkX's conversion cache off

nx = pytest.importorskip("networkx")

from test_nx_backend import graphs_, same  # noqa: E402

from graphs.nx_backend import centrality as C  # noqa: E402
from graphs.nx_backend.convert import convert_from_nx  # noqa: E402

B = "semiring_paths"
SETTINGS = settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@st.composite
def positive_graphs(draw, directed=None, multigraph=None, max_n=9):
    """Graphs whose weights are positive ints or positive floats (or missing: NetworkX reads 1)."""
    directed = draw(st.booleans()) if directed is None else directed
    multigraph = draw(st.booleans()) if multigraph is None else multigraph
    cls = {(0, 0): nx.Graph, (1, 0): nx.DiGraph, (0, 1): nx.MultiGraph, (1, 1): nx.MultiDiGraph}[(directed, multigraph)]
    n = draw(st.integers(1, max_n))
    names = draw(st.sampled_from([list(range(n)), [f"v{i}" for i in range(n)],
                                  [(i, "x") if i % 2 else str(i) for i in range(n)]]))
    G = cls()
    G.add_nodes_from(draw(st.permutations(names)))
    floats = draw(st.booleans())
    value = st.floats(0.25, 8.0, allow_nan=False) if floats else st.integers(1, 6)
    for u, v, w in draw(st.lists(st.tuples(st.sampled_from(names), st.sampled_from(names), st.none() | value),
                                 max_size=3 * n)):
        if w is None and floats:
            w = 1.0  # a missing weight is the int 1: mixed with floats NetworkX's lengths mix types
        if w is None:
            G.add_edge(u, v)
        else:
            G.add_edge(u, v, weight=w)
    return G


def close(ours, theirs):
    """Same keys in the same order, same types, values equal to a relative 1e-9 (NaN equal to NaN)."""
    if not isinstance(theirs, dict):
        ours, theirs = {None: ours}, {None: theirs}
    assert list(ours) == list(theirs)
    for key, a in ours.items():
        b = theirs[key]
        assert type(a) is type(b), (key, a, b)
        if isinstance(b, float) and math.isnan(b):
            assert math.isnan(a), (key, a, b)
        else:
            assert math.isclose(a, b, rel_tol=1e-9, abs_tol=0.0), (key, a, b)


def sampling(f, G, k, seed, **kwargs):
    """Run ``f`` on both sides with equal random states; the draws and the states after them agree."""
    r1, r2 = random.Random(seed), random.Random(seed)
    ours = f(G, k=k, seed=r1, backend=B, **kwargs)
    theirs = f(G, k=k, seed=r2, backend="networkx", **kwargs)
    close(ours, theirs)
    assert r1.random() == r2.random()  # NetworkX's draw consumed the same state


@SETTINGS
@given(positive_graphs(), st.data(), st.booleans(), st.booleans(), st.sampled_from([None, "weight"]))
def test_betweenness(G, data, normalized, endpoints, weight):
    k = data.draw(st.none() | st.integers(1, len(G)))
    seed = data.draw(st.integers(0, 2**32))
    sampling(nx.betweenness_centrality, G, k, seed, normalized=normalized, endpoints=endpoints, weight=weight)
    if G.is_multigraph():  # the edge keys come with the edge data, which the dispatch does not convert
        with pytest.raises(NotImplementedError):
            nx.edge_betweenness_centrality(G, k=k, seed=seed, weight=weight, backend=B)
        r1, r2 = random.Random(seed), random.Random(seed)
        H = convert_from_nx(G, edge_attrs={"weight": 1}, preserve_edge_attrs=True)
        close(C.edge_betweenness_centrality(H, k, normalized, weight, r1),
              nx.edge_betweenness_centrality(G, k, normalized, weight, r2))
        assert r1.random() == r2.random()
    else:
        sampling(nx.edge_betweenness_centrality, G, k, seed, normalized=normalized, weight=weight)


@SETTINGS
@given(positive_graphs(), st.data(), st.booleans(), st.sampled_from([None, "weight"]))
def test_closeness_and_harmonic(G, data, wf_improved, distance):
    close(nx.closeness_centrality(G, distance=distance, wf_improved=wf_improved, backend=B),
          nx.closeness_centrality(G, distance=distance, wf_improved=wf_improved))
    u = data.draw(st.sampled_from(list(G)))
    close(nx.closeness_centrality(G, u=u, distance=distance, wf_improved=wf_improved, backend=B),
          nx.closeness_centrality(G, u=u, distance=distance, wf_improved=wf_improved))
    close(nx.harmonic_centrality(G, distance=distance, backend=B), nx.harmonic_centrality(G, distance=distance))
    some = data.draw(st.lists(st.sampled_from(list(G)), max_size=4))
    for kw in ({"nbunch": some}, {"sources": some}, {"nbunch": some, "sources": list(G)[:2]}):
        close(nx.harmonic_centrality(G, distance=distance, backend=B, **kw),
              nx.harmonic_centrality(G, distance=distance, **kw))


@SETTINGS
@given(positive_graphs() | graphs_(), st.data(), st.sampled_from([None, "weight"]))
def test_eccentricity_and_reductions(G, data, weight):
    """Exact: the same numbers and types, the same nodes in the same order, the same errors."""
    for f in (nx.eccentricity, nx.diameter, nx.radius, nx.center, nx.periphery, nx.barycenter):
        try:
            ours = f(G, weight=weight, backend=B)
        except NotImplementedError:  # zero-sum barycenter ties of rounding floats, disconnected barycenter
            assert f is nx.barycenter
            continue
        except Exception as exc:  # noqa: BLE001 - compared with NetworkX's
            with pytest.raises(type(exc), match=re_escape(str(exc))):
                f(G, weight=weight)
            continue
        assert ours == f(G, weight=weight)
        assert [type(x) for x in _values(ours)] == [type(x) for x in _values(f(G, weight=weight))]
    v = data.draw(st.sampled_from(list(G)))
    same(nx.eccentricity, G, v=v, weight=weight)
    same(nx.eccentricity, G, v=[v, "missing", v], weight=weight)
    e = {x: i % 3 for i, x in enumerate(G)}
    for f in (nx.diameter, nx.radius, nx.center, nx.periphery):
        same(f, G, e=e)


def re_escape(s):
    import re

    return re.escape(s)


def _values(x):
    return list(x.values()) if isinstance(x, dict) else (x if isinstance(x, list) else [x])


@SETTINGS
@given(graphs_(), st.sampled_from([None, "weight"]))
def test_zero_weights_given_back_or_equal(G, weight):
    """Zero weights (NetworkX's heap order decides tied path counts): NotImplementedError, or NetworkX's answer."""
    for f, kw in ((nx.betweenness_centrality, {"weight": weight}), (nx.edge_betweenness_centrality, {"weight": weight}),
                  (nx.closeness_centrality, {"distance": weight}), (nx.harmonic_centrality, {"distance": weight})):
        try:
            ours = f(G, backend=B, **kw)
        except NotImplementedError:
            assert (weight is not None and f in (nx.betweenness_centrality, nx.edge_betweenness_centrality)
                    or f is nx.edge_betweenness_centrality and G.is_multigraph())
            continue
        close(ours, f(G, **kw))


def test_concrete():
    G = nx.path_graph(3)
    assert nx.betweenness_centrality(G, k=2, normalized=False, endpoints=True, seed=42, backend=B) == {
        0: 2.25, 1: 3.0, 2: 2.25}
    assert nx.betweenness_centrality(G, k=2, normalized=True, endpoints=True, seed=42, backend=B) == {
        0: 0.75, 1: 1.0, 2: 0.75}
    # k = 1 without endpoints: the source's own scale is 0/0 in NetworkX (NaN)
    r = nx.betweenness_centrality(nx.path_graph(4), k=1, seed=3, backend=B)
    t = nx.betweenness_centrality(nx.path_graph(4), k=1, seed=3)
    close(r, t)
    # multigraph: an edge's value shared by its parallel edges of least weight
    M = nx.MultiGraph([(0, 1, {"weight": 2}), (0, 1, {"weight": 2}), (0, 1, {"weight": 5}), (1, 2, {"weight": 1})])
    HM = convert_from_nx(M, edge_attrs={"weight": 1}, preserve_edge_attrs=True)
    assert C.edge_betweenness_centrality(HM, weight="weight", normalized=False) == nx.edge_betweenness_centrality(
        M, weight="weight", normalized=False) == {(0, 1, 0): 1.0, (0, 1, 1): 1.0, (0, 1, 2): 0.0, (1, 2, 0): 2.0}
    # a weight function, evaluated once per arc
    W = nx.Graph([(0, 1, {"w": 3}), (1, 2, {"w": 1}), (0, 2, {"w": 5})])
    close(nx.betweenness_centrality(W, weight=lambda u, v, d: d["w"], backend=B),
          nx.betweenness_centrality(W, weight=lambda u, v, d: d["w"]))
    # disconnected: NetworkX's error and message
    D = nx.Graph([(0, 1), (2, 3)])
    with pytest.raises(nx.NetworkXError, match="the graph is not connected"):
        nx.eccentricity(D, backend=B)
    with pytest.raises(nx.NetworkXError, match="the digraph is not strongly connected"):
        nx.diameter(nx.DiGraph([(0, 1)]), backend=B)
    assert nx.eccentricity(nx.DiGraph([(0, 1), (1, 2), (2, 0), (3, 0)]), v=3, backend=B) == 3
    # float eccentricities keep NetworkX's int 0 for a lone node
    assert type(nx.eccentricity(nx.Graph([(0, 0, {"weight": 0.5})]), weight="weight", backend=B)[0]) is int
    # harmonic: nodes nobody reaches are NetworkX's int 0
    assert nx.harmonic_centrality(nx.DiGraph([(0, 1)]), backend=B) == {0: 0, 1: 1.0}
    # the null graph: NetworkX's tree test speaks first for center
    with pytest.raises(nx.NetworkXPointlessConcept):
        nx.center(nx.Graph(), backend=B)
    assert nx.eccentricity(nx.Graph(), backend=B) == {} and nx.betweenness_centrality(nx.DiGraph(), backend=B) == {}
    # barycenter of an unweighted tree: NetworkX's centroid order
    T = nx.Graph([(3, 2), (2, 1), (1, 0)])
    assert nx.barycenter(T, backend=B) == nx.barycenter(T) == [2, 1]


@pytest.mark.parametrize("kw, reason", [
    ({"k": 0}, "k outside"), ({"k": 5}, "k outside"), ({"k": True}, "k outside"),
    ({"k": 2, "seed": 1.5}, "a seed of type float"),
])
def test_can_run_refuses_sampling_networkx_decides(kw, reason):
    from graphs.nx_backend.interface import backend_interface

    G = nx.path_graph(4)
    assert reason in backend_interface.can_run("betweenness_centrality", (G,), kw)


def test_can_run_refuses_networkx_bookkeeping():
    from graphs.nx_backend.interface import backend_interface as bi

    G = nx.path_graph(4)
    assert "usebounds" in bi.can_run("diameter", (G,), {"usebounds": True})
    assert bi.can_run("diameter", (nx.DiGraph(G),), {"usebounds": True}) is True  # NetworkX ignores it there
    assert "sp" in bi.can_run("eccentricity", (G,), {"sp": {}})
    assert "attr" in bi.can_run("barycenter", (G,), {"attr": "b"})
    assert "unhashable" in bi.can_run("harmonic_centrality", (G,), {"nbunch": [[0]]})
    assert bi.can_run("closeness_centrality", (G,), {"distance": lambda u, v, d: 1}) is True


def test_refused_weights_raise_not_implemented():
    for w in (0, -1, float("inf"), float("nan")):
        H = convert_from_nx(nx.Graph([(0, 1, {"weight": w}), (1, 2, {"weight": 1})]), edge_attrs={"weight": 1})
        with pytest.raises(NotImplementedError):
            C.betweenness_centrality(H, weight="weight")
    # a float weight that a path length may absorb (1 + 2**-60 == 1)
    H = convert_from_nx(nx.Graph([(0, 1, {"weight": 1.0}), (1, 2, {"weight": 2.0**-60})]), edge_attrs={"weight": 1})
    with pytest.raises(NotImplementedError, match="absorb"):
        C.betweenness_centrality(H, weight="weight")
    # the random state is not consumed by a call that goes back
    r = random.Random(5)
    state = r.getstate()
    with pytest.raises(NotImplementedError):
        C.betweenness_centrality(convert_from_nx(nx.Graph([(0, 1, {"weight": 0})]), edge_attrs={"weight": 1}),
                                 k=1, weight="weight", seed=r)
    assert r.getstate() == state
