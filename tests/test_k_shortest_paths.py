"""graphs.k_shortest_paths (Yen), graphs.csgraph.yen and the CLI: against NetworkX, a brute-force enumeration and SciPy's yen.

The 200 held-out graphs are drawn from a seed used nowhere else; the
brute-force reference enumerates every simple path (NetworkX's
``all_simple_paths``) and sorts them by (length, vertex sequence), the order
the function documents for positive weights.
"""

from __future__ import annotations

import io
import itertools
import json
import math
from contextlib import redirect_stdout

import networkx as nx
import numpy as np
import pytest
import scipy.sparse as sp
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.sparse.csgraph import yen as scipy_yen

import graphs
from graphs import Graph, k_shortest_paths
from graphs import csgraph as gcs
from graphs.errors import GraphError, VertexError, VertexTypeError
from graphs.paths.k_shortest import AStarSpurs, YenSearch

HELD_OUT_SEED = 77_2031


def _arc_min(src, dst, w, directed: bool) -> dict:
    """``{(u, v): least weight}`` of the arcs (both ways when undirected), self loops left out."""
    out: dict = {}
    for u, v, c in zip(src, dst, w):
        for a, b in ([(u, v)] if directed else [(u, v), (v, u)]):
            if a != b:
                out[(a, b)] = min(out.get((a, b), math.inf), c)
    return out


def _nx_graph(n: int, arcs: dict, directed: bool):
    H = nx.DiGraph() if directed else nx.Graph()
    H.add_nodes_from(range(n))
    for (u, v), c in arcs.items():
        H.add_edge(u, v, weight=c)
    return H


def _check_paths(found, arcs: dict, s: int, t: int, hops: bool) -> None:
    """Every path simple, from ``s`` to ``t``, weighing its distance exactly; no path twice; lengths sorted."""
    seen = set()
    for r in found:
        p = r.path
        assert p[0] == s and p[-1] == t and len(set(p)) == len(p)
        assert tuple(p) not in seen
        seen.add(tuple(p))
        length = len(p) - 1 if hops else sum(arcs[(u, v)] for u, v in zip(p, p[1:]))
        assert r.distance == length and r.method == "yen"
    assert [r.distance for r in found] == sorted(r.distance for r in found)


