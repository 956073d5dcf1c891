"""Conversion of NetworkX graphs to the semiring_paths backend: the fast paths give the reference's arrays.

``convert_from_nx`` takes shortcuts (nodes ``0 .. n-1`` in order read as
their own ids, one attribute read with ``dict.get`` straight off the
adjacency, predecessor lists read in one flat pass and matched to the arcs by
a kernel); each is checked here against an obviously correct reference that
walks ``G._adj`` / ``G._pred`` with a node -> index dict and ``d.get``, on
graphs whose labels, adjacency keys and edge data defeat the shortcuts
(adjacency keys of another type equal to an int node, node order unlike label
order, views, dict subclasses with their own ``get``, missing attributes).
"""

from __future__ import annotations

import gc

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

nx = pytest.importorskip("networkx")

from graphs.nx_backend.attributes import MISSING, as_value_array  # noqa: E402
from graphs.nx_backend.convert import build_nx, convert_from_nx  # noqa: E402
from graphs.nx_backend.graph import paused_gc  # noqa: E402

SETTINGS = settings(max_examples=80, deadline=None, suppress_health_check=list(HealthCheck))
VALUES = st.one_of(st.integers(-5, 50), st.sampled_from([2**63, -(2**63) - 1, 2**70]),
                   st.floats(-10, 10, allow_nan=False), st.sampled_from([float("inf"), True, None]))


class GetDict(dict):
    """Edge data whose ``get`` is its own (NetworkX calls it; so must the backend)."""

    def get(self, key, default=None):
        return 7 if key == "weight" else super().get(key, default)


class GetGraph(nx.Graph):
    edge_attr_dict_factory = GetDict


def reference(G, attrs: dict):
    """``(nodes, src, dst, {attr: values}, {attr: missing mask})`` by the definition: G._adj in order, d.get."""
    nodes = list(G)
    index = {v: i for i, v in enumerate(nodes)}
    src, dst, data = [], [], []
    for u, nbrs in G._adj.items():
        for v, d in nbrs.items():
            src.append(index[u])
            dst.append(index[v])
            data.append(d)
    values, missing = {}, {}
    for attr, default in attrs.items():
        raw = [d.get(attr, MISSING) for d in data]
        missing[attr] = [v is MISSING for v in raw]
        values[attr] = as_value_array([default if v is MISSING else v for v in raw])
    return nodes, src, dst, values, missing


def reference_pred(G, nodes):
    """Per head (node order) the tails in ``G._pred`` order."""
    index = {v: i for i, v in enumerate(nodes)}
    return [[index[u] for u in G._pred[v]] for v in nodes]


@st.composite
def graphs(draw, directed=None):
    directed = draw(st.booleans()) if directed is None else directed
    n = draw(st.integers(0, 8))
    labels = draw(st.sampled_from(["range", "range shuffled", "range, float keys", "strings", "range, one extra"]))
    cls = draw(st.sampled_from([nx.DiGraph] if directed else [nx.Graph, GetGraph]))
    G = cls()
    names = [f"v{i}" for i in range(n)] if labels == "strings" else list(range(n))
    if labels == "range shuffled":
        names = draw(st.permutations(names))
    G.add_nodes_from(names)
    if labels == "range, one extra" and n:
        G.remove_node(0)
        G.add_node(0)  # the labels 0..n-1, but not in order
    for u, v, w in draw(st.lists(st.tuples(st.integers(0, max(n - 1, 0)), st.integers(0, max(n - 1, 0)),
                                           VALUES | st.just(MISSING)), max_size=3 * n)) if n else []:
        a, b = names[u] if labels == "strings" else u, names[v] if labels == "strings" else v
        if labels == "range, float keys":
            b = float(b)  # equal to the int node b: a new adjacency key of another type
        G.add_edge(a, b)
        if w is not MISSING:
            G[a][b]["weight"] = w
    return G


def _same_values(a: np.ndarray, b: np.ndarray) -> bool:
    return a.dtype == b.dtype and [type(x) for x in a.tolist()] == [type(x) for x in b.tolist()] and (
        str(a.tolist()) == str(b.tolist()))


@SETTINGS
@given(graphs(), st.sampled_from([{}, {"weight": 1}, {"weight": 1.5}, {"weight": 1, "other": None}]),
       st.booleans())