def _case(rng: np.random.Generator, i: int):
    """Held-out case ``i``: kinds rotate through directed / undirected, ties, parallel arcs, zero weights,
    unreachable targets, hop counts and integer dtypes; ``k`` often larger than the number of simple paths."""
    n = int(rng.integers(1, 9))
    directed = i % 2 == 0
    kind = (i // 2) % 6
    m = int(rng.integers(0, 3 * n + 1)) if kind != 4 else int(rng.integers(0, n))  # kind 4: sparse, often cut off
    src, dst = rng.integers(0, n, m), rng.integers(0, n, m)
    if kind == 1:  # parallel arcs: every arc again, with another weight
        src, dst = np.concatenate([src, src]), np.concatenate([dst, dst])
    if kind == 0:
        w = rng.integers(1, 3, src.size).astype(np.float64)  # many ties
    elif kind == 2:
        w = rng.integers(0, 3, src.size).astype(np.float64)  # zero weights
    elif kind == 5:
        w = rng.integers(1, 7, src.size).astype(np.int32)  # integer dtype
    else:
        w = rng.integers(1, 17, src.size) / 4.0  # exact binary fractions
    G = Graph.from_edges(src, dst, w, n=n, directed=directed)
    hops = kind == 3
    k = int(rng.integers(1, 25))
    s, t = int(rng.integers(n)), int(rng.integers(n))
    return G, src.tolist(), dst.tolist(), w.tolist(), directed, hops, s, t, k


def test_200_held_out_graphs_against_networkx_and_every_simple_path():
    rng = np.random.default_rng(HELD_OUT_SEED)
    kinds_short = 0
    for i in range(200):
        G, src, dst, w, directed, hops, s, t, k = _case(rng, i)
        arcs = _arc_min(src, dst, w, directed)
        H = _nx_graph(G.n, arcs, directed)
        found = k_shortest_paths(G, s, t, k, weighted=not hops)
        try:
            ref = list(itertools.islice(nx.shortest_simple_paths(H, s, t, weight=None if hops else "weight"), k))
        except nx.NetworkXNoPath:
            ref = []
        lengths = [len(p) - 1 if hops else sum(arcs[(u, v)] for u, v in zip(p, p[1:])) for p in ref]
        assert [r.distance for r in found] == lengths, i
        _check_paths(found, arcs, s, t, hops)
        dtype = np.dtype(np.float64) if hops else G.weights.dtype
        assert all(type(r.distance) is dtype.type for r in found)
        every = list(nx.all_simple_paths(H, s, t)) if s != t else [[s]]
        kinds_short += len(every) < k
        if hops or min(w, default=1) > 0:  # positive weights: exactly the first k in (length, sequence) order
            keyed = sorted((len(p) - 1 if hops else sum(arcs[(u, v)] for u, v in zip(p, p[1:])), p) for p in every)
            assert [(r.distance, r.path) for r in found] == keyed[:k], i
    assert kinds_short > 50  # k larger than the number of simple paths, often


@st.composite
def small_graphs(draw):
    n = draw(st.integers(1, 7))
    m = draw(st.integers(0, 18))
    src = draw(st.lists(st.integers(0, n - 1), min_size=m, max_size=m))
    dst = draw(st.lists(st.integers(0, n - 1), min_size=m, max_size=m))
    w = draw(st.lists(st.integers(1, 5), min_size=m, max_size=m))
    directed = draw(st.booleans())
    s, t = draw(st.integers(0, n - 1)), draw(st.integers(0, n - 1))
    return n, src, dst, w, directed, s, t


@settings(max_examples=60)
@given(small_graphs(), st.integers(1, 6), st.integers(0, 10))
def test_property_a_longer_list_extends_a_shorter_one(case, k1, more):
    n, src, dst, w, directed, s, t = case
    G = Graph.from_edges(src, dst, np.array(w, dtype=np.float64), n=n, directed=directed)
    short, long = k_shortest_paths(G, s, t, k1), k_shortest_paths(G, s, t, k1 + more)
    assert [(r.distance, r.path) for r in long[:k1]] == [(r.distance, r.path) for r in short]
    arcs = _arc_min(src, dst, w, directed)
    _check_paths(long, arcs, s, t, False)
    keys = [(r.distance, r.path) for r in long]
    assert keys == sorted(keys)


def test_bad_input_names_the_argument():
    G = Graph.from_edges([0, 1], [1, 2], [1.0, 2.0])
    with pytest.raises(GraphError, match="k must be at least 1, got 0"):
        k_shortest_paths(G, 0, 2, 0)
    with pytest.raises(GraphError, match="k must be at least 1"):
        k_shortest_paths(G, 0, 2, -3)
    for bad in (2.0, True, "3", None):
        with pytest.raises(TypeError, match="k must be an integer"):
            k_shortest_paths(G, 0, 2, bad)
    with pytest.raises(VertexError, match="target = 3 is not a vertex"):
        k_shortest_paths(G, 0, 3, 2)
    with pytest.raises(VertexTypeError, match="source must be a vertex id"):
        k_shortest_paths(G, 0.0, 2, 2)
    with pytest.raises(TypeError, match="weighted must be a bool"):
        k_shortest_paths(G, 0, 2, 2, weighted="yes")
    N = Graph.from_edges([0, 1], [1, 2], [1.0, -2.0])
    with pytest.raises(GraphError, match=r"weights must be non-negative .*weights\[1\] = -2.0 on the arc 1 -> 2"):
        k_shortest_paths(N, 0, 2, 2)
    assert [r.distance for r in k_shortest_paths(N, 0, 2, 2, weighted=False)] == [2.0]  # hops: the signs do not count
    with pytest.raises(GraphError, match="device must be"):
        k_shortest_paths(G, 0, 2, 2, device="tpu")


def test_labels_in_and_out_and_integer_weights_exact():
    H = nx.Graph()
    H.add_weighted_edges_from([("a", "b", 1), ("b", "d", 1), ("a", "c", 1), ("c", "d", 1), ("a", "d", 5)])
    found = k_shortest_paths(H, "a", "d", 5)
    assert [(r.distance, r.path) for r in found] == [(2, ["a", "b", "d"]), (2, ["a", "c", "d"]), (5, ["a", "d"])]
    assert all(type(r.distance) is np.int64 for r in found)
    with pytest.raises(VertexError, match="'e' is not a label"):
        k_shortest_paths(H, "a", "e", 1)
    big = np.iinfo(np.int32).max  # the int32 sentinel: a path that would reach it is not found
    G = Graph.from_edges([0, 1, 0], [1, 2, 2], np.array([2**30, 2**30 - 2, big - 1], dtype=np.int32))
    assert [(r.distance, r.path) for r in k_shortest_paths(G, 0, 2, 3)] == [(2**31 - 2, [0, 1, 2]), (big - 1, [0, 2])]
    G = Graph.from_edges([0, 1, 0], [1, 2, 2], np.array([2**30, 2**30 - 1, 5], dtype=np.int32))
    assert [r.path for r in k_shortest_paths(G, 0, 2, 3)] == [[0, 2]]


def test_unreachable_and_one_vertex_paths():
    G = Graph.from_edges([0, 2], [1, 3], [1.0, 1.0], n=4)
    assert k_shortest_paths(G, 0, 3, 4) == []
    assert [(r.distance, r.path) for r in k_shortest_paths(G, 2, 2, 4)] == [(0.0, [2])]
    assert k_shortest_paths(Graph.from_edges([], [], n=1), 0, 0, 2)[0].path == [0]


def _road_case(n: int, seed: int, pairs: int):
    G = graphs.generators.road_network(n, seed=seed)
    xy = np.asarray(G.coords)
    rng = np.random.default_rng(seed)
    far = [(int(np.argmin(xy.sum(1))), int(np.argmax(xy.sum(1))))]
    far += [tuple(int(v) for v in rng.choice(G.n, 2, replace=False)) for _ in range(pairs - 1)]
    return G, far


def test_a_renumbered_road_network_against_scipy_yen():
    G, pairs = _road_case(4500, 3, 2)  # deep and above RENUMBER_MIN: searched in reverse Cuthill-McKee order
    assert graphs.locality.renumbered(G.transpose()) is not None
    A = G.to_scipy()
    for s, t in pairs:
        found = k_shortest_paths(G, s, t, 6)
        np.testing.assert_array_equal([r.distance for r in found], scipy_yen(A, s, t, 6))
        arcs = {(int(u), int(v)): float(c) for u, v, c in zip(*G.edges())}
        _check_paths(found, arcs, s, t, False)


def test_the_engine_resumes_where_it_stopped():
    G, [(s, t)] = _road_case(600, 5, 1)
    Y = YenSearch(AStarSpurs(G, s, t))
    first = Y.take(3) + Y.take(4)
    again = k_shortest_paths(G, s, t, 7)
    assert [(float(d), p.tolist()) for d, p, _ in first] == [(float(r.distance), r.path) for r in again]


@pytest.mark.parametrize("fails", ["every", "odd"])
def test_searches_the_device_cannot_finish_are_run_again_on_the_cpu(monkeypatch, fails):
    """The device route's fallback (a route it cannot read back is searched again on the CPU), with a stand-in
    for the GPU batch that reports some of the round's searches as failed and the CPU's routes for the others."""
    import sys
    import types

    G, pairs = _road_case(800, 7, 3)
    s, t = pairs[0]
    here = AStarSpurs(G, s, t)
    calls = []

    class HalfDevice:
        def __init__(self, *args, **kwargs) -> None:
            pass

        def run(self, path, prefix, spurs, ban_ptr, ban_next, limit):
            done = here.run(path, prefix, spurs, ban_ptr, ban_next, limit)
            failed = [j for j in range(spurs.shape[0]) if fails == "every" or j % 2]
            calls.append(len(failed))
            return [item for item in done if item[0] not in failed], failed

    monkeypatch.setitem(sys.modules, "graphs.cuda.spur_search", types.SimpleNamespace(SpurBatch=HalfDevice))
    got = YenSearch(AStarSpurs(G, s, t, device="gpu"), k=30).take(30)
    ref = YenSearch(AStarSpurs(G, s, t), k=30).take(30)
    assert [(d, p.tolist(), c) for d, p, c in got] == [(d, p.tolist(), c) for d, p, c in ref]
    assert len(got) == 30 and sum(calls) > 10


def test_integer_paths_beyond_float64_stay_on_the_cpu(monkeypatch):
    """Integer weights whose path sums could pass 2**53 are never summed in the device's float64."""
    import sys
    import types

    class NoDevice:
        def __init__(self, *args, **kwargs) -> None:
            raise AssertionError("the device batch was built for weights it would round")

    monkeypatch.setitem(sys.modules, "graphs.cuda.spur_search", types.SimpleNamespace(SpurBatch=NoDevice))
    big = 2**52 + 1
    G = Graph.from_edges([0, 1, 0, 2], [1, 3, 2, 3], np.array([big, 1, big + 2, 2], dtype=np.int64))
    found = YenSearch(AStarSpurs(G, 0, 3, device="gpu"), k=3).take(3)
    assert [(int(d), p.tolist()) for d, p, _ in found] == [(big + 1, [0, 1, 3]), (big + 4, [0, 2, 3])]


# -- graphs.csgraph.yen: SciPy's function on this engine ----------------------------------------------------


def test_csgraph_yen_against_scipy_on_random_graphs():
    rng = np.random.default_rng(HELD_OUT_SEED + 1)
    compared = 0
    for i in range(120):
        n = int(rng.integers(2, 8))
        dense = rng.integers(-1 if i % 6 == 0 else 0, 5, (n, n)).astype(float)
        dense[rng.random((n, n)) < 0.5] = 0
        np.fill_diagonal(dense, 0)
        X = [dense, sp.csr_array(dense), sp.coo_matrix(dense)][i % 3]
        s, t, K = int(rng.integers(n)), int(rng.integers(n)), int(rng.integers(1, 8))
        kw = {"directed": bool(i % 2), "unweighted": i % 5 == 0, "return_predecessors": True}
        try:
            theirs = scipy_yen(X, s, t, K, **kw)
        except gcs.NegativeCycleError:
            with pytest.raises(graphs.NegativeCycleError):
                gcs.yen(X, s, t, K, **kw)
            continue
        except ValueError as err:  # SciPy's accident for source == sink on a graph of no edge (see the docstring)
            assert s == t and "Invalid shape" in str(err) and not np.count_nonzero(dense)
            np.testing.assert_array_equal(gcs.yen(X, s, t, K), [0.0])
            continue
        dist, pred = gcs.yen(X, s, t, K, **kw)
        np.testing.assert_allclose(dist, theirs[0], atol=1e-12)
        assert pred.dtype == np.int32 and pred.shape == theirs[1].shape
        A = dense if kw["directed"] else np.where((dense != 0) & (dense.T != 0), np.minimum(dense, dense.T),
                                                  dense + dense.T)
        for d, row in zip(dist, pred):  # each row is a simple path of that length
            v, total, hops = t, 0.0, 0
            while v != s:
                u = int(row[v])
                total += 1.0 if kw["unweighted"] else A[u, v]
                v, hops = u, hops + 1
                assert hops < n
            assert np.isclose(total, d)
        compared += 1
    assert compared > 80


def test_csgraph_yen_errors_and_edges_as_scipy():
    G = np.array([[0, 1, 2, 0], [0, 0, 0, 1], [2, 0, 0, 3], [0, 0, 0, 0]], dtype=float)
    for source, sink in [(0, -1), (10000, 1), (2, 6)]:
        with pytest.raises(ValueError, match="must have 0 <= source < N and 0 <= sink < N. Got N=4"):
            gcs.yen(G, source, sink, 2)
    with pytest.raises(ValueError, match="graph should be a square array"):
        gcs.yen(np.zeros((2, 3)), -1, 0, 2)
    with pytest.raises(ValueError, match="K must be at least 0"):
        gcs.yen(G, 0, 3, -1)
    with pytest.raises(TypeError, match="K must be an integer"):
        gcs.yen(G, 0, 3, 2.5)
    with pytest.raises(TypeError, match="source must be an integer"):
        gcs.yen(G, 1.5, 3, 2)
    d, p = gcs.yen(G, 0, 3, 0, return_predecessors=True)
    assert d.shape == (0,) and d.dtype == np.float64 and p.shape == (0, 4) and p.dtype == np.int32
    np.testing.assert_array_equal(gcs.yen(G, 0, 3, 10**12), [2.0, 5.0])  # SciPy would allocate 10**12 rows
    np.testing.assert_array_equal(gcs.yen(np.zeros((1, 1)), 0, 0, 1), [0.0])  # SciPy: "Invalid shape in axis 0"
    d, p = gcs.yen(G, 0, 0, 3, return_predecessors=True)
    np.testing.assert_array_equal(d, [0.0])
    assert (p == -9999).all()
    neg = np.array([[0, 3.0, 0], [0, 0, -2.0], [1.0, 0, 0]])
    np.testing.assert_allclose(gcs.yen(neg, 0, 2, 3), scipy_yen(neg, 0, 2, 3))


# -- the command line -----------------------------------------------------------------------------------------


def test_cli_paths_json_and_bad_k(capsys):
    from graphs.cli import main

    assert main(["paths", "--n", "300", "--seed", "1", "--source", "4", "--target", "250", "--k", "4", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    G = graphs.generators.road_network(300, seed=1)
    ref = k_shortest_paths(G, 4, 250, 4)
    assert out["command"] == "paths" and out["found"] == 4
    assert [(p["distance"], p["route"]) for p in out["paths"]] == [(float(r.distance), r.path) for r in ref]
    assert out["paths"][1]["leaves_first_at"] in ref[0].path
    assert main(["paths", "--n", "50", "--source", "1", "--target", "9", "--k", "2", "--hops", "--one-based"]) == 0
    text = capsys.readouterr().out
    assert "found      2 of 2 routes" in text and "leaves #1 at" in text
    assert main(["paths", "--n", "50", "--k", "0"]) == 2
    assert "k must be at least 1" in capsys.readouterr().err


def test_cli_text_shortens_long_routes():
    from graphs.cli import main

    buf = io.StringIO()
    with redirect_stdout(buf):
        assert main(["paths", "--n", "2000", "--source", "3", "--target", "1500", "--k", "2"]) == 0
    assert " -> ... -> " in buf.getvalue()