def test_conversion_matches_the_reference(G, attrs, keep):
    nodes, src, dst, values, missing = reference(G, attrs)
    H = convert_from_nx(G, edge_attrs=attrs, preserve_edge_attrs=keep)
    assert H.nodes == nodes
    assert H.src.tolist() == src and H.dst.tolist() == dst
    for attr in attrs:
        got, info = H.column(attr)
        assert _same_values(got, values[attr]), (attr, got, values[attr])
        assert info.missing == any(missing[attr])
        if info.missing:
            assert info.missing_at.tolist() == missing[attr]
        else:
            assert info.missing_at is None
    assert [H.nodes[i] for i in range(len(nodes))] == nodes
    assert H.labels(np.arange(len(nodes))) == nodes
    for v in nodes:
        assert H.index[v] == nodes.index(v)
    if keep:  # a column read later (from the kept edge data) is the one converted at once
        got, info = H.column("weight")
        ref = reference(G, {"weight": attrs.get("weight", 1)})[3]["weight"]
        assert _same_values(got, ref)
        arcs = np.flatnonzero(H.dst >= H.src)  # the selection's values, typed by themselves
        ref = reference(G, {"weight": 1})[3]["weight"]
        want = as_value_array(ref[arcs].tolist())
        assert _same_values(convert_from_nx(G, preserve_edge_attrs=True).column_at("weight", arcs), want)


@SETTINGS
@given(graphs(directed=True))
def test_predecessor_order_and_arcs_match_the_reference(G):
    H = convert_from_nx(G)
    indptr, tails, arcs = H.pred_csr()
    want = reference_pred(G, H.nodes)
    got = [tails[indptr[h]:indptr[h + 1]].tolist() for h in range(len(H))]
    assert got == want
    # every entry's arc is the arc tail -> head
    heads = np.repeat(np.arange(len(H)), np.diff(indptr))
    assert H.src[arcs].tolist() == tails.tolist() and H.dst[arcs].tolist() == heads.tolist()
    assert sorted(arcs.tolist()) == list(range(H.src.size))
    ip2, t2, none = convert_from_nx(G).pred_csr(arcs=False)
    assert none is None and ip2.tolist() == indptr.tolist() and t2.tolist() == tails.tolist()


def test_a_view_and_a_dict_subclass_take_the_general_path():
    G = nx.path_graph(5)
    nx.set_edge_attributes(G, 2, "weight")
    V = nx.subgraph_view(G, filter_edge=lambda u, v: {u, v} != {1, 2})
    H = convert_from_nx(V, edge_attrs={"weight": 1})
    assert H.src.tolist() == [0, 1, 2, 3, 3, 4] and H.dst.tolist() == [1, 0, 3, 2, 4, 3]
    assert H.values["weight"].tolist() == [2] * 6
    nodes, src, dst, values, _ = reference(V, {"weight": 1})
    assert (H.nodes, H.src.tolist(), H.dst.tolist()) == (nodes, src, dst)
    S = GetGraph([(0, 1, {"weight": 3})])
    assert convert_from_nx(S, edge_attrs={"weight": 1}).values["weight"].tolist() == [7, 7]  # its own get()
    assert convert_from_nx(S, preserve_edge_attrs=True).column("weight")[0].tolist() == [7, 7]


@pytest.mark.parametrize("cls", [nx.Graph, nx.DiGraph, nx.MultiGraph])
def test_build_nx_is_add_nodes_then_add_edges(cls):
    node_data = [{"a": 1}, {}, {"b": [2]}]
    datas = [{"w": 1}, {"w": 2, "x": 3}, {}, {"w": 4}]
    us, vs = [0, 1, 2, 1], [1, 2, 2, 0]
    want = cls()
    want.graph["g"] = 1
    want.add_nodes_from(zip(["p", "q", "r"], node_data))
    want.add_edges_from(zip([["p", "q", "r"][i] for i in us], [["p", "q", "r"][j] for j in vs], datas))
    got = build_nx(cls, {"g": 1}, ["p", "q", "r"], node_data, [["p", "q", "r"][i] for i in us],
                   [["p", "q", "r"][j] for j in vs], datas)
    assert type(got) is cls and got.graph == want.graph
    assert list(got.nodes(data=True)) == list(want.nodes(data=True))
    assert list(got.edges(data=True)) == list(want.edges(data=True))
    assert got._adj == want._adj
    if cls is nx.DiGraph:
        assert got._pred == want._pred
    got.nodes["p"]["a"] = 9  # copies, not the caller's dicts
    assert node_data[0] == {"a": 1}
    if cls is nx.Graph:
        got["p"]["q"]["w"] = 9
        assert datas[0] == {"w": 1} and got["q"]["p"]["w"] == 9  # one dict for both directions, as NetworkX


def test_paused_gc_restores_the_collector():
    assert gc.isenabled()
    with pytest.raises(RuntimeError), paused_gc():
        assert not gc.isenabled()
        raise RuntimeError
    assert gc.isenabled()
    gc.disable()
    try:
        with paused_gc():
            pass
        assert not gc.isenabled()  # left as it was
    finally:
        gc.enable()


def test_backend_functions_leave_the_collector_on():
    G = nx.gnm_random_graph(50, 200, seed=1, directed=True)
    nx.single_source_shortest_path(G, 0, backend="semiring_paths")
    with pytest.raises(nx.NodeNotFound):
        nx.single_source_shortest_path(G, -1, backend="semiring_paths")
    assert gc.isenabled()
